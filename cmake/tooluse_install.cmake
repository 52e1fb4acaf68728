include(CMakePackageConfigHelpers)
get_property(modules GLOBAL PROPERTY TOOLUSE_MODULES)

# tooluse::tooluse, the one target users link: every module.
add_library(tooluse_all INTERFACE)
add_library(tooluse::tooluse ALIAS tooluse_all)
set_target_properties(tooluse_all PROPERTIES EXPORT_NAME tooluse)
target_link_libraries(tooluse_all INTERFACE ${modules})

install(DIRECTORY include/tooluse DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
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
