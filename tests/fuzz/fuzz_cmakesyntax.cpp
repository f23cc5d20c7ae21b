// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/cmakesyntax.h"
#include "tests/fuzz/fuzzinput.h"

namespace {

using kf::fuzz::FuzzInput;

// CMake text from the pieces the checker tells apart: commands and block commands in any
// case, nested and unbalanced parentheses, quotes with escapes and line breaks, bracket
// arguments and comments with and without their closing, stray words and parentheses.
QByteArray cmake(FuzzInput& in)
{
    QByteArray out;
    const int pieces = in.below(60);
    for (int i = 0; i < pieces; ++i) {
        out += in.pick({ "if(", "IF (", "elseif(", "else(", "endif(", "foreach(", "endforeach(", "while(", "endwhile(",
            "function(", "endfunction(", "macro(", "endmacro(", "block(", "endblock(", "set(", "message(", "x", "(",
            ")", ")", "\"", "\\\"", "\\", "[[", "]]", "[==[", "]==]", "#", "#[[", "#[=[", "]=]", "\n", "\r\n", " ",
            "\t", "${A}", "$<IF:a,b>", "=", "stray " });
        if (in.chance(10))
            out += in.raw(8);
    }
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    (void)kf::patch::checkCMakeSyntax(QString::fromUtf8(reinterpret_cast<const char*>(data), qsizetype(size)));
    FuzzInput in(data, size);
    (void)kf::patch::checkCMakeSyntax(QString::fromUtf8(cmake(in)));
    return 0;
}
