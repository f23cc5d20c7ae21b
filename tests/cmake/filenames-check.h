// SPDX-License-Identifier: GPL-3.0-or-later
// A header lint_file_names_check_works feeds to tests/cmake/filenames.cmake: its class is not
// the file's name, so the check must fail and name it. Not compiled.
#pragma once

class NotTheFileName
{ };
