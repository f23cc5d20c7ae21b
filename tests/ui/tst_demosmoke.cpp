// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Offscreen smoke test of the whole window on the demo host, connected over our own SSH
// layer to the real sshd: every tab is visited, shows its content, and is grabbed as PNG.
#include "core/demo/demohost.h"
#include "core/hosts/hostmanager.h"
#include "core/monitor/gpumonitorhub.h"
#include "core/ssh/sshhostconnection.h"
#include "core/store/database.h"
#include "tests/support/testsupport.h"
#include "ui/mainwindow.h"

#include <QApplication>
#include <QLabel>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

class TestDemoSmoke : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("kernelforge-test"));
        QApplication::setApplicationName(QStringLiteral("kernelforge-demosmoke"));
        kf::store::setDatabasePath(m_db.filePath(QStringLiteral("history.sqlite")));
    }

    void everyTabWithTheDemoHostConnected()
    {
        KF_START_DEMO_HOST(demo);
        kf::HostManager hosts;
        hosts.setFactory(kf::SshHostConnection::factory(nullptr));
        kf::GpuMonitorHub monitors;
        kf::AppContext ctx;
        ctx.hosts = &hosts;
        ctx.demo = &demo;
        ctx.gpuMonitors = &monitors;
        kf::HostConnection* host = hosts.add(demo.profile(QStringLiteral("demo-gpu-server")));
        QVERIFY(host);
        host->connectToHost();
        QTRY_VERIFY2_WITH_TIMEOUT(host->state() == kf::ConnectionState::Ready, qPrintable(host->stateReason()), 30000);

        kf::MainWindow w(ctx);
        w.resize(1440, 900);
        w.show();
        w.selectHost(QStringLiteral("demo-gpu-server"));
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.currentHost(), host);

        // Overview: the facts card fills from the remote script (the replayed GPUs show up).
        QTRY_VERIFY_WITH_TIMEOUT(!w.tabs()->widget(0)->findChildren<QLabel*>().isEmpty()
                                     && [&] {
                                            for (QLabel* l : w.tabs()->widget(0)->findChildren<QLabel*>())
                                                if (l->text().contains(QStringLiteral("NVIDIA H200")))
                                                    return true;
                                            return false;
                                        }(),
                                 60000);
        // Patches: the built-in set is planned against the demo project by itself.
        w.tabs()->setCurrentIndex(1);
        auto* tree = w.tabs()->widget(1)->findChild<QTreeWidget*>();
        QVERIFY(tree);
        QTRY_VERIFY_WITH_TIMEOUT(tree->topLevelItemCount() >= 2, 60000);

        const QStringList names{QStringLiteral("overview"), QStringLiteral("patches"), QStringLiteral("build"),
                                QStringLiteral("gpus"), QStringLiteral("server"), QStringLiteral("fleet")};
        QCOMPARE(w.tabs()->count(), names.size());
        for (int i = 0; i < w.tabs()->count(); ++i) {
            w.tabs()->setCurrentIndex(i);
            QTest::qWait(i == 3 ? 4000 : 300); // GPUs: let a few samples arrive
            QVERIFY(w.tabs()->currentWidget()->isVisible());
            QVERIFY(w.grab().save(kf::test::screenshotPath(QStringLiteral("demo-") + names.at(i))));
        }
        // The GPU stream is live: the pane's status names the 8 GPUs.
        bool sawGpus = false;
        for (QLabel* l : w.tabs()->widget(3)->findChildren<QLabel*>())
            sawGpus = sawGpus || l->text().contains(QStringLiteral("8 GPU"));
        QVERIFY(sawGpus);
    }

private:
    QTemporaryDir m_db;
};

QTEST_MAIN(TestDemoSmoke)
#include "tst_demosmoke.moc"
