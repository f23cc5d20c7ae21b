// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/unifieddiff.h"

#include <QRegularExpression>

#include <optional>

namespace kf::patch {
namespace {

// git's C-style quoting of a path (quote_c_style): "..." with \a \b \t \n \v \f \r \" and
// \\ escapes and \NNN octal bytes, which together spell UTF-8 ("a/caf\303\251.txt" is a/café.txt).
// s starts at the opening quote; returns the decoded path and sets *end after the closing
// quote, or nullopt when the quoting is malformed.
std::optional<QString> cUnquote(QStringView s, qsizetype* end)
{
    if (s.isEmpty() || s.front() != QLatin1Char('"'))
        return std::nullopt;
    QByteArray bytes;
    for (qsizetype i = 1; i < s.size(); ++i) {
        const QChar c = s[i];
        if (c == QLatin1Char('"')) {
            *end = i + 1;
            return QString::fromUtf8(bytes);
        }
        if (c != QLatin1Char('\\')) {
            bytes += s.mid(i, 1).toUtf8();
            continue;
        }
        if (++i >= s.size())
            return std::nullopt;
        const char16_t e = s[i].unicode();
        switch (e) {
        case 'a': bytes += '\a'; break;
        case 'b': bytes += '\b'; break;
        case 't': bytes += '\t'; break;
        case 'n': bytes += '\n'; break;
        case 'v': bytes += '\v'; break;
        case 'f': bytes += '\f'; break;
        case 'r': bytes += '\r'; break;
        case '"': bytes += '"'; break;
        case '\\': bytes += '\\'; break;
        default: {
            if (e < '0' || e > '3' || i + 2 >= s.size())
                return std::nullopt;
            int v = 0;
            for (int k = 0; k < 3; ++k) {
                const char16_t d = s[i + k].unicode();
                if (d < '0' || d > '7')
                    return std::nullopt;
                v = v * 8 + int(d - '0');
            }
            bytes += char(v);
            i += 2;
        }
        }
    }
    return std::nullopt;
}

QString headerPath(QString s)
{
    if (s.startsWith(QLatin1Char('"'))) {
        qsizetype end = 0;
        if (const auto path = cUnquote(s, &end))
            return *path;
    }
    // "--- a/path\t2025-01-01 00:00:00.000000000 +0000": the timestamp follows a tab.
    const qsizetype tab = s.indexOf(QLatin1Char('\t'));
    if (tab >= 0)
        s.truncate(tab);
    return s.trimmed();
}

// "diff --git A B" with each of A and B plain (no blanks) or C-quoted.
bool parseGitHeader(QStringView line, QString* a, QString* b)
{
    static constexpr QLatin1String prefix("diff --git ");
    if (!line.startsWith(prefix))
        return false;
    QStringView rest = line.mid(prefix.size());
    auto take = [&rest](QString* out) {
        if (rest.startsWith(QLatin1Char('"'))) {
            qsizetype end = 0;
            const auto path = cUnquote(rest, &end);
            if (!path)
                return false;
            *out = *path;
            rest = rest.mid(end);
            return true;
        }
        qsizetype n = 0;
        while (n < rest.size() && !rest[n].isSpace())
            ++n;
        if (n == 0)
            return false;
        *out = rest.left(n).toString();
        rest = rest.mid(n);
        return true;
    };
    if (!take(a) || !rest.startsWith(QLatin1Char(' ')))
        return false;
    rest = rest.mid(1);
    return take(b) && rest.isEmpty();
}

} // namespace

QString stripComponents(const QString& path, int level)
{
    if (path == QLatin1String("/dev/null"))
        return path;
    QString p = path;
    for (int i = 0; i < level; ++i) {
        const qsizetype slash = p.indexOf(QLatin1Char('/'));
        if (slash < 0)
            return {};
        p = p.mid(slash + 1);
        while (p.startsWith(QLatin1Char('/')))
            p.remove(0, 1);
    }
    return p;
}

QString FileDiff::targetPath(int strip) const
{
    const QString& p = (isNew || oldPath == QLatin1String("/dev/null")) ? newPath : (isRename ? newPath : oldPath);
    return stripComponents(p, strip);
}

int guessStripLevel(const UnifiedDiff& diff)
{
    bool any = false;
    for (const FileDiff& f : diff.files) {
        for (const QString& p : { f.oldPath, f.newPath }) {
            if (p == QLatin1String("/dev/null"))
                continue;
            any = true;
            if (!p.startsWith(QLatin1String("a/")) && !p.startsWith(QLatin1String("b/")))
                return 0;
        }
    }
    return any ? 1 : 0;
}

UnifiedDiff parseUnifiedDiff(const QString& text)
{
    UnifiedDiff d;
    QStringList lines = text.split(QLatin1Char('\n'));
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    for (QString& l : lines)
        if (l.endsWith(QLatin1Char('\r')))
            l.chop(1);

    static const QRegularExpression hunkRe(QStringLiteral(R"(^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$)"));

    FileDiff pending;
    bool havePending = false;    // a "diff --git" header not yet completed by ---/+++
    FileDiff* current = nullptr; // the file receiving hunks
    auto flushPending = [&] {
        if (havePending) {
            d.files.append(pending);
            havePending = false;
        }
    };
    auto fail = [&](int line, const QString& msg) {
        d.error = msg;
        d.errorLine = line;
        return d;
    };

    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString& l = lines[i];
        const int lineNo = int(i) + 1;
        if (d.subject.isEmpty() && l.startsWith(QLatin1String("Subject: ")) && d.files.isEmpty() && !havePending) {
            d.subject = l.mid(9).trimmed();
            continue;
        }
        if (QString a, b; parseGitHeader(l, &a, &b)) {
            flushPending();
            current = nullptr;
            pending = FileDiff();
            pending.oldPath = a;
            pending.newPath = b;
            pending.sourceLine = lineNo;
            havePending = true;
            continue;
        }
        if (havePending) {
            if (l.startsWith(QLatin1String("new file mode"))) {
                pending.isNew = true;
                continue;
            }
            if (l.startsWith(QLatin1String("deleted file mode"))) {
                pending.isDeleted = true;
                continue;
            }
            if (l.startsWith(QLatin1String("rename from "))) {
                pending.isRename = true;
                pending.oldPath = QStringLiteral("a/") + headerPath(l.mid(12));
                continue;
            }
            if (l.startsWith(QLatin1String("rename to "))) {
                pending.isRename = true;
                pending.newPath = QStringLiteral("b/") + headerPath(l.mid(10));
                continue;
            }
            if (l.startsWith(QLatin1String("Binary files ")) || l == QLatin1String("GIT binary patch")) {
                pending.isBinary = true;
                continue;
            }
        }
        if (l.startsWith(QLatin1String("--- ")) && i + 1 < lines.size()
            && lines[i + 1].startsWith(QLatin1String("+++ "))) {
            FileDiff f = havePending ? pending : FileDiff();
            havePending = false;
            f.oldPath = headerPath(l.mid(4));
            f.newPath = headerPath(lines[i + 1].mid(4));
            if (f.sourceLine == 0)
                f.sourceLine = lineNo;
            if (f.oldPath == QLatin1String("/dev/null"))
                f.isNew = true;
            if (f.newPath == QLatin1String("/dev/null"))
                f.isDeleted = true;
            d.files.append(f);
            current = &d.files.last();
            ++i;
            continue;
        }
        if (l.startsWith(QLatin1String("@@"))) {
            const auto m = hunkRe.match(l);
            if (!m.hasMatch())
                return fail(lineNo, QStringLiteral("line %1: malformed hunk header: %2").arg(lineNo).arg(l));
            if (!current)
                return fail(lineNo, QStringLiteral("line %1: hunk without a ---/+++ file header").arg(lineNo));
            DiffHunk h;
            // Line numbers and counts are bounded far below INT_MAX, so that the positions
            // applyHunks derives from them (start + context + offset) cannot overflow.
            constexpr int kMaxHunkNumber = 1'000'000'000;
            bool inRange = true;
            auto number = [&](int group, int absent) {
                if (m.captured(group).isNull())
                    return absent;
                bool ok = false;
                const qlonglong v = m.captured(group).toLongLong(&ok);
                if (!ok || v > kMaxHunkNumber) {
                    inRange = false;
                    return 0;
                }
                return int(v);
            };
            h.oldStart = number(1, 0);
            h.oldCount = number(2, 1);
            h.newStart = number(3, 0);
            h.newCount = number(4, 1);
            if (!inRange)
                return fail(lineNo,
                    QStringLiteral("line %1: hunk header number out of range (at most %2): %3")
                        .arg(lineNo)
                        .arg(kMaxHunkNumber)
                        .arg(l));
            h.section = m.captured(5);
            h.sourceLine = lineNo;
            int oldLeft = h.oldCount, newLeft = h.newCount;
            bool sawChange = false;
            while (oldLeft > 0 || newLeft > 0) {
                ++i;
                if (i >= lines.size())
                    return fail(lineNo,
                        QStringLiteral("line %1: the hunk ends early (%2 old and %3 new lines missing)")
                            .arg(lineNo)
                            .arg(oldLeft)
                            .arg(newLeft));
                const QString& b = lines[i];
                const QChar k = b.isEmpty() ? QLatin1Char(' ') : b.at(0);
                const QString body = b.isEmpty() ? QString() : b.mid(1);
                if (k == QLatin1Char(' ') && oldLeft > 0 && newLeft > 0) {
                    h.oldLines.append(body);
                    h.newLines.append(body);
                    --oldLeft;
                    --newLeft;
                    if (!sawChange)
                        ++h.leadingContext;
                    ++h.trailingContext;
                } else if (k == QLatin1Char('-') && oldLeft > 0) {
                    h.oldLines.append(body);
                    --oldLeft;
                    sawChange = true;
                    h.trailingContext = 0;
                } else if (k == QLatin1Char('+') && newLeft > 0) {
                    h.newLines.append(body);
                    --newLeft;
                    sawChange = true;
                    h.trailingContext = 0;
                } else if (k == QLatin1Char('\\')) {
                    if (!h.kinds.isEmpty()) {
                        if (h.kinds.last() != '+')
                            h.oldNoNewlineAtEnd = true;
                        if (h.kinds.last() != '-')
                            h.newNoNewlineAtEnd = true;
                    }
                    continue;
                } else {
                    return fail(int(i) + 1,
                        QStringLiteral("line %1: unexpected line inside the hunk that starts at line %2 "
                                       "(%3 old and %4 new lines still expected)")
                            .arg(i + 1)
                            .arg(lineNo)
                            .arg(oldLeft)
                            .arg(newLeft));
                }
                h.kinds.append(char(k.toLatin1()));
                h.bodyLines.append(body);
            }
            if (!sawChange)
                h.trailingContext = 0;
            // A "\ No newline" marker may follow the last body line.
            while (i + 1 < lines.size() && lines[i + 1].startsWith(QLatin1Char('\\'))) {
                ++i;
                if (!h.kinds.isEmpty()) {
                    if (h.kinds.last() != '+')
                        h.oldNoNewlineAtEnd = true;
                    if (h.kinds.last() != '-')
                        h.newNoNewlineAtEnd = true;
                }
            }
            // "-x \ +x" at the end marks only the old side; a context line marks both.
            current->hunks.append(h);
            continue;
        }
    }
    flushPending();
    if (d.files.isEmpty())
        return fail(0, QStringLiteral("no file changes found (expected ---/+++ headers or diff --git lines)"));
    return d;
}

QString fateText(const HunkFate& f)
{
    switch (f.kind) {
    case HunkFate::Applied: {
        QString s = QStringLiteral("applied at line %1").arg(f.line);
        if (f.offset != 0)
            s += QStringLiteral(" (offset %1 line%2)")
                     .arg(f.offset)
                     .arg(std::abs(f.offset) == 1 ? QString() : QStringLiteral("s"));
        if (f.fuzz != 0)
            s += QStringLiteral(" with fuzz %1").arg(f.fuzz);
        return s;
    }
    case HunkFate::AlreadyApplied: return QStringLiteral("already applied (found at line %1)").arg(f.line);
    case HunkFate::Rejected: return QStringLiteral("rejected: %1").arg(f.reason);
    }
    return {};
}

bool FileApplyResult::allApplied() const
{
    for (const HunkFate& f : hunks)
        if (f.kind == HunkFate::Rejected)
            return false;
    return true;
}

bool FileApplyResult::allAlreadyApplied() const
{
    for (const HunkFate& f : hunks)
        if (f.kind != HunkFate::AlreadyApplied)
            return false;
    return !hunks.isEmpty();
}

namespace {

bool matchesAt(const QStringList& hay, int pos, const QStringList& needle, int from, int count)
{
    if (pos < 0 || pos + count > hay.size())
        return false;
    for (int k = 0; k < count; ++k)
        if (hay[pos + k] != needle[from + k])
            return false;
    return true;
}

// Nearest position to `expected` (alternating after/before) in [minPos, size-count] where
// needle[from, from+count) matches; -1 if none.
int search(const QStringList& hay, const QStringList& needle, int from, int count, int expected, int minPos)
{
    const int maxPos = int(hay.size()) - count;
    if (maxPos < minPos)
        return -1;
    expected = std::clamp(expected, minPos, maxPos);
    for (int delta = 0;; ++delta) {
        const int after = expected + delta, before = expected - delta;
        const bool afterOk = after <= maxPos, beforeOk = before >= minPos;
        if (!afterOk && !beforeOk)
            return -1;
        if (afterOk && matchesAt(hay, after, needle, from, count))
            return after;
        if (delta > 0 && beforeOk && matchesAt(hay, before, needle, from, count))
            return before;
    }
}

} // namespace

FileApplyResult applyHunks(const textdiff::TextLines& original, const QList<DiffHunk>& hunks, int maxFuzz)
{
    FileApplyResult r;
    r.result = original;
    QStringList& cur = r.result.lines;
    int delta = 0;  // cur index = original index + delta, for positions after the last applied hunk
    int minPos = 0; // hunks apply in order: never before the end of the previous one
    for (const DiffHunk& h : hunks) {
        HunkFate fate;
        const int oldSize = int(h.oldLines.size()), newSize = int(h.newLines.size());
        const int headerPos = (h.oldCount == 0 ? h.oldStart : h.oldStart - 1);
        bool done = false;
        for (int fuzz = 0; fuzz <= maxFuzz && !done; ++fuzz) {
            const int pd = std::min(fuzz, h.leadingContext), sd = std::min(fuzz, h.trailingContext);
            if (fuzz > 0 && pd == 0 && sd == 0)
                break; // no context left to ignore: more fuzz changes nothing
            // Forward.
            const int expected = headerPos + pd + delta;
            const int count = oldSize - pd - sd;
            int p = search(cur, h.oldLines, pd, count, expected, minPos);
            if (p >= 0) {
                const QStringList repl = h.newLines.mid(pd, newSize - pd - sd);
                const bool atEnd = p + count == cur.size();
                for (int k = 0; k < count; ++k)
                    cur.removeAt(p);
                for (int k = 0; k < repl.size(); ++k)
                    cur.insert(p + k, repl[k]);
                if (atEnd && sd == 0) {
                    if (h.newNoNewlineAtEnd)
                        r.result.finalNewline = false;
                    else if (h.oldNoNewlineAtEnd || count == 0)
                        r.result.finalNewline = true;
                }
                fate.kind = HunkFate::Applied;
                fate.offset = p - expected;
                fate.fuzz = fuzz;
                fate.line = p - delta - pd + 1;
                delta += int(repl.size()) - count;
                minPos = p + int(repl.size());
                done = true;
                break;
            }
            // Reverse: the new side is already there.
            const int expectedNew = (h.newCount == 0 ? h.newStart : h.newStart - 1) + pd;
            const int ncount = newSize - pd - sd;
            if (ncount > 0) {
                p = search(cur, h.newLines, pd, ncount, expectedNew, minPos);
                if (p >= 0) {
                    fate.kind = HunkFate::AlreadyApplied;
                    fate.line = p + 1;
                    fate.fuzz = fuzz;
                    minPos = p + ncount;
                    done = true;
                    break;
                }
            }
        }
        if (!done) {
            fate.kind = HunkFate::Rejected;
            // Closest region: the window of the hunk's old size agreeing on the most lines.
            int best = -1, bestScore = -1;
            const int window = std::max(oldSize, 1);
            const int expected = headerPos + delta;
            for (int p = 0; p + window <= cur.size() || (p == 0 && cur.size() < window); ++p) {
                int score = 0;
                for (int k = 0; k < oldSize && p + k < cur.size(); ++k)
                    if (cur[p + k] == h.oldLines[k])
                        ++score;
                if (score > bestScore || (score == bestScore && std::abs(p - expected) < std::abs(best - expected))) {
                    best = p;
                    bestScore = score;
                }
                if (p + window >= cur.size())
                    break;
            }
            if (best >= 0) {
                fate.nearestLine = best + 1;
                fate.nearestLines = cur.mid(best, window);
            }
            // Name the first line that differs in the closest region.
            QString firstDiff;
            for (int k = 0; k < oldSize; ++k) {
                if (best < 0 || best + k >= cur.size() || cur[best + k] != h.oldLines[k]) {
                    firstDiff = QStringLiteral("expected \"%1\"").arg(h.oldLines[k].trimmed());
                    if (best >= 0 && best + k < cur.size())
                        firstDiff += QStringLiteral(" at line %1, found \"%2\"")
                                         .arg(best + k + 1)
                                         .arg(cur[best + k].trimmed());
                    break;
                }
            }
            fate.reason = QStringLiteral(
                "hunk @@ -%1,%2 +%3,%4 @@ does not match (best region at line %5 agrees on %6 of %7 lines; %8)")
                              .arg(h.oldStart)
                              .arg(h.oldCount)
                              .arg(h.newStart)
                              .arg(h.newCount)
                              .arg(fate.nearestLine)
                              .arg(std::max(bestScore, 0))
                              .arg(oldSize)
                              .arg(firstDiff);
        }
        r.hunks.append(fate);
    }
    if (cur.isEmpty())
        r.result.finalNewline = false;
    return r;
}

} // namespace kf::patch
