# SPDX-License-Identifier: GPL-3.0-or-later
# ctest lint_file_size: no C++ source file in core/ or ui/ is longer than MAX_LINES lines
# (docs/STYLE.md: a file that long holds more than one thing; split it by what it does).
# cmake -DSOURCE_DIR=<tree> -DMAX_LINES=900 -P filesize.cmake
set(_files)
foreach(_dir core ui)
  file(GLOB_RECURSE _found LIST_DIRECTORIES false "${SOURCE_DIR}/${_dir}/*.cpp" "${SOURCE_DIR}/${_dir}/*.h")
  list(APPEND _files ${_found})
endforeach()
list(LENGTH _files _count)
if(_count EQUAL 0)
  message(FATAL_ERROR "no C++ files found under ${SOURCE_DIR}/core or ${SOURCE_DIR}/ui")
endif()
set(_over)
foreach(_file IN LISTS _files)
  # file(STRINGS) skips empty lines; count newlines instead.
  file(READ "${_file}" _text)
  string(REGEX REPLACE "[^\n]" "" _newlines "${_text}")
  string(LENGTH "${_newlines}" _n)
  if(_n GREATER MAX_LINES)
    file(RELATIVE_PATH _rel "${SOURCE_DIR}" "${_file}")
    list(APPEND _over "${_rel}: ${_n} lines")
  endif()
endforeach()
if(_over)
  list(JOIN _over "\n  " _list)
  message(FATAL_ERROR "Over ${MAX_LINES} lines:\n  ${_list}\nSplit each by what it does (docs/STYLE.md).")
endif()
message(STATUS "${_count} files, none over ${MAX_LINES} lines")
