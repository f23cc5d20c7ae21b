// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// checkCMakeSyntax: what CMake would refuse to read (unclosed commands, quotes and brackets,
// unpaired blocks) against what it reads (every sgl-kernel variant, patched or not).
#include "core/patch/cmakesyntax.h"
#include "core/patch/patchplan.h"
#include "core/patch/patchset.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QTest>

using namespace kf::patch;

class TestCMakeSyntax : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parses_data();
    void parses();
    void broken_data();
    void broken();
    void everyVariantParsesBeforeAndAfterTheBuiltinSet();
    void deepNestingIsBounded();
};

void TestCMakeSyntax::parses_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("empty") << QString();
    QTest::newRow("commands") << QStringLiteral("cmake_minimum_required(VERSION 3.26)\nproject(x LANGUAGES CXX)\n");
    QTest::newRow("nested parens") << QStringLiteral("if((A AND B) OR (C))\n  message(x)\nendif()\n");
    QTest::newRow("blocks, any case") << QStringLiteral(
        "IF(A)\nelseif(B)\nElse()\nEndIf()\nforeach(x IN LISTS l)\nwhile(y)\nendwhile()\nendforeach()\n"
        "function(f)\nendfunction()\nmacro(m)\nendmacro()\nblock()\nendblock()\n");
    QTest::newRow("quoted with escapes and parens") << QStringLiteral("set(a \"x ( \\\" ) y\")\n");
    QTest::newRow("quoted over lines") << QStringLiteral("set(a \"one\ntwo\")\nmessage(${a})\n");
    QTest::newRow("bracket argument") << QStringLiteral("set(a [==[ ) \" ]] ]==])\n");
    QTest::newRow("comments") << QStringLiteral("# ( \" [[\n#[[ if(\n ]]\nset(a b # ) inside\n  c)\n");
    QTest::newRow("escaped parens") << QStringLiteral("set(a \\( b \\))\n");
    QTest::newRow("space before paren") << QStringLiteral("if (A)\nendif ()\n");
    QTest::newRow("CRLF") << QStringLiteral("if(A)\r\n  set(b c)\r\nendif()\r\n");
}

void TestCMakeSyntax::parses()
{
    QFETCH(QString, text);
    const CMakeSyntax r = checkCMakeSyntax(text);
    QVERIFY2(r.ok, qPrintable(r.message));
}

void TestCMakeSyntax::broken_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("words");
    QTest::newRow("unclosed command") << QStringLiteral("set(a b\nmessage(x)\n") << 1
                                      << QStringLiteral("set( opened at line 1 is never closed");
    QTest::newRow("unclosed quote") << QStringLiteral("project(x)\nset(a \"b)\n") << 2
                                    << QStringLiteral("quote opened at line 2 is never closed");
    QTest::newRow("unclosed bracket") << QStringLiteral("set(a [=[ b ]] )\n") << 1
                                      << QStringLiteral("bracket argument opened at line 1");
    QTest::newRow("unclosed bracket comment")
        << QStringLiteral("#[[ x\n") << 1 << QStringLiteral("bracket comment opened at line 1");
    QTest::newRow("if without endif") << QStringLiteral("if(A)\n  set(b c)\n") << 1
                                      << QStringLiteral("if() opened at line 1 has no endif()");
    QTest::newRow("endif without if") << QStringLiteral("set(a b)\nendif()\n") << 2
                                      << QStringLiteral("endif() without an open if()");
    QTest::newRow("crossed blocks") << QStringLiteral("if(A)\nforeach(x y)\nendif()\nendforeach()\n") << 3
                                    << QStringLiteral("endif() closes foreach() opened at line 2");
    QTest::newRow("else outside if") << QStringLiteral("foreach(x y)\nelse()\nendforeach()\n") << 2
                                     << QStringLiteral("else() without an open if()");
    QTest::newRow("stray word") << QStringLiteral("set(a b)\nstray\n") << 2
                                << QStringLiteral("stray is not followed by '('");
    QTest::newRow("stray paren") << QStringLiteral("set(a b))\n") << 1 << QStringLiteral("unexpected ')'");
}

void TestCMakeSyntax::broken()
{
    QFETCH(QString, text);
    QFETCH(int, line);
    QFETCH(QString, words);
    const CMakeSyntax r = checkCMakeSyntax(text);
    QVERIFY(!r.ok);
    QCOMPARE(r.line, line);
    QVERIFY2(r.message.contains(words), qPrintable(r.message));
    QVERIFY2(r.message.startsWith(QStringLiteral("line %1: ").arg(line)), qPrintable(r.message));
}

// What KernelForge patches must pass before and after: every variant's CMakeLists.txt as it
// is and as the built-in set leaves it (CRLF and generator expressions included).
void TestCMakeSyntax::everyVariantParsesBeforeAndAfterTheBuiltinSet()
{
    const auto set = loadPatchSet(QStringLiteral("builtin:sgl-kernel-sm120-cuda13"));
    QVERIFY2(set, qPrintable(set.error()));
    const QString root = kf::test::dataPath(QStringLiteral("sgl-kernel-variants"));
    const QStringList variants = QDir(root).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QVERIFY(!variants.isEmpty());
    for (const QString& v : variants) {
        const QByteArray cmake = kf::test::readFile(root + QLatin1Char('/') + v + QStringLiteral("/CMakeLists.txt"));
        QVERIFY(!cmake.isEmpty());
        const CMakeSyntax before = checkCMakeSyntax(QString::fromUtf8(cmake));
        QVERIFY2(before.ok, qPrintable(v + QStringLiteral(": ") + before.message));
        const SetPlan plan = planSetOnFiles(set.value(), { { QStringLiteral("CMakeLists.txt"), cmake } });
        const CMakeSyntax after = checkCMakeSyntax(QString::fromUtf8(plan.files.first().proposed));
        QVERIFY2(after.ok, qPrintable(v + QStringLiteral(" patched: ") + after.message));
    }
}

void TestCMakeSyntax::deepNestingIsBounded()
{
    const CMakeSyntax parens = checkCMakeSyntax(QStringLiteral("set(") + QString(5000, QLatin1Char('(')));
    QVERIFY(!parens.ok);
    QVERIFY2(parens.message.contains(QStringLiteral("nested more than 1000")), qPrintable(parens.message));
    QString blocks;
    for (int i = 0; i < 300; ++i)
        blocks += QStringLiteral("if(A)\n");
    const CMakeSyntax deep = checkCMakeSyntax(blocks);
    QVERIFY(!deep.ok);
    QVERIFY2(deep.message.contains(QStringLiteral("blocks nested more than 256")), qPrintable(deep.message));
}

QTEST_GUILESS_MAIN(TestCMakeSyntax)
#include "tst_cmakesyntax.moc"
