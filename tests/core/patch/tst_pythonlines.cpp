// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Python read as logical lines in one normalized spelling.
#include "core/patch/pythonlines.h"

#include <QTest>

using namespace kf::patch;

namespace {

QStringList texts(const PythonLines& p)
{
    QStringList out;
    for (const PythonLine& l : p.lines)
        out.append(l.text);
    return out;
}

} // namespace

class TestPythonLines : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void normalized_data();
    void normalized();
    void spans();
    void stringsKeptAsWritten();
    void errors();
};

void TestPythonLines::normalized_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("lines");
    QTest::newRow("flash_ops import, three spellings")
        << QStringLiteral("from sgl_kernel import flash_ops\n"
                          "from sgl_kernel import (\n    flash_ops,  # FA3\n)\n"
                          "from  sgl_kernel  import  flash_ops  # noqa: F401\n")
        << QStringList { "from sgl_kernel import flash_ops", "from sgl_kernel import flash_ops",
               "from sgl_kernel import flash_ops" };
    QTest::newRow("raise over lines with a trailing comma")
        << QStringLiteral("raise ImportError(\n    \"Can not import FA3.\",\n)  # why\n")
        << QStringList { "raise ImportError(\"Can not import FA3.\")" };
    QTest::newRow("comments and blank lines are not lines")
        << QStringLiteral("# head\n\ntry:  # t\n\n    # inside\n    x = 1\nexcept  :\n    pass\n")
        << QStringList { "try:", "x = 1", "except:", "pass" };
    QTest::newRow("backslash continuation") << QStringLiteral("x = 1 + \\\n    2\n") << QStringList { "x = 1 + 2" };
    QTest::newRow("calls and subscripts")
        << QStringLiteral("f( a , b [ 0 ] , c = { 'k' : 1 , } )\n") << QStringList { "f(a, b [0], c = {'k': 1})" };
}

void TestPythonLines::normalized()
{
    QFETCH(QString, text);
    QFETCH(QStringList, lines);
    const PythonLines p = readPythonLines(text);
    QVERIFY2(p, qPrintable(p.error));
    QCOMPARE(texts(p), lines);
}

void TestPythonLines::spans()
{
    const QString text = QStringLiteral("import os\n\ntry:\n    from sgl_kernel import (\n        flash_ops,\n    )\n"
                                        "except:\n    raise ImportError(\n        \"x\"\n    )\n");
    const PythonLines p = readPythonLines(text);
    QVERIFY2(p, qPrintable(p.error));
    QCOMPARE(p.lines.size(), 5);
    const PythonLine& imp = p.lines[2];
    QCOMPARE(imp.indent, QStringLiteral("    "));
    QCOMPARE(imp.firstLine, 4);
    QCOMPARE(imp.lastLine, 6);
    QCOMPARE(text.mid(imp.begin, imp.end - imp.begin),
        QStringLiteral("    from sgl_kernel import (\n        flash_ops,\n    )"));
    const PythonLine& raise = p.lines[4];
    QCOMPARE(raise.firstLine, 8);
    QCOMPARE(raise.lastLine, 10);
    QCOMPARE(raise.end, text.size() - 1);
}

void TestPythonLines::stringsKeptAsWritten()
{
    const PythonLines p = readPythonLines(u"x = f'a  ,)  # b' + \"\"\"multi\n  line ( \"\"\" + r'\\'' # c\ny = 2\n");
    QVERIFY2(p, qPrintable(p.error));
    QCOMPARE(texts(p), QStringList({ "x = f'a  ,)  # b' + \"\"\"multi\n  line ( \"\"\" + r'\\''", "y = 2" }));
    QCOMPARE(p.lines[1].firstLine, 3);
}

void TestPythonLines::errors()
{
    const PythonLines open = readPythonLines(u"a = 1\nb = 'never closed\nc = 3\n");
    QVERIFY(!open);
    QCOMPARE(open.error, QStringLiteral("a string opened at line 2 is never closed"));
    QCOMPARE(open.errorLine, 2);
    QCOMPARE(texts(open), QStringList({ "a = 1" }));
    const PythonLines deep = readPythonLines(QString(kMaxPythonNesting + 1, QLatin1Char('(')));
    QVERIFY(!deep);
    QCOMPARE(deep.error, QStringLiteral("brackets nested deeper than 200"));
}

QTEST_GUILESS_MAIN(TestPythonLines)
#include "tst_pythonlines.moc"
