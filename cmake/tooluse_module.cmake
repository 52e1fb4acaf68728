# tooluse_module(NAME name DEPS <targets> [PRIVATE_DEPS <targets>])
# Declares the static library tooluse_<name> (alias tooluse::<name>) from every .cpp under
# src/<name>/. DEPS are the only modules and packages it may use.
#
# A module is a folder: src/<name>/ holds its sources, its private headers (src/<name>/*.hpp,
# included as "<name>/x.hpp") and its public headers under src/<name>/include/tooluse/...
# (included as <tooluse/...>; mcp_client's are tooluse/mcp/client*.hpp, core's the top-level
# tooluse/*.hpp, schema's tooluse/describe.hpp).
#
# The build enforces the graph: a module compiles against its own include/ folder and, through
# the usage requirements of DEPS, those of the modules it declares, plus a private tree generated
# under <build>/modules/<name>/private (a symlink src/<name>, so "<name>/x.hpp" includes work and
# another module's do not). An include of a header of a module it did not declare fails with "No
# such file or directory" (design/design.md, §2). Targets that are not modules (the CLI, tests,
# examples) see every module's public headers (a tree of symlinks, <build>/modules/all/include)
# and include/ (the umbrella tooluse/tooluse.hpp), as an installed user does.
set(TOOLUSE_WARNINGS -Wall -Wextra -Wpedantic -Wno-missing-field-initializers)

function(tooluse_apply_flags target)
  target_compile_options(${target} PRIVATE ${TOOLUSE_WARNINGS})
  if(TOOLUSE_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(TOOLUSE_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=${TOOLUSE_SANITIZE} -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=${TOOLUSE_SANITIZE})
    # No redzones around globals: registering them cost every process of the test build
    # (thousands of tests, each a process, and the CLI they spawn) about 0.4 s at start. Heap
    # and stack checks stay; the clang fuzz build keeps checking globals (design/design.md, §8).
    if(TOOLUSE_SANITIZE MATCHES "address" AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      target_compile_options(${target} PRIVATE --param=asan-globals=0)
    elseif(TOOLUSE_SANITIZE MATCHES "address" AND CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
      target_compile_options(${target} PRIVATE "SHELL:-mllvm -asan-globals=0")
    endif()
  endif()
endfunction()

# tooluse_unity(target): compile the target's files in unity batches when TOOLUSE_UNITY_BUILD is on
# (design/build.md): each batch of TOOLUSE_UNITY_BATCH_SIZE files is one translation unit, so the
# headers are parsed and their templates instantiated once per batch. The rule this asks of the
# files of one target: no two define the same file-local name (an anonymous-namespace or static
# helper), and none opens a namespace to later files with `using namespace` at namespace scope.
# A clash is a compile error naming both definitions.
function(tooluse_unity target)
  cmake_parse_arguments(U "" "BATCH" "" ${ARGN})
  if(NOT U_BATCH)
    set(U_BATCH ${TOOLUSE_UNITY_BATCH_SIZE})
  endif()
  if(TOOLUSE_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${U_BATCH})
  endif()
endfunction()

# tooluse_test_code_flags(target): what sets the test tree's code apart from the library's under
# the sanitizers (TOOLUSE_TEST_UBSAN_POINTER_CHECKS). Every target that reuses the tests'
# precompiled header gets it through tooluse_test_headers(), and the header itself too, as GCC
# refuses a precompiled header made with other code-generation flags.
function(tooluse_test_code_flags target)
  if(TOOLUSE_SANITIZE MATCHES "undefined" AND NOT TOOLUSE_TEST_UBSAN_POINTER_CHECKS)
    target_compile_options(${target} PRIVATE -fno-sanitize=null,alignment)
  endif()
endfunction()

# tooluse_test_headers(target): a target of the test tree gets the tests' common headers and
# tests/tooluse_test_paths.hpp (TOOLUSE_SOURCE_DIR, TOOLUSE_CLI_PATH) without including them:
# from the precompiled header that tests/CMakeLists.txt makes (TOOLUSE_TEST_PCH), or else
# through `-include`. A precompiled header is used only if it is the first header a file reads,
# hence one mechanism or the other, never both.
function(tooluse_test_headers target)
  tooluse_test_code_flags(${target})
  if(TARGET tooluse_test_pch)
    target_precompile_headers(${target} REUSE_FROM tooluse_test_pch)
  else()
    target_compile_options(${target} PRIVATE -include tooluse_test_paths.hpp)
  endif()
endfunction()

set_property(GLOBAL PROPERTY TOOLUSE_MODULES "")
set(TOOLUSE_MODULE_TREES ${PROJECT_BINARY_DIR}/modules)

function(tooluse_module)
  cmake_parse_arguments(M "" "NAME" "DEPS;PRIVATE_DEPS" ${ARGN})
  if(M_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tooluse_module(${M_NAME}): unknown arguments ${M_UNPARSED_ARGUMENTS} "
                        "(public headers go under src/${M_NAME}/include/tooluse/)")
  endif()
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  set(target tooluse_${M_NAME})
  add_library(${target} STATIC ${srcs})
  add_library(tooluse::${M_NAME} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${M_NAME} OUTPUT_NAME tooluse_${M_NAME})
  set(tree ${TOOLUSE_MODULE_TREES}/${M_NAME})
  set(public ${CMAKE_CURRENT_SOURCE_DIR}/include)
  # A module sees its own headers; a module that links it sees them too (usage requirements, so
  # transitively through DEPS). Everything else in the build (the CLI, tests, examples) is not a
  # module and sees every module's public headers, as an installed user does.
  set_target_properties(${target} PROPERTIES TOOLUSE_MODULE ON)
  set(is_module "$<BOOL:$<TARGET_PROPERTY:TOOLUSE_MODULE>>")
  target_include_directories(${target}
    PRIVATE ${public} ${tree}/private
    INTERFACE "$<BUILD_INTERFACE:$<IF:${is_module},${public},${TOOLUSE_MODULE_TREES}/all/include>>"
              "$<BUILD_INTERFACE:$<$<NOT:${is_module}>:${PROJECT_SOURCE_DIR}/include>>"
              $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(${target} PUBLIC ${M_DEPS} PRIVATE ${M_PRIVATE_DEPS})
  tooluse_apply_flags(${target})
  tooluse_unity(${target})
  if(TOOLUSE_SANITIZE)
    # A sanitized static library needs the sanitizer runtime wherever it is linked, including a
    # program that uses the installed package (scripts/check_install.sh).
    target_link_options(${target} INTERFACE -fsanitize=${TOOLUSE_SANITIZE})
  endif()
  set_property(GLOBAL APPEND PROPERTY TOOLUSE_MODULES ${target})
  set_property(GLOBAL APPEND PROPERTY TOOLUSE_MODULE_NAMES ${M_NAME})
  set_property(GLOBAL PROPERTY TOOLUSE_MODULE_${M_NAME}_SRC ${CMAKE_CURRENT_SOURCE_DIR})
  set(mods "")
  foreach(d IN LISTS M_DEPS M_PRIVATE_DEPS)
    if(d MATCHES "^tooluse::(.+)$")
      list(APPEND mods ${CMAKE_MATCH_1})
    endif()
  endforeach()
  set_property(GLOBAL PROPERTY TOOLUSE_MODULE_${M_NAME}_DEPS "${mods}")
endfunction()

# The modules whose headers `name` may include: itself and its declared modules, transitively.
function(tooluse_module_closure name out)
  set(seen "")
  set(todo ${name})
  while(todo)
    list(POP_FRONT todo m)
    if(m IN_LIST seen)
      continue()
    endif()
    list(APPEND seen ${m})
    get_property(deps GLOBAL PROPERTY TOOLUSE_MODULE_${m}_DEPS)
    list(APPEND todo ${deps})
  endwhile()
  set(${out} ${seen} PARENT_SCOPE)
endfunction()

# Called once after every module is declared (src/CMakeLists.txt): lists each module's public
# headers (TOOLUSE_MODULE_<m>_OWNED, paths below tooluse/), builds the private trees and the tree
# of every public header that non-module targets see, and writes the module graph.
function(tooluse_finalize_modules)
  get_property(names GLOBAL PROPERTY TOOLUSE_MODULE_NAMES)
  # The trees: symlinks, so an edited header is seen without reconfiguring.
  file(REMOVE_RECURSE ${TOOLUSE_MODULE_TREES})
  set(all ${TOOLUSE_MODULE_TREES}/all/include/tooluse)
  foreach(m IN LISTS names)
    get_property(src GLOBAL PROPERTY TOOLUSE_MODULE_${m}_SRC)
    file(GLOB_RECURSE headers CONFIGURE_DEPENDS RELATIVE ${src}/include/tooluse ${src}/include/tooluse/*.hpp)
    list(SORT headers)
    foreach(h IN LISTS headers)
      get_property(owner GLOBAL PROPERTY TOOLUSE_HEADER_OWNER_${h})
      if(owner)
        message(FATAL_ERROR "tooluse/${h} is a public header of two modules, ${owner} and ${m}: "
                            "keep one (src/<module>/include/tooluse/${h})")
      endif()
      set_property(GLOBAL PROPERTY TOOLUSE_HEADER_OWNER_${h} ${m})
      get_filename_component(d ${all}/${h} DIRECTORY)
      file(MAKE_DIRECTORY ${d})
      file(CREATE_LINK ${src}/include/tooluse/${h} ${all}/${h} SYMBOLIC COPY_ON_ERROR)
    endforeach()
    set_property(GLOBAL PROPERTY TOOLUSE_MODULE_${m}_OWNED ${headers})
    file(MAKE_DIRECTORY ${TOOLUSE_MODULE_TREES}/${m}/private)
    file(CREATE_LINK ${src} ${TOOLUSE_MODULE_TREES}/${m}/private/${m} SYMBOLIC COPY_ON_ERROR)
  endforeach()
  tooluse_derive_module_order()
  tooluse_write_module_graph(${PROJECT_BINARY_DIR}/module_graph.md)
endfunction()

# The module order, derived from the DEPS (nobody keeps it by hand): each module's floor is 0 when
# it declares no module, else one more than the highest floor among the modules it declares; the
# order is by floor, then by name. A cycle is a configure error that names it. The result is the
# global property TOOLUSE_MODULE_ORDER (tests/CMakeLists.txt builds the unit tests in it).
function(tooluse_derive_module_order)
  get_property(names GLOBAL PROPERTY TOOLUSE_MODULE_NAMES)
  set(done "")
  set(max_floor 0)
  list(LENGTH names total)
  while(TRUE)
    list(LENGTH done n_done)
    if(n_done EQUAL total)
      break()
    endif()
    set(progress FALSE)
    foreach(m IN LISTS names)
      if(m IN_LIST done)
        continue()
      endif()
      get_property(deps GLOBAL PROPERTY TOOLUSE_MODULE_${m}_DEPS)
      set(floor 0)
      set(ready TRUE)
      foreach(d IN LISTS deps)
        if(NOT d IN_LIST names)
          message(FATAL_ERROR "module ${m} declares tooluse::${d}, which is not a module: "
                              "add src/${d}/CMakeLists.txt with tooluse_module(NAME ${d} ...) or drop it")
        endif()
        if(NOT d IN_LIST done)
          set(ready FALSE)
          break()
        endif()
        get_property(df GLOBAL PROPERTY TOOLUSE_MODULE_${d}_FLOOR)
        math(EXPR df1 "${df} + 1")
        if(df1 GREATER floor)
          set(floor ${df1})
        endif()
      endforeach()
      if(ready)
        set_property(GLOBAL PROPERTY TOOLUSE_MODULE_${m}_FLOOR ${floor})
        list(APPEND done ${m})
        set(progress TRUE)
        if(floor GREATER max_floor)
          set(max_floor ${floor})
        endif()
      endif()
    endforeach()
    if(NOT progress)
      set(left "")
      foreach(m IN LISTS names)
        if(NOT m IN_LIST done)
          get_property(deps GLOBAL PROPERTY TOOLUSE_MODULE_${m}_DEPS)
          string(REPLACE ";" ", " deps "${deps}")
          list(APPEND left "${m} (declares ${deps})")
        endif()
      endforeach()
      string(REPLACE ";" "; " left "${left}")
      message(FATAL_ERROR "the module graph has a cycle among: ${left}. The graph must be one-way: "
                          "move what both need into a lower module")
    endif()
  endwhile()
  set(order "")
  foreach(f RANGE ${max_floor})
    set(on_floor "")
    foreach(m IN LISTS names)
      get_property(mf GLOBAL PROPERTY TOOLUSE_MODULE_${m}_FLOOR)
      if(mf EQUAL f)
        list(APPEND on_floor ${m})
      endif()
    endforeach()
    list(SORT on_floor)
    list(APPEND order ${on_floor})
  endforeach()
  set_property(GLOBAL PROPERTY TOOLUSE_MODULE_ORDER ${order})
endfunction()

# The graph as the build declares it: one line per module, in the derived order, with its floor and
# the modules it declares (DEPS and PRIVATE_DEPS). scripts/module_graph.sh prints it;
# design/design.md quotes it and the test module_graph.design_doc checks that the quote is current.
function(tooluse_write_module_graph file)
  get_property(order GLOBAL PROPERTY TOOLUSE_MODULE_ORDER)
  set(text "")
  foreach(m IN LISTS order)
    get_property(deps GLOBAL PROPERTY TOOLUSE_MODULE_${m}_DEPS)
    get_property(floor GLOBAL PROPERTY TOOLUSE_MODULE_${m}_FLOOR)
    string(REPLACE ";" ", " deps_text "${deps}")
    string(LENGTH "${m}" ml)
    math(EXPR pad "12 - ${ml}")
    string(REPEAT " " ${pad} p)
    if(deps_text)
      string(APPEND text "${floor}  ${m}${p}──► ${deps_text}\n")
    else()
      string(APPEND text "${floor}  ${m}\n")
    endif()
  endforeach()
  file(WRITE ${file} "${text}")
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
  # TOOLUSE_SOURCE_DIR and TOOLUSE_CLI_PATH come from tooluse_test_support (tests/tooluse_test_paths.hpp).
  target_link_libraries(${target} PRIVATE tooluse_test_support)
  tooluse_apply_flags(${target})
  # Test files are compiled in batches too, larger ones (TOOLUSE_TEST_UNITY_BATCH_SIZE): a test
  # file's helpers live in an anonymous namespace nested in a namespace named after the file when
  # another file of the same executable uses the same names.
  tooluse_test_headers(${target})
  tooluse_unity(${target} BATCH ${TOOLUSE_TEST_UNITY_BATCH_SIZE})
  set(labels unit ${T_LABELS})
  gtest_discover_tests(${target} DISCOVERY_TIMEOUT 60 PROPERTIES LABELS "${labels}")
endfunction()
