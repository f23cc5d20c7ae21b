// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The Python logical-line reader (core/patch/pythonlines.h) and the Python anchors on it: the
// raw bytes, then a Python-like document built from them (imports in brackets, strings of
// every quoting, comments, continuations, unbalanced brackets), each read and edited.
#include "core/patch/edits.h"
#include "core/patch/pythonlines.h"
#include "tests/fuzz/fuzzinput.h"

#include <cstdlib>

namespace {

using kf::fuzz::FuzzInput;

QByteArray piece(FuzzInput& in)
{
    switch (in.below(10)) {
    case 0: return in.pick({ "'", "\"", "'''", "\"\"\"", "r'\\''", "f\"{x}\"" });
    case 1: return in.pick({ "(", ")", "[", "]", "{", "}", "," });
    case 2: return "  # " + in.pick({ "(x", "noqa", "'" });
    case 3: return "\\\n";
    case 4: return kf::fuzz::lineEnd(in);
    case 5: return in.pick({ "try:", "except:", "except ImportError as e:", "raise ImportError(", "pass" });
    case 6: return in.pick({ "from sgl_kernel import (", "flash_ops", "from sgl_kernel import flash_ops" });
    case 7: return in.pick({ "    ", "\t", " " });
    case 8: return in.raw(5);
    default: return in.pick({ "\"Can not import FA3.\"", "x = 1", "FA3_AVAILABLE = False" });
    }
}

void check(const QString& text)
{
    const kf::patch::PythonLines p = kf::patch::readPythonLines(text);
    qsizetype previous = 0;
    for (const auto& l : p.lines) {
        if (l.begin < previous || l.end < l.begin || l.end > text.size() || l.firstLine > l.lastLine)
            std::abort();
        previous = l.end;
    }
    kf::patch::Edit e;
    e.kind = kf::patch::Edit::Replace;
    e.match.python = QStringList { QStringLiteral("try:"), QStringLiteral("from sgl_kernel import flash_ops"),
        QStringLiteral("except( .+)?:"), QStringLiteral("raise \\w*Error\\(.*\\)") };
    e.with = QStringLiteral("try:\n    import x\nexcept Exception:\n    x = None");
    QString t = text;
    (void)kf::patch::applyEdit(e, &t);
    e.kind = kf::patch::Edit::InsertAfter;
    e.text = QStringLiteral("y = 2\n");
    t = text;
    (void)kf::patch::applyEdit(e, &t);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    check(QString::fromUtf8(reinterpret_cast<const char*>(data), qsizetype(size)));
    FuzzInput in(data, size);
    QByteArray doc;
    const int pieces = in.below(40);
    for (int i = 0; i < pieces; ++i)
        doc += piece(in);
    check(QString::fromUtf8(doc));
    return 0;
}
