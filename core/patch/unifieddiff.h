// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/patch/textdiff.h"

#include <QList>
#include <QString>
#include <QStringList>

// Unified diffs as people pass them around: `git diff`, `diff -u`, gists, `git format-patch`
// mails. Accepted shapes (anything else before the first "--- " is preamble and ignored):
//
//   From 1234abcd Mon Sep 17 00:00:00 2001        (format-patch: "Subject: [PATCH] ..." kept)
//   diff --git a/path b/path                      (optional; carries new/deleted/rename info)
//                                                 (git C-quotes unusual names: "a/caf\303\251.txt" with
//                                                  \t \n \" \\ and \NNN octal UTF-8 bytes; decoded here,
//                                                  in ---/+++ and in rename from/to too)
//   new file mode 100644 | deleted file mode 100644 | rename from X / rename to Y
//   index 83db48f..bf269f4 100644
//   --- a/path[\tTIMESTAMP]                        (/dev/null for a new file)
//   +++ b/path[\tTIMESTAMP]                        (/dev/null for a deleted file)
//   @@ -OLD[,COUNT] +NEW[,COUNT] @@[ section heading]
//   ' ' context, '-' removed, '+' added line; an empty line counts as empty context
//   \ No newline at end of file                   (applies to the line just above)
//   -- \n2.43.0                                    (mail signature, ends the patch)
//
// Lines may end in CRLF; the CR is dropped from the diff (the file's own style is kept
// when applying). Hunk line counts are checked against the header.
namespace kf::patch {

struct DiffHunk
{
    int oldStart = 0; // 1-based as in the header (0 for an empty side)
    int oldCount = 0;
    int newStart = 0;
    int newCount = 0;
    QString section;      // text after the second "@@"
    QStringList oldLines; // context + removed, in order
    QStringList newLines; // context + added, in order
    QList<char> kinds;    // ' ', '-', '+' per hunk body line (for display)
    QStringList bodyLines;
    bool oldNoNewlineAtEnd = false;
    bool newNoNewlineAtEnd = false;
    int leadingContext = 0;
    int trailingContext = 0;
    int sourceLine = 0; // 1-based line of the "@@" in the diff text
};

struct FileDiff
{
    QString oldPath; // as written, prefixes included; "/dev/null" for a new file
    QString newPath;
    bool isNew = false;
    bool isDeleted = false;
    bool isRename = false;
    bool isBinary = false;
    QList<DiffHunk> hunks;
    int sourceLine = 0;

    // The path to patch after removing `strip` leading components (like patch -pN);
    // new-file diffs use the new path.
    QString targetPath(int strip) const;
};

struct UnifiedDiff
{
    QString subject; // format-patch mail subject, if any
    QList<FileDiff> files;
    QString error; // empty when parsing succeeded
    int errorLine = 0;
    explicit operator bool() const { return error.isEmpty(); }
};

UnifiedDiff parseUnifiedDiff(const QString& text);

// Strips `level` leading path components (patch -pN); returns empty when too few.
QString stripComponents(const QString& path, int level);
// Guesses -p: 1 when every path looks like a/... b/... (git), otherwise 0.
int guessStripLevel(const UnifiedDiff& diff);

struct HunkFate
{
    enum Kind { Applied, AlreadyApplied, Rejected };
    Kind kind = Rejected;
    int line = 0;             // 1-based line in the original where it applied / was found
    int offset = 0;           // lines away from the header's position
    int fuzz = 0;             // context lines ignored at each end (0..2)
    QString reason;           // for Rejected
    int nearestLine = 0;      // 1-based start of the closest region (Rejected)
    QStringList nearestLines; // that region's lines
};
QString fateText(const HunkFate& fate);

struct FileApplyResult
{
    textdiff::TextLines result;
    QList<HunkFate> hunks;
    bool allApplied() const;        // nothing rejected
    bool allAlreadyApplied() const; // every hunk already present
};

// Applies hunks the way GNU patch does: at the stated line, else the nearest offset where
// the old lines match (searching both directions), else with fuzz 1 then 2 (dropping that
// many context lines at each end). A hunk that does not apply forward but whose new lines
// are already there is AlreadyApplied (a reverse patch would apply). Later hunks are
// searched after the previous one and shifted by the offsets seen so far.
FileApplyResult applyHunks(const textdiff::TextLines& original, const QList<DiffHunk>& hunks, int maxFuzz = 2);

} // namespace kf::patch
