include(CMakePackageConfigHelpers)
get_property(modules GLOBAL PROPERTY TOOLUSE_MODULES)

# tooluse::tooluse, the one target users link: every module.
add_library(tooluse_all INTERFACE)
add_library(tooluse::tooluse ALIAS tooluse_all)
set_target_properties(tooluse_all PROPERTIES EXPORT_NAME tooluse)
target_link_libraries(tooluse_all INTERFACE ${modules})

# Each module's public headers (src/<module>/include/tooluse/...) and the umbrella header.
foreach(m IN LISTS modules)
  get_target_property(src ${m} SOURCE_DIR)
  install(DIRECTORY ${src}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endforeach()
install(FILES include/tooluse/tooluse.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tooluse)
install(TARGETS ${modules} tooluse_all EXPORT tooluse-targets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS tooluse_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT tooluse-targets NAMESPACE tooluse:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tooluse)
configure_package_config_file(cmake/tooluseConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/tooluseConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tooluse)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/tooluseConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/tooluseConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/tooluseConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tooluse)
