// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/recipe.h"

#include <QRegularExpression>
#include <QSet>

namespace kf::patch {
namespace {

QRegularExpression compile(const QString& pattern)
{
    return QRegularExpression(pattern, QRegularExpression::MultilineOption);
}

// Expands \0..\9 (captures) and \\ in a replacement.
QString expand(const QString& tmpl, const QRegularExpressionMatch& m)
{
    QString out;
    out.reserve(tmpl.size());
    for (qsizetype i = 0; i < tmpl.size(); ++i) {
        const QChar c = tmpl.at(i);
        if (c == QLatin1Char('\\') && i + 1 < tmpl.size()) {
            const QChar n = tmpl.at(i + 1);
            if (n.isDigit()) {
                if (m.isValid() && m.hasMatch())
                    out += m.captured(n.digitValue());
                ++i;
                continue;
            }
            if (n == QLatin1Char('\\')) {
                out += n;
                ++i;
                continue;
            }
        }
        out += c;
    }
    return out;
}

int lineAt(const QString& text, qsizetype pos)
{
    return int(QStringView(text).left(pos).count(QLatin1Char('\n'))) + 1;
}

QStringList blockLines(const QString& block)
{
    QString b = block;
    while (b.endsWith(QLatin1Char('\n')))
        b.chop(1);
    return b.split(QLatin1Char('\n'));
}

// Consecutive match of the block's non-blank lines (whitespace-trimmed) anywhere in lines.
int findBlock(const QStringList& lines, const QStringList& block)
{
    QStringList want;
    for (const QString& l : block)
        if (!l.trimmed().isEmpty())
            want.append(l.trimmed());
    if (want.isEmpty())
        return -1;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        qsizetype k = 0, j = i;
        while (j < lines.size() && k < want.size()) {
            const QString t = lines[j].trimmed();
            if (t.isEmpty() && k > 0) {
                ++j;
                continue;
            }
            if (t != want[k])
                break;
            ++k;
            ++j;
        }
        if (k == want.size())
            return int(i);
    }
    return -1;
}

QString ensureNewline(QString s)
{
    if (!s.isEmpty() && !s.endsWith(QLatin1Char('\n')))
        s += QLatin1Char('\n');
    return s;
}

// Locates a condition's first match: [start, end) in text, or start < 0.
QPair<qsizetype, qsizetype> locate(const Condition& c, const QString& text)
{
    if (c.isRegex()) {
        const auto m = compile(c.regex).match(text);
        if (!m.hasMatch())
            return { -1, -1 };
        return { m.capturedStart(), m.capturedEnd() };
    }
    const qsizetype p = text.indexOf(c.literal);
    if (p < 0)
        return { -1, -1 };
    return { p, p + c.literal.size() };
}

QSet<QString> wordsOf(const QString& s)
{
    static const QRegularExpression re(QStringLiteral("[A-Za-z_][A-Za-z0-9_]{2,}"));
    QSet<QString> words;
    for (auto it = re.globalMatch(s); it.hasNext();) {
        const QString w = it.next().captured(0).toLower();
        words.insert(w);
        // "target_include_directories" should still look like "include_directories".
        for (const QString& part : w.split(QLatin1Char('_'), Qt::SkipEmptyParts))
            if (part.size() >= 3)
                words.insert(part);
    }
    return words;
}

EditOutcome missing(const RecipeEdit& e, const QString& text, const QString& what)
{
    EditOutcome o;
    o.kind = EditOutcome::Missing;
    o.message = what;
    const auto near = nearestLines(text, e.match.isRegex() ? e.match.regex : e.match.literal);
    o.nearestLine = near.first;
    o.nearestLines = near.second;
    return o;
}

} // namespace

bool Condition::matches(const QString& text) const
{
    if (isRegex())
        return compile(regex).match(text).hasMatch();
    return text.contains(literal);
}

QString Condition::describe() const
{
    if (isRegex())
        return QStringLiteral("a match for /%1/").arg(regex);
    return QStringLiteral("the text \"%1\"").arg(literal);
}

QString RecipeEdit::kindName() const
{
    switch (kind) {
    case Replace: return QStringLiteral("replace");
    case InsertBefore: return QStringLiteral("insert_before");
    case InsertAfter: return QStringLiteral("insert_after");
    case Wrap: return QStringLiteral("wrap");
    case Ensure: return QStringLiteral("ensure");
    }
    return {};
}

QPair<int, QStringList> nearestLines(const QString& text, const QString& sought, int context)
{
    const QStringList lines = text.split(QLatin1Char('\n'));
    const QSet<QString> want = wordsOf(sought);
    int best = -1, bestScore = 0;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QSet<QString> have = wordsOf(lines[i]);
        int score = 0;
        for (const QString& w : have)
            if (want.contains(w))
                ++score;
        if (score > bestScore) {
            bestScore = score;
            best = int(i);
        }
    }
    if (best < 0)
        return { 0, {} };
    const int first = std::max(0, best - context / 2);
    return { first + 1, lines.mid(first, context) };
}

EditOutcome applyEdit(const RecipeEdit& e, QString* textIo)
{
    // Work on LF text; restore CRLF at the end so the file keeps its style.
    const bool crlf = textIo->contains(QStringLiteral("\r\n"));
    QString text = crlf ? QString(*textIo).replace(QStringLiteral("\r\n"), QStringLiteral("\n")) : *textIo;
    EditOutcome o;
    if (!e.doneIf.isEmpty()) {
        const auto [at, atEnd] = locate(e.doneIf, text);
        Q_UNUSED(atEnd);
        if (at >= 0) {
            o.kind = EditOutcome::AlreadyThere;
            o.line = lineAt(text, at);
            o.message = QStringLiteral("already done (%1 found at line %2)").arg(e.doneIf.describe()).arg(o.line);
            return o;
        }
    }
    auto commit = [&](const QString& updated) {
        *textIo = crlf ? QString(updated).replace(QLatin1Char('\n'), QStringLiteral("\r\n")) : updated;
    };

    switch (e.kind) {
    case RecipeEdit::Replace: {
        QString out;
        qsizetype last = 0;
        int count = 0, firstLine = 0;
        if (e.match.isRegex()) {
            const QRegularExpression re = compile(e.match.regex);
            for (auto it = re.globalMatch(text); it.hasNext();) {
                const auto m = it.next();
                out += QStringView(text).mid(last, m.capturedStart() - last);
                out += expand(e.with, m);
                last = m.capturedEnd();
                if (count++ == 0)
                    firstLine = lineAt(text, m.capturedStart());
                if (e.firstOnly)
                    break;
            }
        } else if (!e.match.literal.isEmpty()) {
            for (qsizetype p = text.indexOf(e.match.literal); p >= 0; p = text.indexOf(e.match.literal, last)) {
                out += QStringView(text).mid(last, p - last);
                out += e.with;
                last = p + e.match.literal.size();
                if (count++ == 0)
                    firstLine = lineAt(text, p);
                if (e.firstOnly)
                    break;
            }
        }
        if (count == 0)
            return missing(e, text, QStringLiteral("%1 not found").arg(e.match.describe()));
        out += QStringView(text).mid(last);
        o.line = firstLine;
        if (out == text) {
            o.kind = EditOutcome::AlreadyThere;
            o.message = QStringLiteral("replacement already in place at line %1").arg(firstLine);
            return o;
        }
        commit(out);
        o.kind = EditOutcome::Changed;
        o.message = QStringLiteral("replaced %1 occurrence%2 (first at line %3)")
                        .arg(count)
                        .arg(count == 1 ? QString() : QStringLiteral("s"))
                        .arg(firstLine);
        return o;
    }
    case RecipeEdit::InsertBefore:
    case RecipeEdit::InsertAfter:
    case RecipeEdit::Ensure: {
        QStringList lines = text.split(QLatin1Char('\n'));
        const QStringList block = blockLines(e.text);
        if (const int at = findBlock(lines, block); at >= 0) {
            o.kind = EditOutcome::AlreadyThere;
            o.line = at + 1;
            o.message = QStringLiteral("already present at line %1").arg(at + 1);
            return o;
        }
        qsizetype insertPos = -1; // character offset of a line start
        if (e.kind == RecipeEdit::Ensure && e.match.isEmpty()) {
            QString out = ensureNewline(text) + ensureNewline(e.text);
            o.line = lineAt(text, text.size()) + (text.endsWith(QLatin1Char('\n')) ? 0 : 1);
            commit(out);
            o.kind = EditOutcome::Changed;
            o.message = QStringLiteral("added at the end (line %1)").arg(o.line);
            return o;
        }
        const auto [start, end] = locate(e.match, text);
        if (start < 0)
            return missing(e, text, QStringLiteral("anchor %1 not found").arg(e.match.describe()));
        if (e.kind == RecipeEdit::InsertBefore) {
            insertPos = text.lastIndexOf(QLatin1Char('\n'), start - 1) + 1;
            if (start == 0)
                insertPos = 0;
        } else {
            // After the line where the match ends (a match ending in "\n" ends on the line before).
            const qsizetype lastChar = end > start ? end - 1 : start;
            const qsizetype nl
                = text.indexOf(QLatin1Char('\n'), text.at(lastChar) == QLatin1Char('\n') ? lastChar : lastChar);
            insertPos = nl < 0 ? text.size() : nl + 1;
        }
        QString out = text.left(insertPos);
        if (insertPos == text.size() && !text.isEmpty() && !text.endsWith(QLatin1Char('\n')))
            out += QLatin1Char('\n');
        out += ensureNewline(e.text);
        out += QStringView(text).mid(insertPos);
        o.line = lineAt(text, insertPos);
        commit(out);
        o.kind = EditOutcome::Changed;
        o.message = QStringLiteral("inserted at line %1").arg(o.line);
        return o;
    }
    case RecipeEdit::Wrap: {
        QStringList lines = text.split(QLatin1Char('\n'));
        const QRegularExpression re = e.match.isRegex() ? compile(e.match.regex) : QRegularExpression();
        int changed = 0, already = 0, firstLine = 0;
        QStringList out;
        out.reserve(lines.size() + 8);
        bool done = false;
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const QString& l = lines[i];
            QRegularExpressionMatch m;
            const bool hit = !done
                && (e.match.isRegex() ? (m = re.match(l)).hasMatch()
                                      : (!e.match.literal.isEmpty() && l.contains(e.match.literal)));
            if (!hit) {
                out.append(l);
                continue;
            }
            if (firstLine == 0)
                firstLine = int(i) + 1;
            if (e.firstOnly)
                done = true;
            const QStringList beforeLines = blockLines(expand(e.before, m));
            const QStringList afterLines = blockLines(expand(e.after, m));
            // Already wrapped: the nearest non-blank line above is the last "before" line.
            qsizetype k = out.size() - 1;
            while (k >= 0 && out[k].trimmed().isEmpty())
                --k;
            if (k >= 0 && out[k].trimmed() == beforeLines.last().trimmed()) {
                ++already;
                out.append(l);
                continue;
            }
            const QString ws = l.left(l.indexOf(QStringView(l).trimmed()));
            for (const QString& b : beforeLines)
                out.append(ws + b);
            out.append(ws + e.indent + l.mid(ws.size()));
            for (const QString& a : afterLines)
                out.append(ws + a);
            ++changed;
        }
        if (changed == 0 && already == 0)
            return missing(e, text, QStringLiteral("no line with %1").arg(e.match.describe()));
        o.line = firstLine;
        if (changed == 0) {
            o.kind = EditOutcome::AlreadyThere;
            o.message = QStringLiteral("already wrapped (line %1)").arg(firstLine);
            return o;
        }
        commit(out.join(QLatin1Char('\n')));
        o.kind = EditOutcome::Changed;
        o.message = QStringLiteral("wrapped %1 line%2 (first at line %3)%4")
                        .arg(changed)
                        .arg(changed == 1 ? QString() : QStringLiteral("s"))
                        .arg(firstLine)
                        .arg(already ? QStringLiteral(", %1 already wrapped").arg(already) : QString());
        return o;
    }
    }
    return o;
}

} // namespace kf::patch
