// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// CMake read as CMake: commands, arguments, comments (line and bracket), bracket and quoted
// arguments, line breaks and nesting, and errors with their line.
#include "core/util/cmakescript.h"

#include <QTest>

using namespace kf;

class TestCMakeScript : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void commandsAndArguments();
    void commentsAreNotArguments_data();
    void commentsAreNotArguments();
    void bracketArguments();
    void quotedAndLegacyArguments();
    void nestingAndBlocks();
    void errors_data();
    void errors();
    void crlf();
};

void TestCMakeScript::commandsAndArguments()
{
    const QString text = QStringLiteral("cmake_minimum_required(VERSION 3.26 FATAL_ERROR)\n"
                                        "  Project ( sgl-kernel LANGUAGES CXX CUDA )\n"
                                        "include_directories(\n"
                                        "    ${PROJECT_SOURCE_DIR}/include\n"
                                        "    ${PROJECT_SOURCE_DIR}/csrc\n"
                                        ")  # trailing\n");
    const CMakeScript s = parseCMakeScript(text);
    QVERIFY2(s, qPrintable(s.error));
    QCOMPARE(s.commands.size(), 3);
    QCOMPARE(s.commands[0].name, QStringLiteral("cmake_minimum_required"));
    QCOMPARE(s.commands[0].values(), QStringList({ "VERSION", "3.26", "FATAL_ERROR" }));
    QVERIFY(s.commands[1].is(u"project"));
    QCOMPARE(s.commands[1].values(), QStringList({ "sgl-kernel", "LANGUAGES", "CXX", "CUDA" }));
    const CMakeCommand& inc = s.commands[2];
    QCOMPARE(inc.line, 3);
    QCOMPARE(inc.endLine, 6);
    QCOMPARE(inc.values(), QStringList({ "${PROJECT_SOURCE_DIR}/include", "${PROJECT_SOURCE_DIR}/csrc" }));
    QCOMPARE(text.mid(inc.begin, inc.end - inc.begin).left(20), QStringLiteral("include_directories("));
    QVERIFY(text.mid(inc.begin, inc.end - inc.begin).endsWith(QLatin1Char(')')));
    QCOMPARE(s.comments.size(), 1);
    QCOMPARE(s.comments[0].line, 6);
    QCOMPARE(describeCommand(inc, 1), QStringLiteral("include_directories(${PROJECT_SOURCE_DIR}/include ...)"));
}

void TestCMakeScript::commentsAreNotArguments_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("comment with parentheses inside the call")
        << QStringLiteral("include_directories(\n    ${A}/include\n    # the SM90 mixed-input (collective) lives "
                          "in ../jit (see x(y))\n    ${A}/../jit/include\n)\n");
    QTest::newRow("bracket comment with parentheses and newlines")
        << QStringLiteral("include_directories(${A}/include #[[ a (comment\n ) ]] ${A}/../jit/include)\n");
    QTest::newRow("bracket comment with equals")
        << QStringLiteral("include_directories(${A}/include #[==[ ]] ) ]=] ]==] ${A}/../jit/include)\n");
    QTest::newRow("comment right after the parenthesis")
        << QStringLiteral("include_directories(# (leading)\n${A}/include\n${A}/../jit/include)\n");
    QTest::newRow("comments between commands") << QStringLiteral(
        "# include_directories(${NOT}/this)\n#[[ include_directories(nor this) ]]\ninclude_directories(${A}/include "
        "${A}/../jit/include)\n");
}

void TestCMakeScript::commentsAreNotArguments()
{
    QFETCH(QString, text);
    const CMakeScript s = parseCMakeScript(text);
    QVERIFY2(s, qPrintable(s.error));
    QCOMPARE(s.commands.size(), 1);
    QCOMPARE(s.commands[0].values(), QStringList({ "${A}/include", "${A}/../jit/include" }));
    QVERIFY(!s.comments.isEmpty());
}

void TestCMakeScript::bracketArguments()
{
    const CMakeScript s = parseCMakeScript(u"message([=[a ]] (b) \"c\" # d]=] [[x]])\n");
    QVERIFY2(s, qPrintable(s.error));
    QCOMPARE(s.commands.size(), 1);
    QCOMPARE(s.commands[0].arguments.size(), 2);
    QCOMPARE(s.commands[0].arguments[0].kind, CMakeArgument::Bracket);
    QCOMPARE(s.commands[0].arguments[0].value, QStringLiteral("a ]] (b) \"c\" # d"));
    QCOMPARE(s.commands[0].arguments[1].value, QStringLiteral("x"));
    QVERIFY(s.comments.isEmpty()); // "# d" is inside the bracket argument
}

void TestCMakeScript::quotedAndLegacyArguments()
{
    const CMakeScript s = parseCMakeScript(u"set(X \"a ) # (b\" -Dy=\"c d\" e\\ f \"multi\nline\")\nset(Y 1)\n");
    QVERIFY2(s, qPrintable(s.error));
    QCOMPARE(s.commands.size(), 2);
    QCOMPARE(s.commands[0].values(), QStringList({ "X", "a ) # (b", "-Dy=\"c d\"", "e\\ f", "multi\nline" }));
    QCOMPARE(s.commands[0].arguments[1].kind, CMakeArgument::Quoted);
    QCOMPARE(s.commands[1].line, 3);
}

void TestCMakeScript::nestingAndBlocks()
{
    const CMakeScript s = parseCMakeScript(u"if((A) AND (B OR C))\n"
                                           "  foreach(x IN LISTS y)\n"
                                           "    set(Z ON)\n"
                                           "  endforeach()\n"
                                           "endif()\n"
                                           "set(W ON)\n");
    QVERIFY2(s, qPrintable(s.error));
    QCOMPARE(s.commands.size(), 6);
    QCOMPARE(s.commands[0].values(), QStringList({ "(", "A", ")", "AND", "(", "B", "OR", "C", ")" }));
    QVERIFY(s.commands[0].arguments[0].nesting);
    QCOMPARE(s.commands[0].blockDepth, 0);
    QCOMPARE(s.commands[1].blockDepth, 1);
    QCOMPARE(s.commands[2].blockDepth, 2);
    QCOMPARE(s.commands[3].blockDepth, 1);
    QCOMPARE(s.commands[4].blockDepth, 0);
    QCOMPARE(s.commands[5].blockDepth, 0);
}

void TestCMakeScript::errors_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("error");
    QTest::addColumn<int>("commandsKept");
    QTest::newRow("unclosed call") << QStringLiteral("set(A 1)\ninclude_directories(\n  x\n") << 2
                                   << QStringLiteral("include_directories( opened at line 2 is never closed") << 1;
    QTest::newRow("unclosed string") << QStringLiteral("set(A \"x)\n") << 1
                                     << QStringLiteral("a string opened at line 1 is never closed") << 0;
    QTest::newRow("unclosed bracket comment")
        << QStringLiteral("set(A 1)\n#[[ open\n") << 2 << QStringLiteral("a bracket [[ is never closed") << 1;
    QTest::newRow("stray parenthesis") << QStringLiteral("set(A 1))\n") << 1
                                       << QStringLiteral("unexpected ')' where a command should start") << 1;
    QTest::newRow("name without call") << QStringLiteral("set\n(A 1)\n") << 1
                                       << QStringLiteral("set is not followed by '('") << 0;
    QTest::newRow("too deep") << QStringLiteral("if(") + QString(kMaxCMakeNesting + 1, QLatin1Char('(')) << 1
                              << QStringLiteral("parentheses nested deeper than 1000") << 0;
}

void TestCMakeScript::errors()
{
    QFETCH(QString, text);
    QFETCH(int, line);
    QFETCH(QString, error);
    QFETCH(int, commandsKept);
    const CMakeScript s = parseCMakeScript(text);
    QVERIFY(!s);
    QCOMPARE(s.error, error);
    QCOMPARE(s.errorLine, line);
    QCOMPARE(s.commands.size(), commandsKept);
}

void TestCMakeScript::crlf()
{
    const CMakeScript s = parseCMakeScript(u"set(A\r\n  1) # c\r\nset(B 2)\r\n");
    QVERIFY2(s, qPrintable(s.error));
    QCOMPARE(s.commands.size(), 2);
    QCOMPARE(s.commands[0].values(), QStringList({ "A", "1" }));
    QCOMPARE(s.commands[1].line, 3);
}

QTEST_GUILESS_MAIN(TestCMakeScript)
#include "tst_cmakescript.moc"
