// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

// Line and word differences between two texts (pure functions).
//
// Line diff: Myers' O((N+M)D) algorithm in its linear-space form (middle snake, divide and
// conquer) on interned line ids, after trimming the common prefix and suffix. Output is a
// list of runs (equal / delete / insert) covering both sides in order.
// Word diff: the same algorithm on tokens (runs of word characters, runs of blanks, single
// punctuation characters), giving the changed character ranges on each side.
// Unified output follows GNU diff -u: "@@ -l,s +l,s @@", context 3, "\ No newline at end of file".
namespace kf::textdiff {

// A text split into lines without terminators. finalNewline: the last line ended with a
// line break. crlf: the text used "\r\n" (decided by the first line break).
struct TextLines
{
    QStringList lines;
    bool finalNewline = true;
    bool crlf = false;
};
TextLines splitLines(const QString& text);
QString joinLines(const TextLines& lines);

struct Run
{
    enum Kind { Equal, Delete, Insert };
    Kind kind = Equal;
    int oldStart = 0; // index into old lines
    int newStart = 0; // index into new lines
    int length = 0;   // lines in this run (on the side(s) it touches)
};
QList<Run> diffLines(const QStringList& oldLines, const QStringList& newLines);

// A change region with its surrounding context, as in a unified diff.
struct Hunk
{
    int oldStart = 0; // 0-based first old line covered (context included)
    int oldCount = 0;
    int newStart = 0;
    int newCount = 0;
    QList<Run> runs; // runs inside the hunk, context clipped
};
QList<Hunk> groupHunks(const QList<Run>& runs, int context = 3);

// Pure change blocks (no context): the unit a reviewer accepts or rejects.
struct Change
{
    int oldStart = 0;
    int oldCount = 0;
    int newStart = 0;
    int newCount = 0;
};
QList<Change> changes(const QList<Run>& runs);
// The old text with only the accepted changes (accepted[i] for changes()[i]) taken from new.
QStringList mergeAccepted(const QStringList& oldLines, const QStringList& newLines, const QList<Change>& changes,
    const QList<bool>& accepted);

// Where each line of `from` is in `to` (-1: not there), by the equal runs of diffLines(from,
// to): for texts that differ only by changes elsewhere, every other line keeps its place.
QList<int> lineMap(const QStringList& from, const QStringList& to);

// Where change `c` (in the old text of `map`) lands in the text `map` leads to (of
// `targetSize` lines): its old lines there side by side, or for an insertion the gap between
// its neighbours while they are still neighbours. start -1: it has no such place there.
struct Placement
{
    int start = -1;
    int count = 0;
};
Placement placeChange(const Change& c, const QList<int>& map, int targetSize);

// GNU-style unified diff; empty when the texts are equal.
QString unifiedDiff(
    const QString& oldText, const QString& newText, const QString& oldName, const QString& newName, int context = 3);

struct Span
{
    int start = 0;
    int length = 0;
};
struct WordDiff
{
    QList<Span> oldChanged;
    QList<Span> newChanged;
};
WordDiff diffWords(const QString& oldLine, const QString& newLine);

} // namespace kf::textdiff
