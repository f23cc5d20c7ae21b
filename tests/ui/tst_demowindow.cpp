// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The main window on the demo host (a real sshd, reached through our own SSH layer), offscreen.
// everyTab: every tab is visited, shows its content and no label showing HTML markup as text,
// and is grabbed as PNG; the GPUs tab shows the GPM the demo's dmon replays.
// clickThroughTheStory: the demo story clicked through in the real main window (offscreen), against the demo host
// the Patches tab plans the built-in set by itself -> Apply -> Build tab
// (the demo profile is preselected) Preflight -> Start, the build runs to the end ->
// GPUs show 8 cards -> Server tab Launch, healthy, throughput charted -> Stop -> Patches
// Roll back every file -> the tree is byte-identical to the start. Every step presses the
// button a person would press; only the confirmation dialogs are answered by the test.
#include "core/remotebuild/buildsession.h"
#include "core/store/database.h"
#include "tests/support/testsupport.h"
#include "tests/support/windowdriver.h"
#include "ui/chart/timechart.h"
#include "ui/gpu/gpucard.h"
#include "ui/gpu/gpupane.h"
#include "ui/patch/patchpane.h"
#include "ui/remotebuild/buildchart.h"
#include "ui/remotebuild/buildpane.h"
#include "ui/server/serverpane.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDirIterator>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

#include <memory>

namespace {

// Every file of the demo project with its bytes (the build folder aside).
QMap<QString, QByteArray> snapshot(const QString& root)
{
    QMap<QString, QByteArray> files;
    QDirIterator it(root, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString rel = QDir(root).relativeFilePath(path);
        if (rel.startsWith(QStringLiteral("build/")))
            continue;
        QFile f(path);
        if (f.open(QIODevice::ReadOnly))
            files.insert(rel, f.readAll());
    }
    return files;
}

template <typename T> T* button(QWidget* pane, const char* name)
{
    T* b = pane->findChild<T*>(QString::fromLatin1(name));
    if (!b)
        qWarning("no widget %s", name);
    return b;
}

} // namespace

class TestDemoWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { kf::test::isolateAppState(QStringLiteral("kernelforge-demowindow"), m_db.path()); }

    void everyTab()
    {
        KF_START_DEMO_HOST(demo);
        kf::test::DemoWindow dw;
        dw.open(demo);
        if (QTest::currentTestFailed())
            return;
        kf::MainWindow& w = *dw.window;
        using Tab = kf::MainWindow::Tab;

        // Overview: the facts card fills from the remote script (the replayed GPUs show up);
        // Patches: the built-in set is planned against the demo project by itself.
        kf::test::waitForFactsAndPlan(w);
        if (QTest::currentTestFailed())
            return;

        const QList<std::pair<Tab, QString>> tabs = kf::test::everyTab();
        QCOMPARE(w.tabs()->count(), tabs.size());
        for (const auto& [tab, name] : tabs) {
            w.showTab(tab);
            QTest::qWait(tab == Tab::Gpus ? 4000 : 300); // GPUs: let a few samples arrive
            QVERIFY(w.tab(tab)->isVisible());
            const QStringList markup = kf::test::labelsShowingMarkup(&w);
            QVERIFY2(markup.isEmpty(), qPrintable(markup.join(u'\n')));
            QVERIFY(w.grab().save(kf::test::screenshotPath(QStringLiteral("demo-") + name)));
        }
        // The GPU stream is live: the pane's status names the 8 GPUs.
        auto* gpuStatus = w.pane(Tab::Gpus)->findChild<QLabel*>(QStringLiteral("gpuStatus"));
        QVERIFY(gpuStatus && gpuStatus->text().contains(QStringLiteral("8 GPU")));
        // GPM streams beside it over the same SSH connection (the demo's dmon replays it): the
        // cards show SM, tensor and DRAM activity, and the detail chart draws tensor activity.
        w.showTab(Tab::Gpus);
        auto* gpus = qobject_cast<kf::GpuPane*>(w.pane(Tab::Gpus));
        QVERIFY(gpus);
        QTRY_VERIFY_WITH_TIMEOUT(
            gpus->findChild<kf::GpuCard*>(QStringLiteral("gpuCard0"))->gpmText().startsWith(QStringLiteral("GPM: SM ")),
            90000);
        QVERIFY2(gpus->gpmStatusText().startsWith(QStringLiteral("GPM through nvidia-smi dmon every 1 s")),
            qPrintable(gpus->gpmStatusText()));
        gpus->setMetric(kf::GpuField::TensorActive);
        gpus->refreshChart();
        QVERIFY(gpus->detailChart()->pointCount() > 0);
        QVERIFY(w.grab().save(kf::test::screenshotPath(QStringLiteral("demo-gpus-gpm"))));
    }

    void clickThroughTheStory()
    {
        KF_START_DEMO_HOST(demo);
        const QString project = demo.homeDir() + QStringLiteral("/sgl-kernel");
        const auto before = snapshot(project);
        QVERIFY(before.contains(QStringLiteral("CMakeLists.txt")));
        QStringList confirmations;

        kf::test::DemoWindow dw;
        dw.open(demo);
        if (QTest::currentTestFailed())
            return;
        kf::MainWindow& w = *dw.window;
        using Tab = kf::MainWindow::Tab;
        auto* patches = qobject_cast<kf::PatchPane*>(w.pane(Tab::Patches));
        auto* build = qobject_cast<kf::BuildPane*>(w.pane(Tab::Build));
        auto* server = qobject_cast<kf::ServerPane*>(w.pane(Tab::Server));
        QVERIFY(patches && build && server);
        server->setConfirmHandler([&](const QString& question) {
            confirmations << question;
            return true;
        });
        patches->setConfirmHandler([&](const QString& summary) {
            confirmations << summary;
            return true;
        });

        // 1. Patches: planned by itself on the demo host; Apply writes all four patches.
        w.showTab(Tab::Patches);
        auto* tree = button<QTreeWidget>(patches, "patchTree");
        QVERIFY(tree);
        QTRY_VERIFY_WITH_TIMEOUT(tree->topLevelItemCount() >= 2 && !patches->isBusy(), 60000);
        QVERIFY(w.grab().save(kf::test::screenshotPath(QStringLiteral("story-1-planned"))));
        QSignalSpy applied(patches, &kf::PatchPane::applyFinished);
        auto* apply = button<QPushButton>(patches, "applyPatches");
        QVERIFY(apply && apply->isEnabled());
        QTest::mouseClick(apply, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(applied.size(), 1, 60000);
        const auto report = applied.first().first().value<kf::patch::ApplyReport>();
        QStringList outcomes;
        for (const auto& f : report.files)
            outcomes << f.file + QStringLiteral(": ") + kf::patch::outcomeText(f.outcome) + QLatin1Char(' ')
                    + f.message;
        QVERIFY2(report.ok(), qPrintable(outcomes.join(QLatin1Char('\n'))));
        QCOMPARE(confirmations.size(), 1);
        const auto patched = snapshot(project);
        QVERIFY(patched != before);
        QVERIFY(patched.value(QStringLiteral("CMakeLists.txt")) != before.value(QStringLiteral("CMakeLists.txt")));

        // 2. Build: the demo profile is the one picked; Preflight, then Start, and follow it to the end.
        w.showTab(Tab::Build);
        QVERIFY(build->profilePicker()->currentData().toString().startsWith(QStringLiteral("Demo ")));
        QSignalSpy preflight(build, &kf::BuildPane::preflightDone);
        QTest::mouseClick(button<QPushButton>(build, "preflight"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(preflight.size(), 1, 120000);
        QSignalSpy finished(build, &kf::BuildPane::buildFinished);
        QTest::mouseClick(button<QPushButton>(build, "startBuild"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(build->session() != nullptr, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(build->session()->progress().total > 0, 300000);
        QVERIFY(w.grab().save(kf::test::screenshotPath(QStringLiteral("story-2-building"))));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 540000);
        const auto info = finished.first().first().value<kf::JobInfo>();
        QVERIFY2(info.exitStatus == 0, qPrintable(finished.first().at(1).toString()));
        QCOMPARE(build->session()->progress().done, build->session()->progress().total);
        QVERIFY(build->chart()->progressPoints() > 0);
        QVERIFY(w.grab().save(kf::test::screenshotPath(QStringLiteral("story-3-built"))));

        // 3. GPUs: the replaying nvidia-smi reports 8 GPUs.
        w.showTab(Tab::Gpus);
        auto* gpuStatus = w.pane(Tab::Gpus)->findChild<QLabel*>(QStringLiteral("gpuStatus"));
        QVERIFY(gpuStatus);
        QTRY_VERIFY_WITH_TIMEOUT(gpuStatus->text().contains(QStringLiteral("8 GPU")), 60000);
        QVERIFY(w.grab().save(kf::test::screenshotPath(QStringLiteral("story-4-gpus"))));

        // 4. Server: Launch the demo server (a port of its own: tests run in parallel), wait
        //    for healthy and charted throughput, Stop.
        w.showTab(Tab::Server);
        auto profile = server->profile();
        QVERIFY(profile.demo);
        profile.port = kf::test::freeLocalPort();
        server->setProfile(profile);
        QTest::mouseClick(button<QPushButton>(server, "launchServer"), Qt::LeftButton);
        auto* status = button<QLabel>(server, "serverStatus");
        QTRY_VERIFY2_WITH_TIMEOUT(
            status->text().contains(QStringLiteral("healthy")), qPrintable(status->text()), 120000);
        auto* summary = button<QLabel>(server, "serverSummary");
        QTRY_VERIFY_WITH_TIMEOUT(summary->text().contains(QStringLiteral("tok/s")), 60000);
        QVERIFY(w.grab().save(kf::test::screenshotPath(QStringLiteral("story-5-server"))));
        auto* stop = button<QPushButton>(server, "stopServer");
        QVERIFY(stop->isEnabled());
        QTest::mouseClick(stop, Qt::LeftButton);
        QCOMPARE(confirmations.size(), 2);
        QTRY_VERIFY_WITH_TIMEOUT(server->logView()->toPlainText().contains(QStringLiteral(") stopped")), 60000);

        // 5. Patches: select every standing row of the history and roll them back in one go.
        w.showTab(Tab::Patches);
        auto* history = button<QTableWidget>(patches, "patchHistory");
        QTRY_VERIFY_WITH_TIMEOUT(history->rowCount() >= 1 && !patches->isBusy(), 30000);
        history->selectAll();
        QTest::mouseClick(button<QPushButton>(patches, "rollBack"), Qt::LeftButton);
        QCOMPARE(confirmations.size(), 3);
        QTRY_VERIFY_WITH_TIMEOUT(snapshot(project) == before, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(!patches->isBusy() && history->rowCount() >= 1
                && history->item(0, 3)->text() == QStringLiteral("rolled back"),
            60000);
        QVERIFY(w.grab().save(kf::test::screenshotPath(QStringLiteral("story-6-rolled-back"))));
    }

private:
    QTemporaryDir m_db;
};

QTEST_MAIN(TestDemoWindow)
#include "tst_demowindow.moc"
