// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/edits.h"

#include "core/patch/pythonlines.h"

#include <QRegularExpression>
#include <QSet>

namespace kf::patch {
namespace {

QRegularExpression compile(const QString& pattern)
{
    return QRegularExpression(pattern, QRegularExpression::MultilineOption);
}

// Expands \0..\9 (captures, or a command's arguments) and \\ in a replacement.
QString expand(const QString& tmpl, const QStringList& captures)
{
    QString out;
    out.reserve(tmpl.size());
    for (qsizetype i = 0; i < tmpl.size(); ++i) {
        const QChar c = tmpl.at(i);
        if (c == QLatin1Char('\\') && i + 1 < tmpl.size()) {
            const QChar n = tmpl.at(i + 1);
            if (n.isDigit()) {
                out += captures.value(n.digitValue());
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

QStringList capturesOf(const QRegularExpressionMatch& m)
{
    QStringList out;
    if (m.isValid() && m.hasMatch())
        for (int i = 0; i <= m.lastCapturedIndex() && i < 10; ++i)
            out.append(m.captured(i));
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

// One place a condition found: [start, end) in the text, the captures (\0 the whole match;
// \1.. a regex's groups or a command's arguments) and, for command and Python anchors, the
// lines the match covers and the indentation of its first line.
struct Match
{
    qsizetype start = -1;
    qsizetype end = -1;
    QStringList captures;
    int firstLine = 0; // 1-based; 0 for regex and literal matches (line-based callers compute it)
    int lastLine = 0;
    QString indent;
    bool structured = false; // a command or Python match
};

// The whitespace in front of `pos` on its line, when only whitespace precedes it there.
QString indentBefore(const QString& text, qsizetype pos)
{
    const qsizetype lineStart = text.lastIndexOf(QLatin1Char('\n'), pos - 1) + 1;
    const QStringView before = QStringView(text).mid(lineStart, pos - lineStart);
    return before.trimmed().isEmpty() ? before.toString() : QString();
}

QList<Match> commandMatches(const CommandPattern& p, const QString& text, bool firstOnly)
{
    QList<Match> out;
    const CMakeScript script = parseCMakeScript(text);
    for (const CMakeCommand& c : script.commands) {
        if (!p.matches(c))
            continue;
        Match m;
        m.start = c.begin;
        m.end = c.end;
        m.captures = QStringList { text.mid(c.begin, c.end - c.begin) } + c.values();
        m.firstLine = c.line;
        m.lastLine = c.endLine;
        m.indent = indentBefore(text, c.begin);
        m.structured = true;
        out.append(m);
        if (firstOnly)
            break;
    }
    return out;
}

QList<Match> pythonMatches(const QStringList& patterns, const QString& text, bool firstOnly)
{
    QList<Match> out;
    QList<QRegularExpression> res;
    for (const QString& p : patterns)
        res.append(QRegularExpression(QRegularExpression::anchoredPattern(p)));
    const PythonLines lines = readPythonLines(text);
    for (qsizetype i = 0; i + res.size() <= lines.lines.size(); ++i) {
        qsizetype k = 0;
        while (k < res.size() && res[k].match(lines.lines[i + k].text).hasMatch())
            ++k;
        if (k < res.size())
            continue;
        const PythonLine& first = lines.lines[i];
        const PythonLine& last = lines.lines[i + k - 1];
        Match m;
        m.start = first.begin + first.indent.size();
        m.end = last.end;
        m.captures = QStringList { text.mid(m.start, m.end - m.start) };
        m.firstLine = first.firstLine;
        m.lastLine = last.lastLine;
        m.indent = first.indent;
        m.structured = true;
        out.append(m);
        if (firstOnly)
            break;
        i += k - 1;
    }
    return out;
}

// Every match of a condition over the whole text (regex: multi-line, global).
QList<Match> matchesOf(const Condition& c, const QString& text, bool firstOnly)
{
    if (c.command)
        return commandMatches(*c.command, text, firstOnly);
    if (!c.python.isEmpty())
        return pythonMatches(c.python, text, firstOnly);
    QList<Match> out;
    if (c.isRegex()) {
        for (auto it = compile(c.regex).globalMatch(text); it.hasNext();) {
            const auto rm = it.next();
            Match m;
            m.start = rm.capturedStart();
            m.end = rm.capturedEnd();
            m.captures = capturesOf(rm);
            out.append(m);
            if (firstOnly)
                break;
        }
    } else if (!c.literal.isEmpty()) {
        for (qsizetype p = text.indexOf(c.literal); p >= 0; p = text.indexOf(c.literal, p + c.literal.size())) {
            Match m;
            m.start = p;
            m.end = p + c.literal.size();
            m.captures = { c.literal };
            out.append(m);
            if (firstOnly)
                break;
        }
    }
    return out;
}

// The replacement text, each line after the first indented like the structure it replaces.
QString replacementFor(const Edit& e, const Match& m)
{
    const QString expanded = expand(e.with, m.captures);
    if (!m.structured || m.indent.isEmpty())
        return expanded;
    QStringList lines = expanded.split(QLatin1Char('\n'));
    for (qsizetype i = 1; i < lines.size(); ++i)
        if (!lines[i].isEmpty())
            lines[i] = m.indent + lines[i];
    return lines.join(QLatin1Char('\n'));
}

// What a missing anchor looked like, in words the nearest-lines search can compare.
QString soughtWords(const Condition& c)
{
    if (c.command) {
        QString s = c.command->name;
        for (const ArgumentPattern& a : c.command->arguments)
            s += QLatin1Char(' ') + (a.regex.isEmpty() ? a.literal : a.regex);
        return s;
    }
    if (!c.python.isEmpty())
        return c.python.join(QLatin1Char(' '));
    return c.isRegex() ? c.regex : c.literal;
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

EditOutcome missing(const Edit& e, const QString& text, const QString& what)
{
    EditOutcome o;
    o.kind = EditOutcome::Missing;
    o.message = what;
    const auto near = nearestLines(text, soughtWords(e.match));
    o.nearestLine = near.first;
    o.nearestLines = near.second;
    return o;
}

// The command a wrap puts before a call already stands right before it (comments and blank
// lines between them do not count).
bool commandAlreadyWrapped(const QString& text, const Match& m, const QString& before)
{
    const CMakeScript wanted = parseCMakeScript(before);
    if (wanted.commands.isEmpty())
        return false;
    const CMakeCommand& last = wanted.commands.last();
    const CMakeScript script = parseCMakeScript(QStringView(text).left(m.start));
    if (script.commands.isEmpty())
        return false;
    const CMakeCommand& previous = script.commands.last();
    return previous.is(last.name) && previous.values() == last.values();
}

} // namespace

bool ArgumentPattern::matches(const QString& value) const
{
    if (!regex.isEmpty())
        return compile(regex).match(value).hasMatch();
    return value == literal;
}

QString ArgumentPattern::describe() const
{
    return regex.isEmpty() ? literal : QStringLiteral("/%1/").arg(regex);
}

bool CommandPattern::matches(const CMakeCommand& c) const
{
    if (!name.isEmpty() && !c.is(name))
        return false;
    if (topLevel && c.blockDepth > 0)
        return false;
    int used = 0;
    for (const ArgumentPattern& p : arguments) {
        bool found = false;
        for (const CMakeArgument& a : c.arguments)
            if (!a.nesting && p.matches(a.value)) {
                found = true;
                break;
            }
        if (!found)
            return false;
        ++used;
    }
    if (exact) {
        qsizetype real = 0;
        for (const CMakeArgument& a : c.arguments)
            real += a.nesting ? 0 : 1;
        return real == used;
    }
    return true;
}

QString CommandPattern::describe() const
{
    QStringList args;
    for (const ArgumentPattern& a : arguments)
        args.append(a.describe());
    if (!exact)
        args.append(QStringLiteral("..."));
    return QStringLiteral("%1 call %2(%3)")
        .arg(topLevel ? QStringLiteral("a top-level") : QStringLiteral("a"),
            name.isEmpty() ? QStringLiteral("<any command>") : name, args.join(QLatin1Char(' ')));
}

bool Condition::matches(const QString& text) const
{
    if (command || !python.isEmpty())
        return !matchesOf(*this, text, true).isEmpty();
    if (isRegex())
        return compile(regex).match(text).hasMatch();
    return text.contains(literal);
}

int Condition::firstLine(const QString& text) const
{
    const QList<Match> found = matchesOf(*this, text, true);
    return found.isEmpty() ? 0 : lineAt(text, found.first().start);
}

QString Condition::describe() const
{
    if (command)
        return command->describe();
    if (!python.isEmpty())
        return QStringLiteral("the Python line%1 %2")
            .arg(python.size() == 1 ? QString() : QStringLiteral("s"),
                QStringLiteral("\"") + python.join(QStringLiteral("\" / \"")) + QLatin1Char('"'));
    if (isRegex())
        return QStringLiteral("a match for /%1/").arg(regex);
    return QStringLiteral("the text \"%1\"").arg(literal);
}

QString Edit::kindName() const
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

EditOutcome applyEdit(const Edit& e, QString* textIo)
{
    // Work on LF text; restore CRLF at the end so the file keeps its style.
    const bool crlf = textIo->contains(QStringLiteral("\r\n"));
    QString text = crlf ? QString(*textIo).replace(QStringLiteral("\r\n"), QStringLiteral("\n")) : *textIo;
    EditOutcome o;
    if (!e.doneIf.isEmpty()) {
        const QList<Match> done = matchesOf(e.doneIf, text, true);
        if (!done.isEmpty()) {
            o.kind = EditOutcome::AlreadyThere;
            o.line = lineAt(text, done.first().start);
            o.message = QStringLiteral("already done (%1 found at line %2)").arg(e.doneIf.describe()).arg(o.line);
            return o;
        }
    }
    auto commit = [&](const QString& updated) {
        *textIo = crlf ? QString(updated).replace(QLatin1Char('\n'), QStringLiteral("\r\n")) : updated;
    };

    switch (e.kind) {
    case Edit::Replace: {
        const QList<Match> found = matchesOf(e.match, text, e.firstOnly);
        if (found.isEmpty())
            return missing(e, text, QStringLiteral("%1 not found").arg(e.match.describe()));
        QString out;
        qsizetype last = 0;
        for (const Match& m : found) {
            out += QStringView(text).mid(last, m.start - last);
            out += replacementFor(e, m);
            last = m.end;
        }
        out += QStringView(text).mid(last);
        const int count = int(found.size());
        const int firstLine = lineAt(text, found.first().start);
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
    case Edit::InsertBefore:
    case Edit::InsertAfter:
    case Edit::Ensure: {
        QStringList lines = text.split(QLatin1Char('\n'));
        const QStringList block = blockLines(e.text);
        if (const int at = findBlock(lines, block); at >= 0) {
            o.kind = EditOutcome::AlreadyThere;
            o.line = at + 1;
            o.message = QStringLiteral("already present at line %1").arg(at + 1);
            return o;
        }
        qsizetype insertPos = -1; // character offset of a line start
        if (e.kind == Edit::Ensure && e.match.isEmpty()) {
            QString out = ensureNewline(text) + ensureNewline(e.text);
            o.line = lineAt(text, text.size()) + (text.endsWith(QLatin1Char('\n')) ? 0 : 1);
            commit(out);
            o.kind = EditOutcome::Changed;
            o.message = QStringLiteral("added at the end (line %1)").arg(o.line);
            return o;
        }
        const QList<Match> found = matchesOf(e.match, text, true);
        if (found.isEmpty())
            return missing(e, text, QStringLiteral("anchor %1 not found").arg(e.match.describe()));
        const qsizetype start = found.first().start, end = found.first().end;
        if (e.kind == Edit::InsertBefore) {
            insertPos = start == 0 ? 0 : text.lastIndexOf(QLatin1Char('\n'), start - 1) + 1;
        } else {
            // After the line where the match ends (a match ending in "\n" ends on the line before).
            const qsizetype lastChar = end > start ? end - 1 : start;
            const qsizetype nl = text.indexOf(QLatin1Char('\n'), lastChar);
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
    case Edit::Wrap: {
        const QStringList lines = text.split(QLatin1Char('\n'));
        // Each match as (first line, last line, captures), 0-based lines.
        struct Target
        {
            int first;
            int last;
            Match match;
        };
        QList<Target> targets;
        if (e.match.command) {
            for (const Match& m : matchesOf(e.match, text, e.firstOnly))
                targets.append({ m.firstLine - 1, m.lastLine - 1, m });
        } else {
            const QRegularExpression re = e.match.isRegex() ? compile(e.match.regex) : QRegularExpression();
            for (qsizetype i = 0; i < lines.size(); ++i) {
                Match m;
                if (e.match.isRegex()) {
                    const auto rm = re.match(lines[i]);
                    if (!rm.hasMatch())
                        continue;
                    m.captures = capturesOf(rm);
                } else if (e.match.literal.isEmpty() || !lines[i].contains(e.match.literal)) {
                    continue;
                }
                targets.append({ int(i), int(i), m });
                if (e.firstOnly)
                    break;
            }
        }
        if (targets.isEmpty())
            return missing(e, text, QStringLiteral("no line with %1").arg(e.match.describe()));
        int changed = 0, already = 0;
        QStringList out;
        out.reserve(lines.size() + 8);
        qsizetype next = 0; // the first line not yet copied
        for (const Target& t : targets) {
            if (t.first < next)
                continue; // overlaps the previous match
            for (; next < t.first; ++next)
                out.append(lines[next]);
            const QStringList beforeLines = blockLines(expand(e.before, t.match.captures));
            const QStringList afterLines = blockLines(expand(e.after, t.match.captures));
            bool wrapped;
            if (e.match.command) {
                wrapped = commandAlreadyWrapped(text, t.match, expand(e.before, t.match.captures));
            } else {
                // Already wrapped: the nearest non-blank line above is the last "before" line.
                qsizetype k = out.size() - 1;
                while (k >= 0 && out[k].trimmed().isEmpty())
                    --k;
                wrapped = k >= 0 && out[k].trimmed() == beforeLines.last().trimmed();
            }
            if (wrapped) {
                ++already;
                for (; next <= t.last; ++next)
                    out.append(lines[next]);
                continue;
            }
            const QString& l = lines[t.first];
            const QString ws = l.left(l.indexOf(QStringView(l).trimmed()));
            for (const QString& b : beforeLines)
                out.append(ws + b);
            for (; next <= t.last; ++next)
                out.append(lines[next].startsWith(ws) ? QString(ws + e.indent + lines[next].mid(ws.size()))
                                                      : QString(e.indent + lines[next]));
            for (const QString& a : afterLines)
                out.append(ws + a);
            ++changed;
        }
        for (; next < lines.size(); ++next)
            out.append(lines[next]);
        const int firstLine = targets.first().first + 1;
        o.line = firstLine;
        if (changed == 0) {
            o.kind = EditOutcome::AlreadyThere;
            o.message = QStringLiteral("already wrapped (line %1)").arg(firstLine);
            return o;
        }
        commit(out.join(QLatin1Char('\n')));
        o.kind = EditOutcome::Changed;
        o.message = QStringLiteral("wrapped %1 place%2 (first at line %3)%4")
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
