// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Every validator of names that reach a shell or a path, with the inputs that slip past a
// regex anchored with '$' (which also matches before a final "\n"): trailing newline, NUL,
// leading dash.
#include "core/jobs/jobfolder.h"
#include "core/transport/localtransport.h"
#include "core/util/pathcheck.h"
#include "core/util/shellquote.h"

#include <QtTest>

using namespace kf;

class TestValidators : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shellQuoteSurvivesARealShell_data()
    {
        QTest::addColumn<QString>("word");
        QTest::newRow("trailing newline") << "victim\n";
        QTest::newRow("two trailing newlines") << "victim\n\n";
        QTest::newRow("nul inside") << QString::fromUtf8("a\0b", 3);
        QTest::newRow("leading dash") << "-rf";
        QTest::newRow("newline then command") << "x\nid";
    }
    void shellQuoteSurvivesARealShell()
    {
        QFETCH(QString, word);
        const QString q = shellQuote(word);
        if (word.contains(QLatin1Char('\n')))
            QVERIFY2(q.startsWith(QLatin1Char('\'')), qPrintable(q));
        if (word.contains(QChar(0)))
            return; // argv cannot carry NUL; quoting it is enough (it is never "safe")
        LocalTransport t;
        CommandSpec spec;
        spec.command = QStringLiteral("printf '[%s]' ") + q;
        const ExecResult r = t.exec(spec, 10000);
        QVERIFY2(r.ok(), r.stdErr.constData());
        QCOMPARE(QString::fromUtf8(r.stdOut), QStringLiteral("[%1]").arg(word));
    }

    void shellNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("ok");
        QTest::newRow("plain") << "HF_TOKEN" << true;
        QTest::newRow("underscore first") << "_X1" << true;
        QTest::newRow("trailing newline") << "HF_TOKEN\n" << false;
        QTest::newRow("nul") << QString::fromUtf8("A\0B", 3) << false;
        QTest::newRow("leading dash") << "-A" << false;
        QTest::newRow("digit first") << "1A" << false;
        QTest::newRow("empty") << "" << false;
    }
    void shellNames()
    {
        QFETCH(QString, name);
        QFETCH(bool, ok);
        QCOMPARE(isShellName(name), ok);
    }

    void jobIds_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<bool>("ok");
        QTest::newRow("generated") << jobs::newJobId() << true;
        QTest::newRow("dots inside") << "a.b_c-1" << true;
        QTest::newRow("trailing newline") << "20260101-000000-abcd\n" << false;
        QTest::newRow("nul") << QString::fromUtf8("abc\0d", 5) << false;
        QTest::newRow("leading dash") << "-rf" << false;
        QTest::newRow("empty") << "" << false;
        QTest::newRow("dotdot") << ".." << false;
        QTest::newRow("slash") << "a/b" << false;
        QTest::newRow("65 chars") << QString(65, QLatin1Char('a')) << false;
    }
    void jobIds()
    {
        QFETCH(QString, id);
        QFETCH(bool, ok);
        QCOMPARE(jobs::isValidJobId(id), ok);
    }

    void controlCharacters()
    {
        QCOMPARE(firstControlCharacter(QStringLiteral("victim\n")), QStringLiteral("\\n"));
        QCOMPARE(firstControlCharacter(QString::fromUtf8("a\0", 2)), QStringLiteral("\\x00"));
        QCOMPARE(firstControlCharacter(QStringLiteral("a\x7f")), QStringLiteral("\\x7f"));
        QCOMPARE(firstControlCharacter(QString::fromUtf8("caf\xc3\xa9 -x")), QString());
    }
};

QTEST_GUILESS_MAIN(TestValidators)
#include "tst_validators.moc"
