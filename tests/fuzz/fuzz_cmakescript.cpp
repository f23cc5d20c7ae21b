// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The CMake reader (core/util/cmakescript.h) and the command anchors that use it
// (core/patch/edits.h): the raw bytes, then a CMake-like document built from them (calls
// with quoted, bracket, legacy and nested arguments, line and bracket comments anywhere),
// each parsed and edited with a wrap, a replace and an insert anchored on a command.
#include "core/patch/edits.h"
#include "core/util/cmakescript.h"
#include "tests/fuzz/fuzzinput.h"

#include <cstdlib>

namespace {

using kf::fuzz::FuzzInput;

QByteArray equalsSigns(FuzzInput& in)
{
    return QByteArray(in.below(3), '=');
}

QByteArray argument(FuzzInput& in)
{
    switch (in.below(9)) {
    case 0: return "\"" + in.pick({ "a b", "x ) # (y", "multi\nline", "\\\"q\\\"", "" }) + "\"";
    case 1: {
        const QByteArray eq = equalsSigns(in);
        return "[" + eq + "[" + in.pick({ "x", "]] )", "(", "" }) + "]" + eq + "]";
    }
    case 2: return "-Dy=\"c d\"";
    case 3: return "(";
    case 4: return ")";
    case 5: return in.pick({ "SET", "CMP0169", "CMP0177", "OLD", "NEW", "${PROJECT_SOURCE_DIR}/include", "ON" });
    case 6: return "#" + in.pick({ "", " (c)", "[[ (b) ]]", "[=[ ]] ]=]" }) + "\n";
    case 7: return in.raw(6);
    default: return in.pick({ "a\\ b", "e\\\nf", "${X}/cccl" });
    }
}

QByteArray document(FuzzInput& in)
{
    QByteArray out;
    const int commands = in.below(12);
    for (int c = 0; c < commands; ++c) {
        if (in.chance(20))
            out += "#" + in.pick({ " note (x)", "[[ a\n(b) ]]", "[==[ ]] ]==]", "" }) + kf::fuzz::lineEnd(in);
        out += in.pick({ "", "  ", "\t" });
        out += in.pick({ "cmake_policy", "include_directories", "set", "option", "if", "endif", "foreach", "endforeach",
            "Set", "x" });
        out += in.pick({ "(", " (", "\n(" });
        const int args = in.below(8);
        for (int a = 0; a < args; ++a)
            out += in.pick({ " ", "\n  ", "\t" }) + argument(in);
        if (in.chance(90))
            out += ")";
        if (in.chance(30))
            out += " # (trailing)";
        out += kf::fuzz::lineEnd(in);
    }
    if (in.chance(10))
        out += in.raw(20);
    return out;
}

void check(const QString& text)
{
    const kf::CMakeScript s = kf::parseCMakeScript(text);
    for (const auto& c : s.commands) {
        if (c.begin < 0 || c.end <= c.begin || c.end > text.size() || c.line > c.endLine || c.blockDepth < 0)
            std::abort();
        for (const auto& a : c.arguments)
            if (a.begin < c.begin || a.end > c.end || a.end < a.begin)
                std::abort();
    }
    for (const auto& m : s.comments)
        if (m.begin < 0 || m.end < m.begin || m.end > text.size())
            std::abort();
    using kf::patch::Edit;
    Edit wrap;
    wrap.kind = Edit::Wrap;
    wrap.match.command
        = kf::patch::CommandPattern { QStringLiteral("cmake_policy"), { { QStringLiteral("SET"), {} } } };
    wrap.before = QStringLiteral("if(POLICY \\2)");
    wrap.after = QStringLiteral("endif()");
    Edit replace = wrap;
    replace.kind = Edit::Replace;
    replace.match.command->name = QStringLiteral("set");
    replace.with = QStringLiteral("if(NOT U)\n  set(\\1 \\2 \\9)\nendif()");
    Edit insert = wrap;
    insert.kind = Edit::InsertAfter;
    insert.match.command->name = QStringLiteral("include_directories");
    insert.match.command->topLevel = true;
    insert.text = QStringLiteral("include_directories(${X}/cccl)\n");
    for (const Edit& e : { wrap, replace, insert }) {
        QString t = text;
        const auto o = kf::patch::applyEdit(e, &t);
        if (o.kind == kf::patch::EditOutcome::Changed) {
            QString again = t;
            (void)kf::patch::applyEdit(e, &again);
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    check(QString::fromUtf8(reinterpret_cast<const char*>(data), qsizetype(size)));
    FuzzInput in(data, size);
    check(QString::fromUtf8(document(in)));
    return 0;
}
