// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "tests/support/testsupport.h"

#include <QtTest>

class TestCliBasics : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void versionListsComponents()
    {
        const auto r = kf::test::runCli({ QStringLiteral("--version") });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("kernelforge-cli " KF_VERSION_STRING "\n"));
        for (const char* lib : { "Qt:", "libssh2:", "spdlog:", "yaml-cpp:" })
            QVERIFY2(r.out.contains(lib), r.out.constData());
    }

    void guiVersionWorksWithoutADisplay()
    {
        const auto r = kf::test::runProgram(QStringLiteral(KF_GUI_BINARY), { QStringLiteral("--version") }, 30000, {},
            { QStringLiteral("QT_QPA_PLATFORM=offscreen") });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("kernelforge " KF_VERSION_STRING "\n"));
        QVERIFY2(r.out.contains("Highlighter:"), r.out.constData());
    }

    void helpListsCommands()
    {
        const auto r = kf::test::runCli({ QStringLiteral("--help") });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("Commands:"));
    }

    void unknownCommandIsAnError()
    {
        const auto r = kf::test::runCli({ QStringLiteral("frobnicate") });
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("unknown command 'frobnicate'"));
    }

    void badLogLevelIsAnError()
    {
        const auto r
            = kf::test::runCli({ QStringLiteral("--log-level"), QStringLiteral("loud"), QStringLiteral("--help") });
        QCOMPARE(r.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliBasics)
#include "tst_cli_basics.moc"
