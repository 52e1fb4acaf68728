# tooluse_module(NAME name DEPS <targets> [PRIVATE_DEPS <targets>])
# Declares the static library tooluse_<name> (alias tooluse::<name>) from every .cpp under
# src/<name>/. DEPS are the only modules and packages it may use: a forbidden include fails
# at build time, which keeps the module graph one-way (design/design.md).
set(TOOLUSE_WARNINGS -Wall -Wextra -Wpedantic -Wno-missing-field-initializers)

function(tooluse_apply_flags target)
  target_compile_options(${target} PRIVATE ${TOOLUSE_WARNINGS})
  if(TOOLUSE_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(TOOLUSE_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=${TOOLUSE_SANITIZE} -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=${TOOLUSE_SANITIZE})
  endif()
endfunction()

set_property(GLOBAL PROPERTY TOOLUSE_MODULES "")

function(tooluse_module)
  cmake_parse_arguments(M "" "NAME" "DEPS;PRIVATE_DEPS" ${ARGN})
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  set(target tooluse_${M_NAME})
  add_library(${target} STATIC ${srcs})
  add_library(tooluse::${M_NAME} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${M_NAME} OUTPUT_NAME tooluse_${M_NAME})
  target_include_directories(${target}
    PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
    PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(${target} PUBLIC ${M_DEPS} PRIVATE ${M_PRIVATE_DEPS})
  tooluse_apply_flags(${target})
  set_property(GLOBAL APPEND PROPERTY TOOLUSE_MODULES ${target})
endfunction()

# tooluse_test(NAME name DEPS <targets>): one GoogleTest executable from tests/unit/<name>/*.cpp
function(tooluse_test)
  cmake_parse_arguments(T "" "NAME;DIR" "DEPS;LABELS" ${ARGN})
  if(NOT T_DIR)
    set(T_DIR ${CMAKE_CURRENT_SOURCE_DIR}/${T_NAME})
  endif()
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${T_DIR}/*.cpp)
  if(NOT srcs)
    return()
  endif()
  set(target tooluse_${T_NAME}_tests)
  add_executable(${target} ${srcs})
  target_link_libraries(${target} PRIVATE ${T_DEPS} GTest::gtest GTest::gtest_main Threads::Threads)
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/tests ${PROJECT_SOURCE_DIR}/src)
  target_compile_definitions(${target} PRIVATE
    TOOLUSE_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    TOOLUSE_SHARED_DIR="${TOOLUSE_SHARED_DIR}"
    TOOLUSE_CLI_PATH="$<TARGET_FILE:tooluse_cli>")
  tooluse_apply_flags(${target})
  set(labels unit ${T_LABELS})
  gtest_discover_tests(${target} DISCOVERY_TIMEOUT 60 PROPERTIES LABELS "${labels}"
                       ENVIRONMENT "TOOLUSE_SHARED_DIR=${TOOLUSE_SHARED_DIR}")
endfunction()
