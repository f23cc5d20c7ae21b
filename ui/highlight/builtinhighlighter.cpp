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

enum State { Normal = 0, InBlockComment = 1, InTripleQuote = 2 };

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

BuiltinHighlighter::BuiltinHighlighter(QTextDocument* document, CodeLanguage language)
    : QSyntaxHighlighter(document)
    , m_language(language)
    , m_comment(fmt(QColor(0x6a, 0x73, 0x7d), false, true))
    , m_string(fmt(QColor(0x0a, 0x7e, 0x3a)))
{
    const QTextCharFormat keyword = fmt(QColor(0x8e, 0x24, 0xaa), true);
    const QTextCharFormat builtin = fmt(QColor(0x00, 0x5c, 0xc5));
    const QTextCharFormat number = fmt(QColor(0xb3, 0x59, 0x00));
    const QTextCharFormat variable = fmt(QColor(0x95, 0x38, 0x00));
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
    case CodeLanguage::Python:
        add(QStringLiteral(
                R"(\b(and|as|assert|async|await|break|class|continue|def|del|elif|else|except|finally|for|from|global|if|import|in|is|lambda|nonlocal|not|or|pass|raise|return|try|while|with|yield|None|True|False)\b)"),
            keyword);
        add(QStringLiteral(
                R"(\b(print|len|range|isinstance|globals|super|Exception|ImportError|RuntimeError|NotImplementedError|RuntimeWarning)\b)"),
            builtin);
        add(QStringLiteral(R"(\b\d+(\.\d+)?\b)"), number);
        add(QStringLiteral(R"((?:[rbfu]{0,2})("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'))"), m_string);
        add(QStringLiteral(R"(#.*$)"), m_comment);
        break;
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

void BuiltinHighlighter::highlightBlock(const QString& text)
{
    for (const Rule& r : std::as_const(m_rules)) {
        for (auto it = r.pattern.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            setFormat(int(m.capturedStart(r.group)), int(m.capturedLength(r.group)), r.format);
        }
    }
    setCurrentBlockState(Normal);
    // Block comments (C++) and triple-quoted strings (Python) span lines.
    QString open, close;
    QTextCharFormat format;
    if (m_language == CodeLanguage::Cpp) {
        open = QStringLiteral("/*");
        close = QStringLiteral("*/");
        format = m_comment;
    } else if (m_language == CodeLanguage::Python) {
        open = close = QStringLiteral("\"\"\"");
        format = m_string;
    } else {
        return;
    }
    qsizetype start = previousBlockState() == Normal ? text.indexOf(open) : 0;
    while (start >= 0) {
        const qsizetype from = previousBlockState() == Normal || start > 0 ? start + open.size() : 0;
        const qsizetype end = text.indexOf(close, from);
        qsizetype length;
        if (end < 0) {
            setCurrentBlockState(m_language == CodeLanguage::Cpp ? InBlockComment : InTripleQuote);
            length = text.size() - start;
        } else {
            length = end - start + close.size();
        }
        setFormat(int(start), int(length), format);
        start = end < 0 ? -1 : text.indexOf(open, start + length);
    }
}

} // namespace kf
