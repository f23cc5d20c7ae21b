// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/hosts/hostprofilestore.h"
#include "tests/support/testsupport.h"

#include <QRegularExpression>
#include <QTemporaryDir>
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

    // The window system the user has, with no display to reach: QApplication would abort.
    static kf::test::ProcessOutput runGuiWithoutDisplay(const QStringList& args)
    {
        return kf::test::runProgram(QStringLiteral(KF_GUI_BINARY), args, 30000, {},
            { QStringLiteral("QT_QPA_PLATFORM=xcb"), QStringLiteral("DISPLAY="), QStringLiteral("WAYLAND_DISPLAY=") });
    }

    void guiVersionWorksWithoutADisplay()
    {
        const auto r = runGuiWithoutDisplay({ QStringLiteral("--version") });
        QVERIFY2(!r.crashed, r.err.constData());
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("kernelforge " KF_VERSION_STRING "\n"));
        QVERIFY2(r.out.contains("Highlighter:"), r.out.constData());
    }

    void guiHelpWorksWithoutADisplayAndNamesEveryTab()
    {
        const auto r = runGuiWithoutDisplay({ QStringLiteral("--help") });
        QVERIFY2(!r.crashed, r.err.constData());
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("--demo"), r.out.constData());
        QVERIFY2(
            r.out.simplified().contains("overview, patches, build, gpus, server, timeline, fleet"), r.out.constData());
        const auto all = runGuiWithoutDisplay({ QStringLiteral("--help-all") });
        QVERIFY2(!all.crashed, all.err.constData());
        QCOMPARE(all.exitCode, 0);
        QVERIFY2(all.out.contains("--demo"), all.out.constData());
    }

    void guiRefusesAnUnknownTab()
    {
        const auto r = runGuiWithoutDisplay({ QStringLiteral("--tab"), QStringLiteral("gpu") });
        QVERIFY2(!r.crashed, r.err.constData());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("no tab named 'gpu' (one of: overview, patches, build, gpus, server, timeline, fleet)"),
            r.err.constData());
        const auto level = runGuiWithoutDisplay({ QStringLiteral("--log-level"), QStringLiteral("loud") });
        QCOMPARE(level.exitCode, 2);
        QVERIFY2(level.err.contains("unknown log level 'loud'"), level.err.constData());
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
        QVERIFY2(r.err.contains("unknown log level 'loud'"), r.err.constData());
    }

    // --verbose and --log-level work after the command too, as users type them last.
    void globalOptionsAfterTheCommand()
    {
        QTemporaryDir home;
        const QStringList env { QStringLiteral("HOME=") + home.path(), QStringLiteral("XDG_CONFIG_HOME="),
            QStringLiteral("XDG_STATE_HOME="), QStringLiteral("XDG_CACHE_HOME="), QStringLiteral("XDG_DATA_HOME=") };
        auto r = kf::test::runCli(
            { QStringLiteral("build"), QStringLiteral("profiles"), QStringLiteral("--verbose") }, 30000, env);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.startsWith("PROFILE"), r.out.constData());
        r = kf::test::runCli(
            { QStringLiteral("build"), QStringLiteral("profiles"), QStringLiteral("--log-level=info") }, 30000, env);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = kf::test::runCli({ QStringLiteral("build"), QStringLiteral("profiles"), QStringLiteral("--log-level"),
                                 QStringLiteral("loud") },
            30000, env);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("unknown log level 'loud'"), r.err.constData());
    }
    // KF_STARTUP_TRACE=1 (bench_start): the window's first paint and the sidebar painted with
    // every saved host, on stdout; nothing without it.
    void guiStartupTraceReportsFirstPaintAndTheFilledHostList()
    {
        QTemporaryDir home;
        QList<kf::HostProfile> profiles;
        for (int i = 0; i < 3; ++i) {
            kf::HostProfile p;
            p.name = QStringLiteral("saved%1").arg(i);
            p.host = QStringLiteral("127.0.0.1");
            p.port = kf::test::freeLocalPort();
            profiles.append(p);
        }
        QVERIFY(kf::HostProfileStore(home.filePath(QStringLiteral(".config/kernelforge/hosts.yaml"))).save(profiles));
        const QStringList env { QStringLiteral("HOME=") + home.path(), QStringLiteral("XDG_CONFIG_HOME="),
            QStringLiteral("XDG_STATE_HOME="), QStringLiteral("XDG_CACHE_HOME="), QStringLiteral("XDG_DATA_HOME="),
            QStringLiteral("QT_QPA_PLATFORM=offscreen") };
        const QStringList args { QStringLiteral("--screenshot"), home.filePath(QStringLiteral("shot.png")),
            QStringLiteral("--screenshot-delay"), QStringLiteral("1500") };
        const auto traced = kf::test::runProgram(
            QStringLiteral(KF_GUI_BINARY), args, 60000, {}, env + QStringList { QStringLiteral("KF_STARTUP_TRACE=1") });
        QVERIFY2(!traced.crashed && traced.exitCode == 0, traced.err.constData());
        const QRegularExpression line(QStringLiteral("^(first-paint|hosts-listed) (\\d+\\.\\d) monotonic-ns (\\d+)$"));
        QStringList seen;
        for (const QByteArray& l : traced.out.split('\n')) {
            const QRegularExpressionMatch m = line.match(QString::fromUtf8(l));
            if (m.hasMatch()) {
                seen << m.captured(1);
                QVERIFY2(m.captured(2).toDouble() > 0, l.constData());
            }
        }
        QCOMPARE(seen, (QStringList { QStringLiteral("first-paint"), QStringLiteral("hosts-listed") }));
        const auto quiet = kf::test::runProgram(QStringLiteral(KF_GUI_BINARY), args, 60000, {}, env);
        QVERIFY2(!quiet.crashed && quiet.exitCode == 0, quiet.err.constData());
        QVERIFY2(!quiet.out.contains("first-paint") && !quiet.out.contains("hosts-listed"), quiet.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliBasics)
#include "tst_cli_basics.moc"
