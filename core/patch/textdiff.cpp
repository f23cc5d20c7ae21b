// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/textdiff.h"

#include <QHash>

#include <climits>
#include <vector>

namespace kf::textdiff {
namespace {

// GNU diff's compareseq/diag without heuristics: marks changed elements on both sides.
// Memory is O(N+M); recursion splits at the middle snake.
class Myers
{
public:
    Myers(const std::vector<int>& a, const std::vector<int>& b)
        : m_a(a)
        , m_b(b)
        , m_changedA(a.size(), false)
        , m_changedB(b.size(), false)
        , m_offset(int(b.size()) + 1)
        , m_fd(a.size() + b.size() + 3)
        , m_bd(a.size() + b.size() + 3)
    {
        compare(0, int(a.size()), 0, int(b.size()));
    }
    const std::vector<bool>& changedA() const { return m_changedA; }
    const std::vector<bool>& changedB() const { return m_changedB; }

private:
    int& fd(int d) { return m_fd[size_t(d + m_offset)]; }
    int& bd(int d) { return m_bd[size_t(d + m_offset)]; }

    void middle(int xoff, int xlim, int yoff, int ylim, int* xmid, int* ymid)
    {
        const int dmin = xoff - ylim, dmax = xlim - yoff;
        const int fmid = xoff - yoff, bmid = xlim - ylim;
        int fmin = fmid, fmax = fmid, bmin = bmid, bmax = bmid;
        const bool odd = ((fmid - bmid) & 1) != 0;
        fd(fmid) = xoff;
        bd(bmid) = xlim;
        for (;;) {
            if (fmin > dmin)
                fd(--fmin - 1) = -1;
            else
                ++fmin;
            if (fmax < dmax)
                fd(++fmax + 1) = -1;
            else
                --fmax;
            for (int d = fmax; d >= fmin; d -= 2) {
                const int tlo = fd(d - 1), thi = fd(d + 1);
                int x = tlo >= thi ? tlo + 1 : thi;
                int y = x - d;
                while (x < xlim && y < ylim && m_a[size_t(x)] == m_b[size_t(y)])
                    ++x, ++y;
                fd(d) = x;
                if (odd && bmin <= d && d <= bmax && bd(d) <= x) {
                    *xmid = x;
                    *ymid = y;
                    return;
                }
            }
            if (bmin > dmin)
                bd(--bmin - 1) = INT_MAX;
            else
                ++bmin;
            if (bmax < dmax)
                bd(++bmax + 1) = INT_MAX;
            else
                --bmax;
            for (int d = bmax; d >= bmin; d -= 2) {
                const int tlo = bd(d - 1), thi = bd(d + 1);
                int x = tlo < thi ? tlo : thi - 1;
                int y = x - d;
                while (x > xoff && y > yoff && m_a[size_t(x - 1)] == m_b[size_t(y - 1)])
                    --x, --y;
                bd(d) = x;
                if (!odd && fmin <= d && d <= fmax && x <= fd(d)) {
                    *xmid = x;
                    *ymid = y;
                    return;
                }
            }
        }
    }

    void compare(int xoff, int xlim, int yoff, int ylim)
    {
        while (xoff < xlim && yoff < ylim && m_a[size_t(xoff)] == m_b[size_t(yoff)])
            ++xoff, ++yoff;
        while (xlim > xoff && ylim > yoff && m_a[size_t(xlim - 1)] == m_b[size_t(ylim - 1)])
            --xlim, --ylim;
        if (xoff == xlim) {
            for (int y = yoff; y < ylim; ++y)
                m_changedB[size_t(y)] = true;
        } else if (yoff == ylim) {
            for (int x = xoff; x < xlim; ++x)
                m_changedA[size_t(x)] = true;
        } else {
            int xmid = 0, ymid = 0;
            middle(xoff, xlim, yoff, ylim, &xmid, &ymid);
            compare(xoff, xmid, yoff, ymid);
            compare(xmid, xlim, ymid, ylim);
        }
    }

    const std::vector<int>& m_a;
    const std::vector<int>& m_b;
    std::vector<bool> m_changedA, m_changedB;
    int m_offset;
    std::vector<int> m_fd, m_bd;
};

QList<Run> runsFromFlags(const std::vector<bool>& ca, const std::vector<bool>& cb)
{
    QList<Run> runs;
    const int n = int(ca.size()), m = int(cb.size());
    int i = 0, j = 0;
    auto push = [&runs](Run::Kind kind, int os, int ns, int len) {
        if (len <= 0)
            return;
        if (!runs.isEmpty() && runs.last().kind == kind) {
            runs.last().length += len;
            return;
        }
        runs.append(Run { kind, os, ns, len });
    };
    while (i < n || j < m) {
        int s = i, t = j;
        while (i < n && j < m && !ca[size_t(i)] && !cb[size_t(j)])
            ++i, ++j;
        push(Run::Equal, s, t, i - s);
        s = i;
        while (i < n && ca[size_t(i)])
            ++i;
        push(Run::Delete, s, j, i - s);
        t = j;
        while (j < m && cb[size_t(j)])
            ++j;
        push(Run::Insert, i, t, j - t);
    }
    return runs;
}

template <typename Seq> QList<Run> diffInterned(const Seq& a, const Seq& b)
{
    QHash<QStringView, int> ids;
    ids.reserve(a.size() + b.size());
    std::vector<int> ia, ib;
    ia.reserve(size_t(a.size()));
    ib.reserve(size_t(b.size()));
    // QHash::emplace overwrites an existing value: look up first.
    auto intern = [&ids](QStringView s) {
        auto it = ids.constFind(s);
        if (it == ids.constEnd())
            it = ids.insert(s, int(ids.size()));
        return it.value();
    };
    for (const auto& s : a)
        ia.push_back(intern(QStringView(s)));
    for (const auto& s : b)
        ib.push_back(intern(QStringView(s)));
    // A line that never occurs on the other side cannot be part of the common subsequence:
    // mark it changed and leave it out of the search (as GNU diff and git's xdiff do). The
    // result stays minimal and the search works on far fewer lines.
    const int ids_n = int(ids.size());
    std::vector<char> inA(size_t(ids_n), 0), inB(size_t(ids_n), 0);
    for (int v : ia)
        inA[size_t(v)] = 1;
    for (int v : ib)
        inB[size_t(v)] = 1;
    std::vector<int> fa, fb, mapA, mapB;
    fa.reserve(ia.size());
    fb.reserve(ib.size());
    std::vector<bool> changedA(ia.size(), true), changedB(ib.size(), true);
    for (size_t i = 0; i < ia.size(); ++i)
        if (inB[size_t(ia[i])]) {
            fa.push_back(ia[i]);
            mapA.push_back(int(i));
        }
    for (size_t j = 0; j < ib.size(); ++j)
        if (inA[size_t(ib[j])]) {
            fb.push_back(ib[j]);
            mapB.push_back(int(j));
        }
    Myers m(fa, fb);
    for (size_t k = 0; k < fa.size(); ++k)
        changedA[size_t(mapA[k])] = m.changedA()[k];
    for (size_t k = 0; k < fb.size(); ++k)
        changedB[size_t(mapB[k])] = m.changedB()[k];
    return runsFromFlags(changedA, changedB);
}

} // namespace

TextLines splitLines(const QString& text)
{
    TextLines t;
    if (text.isEmpty()) {
        t.finalNewline = false;
        return t;
    }
    const qsizetype firstNl = text.indexOf(QLatin1Char('\n'));
    t.crlf = firstNl > 0 && text.at(firstNl - 1) == QLatin1Char('\r');
    qsizetype pos = 0;
    while (pos < text.size()) {
        const qsizetype nl = text.indexOf(QLatin1Char('\n'), pos);
        if (nl < 0) {
            t.lines.append(text.mid(pos));
            t.finalNewline = false;
            return t;
        }
        qsizetype end = nl;
        if (end > pos && text.at(end - 1) == QLatin1Char('\r'))
            --end;
        t.lines.append(text.mid(pos, end - pos));
        pos = nl + 1;
    }
    t.finalNewline = true;
    return t;
}

QString joinLines(const TextLines& t)
{
    const QString eol = t.crlf ? QStringLiteral("\r\n") : QStringLiteral("\n");
    QString out = t.lines.join(eol);
    if (t.finalNewline && !t.lines.isEmpty())
        out += eol;
    return out;
}

QList<Run> diffLines(const QStringList& oldLines, const QStringList& newLines)
{
    return diffInterned(oldLines, newLines);
}

QList<Hunk> groupHunks(const QList<Run>& runs, int context)
{
    QList<Hunk> hunks;
    for (qsizetype i = 0; i < runs.size(); ++i) {
        if (runs[i].kind == Run::Equal)
            continue;
        // Start a hunk: leading context from the previous equal run.
        Hunk h;
        int lead = 0;
        if (i > 0 && runs[i - 1].kind == Run::Equal) {
            lead = std::min(context, runs[i - 1].length);
            const Run& e = runs[i - 1];
            h.runs.append(Run { Run::Equal, e.oldStart + e.length - lead, e.newStart + e.length - lead, lead });
        }
        h.oldStart = runs[i].oldStart - lead;
        h.newStart = runs[i].newStart - lead;
        qsizetype j = i;
        for (; j < runs.size(); ++j) {
            const Run& r = runs[j];
            if (r.kind != Run::Equal) {
                h.runs.append(r);
                continue;
            }
            const bool last = j + 1 == runs.size();
            if (!last && r.length <= 2 * context) {
                h.runs.append(r);
                continue;
            }
            const int trail = std::min(context, r.length);
            h.runs.append(Run { Run::Equal, r.oldStart, r.newStart, trail });
            break;
        }
        for (const Run& r : std::as_const(h.runs)) {
            if (r.kind != Run::Insert)
                h.oldCount += r.length;
            if (r.kind != Run::Delete)
                h.newCount += r.length;
        }
        hunks.append(h);
        i = j; // the equal run at j (if any) is not a change; the loop's ++i moves past it
    }
    return hunks;
}

QList<Change> changes(const QList<Run>& runs)
{
    QList<Change> out;
    for (qsizetype i = 0; i < runs.size(); ++i) {
        const Run& r = runs[i];
        if (r.kind == Run::Equal)
            continue;
        Change c { r.oldStart, 0, r.newStart, 0 };
        while (i < runs.size() && runs[i].kind != Run::Equal) {
            if (runs[i].kind == Run::Delete)
                c.oldCount += runs[i].length;
            else
                c.newCount += runs[i].length;
            ++i;
        }
        --i;
        out.append(c);
    }
    return out;
}

QStringList mergeAccepted(
    const QStringList& oldLines, const QStringList& newLines, const QList<Change>& chs, const QList<bool>& accepted)
{
    QStringList out;
    out.reserve(oldLines.size());
    int pos = 0;
    for (qsizetype i = 0; i < chs.size(); ++i) {
        const Change& c = chs[i];
        for (; pos < c.oldStart; ++pos)
            out.append(oldLines[pos]);
        if (i < accepted.size() && accepted[i]) {
            for (int k = 0; k < c.newCount; ++k)
                out.append(newLines[c.newStart + k]);
        } else {
            for (int k = 0; k < c.oldCount; ++k)
                out.append(oldLines[c.oldStart + k]);
        }
        pos = c.oldStart + c.oldCount;
    }
    for (; pos < oldLines.size(); ++pos)
        out.append(oldLines[pos]);
    return out;
}

QList<int> lineMap(const QStringList& from, const QStringList& to)
{
    QList<int> map(from.size(), -1);
    if (from == to) {
        for (qsizetype i = 0; i < from.size(); ++i)
            map[i] = int(i);
        return map;
    }
    for (const Run& r : diffLines(from, to))
        if (r.kind == Run::Equal)
            for (int k = 0; k < r.length; ++k)
                map[r.oldStart + k] = r.newStart + k;
    return map;
}

Placement placeChange(const Change& c, const QList<int>& map, int targetSize)
{
    if (c.oldCount > 0) {
        const int start = map.value(c.oldStart, -1);
        for (int k = 0; k < c.oldCount; ++k)
            if (start < 0 || map.value(c.oldStart + k, -1) != start + k)
                return {};
        return { start, c.oldCount };
    }
    // An insertion: the lines on both sides of the gap must still be neighbours.
    const int g = c.oldStart;
    const int left = g == 0 ? 0 : (map.value(g - 1, -1) < 0 ? -1 : map.value(g - 1, -1) + 1);
    const int right = g >= map.size() ? targetSize : map.value(g, -1);
    if (left < 0 || right < 0 || left != right)
        return {};
    return { left, 0 };
}

QString unifiedDiff(
    const QString& oldText, const QString& newText, const QString& oldName, const QString& newName, int context)
{
    const TextLines a = splitLines(oldText);
    const TextLines b = splitLines(newText);
    // A last line without a line break differs from the same text with one (as in GNU diff).
    QStringList ka = a.lines, kb = b.lines;
    if (!a.finalNewline && !ka.isEmpty())
        ka.last().append(QChar(0));
    if (!b.finalNewline && !kb.isEmpty())
        kb.last().append(QChar(0));
    const QList<Hunk> hunks = groupHunks(diffLines(ka, kb), context);
    if (hunks.isEmpty())
        return {};
    QString out;
    out += QStringLiteral("--- ") + oldName + QLatin1Char('\n');
    out += QStringLiteral("+++ ") + newName + QLatin1Char('\n');
    auto range = [](int start, int count) {
        const int first = count == 0 ? start : start + 1;
        return count == 1 ? QString::number(first) : QStringLiteral("%1,%2").arg(first).arg(count);
    };
    static const QString noNl = QStringLiteral("\\ No newline at end of file\n");
    for (const Hunk& h : hunks) {
        out += QStringLiteral("@@ -") + range(h.oldStart, h.oldCount) + QStringLiteral(" +")
            + range(h.newStart, h.newCount) + QStringLiteral(" @@\n");
        for (const Run& r : h.runs) {
            for (int k = 0; k < r.length; ++k) {
                if (r.kind == Run::Equal) {
                    out += QLatin1Char(' ') + a.lines[r.oldStart + k] + QLatin1Char('\n');
                    if (!a.finalNewline && r.oldStart + k == a.lines.size() - 1)
                        out += noNl;
                } else if (r.kind == Run::Delete) {
                    out += QLatin1Char('-') + a.lines[r.oldStart + k] + QLatin1Char('\n');
                    if (!a.finalNewline && r.oldStart + k == a.lines.size() - 1)
                        out += noNl;
                } else {
                    out += QLatin1Char('+') + b.lines[r.newStart + k] + QLatin1Char('\n');
                    if (!b.finalNewline && r.newStart + k == b.lines.size() - 1)
                        out += noNl;
                }
            }
        }
    }
    return out;
}

namespace {

enum class CharClass { Word, Space, Other };
CharClass classOf(QChar c)
{
    if (c.isLetterOrNumber() || c == QLatin1Char('_'))
        return CharClass::Word;
    if (c.isSpace())
        return CharClass::Space;
    return CharClass::Other;
}

struct Tokens
{
    QList<QStringView> views;
    QList<int> starts;
};

Tokens tokenize(const QString& s)
{
    Tokens t;
    qsizetype i = 0;
    while (i < s.size()) {
        const CharClass c = classOf(s.at(i));
        qsizetype j = i + 1;
        if (c != CharClass::Other)
            while (j < s.size() && classOf(s.at(j)) == c)
                ++j;
        t.views.append(QStringView(s).mid(i, j - i));
        t.starts.append(int(i));
        i = j;
    }
    return t;
}

QList<Span> spansOf(const Tokens& t, const QList<Run>& runs, Run::Kind kind, qsizetype textSize)
{
    QList<Span> spans;
    for (const Run& r : runs) {
        if (r.kind != kind)
            continue;
        const int first = kind == Run::Delete ? r.oldStart : r.newStart;
        const int start = t.starts[first];
        const int endTok = first + r.length;
        const int end = endTok < t.starts.size() ? t.starts[endTok] : int(textSize);
        if (!spans.isEmpty() && spans.last().start + spans.last().length == start)
            spans.last().length += end - start;
        else
            spans.append(Span { start, end - start });
    }
    return spans;
}

} // namespace

WordDiff diffWords(const QString& oldLine, const QString& newLine)
{
    const Tokens a = tokenize(oldLine), b = tokenize(newLine);
    const QList<Run> runs = diffInterned(a.views, b.views);
    WordDiff w;
    w.oldChanged = spansOf(a, runs, Run::Delete, oldLine.size());
    w.newChanged = spansOf(b, runs, Run::Insert, newLine.size());
    return w;
}

} // namespace kf::textdiff
