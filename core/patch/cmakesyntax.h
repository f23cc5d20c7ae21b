// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QString>

// Does a CMake file still have CMake's structure (pure, linear)? Checked as cmake-language(7)
// reads a file, without running anything:
//   - outside commands only blanks, comments (# to the end of the line, #[[ ]] / #[=[ ]=])
//     and command invocations: an identifier, blanks, "(" arguments ")";
//   - inside, parentheses nest and close, a quoted argument "..." ends ( \ escapes the next
//     character, also \" ), a bracket argument [[ ]] / [==[ ]==] ends, comments are allowed;
//   - block commands pair up, case-insensitively: if / elseif / else / endif, foreach /
//     endforeach, while / endwhile, function / endfunction, macro / endmacro, block / endblock.
// Nesting is bounded (parentheses 1000 deep, blocks 256): deeper is reported as a problem.
namespace kf::patch {

struct CMakeSyntax
{
    bool ok = true;
    int line = 0;    // 1-based, where the problem starts (the opening of what is not closed)
    QString message; // "if( opened at line 12 has no endif()"
};

CMakeSyntax checkCMakeSyntax(const QString& text);

} // namespace kf::patch
