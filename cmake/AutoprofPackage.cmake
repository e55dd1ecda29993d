# The package config `cmake --install` writes, so that a downstream project
# finds the installed tool with find_package(clang-autoprof CONFIG) and uses
# the imported targets clang-autoprof::clang-autoprof (the tool) and
# clang-autoprof::inject (the injection library). The files are relocatable:
# paths are computed from where the config file is.
include(CMakePackageConfigHelpers)
set(AUTOPROF_PACKAGE_DIR lib/cmake/clang-autoprof)
set(AUTOPROF_TREE_MODELS_DIR share/clang-autoprof/tree-models)
install(EXPORT clang-autoprofTargets
  NAMESPACE clang-autoprof::
  DESTINATION ${AUTOPROF_PACKAGE_DIR})
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/clang-autoprofConfig.cmake.in
  ${CMAKE_BINARY_DIR}/clang-autoprofConfig.cmake
  INSTALL_DESTINATION ${AUTOPROF_PACKAGE_DIR}
  PATH_VARS AUTOPROF_TREE_MODELS_DIR)
write_basic_package_version_file(
  ${CMAKE_BINARY_DIR}/clang-autoprofConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${CMAKE_BINARY_DIR}/clang-autoprofConfig.cmake
  ${CMAKE_BINARY_DIR}/clang-autoprofConfigVersion.cmake
  DESTINATION ${AUTOPROF_PACKAGE_DIR})
