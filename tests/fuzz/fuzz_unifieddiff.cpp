// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/textdiff.h"
#include "core/patch/unifieddiff.h"
#include "tests/fuzz/fuzzinput.h"

namespace {

using kf::fuzz::FuzzInput;

// Parses the text as a diff, then applies every file's hunks to `target` with every fuzz
// level (offsets, fuzz and rejections all run).
void parseAndApply(const QString& text, const kf::textdiff::TextLines& target)
{
    const kf::patch::UnifiedDiff diff = kf::patch::parseUnifiedDiff(text);
    (void)kf::patch::guessStripLevel(diff);
    for (const auto& file : diff.files) {
        (void)file.targetPath(1);
        for (int fuzz = 0; fuzz <= 3; ++fuzz)
            (void)kf::patch::applyHunks(target, file.hunks, fuzz);
    }
}

QByteArray bodyText(FuzzInput& in)
{
    return in.pick({ "a", "b", "c", "int x;", "", "}", "  return 0;", "caf\xc3\xa9" });
}

// A hunk header number: mostly small (so hunks apply), sometimes extreme.
QByteArray hunkNumber(FuzzInput& in)
{
    return in.chance(70) ? QByteArray::number(in.below(20)) : in.number();
}

// Diffs with crafted hunk headers (huge, INT_MAX-adjacent, zero, missing counts, counts
// that disagree with the body), git and plain file headers, "\ No newline" markers.
QByteArray diff(FuzzInput& in)
{
    QByteArray out;
    if (in.chance(20))
        out += "From 0123 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] x\n\n";
    const int files = 1 + in.below(3);
    for (int f = 0; f < files; ++f) {
        const QByteArray path = in.pick({ "x", "dir/y.c", "a/../z", "\"caf\\303\\251.txt\"", "" });
        if (in.chance(50)) {
            out += "diff --git a/" + path + " b/" + path + "\n";
            if (in.chance(20))
                out += in.pick({ "new file mode 100644\n", "deleted file mode 100644\n", "rename from x\nrename to y\n",
                    "Binary files a/x and b/x differ\n" });
        }
        out += in.chance(10) ? QByteArray("--- /dev/null") : "--- a/" + path;
        out += in.chance(10) ? QByteArray("\n+++ /dev/null\n") : "\n+++ b/" + path + "\n";
        const int hunks = in.below(5);
        for (int h = 0; h < hunks; ++h) {
            out += "@@ -" + hunkNumber(in);
            if (in.chance(80))
                out += "," + hunkNumber(in);
            out += " +" + hunkNumber(in);
            if (in.chance(80))
                out += "," + hunkNumber(in);
            out += in.pick({ " @@", " @@ int f()", "@@", " @" });
            out += kf::fuzz::lineEnd(in);
            const int lines = in.below(14);
            for (int l = 0; l < lines; ++l) {
                out += in.pick({ " ", " ", "-", "+", "\\", "" });
                out += in.chance(5) ? QByteArray(" No newline at end of file") : bodyText(in);
                out += kf::fuzz::lineEnd(in);
            }
        }
    }
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char*>(data), qsizetype(size));
    parseAndApply(text, kf::textdiff::splitLines(text));
    FuzzInput in(data, size);
    QByteArray original;
    const int lines = in.below(30);
    for (int l = 0; l < lines; ++l)
        original += bodyText(in) + "\n";
    const QByteArray patch = diff(in);
    parseAndApply(QString::fromUtf8(patch), kf::textdiff::splitLines(QString::fromUtf8(original)));
    return 0;
}
