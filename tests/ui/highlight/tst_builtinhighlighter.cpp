// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The built-in highlighter on real-looking Python: the format each range gets (keywords,
// strings of every quoting, comments, decorators, numbers), and nothing coloured as a string
// that is not one (sgl-kernel's flash_attn.py used to render all in string colour).
#include "ui/highlight/builtinhighlighter.h"

#include <QFile>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <QtTest>

using namespace kf;
using Role = BuiltinHighlighter::Role;

namespace {

// The role of the character at (line, column); nullopt: drawn in the default format.
std::optional<Role> roleAt(const QTextDocument& doc, int line, int column)
{
    const QTextBlock block = doc.findBlockByNumber(line);
    for (const QTextLayout::FormatRange& r : block.layout()->formats()) {
        if (column < r.start || column >= r.start + r.length)
            continue;
        for (Role role : { Role::Keyword, Role::Builtin, Role::Number, Role::String, Role::Comment, Role::Decorator,
                 Role::Variable }) {
            if (r.format == BuiltinHighlighter::roleFormat(role))
                return role;
        }
        return std::nullopt;
    }
    return std::nullopt;
}

// The column of the `nth` occurrence of `needle` on `line`.
int col(const QTextDocument& doc, int line, const QString& needle, int nth = 0)
{
    const QString text = doc.findBlockByNumber(line).text();
    int at = -1;
    for (int i = 0; i <= nth; ++i) {
        at = int(text.indexOf(needle, at + 1));
        if (at < 0)
            return -1;
    }
    return at;
}

// (Not a raw string: moc does not read this file past one with these quotes in it.)
const char* kSource = "# A comment with \"quotes\" and 'apostrophes' is still a comment\n"
                      "import os\n"
                      "from typing import Optional\n"
                      "\n"
                      "\n"
                      "@torch.library.custom_op(\"sgl_kernel::fwd\", mutates_args=())\n"
                      "def flash_attn(q, k: Optional[int] = None, scale=0.5, n=0x1F):\n"
                      "    \"\"\"Run FA3.\n"
                      "\n"
                      "    A '#' here is not a comment, nor is \"this\" a string of its own.\n"
                      "    \"\"\"\n"
                      "    path = f\"{os.sep}#not-a-comment/{q!r}\"  # a real comment\n"
                      "    msg = 'it\\'s # still a string'\n"
                      "    raw = r\"C:\\dir\\\"\" + \"done\"\n"
                      "    if q is None and n >= 10:\n"
                      "        return 1e-3\n"
                      "    return '''\n"
                      "single-quoted triple with \"\"\" inside\n"
                      "'''\n"
                      "def after():\n"
                      "    pass";

QString nameOf(std::optional<Role> role)
{
    if (!role)
        return QStringLiteral("plain");
    switch (*role) {
    case Role::Keyword: return QStringLiteral("keyword");
    case Role::Builtin: return QStringLiteral("builtin");
    case Role::Number: return QStringLiteral("number");
    case Role::String: return QStringLiteral("string");
    case Role::Comment: return QStringLiteral("comment");
    case Role::Decorator: return QStringLiteral("decorator");
    case Role::Variable: return QStringLiteral("variable");
    }
    return {};
}

} // namespace

class TestBuiltinHighlighter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void python()
    {
        QTextDocument doc;
        doc.setPlainText(QString::fromUtf8(kSource));
        BuiltinHighlighter h(&doc, CodeLanguage::Python);
        h.rehighlight();
        auto at = [&](int line, const char* needle, int offset = 0, int nth = 0) {
            const int c = col(doc, line, QString::fromUtf8(needle), nth);
            return c < 0 ? QStringLiteral("missing") : nameOf(roleAt(doc, line, c + offset));
        };
        const QString plain = nameOf(std::nullopt);

        QCOMPARE(at(0, "#"), nameOf(Role::Comment));
        QCOMPARE(at(0, "\"quotes\"", 1), nameOf(Role::Comment));
        QCOMPARE(at(1, "import"), nameOf(Role::Keyword));
        QCOMPARE(at(1, "os"), plain);
        QCOMPARE(at(2, "from"), nameOf(Role::Keyword));
        QCOMPARE(at(2, "typing"), plain);
        // Decorators, and the string and call after them.
        QCOMPARE(at(5, "@torch"), nameOf(Role::Decorator));
        QCOMPARE(at(5, "custom_op"), nameOf(Role::Decorator));
        QCOMPARE(at(5, "\"sgl_kernel"), nameOf(Role::String));
        QCOMPARE(at(5, "mutates_args"), plain);
        // Keywords, names, numbers.
        QCOMPARE(at(6, "def"), nameOf(Role::Keyword));
        QCOMPARE(at(6, "flash_attn"), plain);
        QCOMPARE(at(6, "int"), nameOf(Role::Builtin));
        QCOMPARE(at(6, "None"), nameOf(Role::Keyword));
        QCOMPARE(at(6, "0.5"), nameOf(Role::Number));
        QCOMPARE(at(6, "0.5", 2), nameOf(Role::Number));
        QCOMPARE(at(6, "0x1F", 3), nameOf(Role::Number));
        QCOMPARE(at(6, "n="), plain);
        // A docstring over four lines: quotes and '#' inside it are its text.
        QCOMPARE(at(7, "\"\"\""), nameOf(Role::String));
        QCOMPARE(at(7, "FA3"), nameOf(Role::String));
        QCOMPARE(at(9, "'#'", 1), nameOf(Role::String));
        QCOMPARE(at(9, "comment"), nameOf(Role::String));
        QCOMPARE(at(9, "\"this\"", 1), nameOf(Role::String));
        QCOMPARE(at(9, "own"), nameOf(Role::String));
        QCOMPARE(at(10, "\"\"\"", 2), nameOf(Role::String));
        // An f-string holding '#', then a real comment.
        QCOMPARE(at(11, "path"), plain);
        QCOMPARE(at(11, "f\""), nameOf(Role::String));
        QCOMPARE(at(11, "#not"), nameOf(Role::String));
        QCOMPARE(at(11, "!r}\"", 3), nameOf(Role::String));
        QCOMPARE(at(11, "# a real"), nameOf(Role::Comment));
        QCOMPARE(at(11, "real comment", 5), nameOf(Role::Comment));
        // Escaped quotes do not end a string.
        QCOMPARE(at(12, "'it"), nameOf(Role::String));
        QCOMPARE(at(12, "# still"), nameOf(Role::String));
        QCOMPARE(at(12, "string'", 6), nameOf(Role::String));
        QCOMPARE(at(13, "r\"C"), nameOf(Role::String));
        QCOMPARE(at(13, "\" +", 0), nameOf(Role::String)); // the quote after \" closes it
        QCOMPARE(at(13, "+"), plain);
        QCOMPARE(at(13, "\"done\"", 1), nameOf(Role::String));
        QCOMPARE(at(14, "if"), nameOf(Role::Keyword));
        QCOMPARE(at(14, "is"), nameOf(Role::Keyword));
        QCOMPARE(at(14, "and"), nameOf(Role::Keyword));
        QCOMPARE(at(14, "10"), nameOf(Role::Number));
        QCOMPARE(at(15, "return"), nameOf(Role::Keyword));
        QCOMPARE(at(15, "1e-3"), nameOf(Role::Number));
        QCOMPARE(at(15, "1e-3", 3), nameOf(Role::Number));
        // A ''' string holds """ and ends where ''' does.
        QCOMPARE(at(16, "'''"), nameOf(Role::String));
        QCOMPARE(at(17, "single"), nameOf(Role::String));
        QCOMPARE(at(17, "\"\"\""), nameOf(Role::String));
        QCOMPARE(at(17, "inside"), nameOf(Role::String));
        QCOMPARE(at(18, "'''"), nameOf(Role::String));
        QCOMPARE(at(19, "def"), nameOf(Role::Keyword));
        QCOMPARE(at(19, "after"), plain);
        QCOMPARE(at(20, "pass"), nameOf(Role::Keyword));
    }

    // The file the issue names: sgl-kernel's flash_attn.py (the demo server's copy).
    void flashAttnIsNotOneString()
    {
        QFile f(QStringLiteral(KF_SOURCE_DIR "/resources/demo/home/sgl-kernel/python/sgl_kernel/flash_attn.py"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QTextDocument doc;
        doc.setPlainText(QString::fromUtf8(f.readAll()));
        BuiltinHighlighter h(&doc, CodeLanguage::Python);
        h.rehighlight();
        int defs = 0;
        for (QTextBlock b = doc.begin(); b.isValid(); b = b.next()) {
            const QString text = b.text();
            if (text.startsWith(QLatin1String("def "))) {
                ++defs;
                QCOMPARE(nameOf(roleAt(doc, b.blockNumber(), 0)), nameOf(Role::Keyword));
                QCOMPARE(nameOf(roleAt(doc, b.blockNumber(), 4)), nameOf(std::nullopt));
            }
            if (text.startsWith(QLatin1String("# ")))
                QCOMPARE(nameOf(roleAt(doc, b.blockNumber(), 0)), nameOf(Role::Comment));
            if (const qsizetype doc3 = text.indexOf(QLatin1String("\"\"\"")); doc3 >= 0)
                QCOMPARE(nameOf(roleAt(doc, b.blockNumber(), int(doc3))), nameOf(Role::String));
        }
        QVERIFY(defs >= 3);
        QCOMPARE(doc.lastBlock().userState(), 0); // no string left open at the end
    }

    // C++ has the same first-line rule: a file not starting in a comment is not one comment.
    void cppFirstLineIsCode()
    {
        QTextDocument doc;
        doc.setPlainText(QStringLiteral("int x = 1; /* one\ntwo */ return x;\nreturn 0;"));
        BuiltinHighlighter h(&doc, CodeLanguage::Cpp);
        h.rehighlight();
        QCOMPARE(nameOf(roleAt(doc, 0, 0)), nameOf(Role::Keyword));
        QCOMPARE(nameOf(roleAt(doc, 0, 12)), nameOf(Role::Comment));
        QCOMPARE(nameOf(roleAt(doc, 1, 0)), nameOf(Role::Comment));
        QCOMPARE(nameOf(roleAt(doc, 1, 7)), nameOf(Role::Keyword));
        QCOMPARE(nameOf(roleAt(doc, 2, 0)), nameOf(Role::Keyword));
    }
};

QTEST_MAIN(TestBuiltinHighlighter)
#include "tst_builtinhighlighter.moc"
