// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The Timeline tab in the real main window on demo hosts (real sshd instances), offscreen:
// what the window did by itself (facts, the patch plan) shows as markers; a marker's details
// and "Open in Patches"; the report; Save as recipe; Apply recipe to host (dry run, then the
// real run) onto a second demo host, its steps in that host's timeline.
#include "core/demo/demohost.h"
#include "core/gpu/gpumonitorhub.h"
#include "core/hosts/hostmanager.h"
#include "core/ssh/sshhostconnection.h"
#include "core/store/database.h"
#include "core/timeline/eventstore.h"
#include "core/timeline/hostkey.h"
#include "tests/support/testsupport.h"
#include "ui/mainwindow.h"
#include "ui/patch/patchpane.h"
#include "ui/timeline/recipedialog.h"
#include "ui/timeline/timelinelanes.h"
#include "ui/timeline/timelinepane.h"
#include "ui/timeline/timelineview.h"

#include <QApplication>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

class TestTimelinePane : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    static int indexOfKind(const kf::TimelineView* view, const QString& kind)
    {
        for (int i = 0; i < view->events().size(); ++i)
            if (view->events()[i].kind == kind)
                return i;
        return -1;
    }

private Q_SLOTS:
    void initTestCase() { kf::test::isolateAppState(QStringLiteral("kernelforge-timelinepane"), m_dir.path()); }

    void storyOnTheTimeline()
    {
        KF_START_DEMO_HOST(demo);
        KF_START_DEMO_HOST(second);
        kf::HostManager hosts;
        kf::GpuMonitorHub monitors;
        kf::AppContext ctx;
        hosts.setFactory(kf::SshHostConnection::factory(nullptr));
        ctx.hosts = &hosts;
        ctx.demo = &demo;
        ctx.gpuMonitors = &monitors;
        kf::HostConnection* host = hosts.add(demo.profile(QStringLiteral("demo-gpu-server")));
        kf::HostConnection* other = hosts.add(second.profile(QStringLiteral("second")));
        QVERIFY(host && other);
        host->connectToHost();
        other->connectToHost();
        QTRY_VERIFY2_WITH_TIMEOUT(
            host->state() == kf::ConnectionState::Ready && other->state() == kf::ConnectionState::Ready,
            qPrintable(host->stateReason() + other->stateReason()), 30000);
        kf::MainWindow w(ctx);
        w.resize(1440, 900);
        w.show();
        w.selectHost(QStringLiteral("demo-gpu-server"));
        QVERIFY(QTest::qWaitForWindowExposed(&w));

        auto* pane = w.findChild<kf::TimelinePane*>();
        auto* patches = w.findChild<kf::PatchPane*>();
        QVERIFY(pane && patches);
        kf::TimelineView* view = pane->view();
        QCOMPARE(view->host(), kf::timeline::hostKey(demo.profile()));

        // The window plans the patch set and reads the facts by itself: both are events.
        w.showTab(kf::MainWindow::Tab::Timeline);
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                view->reload();
                QTest::qWait(200);
                return indexOfKind(view, QStringLiteral("patch.planned")) >= 0
                    && indexOfKind(view, QStringLiteral("facts.changed")) >= 0;
            }(),
            60000);
        const int planned = indexOfKind(view, QStringLiteral("patch.planned"));
        QVERIFY(!view->lanes()->markerPosition(planned).isNull());
        QTest::mouseClick(view->lanes(), Qt::LeftButton, {}, view->lanes()->markerPosition(planned));
        QCOMPARE(view->selectedEvent(), planned);
        QVERIFY2(
            view->detailsText().contains(QStringLiteral("sgl-kernel-sm120-cuda13")), qPrintable(view->detailsText()));
        QVERIFY(w.grab().save(kf::test::screenshotPath(QStringLiteral("timeline-pane"))));
        auto* open = view->findChild<QPushButton*>(QStringLiteral("openPane"));
        QVERIFY(open && open->isVisible() && open->isEnabled());
        QTest::mouseClick(open, Qt::LeftButton);
        QCOMPARE(w.tabs()->currentWidget(), w.tab(kf::MainWindow::Tab::Patches));
        w.showTab(kf::MainWindow::Tab::Timeline);

        // The report: one HTML file with the markers drawn and the events.
        const QString html = m_dir.filePath(QStringLiteral("report.html"));
        const auto exported = pane->exportReport(html);
        QVERIFY2(exported.ok(), qPrintable(exported.error()));
        const QByteArray page = kf::test::readFile(html);
        QVERIFY(page.contains("<svg") && page.contains("patch.planned"));

        // Save as recipe: the facts seen as expectations and the plan's patch set is not an
        // apply yet, so it is left out with the reason.
        const QString recipe = m_dir.filePath(QStringLiteral("recipe.yaml"));
        const auto saved = pane->saveRecipe(recipe);
        QVERIFY2(saved.ok(), qPrintable(saved.error()));
        QVERIFY(kf::test::readFile(recipe).contains("NVIDIA H200"));
        QVERIFY2(saved->join('\n').contains(QStringLiteral("patches")), qPrintable(saved->join('\n')));

        // Apply recipe to host: onto the second demo host, dry run then the real run.
        kf::RecipeDialog* dialog = pane->openRecipe(recipe);
        QVERIFY(dialog);
        dialog->setTarget(other);
        QCOMPARE(dialog->target(), other);
        QSignalSpy finished(dialog, &kf::RecipeDialog::replayFinished);
        QVERIFY(dialog->run(/*dryRun=*/true));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 120000);
        QVERIFY2(finished.first().first().toBool(), qPrintable(dialog->logText()));
        QVERIFY(dialog->grab().save(kf::test::screenshotPath(QStringLiteral("timeline-recipe-dialog"))));
        QVERIFY(dialog->run(/*dryRun=*/false));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 120000);
        QVERIFY2(finished.last().first().toBool(), qPrintable(dialog->logText()));
        dialog->close();

        kf::timeline::Query q;
        q.host = kf::timeline::hostKey(second.profile());
        q.kinds = { QStringLiteral("recipe.step") };
        const auto steps = kf::timeline::events(q);
        QVERIFY2(steps.ok(), qPrintable(steps.error()));
        QStringList real;
        for (const kf::timeline::Event& e : steps.value())
            if (!e.details.value(QStringLiteral("dry_run")).toBool())
                real << e.details.value(QStringLiteral("step")).toString();
        QCOMPARE(real, QStringList({ "facts", "plan", "apply", "build", "verify", "launch" }));
    }
};

QTEST_MAIN(TestTimelinePane)
#include "tst_timelinepane.moc"
