// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/highlight/builtinhighlighter.h"

#include <QFileInfo>

#ifdef KF_HAVE_KSYNTAXHIGHLIGHTING
#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/SyntaxHighlighter>
#include <KSyntaxHighlighting/Theme>
#endif

namespace kf {
namespace {

QTextCharFormat fmt(const QColor& color, bool bold = false, bool italic = false)
{
    QTextCharFormat f;
    f.setForeground(color);
    if (bold)
        f.setFontWeight(QFont::Bold);
    f.setFontItalic(italic);
    return f;
}

// A block's state; -1 (Qt's "not set", the first block's previous state) reads as Normal.
enum State { Normal = 0, InBlockComment = 1, InTripleQuote = 2, InTripleApostrophe = 3 };

const QStringList kPythonKeywords = { QStringLiteral("and"), QStringLiteral("as"), QStringLiteral("assert"),
    QStringLiteral("async"), QStringLiteral("await"), QStringLiteral("break"), QStringLiteral("case"),
    QStringLiteral("class"), QStringLiteral("continue"), QStringLiteral("def"), QStringLiteral("del"),
    QStringLiteral("elif"), QStringLiteral("else"), QStringLiteral("except"), QStringLiteral("finally"),
    QStringLiteral("for"), QStringLiteral("from"), QStringLiteral("global"), QStringLiteral("if"),
    QStringLiteral("import"), QStringLiteral("in"), QStringLiteral("is"), QStringLiteral("lambda"),
    QStringLiteral("match"), QStringLiteral("nonlocal"), QStringLiteral("not"), QStringLiteral("or"),
    QStringLiteral("pass"), QStringLiteral("raise"), QStringLiteral("return"), QStringLiteral("try"),
    QStringLiteral("while"), QStringLiteral("with"), QStringLiteral("yield"), QStringLiteral("None"),
    QStringLiteral("True"), QStringLiteral("False") };
const QStringList kPythonBuiltins = { QStringLiteral("print"), QStringLiteral("len"), QStringLiteral("range"),
    QStringLiteral("isinstance"), QStringLiteral("globals"), QStringLiteral("super"), QStringLiteral("self"),
    QStringLiteral("int"), QStringLiteral("float"), QStringLiteral("str"), QStringLiteral("bool"),
    QStringLiteral("list"), QStringLiteral("dict"), QStringLiteral("tuple"), QStringLiteral("Exception"),
    QStringLiteral("ImportError"), QStringLiteral("RuntimeError"), QStringLiteral("ValueError"),
    QStringLiteral("NotImplementedError"), QStringLiteral("RuntimeWarning") };

bool isStringPrefix(QStringView word)
{
    if (word.size() > 2)
        return false;
    for (const QChar c : word)
        if (!QStringView(u"rRbBuUfF").contains(c))
            return false;
    return true;
}

} // namespace

CodeLanguage languageForFile(const QString& fileName)
{
    const QFileInfo fi(fileName);
    const QString name = fi.fileName().toLower();
    const QString ext = fi.suffix().toLower();
    if (name == QLatin1String("cmakelists.txt") || ext == QLatin1String("cmake"))
        return CodeLanguage::CMake;
    if (ext == QLatin1String("py") || ext == QLatin1String("pyi"))
        return CodeLanguage::Python;
    if (QStringList { QStringLiteral("c"), QStringLiteral("cc"), QStringLiteral("cpp"), QStringLiteral("cxx"),
            QStringLiteral("h"), QStringLiteral("hpp"), QStringLiteral("cu"), QStringLiteral("cuh"),
            QStringLiteral("inl") }
            .contains(ext))
        return CodeLanguage::Cpp;
    if (ext == QLatin1String("sh") || ext == QLatin1String("bash") || name == QLatin1String("makefile"))
        return CodeLanguage::Shell;
    if (ext == QLatin1String("diff") || ext == QLatin1String("patch"))
        return CodeLanguage::Diff;
    return CodeLanguage::None;
}

QSyntaxHighlighter* attachHighlighter(QTextDocument* document, const QString& fileName)
{
#ifdef KF_HAVE_KSYNTAXHIGHLIGHTING
    static KSyntaxHighlighting::Repository repository;
    const auto definition = repository.definitionForFileName(fileName);
    if (definition.isValid()) {
        auto* h = new KSyntaxHighlighting::SyntaxHighlighter(document);
        h->setTheme(repository.defaultTheme(KSyntaxHighlighting::Repository::LightTheme));
        h->setDefinition(definition);
        return h;
    }
#endif
    const CodeLanguage lang = languageForFile(fileName);
    if (lang == CodeLanguage::None)
        return nullptr;
    return new BuiltinHighlighter(document, lang);
}

QTextCharFormat BuiltinHighlighter::roleFormat(Role role)
{
    switch (role) {
    case Role::Keyword: return fmt(QColor(0x8e, 0x24, 0xaa), true);
    case Role::Builtin: return fmt(QColor(0x00, 0x5c, 0xc5));
    case Role::Number: return fmt(QColor(0xb3, 0x59, 0x00));
    case Role::String: return fmt(QColor(0x0a, 0x7e, 0x3a));
    case Role::Comment: return fmt(QColor(0x6a, 0x73, 0x7d), false, true);
    case Role::Decorator: return fmt(QColor(0x9a, 0x6e, 0x00));
    case Role::Variable: return fmt(QColor(0x95, 0x38, 0x00));
    }
    return {};
}

BuiltinHighlighter::BuiltinHighlighter(QTextDocument* document, CodeLanguage language)
    : QSyntaxHighlighter(document)
    , m_language(language)
    , m_comment(roleFormat(Role::Comment))
    , m_string(roleFormat(Role::String))
{
    const QTextCharFormat keyword = roleFormat(Role::Keyword);
    const QTextCharFormat builtin = roleFormat(Role::Builtin);
    const QTextCharFormat number = roleFormat(Role::Number);
    const QTextCharFormat variable = roleFormat(Role::Variable);
    switch (language) {
    case CodeLanguage::CMake:
        add(QStringLiteral(R"(^\s*(\w+)\s*\()"), builtin, 1);
        add(QStringLiteral(
                R"(\b(if|elseif|else|endif|foreach|endforeach|function|endfunction|macro|endmacro|while|endwhile|return)\b)"),
            keyword, 0, QRegularExpression::CaseInsensitiveOption);
        add(QStringLiteral(
                R"(\b(NOT|AND|OR|DEFINED|POLICY|CACHE|STREQUAL|VERSION_GREATER_EQUAL|VERSION_LESS|MATCHES|EXISTS|ON|OFF|TRUE|FALSE|PRIVATE|PUBLIC|INTERFACE|FORCE|BOOL|STRING)\b)"),
            keyword);
        add(QStringLiteral(R"(\$(?:CACHE|ENV)?\{[^}]*\})"), variable);
        add(QStringLiteral(R"(\b\d+(\.\d+)*\b)"), number);
        add(QStringLiteral(R"("(?:[^"\\]|\\.)*")"), m_string);
        add(QStringLiteral(R"(#.*$)"), m_comment);
        break;
    case CodeLanguage::Python: break; // scanned by highlightPython
    case CodeLanguage::Cpp:
        add(QStringLiteral(
                R"(\b(alignas|auto|bool|break|case|char|class|const|constexpr|continue|default|delete|do|double|else|enum|explicit|extern|false|float|for|if|inline|int|long|namespace|new|nullptr|operator|private|protected|public|return|short|signed|sizeof|static|struct|switch|template|this|true|typedef|typename|unsigned|using|virtual|void|volatile|while|__global__|__device__|__host__|__shared__)\b)"),
            keyword);
        add(QStringLiteral(R"(^\s*#\s*\w+)"), builtin);
        add(QStringLiteral(R"(\b(0x[0-9a-fA-F]+|\d+(\.\d+)?[fFuUlL]*)\b)"), number);
        add(QStringLiteral(R"("(?:[^"\\]|\\.)*"|<[\w./]+>(?=\s*$))"), m_string);
        add(QStringLiteral(R"(//.*$)"), m_comment);
        break;
    case CodeLanguage::Shell:
        add(QStringLiteral(R"(\b(if|then|else|elif|fi|for|while|do|done|case|esac|in|function|return|export|local)\b)"),
            keyword);
        add(QStringLiteral(R"(\$\{?\w+\}?)"), variable);
        add(QStringLiteral(R"("(?:[^"\\]|\\.)*"|'[^']*')"), m_string);
        add(QStringLiteral(R"((^|\s)#.*$)"), m_comment);
        break;
    case CodeLanguage::Diff:
        add(QStringLiteral(R"(^@@.*$)"), fmt(QColor(0x00, 0x5c, 0xc5), true));
        add(QStringLiteral(R"(^(\+\+\+|---) .*$)"), fmt(QColor(0x33, 0x33, 0x33), true));
        add(QStringLiteral(R"(^\+.*$)"), fmt(QColor(0x11, 0x6b, 0x29)));
        add(QStringLiteral(R"(^-.*$)"), fmt(QColor(0xb3, 0x1d, 0x28)));
        add(QStringLiteral(R"(^diff .*$)"), fmt(QColor(0x33, 0x33, 0x33), true));
        break;
    case CodeLanguage::None: break;
    }
}

void BuiltinHighlighter::add(
    const QString& pattern, const QTextCharFormat& format, int group, QRegularExpression::PatternOptions options)
{
    m_rules.append(Rule { QRegularExpression(pattern, options), format, group });
}

qsizetype BuiltinHighlighter::stringEnd(const QString& text, qsizetype from, const QString& quote)
{
    for (qsizetype i = from; i < text.size(); ++i) {
        if (text.at(i) == u'\\')
            ++i; // an escaped character never closes (raw strings too: r"\"" is one string)
        else if (QStringView(text).mid(i).startsWith(quote))
            return i + quote.size();
    }
    return -1;
}

void BuiltinHighlighter::highlightPython(const QString& text)
{
    static const QRegularExpression number(QStringLiteral(
        R"(0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?[jJ]?)"));
    static const QRegularExpression decorator(QStringLiteral(R"(^\s*(@[\w.]+))"));
    setCurrentBlockState(Normal);
    qsizetype i = 0;
    // A triple-quoted string from an earlier line.
    if (const int prev = previousBlockState(); prev == InTripleQuote || prev == InTripleApostrophe) {
        const QString quote = prev == InTripleQuote ? QStringLiteral("\"\"\"") : QStringLiteral("'''");
        const qsizetype end = stringEnd(text, 0, quote);
        setFormat(0, int(end < 0 ? text.size() : end), m_string);
        if (end < 0) {
            setCurrentBlockState(prev);
            return;
        }
        i = end;
    } else if (const auto m = decorator.match(text); m.hasMatch()) {
        setFormat(int(m.capturedStart(1)), int(m.capturedLength(1)), roleFormat(Role::Decorator));
        i = m.capturedEnd(1);
    }
    const QTextCharFormat keyword = roleFormat(Role::Keyword);
    const QTextCharFormat builtin = roleFormat(Role::Builtin);
    const QTextCharFormat numberFormat = roleFormat(Role::Number);
    while (i < text.size()) {
        const QChar c = text.at(i);
        if (c == u'#') {
            setFormat(int(i), int(text.size() - i), m_comment);
            return;
        }
        qsizetype stringStart = -1;
        qsizetype quoteAt = -1;
        if (c.isLetter() || c == u'_') {
            qsizetype j = i + 1;
            while (j < text.size() && (text.at(j).isLetterOrNumber() || text.at(j) == u'_'))
                ++j;
            const QStringView word = QStringView(text).mid(i, j - i);
            if (j < text.size() && (text.at(j) == u'"' || text.at(j) == u'\'') && isStringPrefix(word)) {
                stringStart = i; // f"...", rb'...'
                quoteAt = j;
            } else {
                if (kPythonKeywords.contains(word))
                    setFormat(int(i), int(j - i), keyword);
                else if (kPythonBuiltins.contains(word))
                    setFormat(int(i), int(j - i), builtin);
                i = j;
                continue;
            }
        } else if (c == u'"' || c == u'\'') {
            stringStart = quoteAt = i;
        } else if (c.isDigit() || (c == u'.' && i + 1 < text.size() && text.at(i + 1).isDigit())) {
            const auto m
                = number.match(text, i, QRegularExpression::NormalMatch, QRegularExpression::AnchorAtOffsetMatchOption);
            const qsizetype length = m.hasMatch() ? std::max<qsizetype>(1, m.capturedLength()) : 1;
            setFormat(int(i), int(length), numberFormat);
            i += length;
            continue;
        } else {
            ++i;
            continue;
        }
        const QChar q = text.at(quoteAt);
        const bool triple = QStringView(text).mid(quoteAt, 3) == QString(3, q);
        const QString quote = triple ? QString(3, q) : QString(q);
        const qsizetype end = stringEnd(text, quoteAt + quote.size(), quote);
        setFormat(int(stringStart), int((end < 0 ? text.size() : end) - stringStart), m_string);
        if (end < 0) {
            // A one-quote string ends with its line (a backslash continuation aside).
            if (triple)
                setCurrentBlockState(q == u'"' ? InTripleQuote : InTripleApostrophe);
            return;
        }
        i = end;
    }
}

void BuiltinHighlighter::highlightBlock(const QString& text)
{
    if (m_language == CodeLanguage::Python) {
        highlightPython(text);
        return;
    }
    for (const Rule& r : std::as_const(m_rules)) {
        for (auto it = r.pattern.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            setFormat(int(m.capturedStart(r.group)), int(m.capturedLength(r.group)), r.format);
        }
    }
    setCurrentBlockState(Normal);
    // Block comments (C++) span lines.
    if (m_language != CodeLanguage::Cpp)
        return;
    const QString open = QStringLiteral("/*");
    const QString close = QStringLiteral("*/");
    const bool continued = previousBlockState() == InBlockComment;
    qsizetype start = continued ? 0 : text.indexOf(open);
    while (start >= 0) {
        const qsizetype from = continued && start == 0 ? 0 : start + open.size();
        const qsizetype end = text.indexOf(close, from);
        qsizetype length;
        if (end < 0) {
            setCurrentBlockState(InBlockComment);
            length = text.size() - start;
        } else {
            length = end - start + close.size();
        }
        setFormat(int(start), int(length), m_comment);
        start = end < 0 ? -1 : text.indexOf(open, start + length);
    }
}

} // namespace kf
