// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/hunkplacement.h"

namespace kf::patch {

PlacedHunks placeHunks(const PatchPlan& p, const QList<bool>& take, bool existedInPlan, FileText* file)
{
    const QList<PatchHunk>& hunks = p.patchHunks;
    PlacedHunks out;
    out.blocked = QList<bool>(hunks.size(), false);
    bool all = true;
    for (qsizetype h = 0; h < hunks.size(); ++h)
        all = all && take.value(h) && !hunks[h].inPlace;
    // The plan's own step, byte for byte, while everything before it was taken.
    if (all && file->exists == existedInPlan && file->text == p.textBefore) {
        file->text = p.textAfter;
        file->exists = !p.removesFile;
        out.placed = int(hunks.size());
        out.touched = true;
        return out;
    }
    const textdiff::TextLines before = textdiff::splitLines(p.textBefore);
    const textdiff::TextLines after = textdiff::splitLines(p.textAfter);
    textdiff::TextLines current = textdiff::splitLines(file->text);
    if (!file->exists || file->text.isEmpty())
        current.crlf = after.crlf;
    const QList<int> map = textdiff::lineMap(before.lines, current.lines);
    QStringList lines;
    int pos = 0;
    for (qsizetype h = 0; h < hunks.size(); ++h) {
        if (!take.value(h) || hunks[h].inPlace)
            continue;
        const textdiff::Placement at = textdiff::placeChange(hunks[h].change, map, int(current.lines.size()));
        // Deleting the file takes the whole planned text, nothing less.
        if (at.start < pos || (p.removesFile && before.lines != current.lines)) {
            out.blocked[h] = true;
            continue;
        }
        lines += current.lines.mid(pos, at.start - pos);
        lines += hunks[h].newLines;
        pos = at.start + at.count;
        ++out.placed;
    }
    lines += current.lines.mid(pos);
    if (out.placed == 0 && !hunks.isEmpty())
        return out;
    out.touched = true;
    if (p.removesFile) {
        file->exists = false;
        file->text.clear();
        return out;
    }
    // A change of the final line break belongs to the hunk at the end (or to the patch).
    textdiff::TextLines result = current;
    result.lines = lines;
    if (before.finalNewline != after.finalNewline) {
        qsizetype atEnd = -1;
        for (qsizetype h = 0; h < hunks.size(); ++h)
            if (hunks[h].change.oldStart + hunks[h].change.oldCount == before.lines.size())
                atEnd = h;
        const bool endLinedUp = before.lines.isEmpty() || map.last() == current.lines.size() - 1;
        if (endLinedUp && (atEnd < 0 || hunks[atEnd].inPlace || (take.value(atEnd) && !out.blocked[atEnd])))
            result.finalNewline = after.finalNewline;
    }
    file->text = textdiff::joinLines(result);
    file->exists = true;
    return out;
}

} // namespace kf::patch
