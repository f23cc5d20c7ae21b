# SPDX-License-Identifier: GPL-3.0-or-later
# ctest lint_clang_format: every C++ file of the tree is formatted as .clang-format says.
# cmake -DCLANG_FORMAT=<clang-format-14> -DSOURCE_DIR=<tree> -P clangformat.cmake
set(_files)
foreach(_dir app core ui tests)
  file(GLOB_RECURSE _found LIST_DIRECTORIES false "${SOURCE_DIR}/${_dir}/*.cpp" "${SOURCE_DIR}/${_dir}/*.h")
  list(APPEND _files ${_found})
endforeach()
list(LENGTH _files _count)
if(_count EQUAL 0)
  message(FATAL_ERROR "no C++ files found under ${SOURCE_DIR}")
endif()
execute_process(COMMAND "${CLANG_FORMAT}" --dry-run -Werror ${_files}
  WORKING_DIRECTORY "${SOURCE_DIR}" RESULT_VARIABLE _rc ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "${_err}\nNot formatted (above). Fix: clang-format-14 -i <file>...")
endif()
message(STATUS "${_count} files formatted")
