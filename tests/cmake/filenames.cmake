# SPDX-License-Identifier: GPL-3.0-or-later
# ctest lint_file_names: a header in core/, ui/ or app/ that declares a class is named after one
# of its classes (docs/STYLE.md: one name per concept; the file is named after its class), so
# "where is FooBar" is answered by foobar.h. Headers of only structs and functions are free.
# cmake -DSOURCE_DIR=<tree> [-DEXTRA_HEADERS=a.h;b.h] -P filenames.cmake
set(_files ${EXTRA_HEADERS})
foreach(_dir core ui app)
  file(GLOB_RECURSE _found LIST_DIRECTORIES false "${SOURCE_DIR}/${_dir}/*.h")
  list(APPEND _files ${_found})
endforeach()
set(_bad)
set(_checked 0)
foreach(_file IN LISTS _files)
  file(READ "${_file}" _text)
  # Top-level definitions only: "class Name", optional final and bases, then "{" (forward
  # declarations end in ";", nested classes are indented).
  string(REGEX MATCHALL "\nclass[ \t]+[A-Za-z_][A-Za-z_0-9]*[ \t\n]*(final[ \t\n]*)?(:[^;{]*)?{" _defs "${_text}")
  if(NOT _defs)
    continue()
  endif()
  math(EXPR _checked "${_checked} + 1")
  get_filename_component(_base "${_file}" NAME_WE)
  set(_names)
  set(_match FALSE)
  foreach(_def IN LISTS _defs)
    string(REGEX REPLACE "^\nclass[ \t]+([A-Za-z_][A-Za-z_0-9]*).*" "\\1" _name "${_def}")
    list(APPEND _names ${_name})
    string(TOLOWER "${_name}" _lower)
    if(_lower STREQUAL _base)
      set(_match TRUE)
    endif()
  endforeach()
  if(NOT _match)
    file(RELATIVE_PATH _rel "${SOURCE_DIR}" "${_file}")
    list(JOIN _names ", " _list)
    list(APPEND _bad "${_rel}: declares ${_list}")
  endif()
endforeach()
if(_bad)
  list(JOIN _bad "\n  " _list)
  message(FATAL_ERROR "Headers not named after a class they declare:\n  ${_list}\n"
                      "Name the file after its class, or move the class into its own file (docs/STYLE.md).")
endif()
message(STATUS "${_checked} headers with classes, each named after one of them")
