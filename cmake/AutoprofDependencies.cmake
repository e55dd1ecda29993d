# Finds LLVM and Clang 22, the CUDA toolkit and RapidJSON, and defines
# autoprof_link_clang(<target>) that links a target against Clang's tooling
# libraries, statically or through the shared libraries.

find_package(LLVM REQUIRED CONFIG
  HINTS /usr/lib/llvm-22/lib/cmake/llvm /usr/lib/llvm-22)
if(NOT LLVM_VERSION_MAJOR EQUAL 22)
  message(FATAL_ERROR "LLVM 22 is required, found ${LLVM_PACKAGE_VERSION} "
    "(set LLVM_DIR to /usr/lib/llvm-22/lib/cmake/llvm)")
endif()
find_package(Clang REQUIRED CONFIG
  HINTS "${LLVM_LIBRARY_DIR}/cmake/clang")
# LLVM_DEFINITIONS is one string of -D flags; CMake wants a list.
separate_arguments(AUTOPROF_LLVM_DEFINITIONS UNIX_COMMAND "${LLVM_DEFINITIONS}")
message(STATUS "Using LLVM ${LLVM_PACKAGE_VERSION} in ${LLVM_INSTALL_PREFIX}")

find_package(CUDAToolkit 13 REQUIRED)
get_filename_component(AUTOPROF_CUDA_PATH "${CUDAToolkit_BIN_DIR}" DIRECTORY)
message(STATUS "Using the CUDA toolkit in ${AUTOPROF_CUDA_PATH}")

find_path(RAPIDJSON_INCLUDE_DIR rapidjson/document.h REQUIRED)
# RapidJSON 1.1's GenericStringRef assigns to a const member, which newer
# Clang refuses even uninstantiated; the fuzz build (Clang) reads a copy
# whose assignment is deleted, as RapidJSON's later releases have it.
if(AUTOPROF_FUZZ)
  set(_fixed ${CMAKE_BINARY_DIR}/rapidjson-for-clang)
  file(COPY ${RAPIDJSON_INCLUDE_DIR}/rapidjson DESTINATION ${_fixed})
  file(READ ${_fixed}/rapidjson/document.h _doc)
  string(REPLACE
    "GenericStringRef& operator=(const GenericStringRef& rhs) { s = rhs.s; length = rhs.length; }"
    "GenericStringRef& operator=(const GenericStringRef& rhs) = delete;"
    _doc "${_doc}")
  file(WRITE ${_fixed}/rapidjson/document.h "${_doc}")
  set(RAPIDJSON_INCLUDE_DIR ${_fixed} CACHE PATH "RapidJSON, fixed for Clang" FORCE)
endif()

# Clang's resource directory (builtin and CUDA wrapper headers). The tool
# finds it at <bindir>/../lib/clang/<major>, so the build tree and the
# installation both hold a copy there.
set(AUTOPROF_CLANG_RESOURCE_DIR
  "${LLVM_LIBRARY_DIR}/clang/${LLVM_VERSION_MAJOR}")
if(NOT EXISTS "${AUTOPROF_CLANG_RESOURCE_DIR}/include/__clang_cuda_runtime_wrapper.h")
  message(FATAL_ERROR "Clang's resource headers are not in ${AUTOPROF_CLANG_RESOURCE_DIR}")
endif()

set(AUTOPROF_CLANG_LIBS
  clangTooling clangToolingCore clangFrontend clangDriver clangOptions
  clangSerialization clangParse clangSema clangAPINotes clangAnalysis
  clangAnalysisLifetimeSafety clangEdit clangASTMatchers clangAST clangLex clangBasic clangRewrite
  clangFormat clangToolingInclusions clangToolingInclusionsStdlib
  clangDependencyScanning clangSupport)

if(AUTOPROF_LINK_LLVM_STATIC)
  execute_process(
    COMMAND "${LLVM_TOOLS_BINARY_DIR}/llvm-config" --link-static --libfiles all
    OUTPUT_VARIABLE _llvm_archives OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "llvm-config --link-static failed")
  endif()
  separate_arguments(_llvm_archives UNIX_COMMAND "${_llvm_archives}")
  set(AUTOPROF_LLVM_ARCHIVES)
  foreach(_a ${_llvm_archives})
    if(EXISTS "${_a}")
      list(APPEND AUTOPROF_LLVM_ARCHIVES "${_a}")
    endif()
  endforeach()
  set(AUTOPROF_CLANG_ARCHIVES)
  foreach(_lib ${AUTOPROF_CLANG_LIBS})
    if(EXISTS "${LLVM_LIBRARY_DIR}/lib${_lib}.a")
      list(APPEND AUTOPROF_CLANG_ARCHIVES "${LLVM_LIBRARY_DIR}/lib${_lib}.a")
    endif()
  endforeach()
endif()

function(autoprof_link_clang target)
  target_include_directories(${target} SYSTEM PUBLIC
    ${LLVM_INCLUDE_DIRS} ${CLANG_INCLUDE_DIRS})
  target_compile_definitions(${target} PUBLIC ${AUTOPROF_LLVM_DEFINITIONS})
  if(NOT LLVM_ENABLE_RTTI)
    target_compile_options(${target} PUBLIC -fno-rtti)
  endif()
endfunction()

# Links an executable against Clang's tooling libraries and LLVM.
function(autoprof_link_clang_executable target)
  autoprof_link_clang(${target})
  if(AUTOPROF_LINK_LLVM_STATIC)
    target_link_libraries(${target} PRIVATE
      -Wl,--start-group ${AUTOPROF_CLANG_ARCHIVES} ${AUTOPROF_LLVM_ARCHIVES}
      -Wl,--end-group -Wl,--as-needed -lz -lzstd -lrt -ldl -lm -lpthread)
  else()
    target_link_libraries(${target} PRIVATE clang-cpp LLVM)
  endif()
endfunction()
