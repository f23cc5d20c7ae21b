// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The Timeline tab in the real main window on demo hosts (real sshd instances), offscreen:
// what the window did by itself (facts, the patch plan) shows as markers; a marker's details
// and "Open in Patches"; the report; Save as recipe; Apply recipe to host (dry run, then the
// real run, with an apply, a build and a server added to the saved recipe) onto a second demo
// host, every step in that host's timeline and each one ok. The charts under the
// markers (stored minutes and the live GPU stream) and the zoom (buttons, wheel).
#include "core/demo/demohost.h"
#include "core/gpu/gpumonitorhub.h"
#include "core/hosts/hostmanager.h"
#include "core/ssh/sshhostconnection.h"
#include "core/store/database.h"
#include "core/timeline/eventstore.h"
#include "core/timeline/hostkey.h"
#include "core/timeline/seriesrecorder.h"
#include "tests/support/testsupport.h"
#include "ui/chart/timechart.h"
#include "ui/mainwindow.h"
#include "ui/patch/patchpane.h"
#include "ui/timeline/recipedialog.h"
#include "ui/timeline/timelinelanes.h"
#include "ui/timeline/timelinepane.h"
#include "ui/timeline/timelineview.h"

#include <QApplication>
#include <QCheckBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QWheelEvent>
#include <QtTest>

#include <cmath>

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

    // The measured points a chart draws inside [from, to] (NaN points are gaps, not points).
    static int pointsIn(const kf::TimeChart* chart, qint64 from, qint64 to)
    {
        // Every series: their order is not the point (a chart of two servers has a line each).
        int n = 0;
        for (int s = 0; s < chart->seriesCount(); ++s)
            for (const QPointF& p : chart->seriesData(s))
                n += !std::isnan(p.y()) && p.x() >= double(from) && p.x() <= double(to) ? 1 : 0;
        return n;
    }
    // What a failed chart check prints: the chart, its lines and points, and what the view said.
    static QString why(const kf::TimelineView* view, const kf::TimeChart* chart)
    {
        QStringList lines;
        for (int s = 0; s < chart->seriesCount(); ++s)
            lines << QStringLiteral("%1: %2 points").arg(chart->seriesName(s)).arg(chart->seriesData(s).size());
        return QStringLiteral("%1 [%2] in %3..%4; details: %5")
            .arg(chart->title(), lines.join(QStringLiteral("; ")))
            .arg(view->from())
            .arg(view->to())
            .arg(view->detailsText());
    }
    // A wheel turn over the middle of `over`, delivered to `to` (a sent wheel event does not
    // travel to the parents as a real one does: the view gets the turns over its charts).
    static void wheel(QWidget* over, QWidget* to, int steps)
    {
        const QPointF at = over->mapTo(to, QPointF(over->width() / 2.0, over->height() / 2.0));
        QWheelEvent e(at, to->mapToGlobal(at), QPoint(), QPoint(0, 120 * steps), Qt::NoButton, Qt::NoModifier,
            Qt::NoScrollPhase, false);
        QApplication::sendEvent(to, &e);
    }

private Q_SLOTS:
    void initTestCase() { kf::test::isolateAppState(QStringLiteral("kernelforge-timelinepane"), m_dir.path()); }

    // Issue #16: the charts under the markers draw what was stored (a minute series from an
    // earlier run) and what the GPU stream measures now; the zoom buttons and the wheel change
    // the window shown, in their direction, and the charts follow it.
    void chartsAndZoom()
    {
        KF_START_DEMO_HOST(demo);
        kf::HostManager hosts;
        kf::GpuMonitorHub monitors;
        kf::timeline::SeriesRecorder recorder;
        recorder.watch(&monitors);
        kf::AppContext ctx;
        hosts.setFactory(kf::SshHostConnection::factory(nullptr));
        ctx.hosts = &hosts;
        ctx.demo = &demo;
        ctx.gpuMonitors = &monitors;
        ctx.timelineSeries = &recorder;
        // An earlier run stored two hours of minutes, ending 30 minutes ago (every series).
        const QString key = kf::timeline::hostKey(demo.profile());
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const qint64 firstMinute = (now / 60000 - 150) * 60000;
        QList<kf::timeline::MinuteRow> rows;
        for (int m = 0; m < 120; ++m) {
            kf::timeline::MinuteRow row;
            row.t = firstMinute + m * 60000LL;
            row.values = { 1200.0 + m, 60.0, 40.0, 1500.0 };
            rows << row;
        }
        const auto saved = kf::timeline::saveMinutes(key, rows);
        QVERIFY2(saved.ok(), qPrintable(saved.error()));
        // Two servers' tok/s over the same minutes (issue #30, item 4): two lines, each named.
        QList<kf::timeline::ServerMinuteRow> servers;
        for (int m = 0; m < 120; ++m) {
            servers.append({ firstMinute + m * 60000LL, { 30000, QStringLiteral("demo/Alpha") }, 1000.0 });
            servers.append({ firstMinute + m * 60000LL, { 30001, QStringLiteral("demo/Beta") }, 3000.0 });
        }
        const auto savedServers = kf::timeline::saveServerMinutes(key, servers);
        QVERIFY2(savedServers.ok(), qPrintable(savedServers.error()));

        kf::HostConnection* host = hosts.add(demo.profile(QStringLiteral("demo-gpu-server")));
        QVERIFY(host);
        host->connectToHost();
        QTRY_VERIFY2_WITH_TIMEOUT(host->state() == kf::ConnectionState::Ready, qPrintable(host->stateReason()), 30000);
        kf::MainWindow w(ctx);
        w.resize(1440, 900);
        w.show();
        w.selectHost(QStringLiteral("demo-gpu-server"));
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.showTab(kf::MainWindow::Tab::Timeline);
        auto* pane = w.findChild<kf::TimelinePane*>();
        QVERIFY(pane);
        kf::TimelineView* view = pane->view();
        QCOMPARE(view->host(), key);
        const QList<kf::TimeChart*> charts = view->charts();
        QCOMPARE(charts.size(), kf::timeline::kSeriesCount);

        // 6 hours: every chart has the stored minutes in the window.
        auto* sixHours = view->findChild<QToolButton*>(QStringLiteral("zoom:6 h"));
        QVERIFY2(sixHours, "a 6 h zoom button");
        QTest::mouseClick(sixHours, Qt::LeftButton);
        QCOMPARE(view->to() - view->from(), 6 * 3600 * 1000LL);
        for (kf::TimeChart* chart : charts)
            QTRY_VERIFY2_WITH_TIMEOUT(
                pointsIn(chart, view->from(), view->to()) >= 20, qPrintable(why(view, chart)), 30000);
        // tok/s: a line per server named by port and model, never one line joining them, and
        // what was recorded before servers were told apart as a line of its own.
        kf::TimeChart* tokens = charts.at(int(kf::timeline::Series::Tokens));
        QTRY_COMPARE_WITH_TIMEOUT(tokens->seriesCount(), 3, 30000);
        QCOMPARE(QStringList({ tokens->seriesName(0), tokens->seriesName(1), tokens->seriesName(2) }),
            QStringList(
                { "port 30000 · demo/Alpha", "port 30001 · demo/Beta", "recorded before servers were told apart" }));
        for (int i = 0; i < 2; ++i)
            for (const QPointF& p : tokens->seriesData(i))
                QVERIFY(std::isnan(p.y()) || p.y() == (i == 0 ? 1000.0 : 3000.0));
        // The GPU stream's live samples join them at the right edge (the last 5 minutes).
        QTRY_VERIFY_WITH_TIMEOUT(recorder.live(key, kf::timeline::Series::Power), 60000);
        view->reload();
        QTRY_VERIFY_WITH_TIMEOUT(pointsIn(charts.first(), view->to() - 5 * 60000, view->to()) > 0, 30000);
        QVERIFY(w.grab().save(kf::test::screenshotPath(QStringLiteral("timeline-charts"))));

        // The buttons: + halves the window, − doubles it (the right edge stays on the present).
        auto span = [view] { return view->to() - view->from(); };
        auto* zoomIn = view->findChild<QToolButton*>(QStringLiteral("zoomIn"));
        auto* zoomOut = view->findChild<QToolButton*>(QStringLiteral("zoomOut"));
        QVERIFY(zoomIn && zoomOut);
        qint64 before = span();
        QTest::mouseClick(zoomIn, Qt::LeftButton);
        QCOMPARE(span(), before / 2);
        QVERIFY(view->following());
        for (kf::TimeChart* chart : charts) // 3 h still holds the stored minutes
            QTRY_VERIFY2_WITH_TIMEOUT(
                pointsIn(chart, view->from(), view->to()) >= 20, qPrintable(why(view, chart)), 30000);
        before = span();
        QTest::mouseClick(zoomOut, Qt::LeftButton);
        QCOMPARE(span(), before * 2);
        QTest::mouseClick(zoomOut, Qt::LeftButton);
        QCOMPARE(span(), before * 4);

        // The wheel over the markers and over a chart: forward zooms in, backward out.
        before = span();
        wheel(view->lanes(), view->lanes(), 1);
        QVERIFY2(span() < before, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(span())));
        before = span();
        wheel(view->lanes(), view->lanes(), -2);
        QVERIFY2(span() > before, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(span())));
        before = span();
        wheel(charts.last(), view, 1);
        QVERIFY2(span() < before, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(span())));
        for (int i = 0; i < 40; ++i)
            QTest::mouseClick(zoomIn, Qt::LeftButton);
        QCOMPARE(span(), kf::TimelineView::kMinSpanMs);

        // The charts follow the window: an hour before anything was stored is empty (a gap,
        // nothing invented), the stored hour is drawn.
        view->setWindow(firstMinute - 10 * 3600 * 1000LL, firstMinute - 9 * 3600 * 1000LL);
        for (kf::TimeChart* chart : charts)
            QTRY_COMPARE_WITH_TIMEOUT(pointsIn(chart, view->from(), view->to()), 0, 30000);
        view->setWindow(firstMinute, firstMinute + 3600 * 1000LL);
        for (kf::TimeChart* chart : charts)
            QTRY_VERIFY2_WITH_TIMEOUT(
                pointsIn(chart, view->from(), view->to()) >= 20, qPrintable(why(view, chart)), 30000);
    }

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

        // What the source host did not do yet (an apply, a build, a server) is added by hand,
        // as the recipe format allows, so the replay has every step to run: the demo's patch
        // set, its sgl-kernel built with the demo profile, and a demo server on a free port.
        const QByteArray savedYaml = kf::test::readFile(recipe);
        QVERIFY2(
            !savedYaml.contains("\npatches:") && !savedYaml.contains("\nbuild:") && !savedYaml.contains("\nserver:"),
            savedYaml.constData());
        {
            QFile f(recipe);
            QVERIFY(f.open(QIODevice::Append));
            f.write(
                "\npatches: {set: builtin:sgl-kernel-sm120-cuda13, root: ~/sgl-kernel}\n"
                "build:\n"
                "  name: Demo sgl-kernel (CMake + Ninja)\n"
                "  working_dir: ~/sgl-kernel\n"
                "  command: cmake -S . -B \"$KF_BUILD_DIR\" -G Ninja $CMAKE_ARGS && cmake --build \"$KF_BUILD_DIR\" "
                "-j \"$MAX_JOBS\"\n"
                "  cmake_args: [-DSGL_KERNEL_ENABLE_FA3=OFF]\n"
                "  max_jobs: 2\n"
                "  nvcc_threads: 1\n"
                "  build_dir: build\n");
            f.write("server: {name: sglang, model_path: demo/Model, tp: 2, port: "
                + QByteArray::number(kf::test::freeLocalPort()) + ", demo: true}\n");
        }

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
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 240000);
        QVERIFY2(finished.last().first().toBool(), qPrintable(dialog->logText()));
        dialog->close();

        kf::timeline::Query q;
        q.host = kf::timeline::hostKey(second.profile());
        q.kinds = { QStringLiteral("recipe.step") };
        const auto steps = kf::timeline::events(q);
        QVERIFY2(steps.ok(), qPrintable(steps.error()));
        // Every step of the real run ran and succeeded (a skipped step is not a replay that worked).
        QStringList real;
        for (const kf::timeline::Event& e : steps.value())
            if (!e.details.value(QStringLiteral("dry_run")).toBool())
                real << e.details.value(QStringLiteral("step")).toString() + QLatin1Char(':')
                        + e.details.value(QStringLiteral("status")).toString();
        QCOMPARE(real, QStringList({ "facts:ok", "plan:ok", "apply:ok", "build:ok", "verify:ok", "launch:ok" }));

        // A recipe that carries a promoted build: the dialog offers to build where it does not
        // fit, and the dry run says what the build step would do either way.
        const QString promoted = m_dir.filePath(QStringLiteral("promoted.yaml"));
        QVERIFY(kf::test::writeFile(promoted,
            "kernelforge_recipe: 1\nbuild:\n  name: Demo sgl-kernel (CMake + Ninja)\n  working_dir: ~/sgl-kernel\n"
            "  command: cmake --build build\npromote: {from: lab-a, kind: files, file: build-files.tar, sha256: "
                + QByteArray(64, 'e') + "}\n"));
        kf::RecipeDialog* carrying = pane->openRecipe(promoted);
        QVERIFY(carrying);
        carrying->setTarget(other);
        auto* instead = carrying->findChild<QCheckBox*>(QStringLiteral("recipeBuildInstead"));
        QVERIFY(instead && instead->isVisibleTo(carrying));
        QVERIFY2(
            instead->text().contains(QStringLiteral("lab-a's build (build-files.tar)")), qPrintable(instead->text()));
        QSignalSpy dry(carrying, &kf::RecipeDialog::replayFinished);
        QVERIFY(carrying->run(/*dryRun=*/true));
        QTRY_COMPARE_WITH_TIMEOUT(dry.size(), 1, 120000);
        QVERIFY2(
            carrying->logText().contains(QStringLiteral("would promote: build-files.tar (files, SHA-256 eeeeeeeeeeee) "
                                                        "from lab-a, where the build fits this host (else the step "
                                                        "fails)")),
            qPrintable(carrying->logText()));
        instead->click();
        QVERIFY(carrying->run(/*dryRun=*/true));
        QTRY_COMPARE_WITH_TIMEOUT(dry.size(), 2, 120000);
        QVERIFY2(carrying->logText().contains(QStringLiteral("else it builds:"))
                && carrying->logText().contains(QStringLiteral("would build: Demo sgl-kernel (CMake + Ninja)")),
            qPrintable(carrying->logText()));
        QVERIFY(carrying->grab().save(kf::test::screenshotPath(QStringLiteral("timeline-recipe-promote"))));
        carrying->close();
    }
};

QTEST_MAIN(TestTimelinePane)
#include "tst_timelinepane.moc"
