# SPDX-License-Identifier: GPL-3.0-or-later
# Compiler settings shared by every KernelForge target (see docs/DESIGN.md).
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)

find_program(CCACHE_PROGRAM ccache)
if(CCACHE_PROGRAM AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER ${CCACHE_PROGRAM})
  message(STATUS "Using ccache: ${CCACHE_PROGRAM}")
endif()

# Applied to every target of ours through kf_apply_settings(). Tests (TEST) may build
# QStrings from string literals (readable data tables); production code may not.
function(kf_apply_settings target)
  cmake_parse_arguments(ARG "TEST" "" "" ${ARGN})
  if(NOT ARG_TEST)
    target_compile_definitions(${target} PRIVATE QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII)
  endif()
  target_compile_definitions(${target} PRIVATE
    QT_NO_CONTEXTLESS_CONNECT
    QT_USE_QSTRINGBUILDER QT_NO_FOREACH QT_NO_URL_CAST_FROM_STRING QT_NO_NARROWING_CONVERSIONS_IN_CONNECT
    KF_VERSION_STRING="${PROJECT_VERSION}")
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wno-missing-field-initializers)
  if(KF_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR})
endfunction()

# Fails the configure step if `target` links any of the forbidden libraries, directly or
# through its interface. core/ must stay GUI-free (docs/DESIGN.md).
function(kf_assert_no_link target)
  get_target_property(_libs ${target} LINK_LIBRARIES)
  get_target_property(_ilibs ${target} INTERFACE_LINK_LIBRARIES)
  foreach(_lib IN LISTS _libs _ilibs)
    foreach(_bad IN LISTS ARGN)
      if(_lib MATCHES "${_bad}")
        message(FATAL_ERROR "${target} must not link ${_lib}: core/ is GUI-free (docs/DESIGN.md)")
      endif()
    endforeach()
  endforeach()
endfunction()
