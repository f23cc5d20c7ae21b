// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// TimelineLanes draws each event as a marker in its category's lane at its time and rings the
// selected one, also at the edges of the window (an event that just happened sits on the
// right edge). Checked on the pixels of an offscreen render; the grab is saved for eyes.
// TimelineView's zoom bar keeps its width whatever the window shown, and a history that cannot
// be read leaves what was drawn in place, saying why.
#include "core/store/database.h"
#include "core/timeline/eventstore.h"
#include "core/timeline/seriesrecorder.h"
#include "core/transport/transportpool.h"
#include "tests/support/testsupport.h"
#include "ui/chart/timechart.h"
#include "ui/timeline/timelinelanes.h"
#include "ui/timeline/timelineview.h"

#include <QApplication>
#include <QImage>
#include <QPalette>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace kf;

namespace {

constexpr qint64 kT0 = 1'700'000'000'000LL;
constexpr qint64 kMinute = 60'000;

QImage render(QWidget& w)
{
    QImage img(w.size(), QImage::Format_ARGB32);
    img.fill(Qt::magenta);
    w.render(&img);
    return img;
}

bool near(const QColor& a, const QColor& b)
{
    return qAbs(a.red() - b.red()) + qAbs(a.green() - b.green()) + qAbs(a.blue() - b.blue()) < 90;
}

timeline::Event makeEvent(const QString& kind, qint64 ms)
{
    timeline::Event e;
    e.host = QStringLiteral("alice@gpu1:22");
    e.kind = kind;
    e.time = QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
    e.summary = kind;
    return e;
}

} // namespace

class TestTimelineView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void markersInTheirLanes()
    {
        TimelineLanes lanes;
        lanes.resize(800, lanes.sizeHint().height());
        lanes.setTimeWindow(kT0, kT0 + 60 * kMinute);
        lanes.setEvents({ makeEvent(QStringLiteral("patch.applied"), kT0 + 10 * kMinute),
            makeEvent(QStringLiteral("server.healthy"), kT0 + 30 * kMinute),
            makeEvent(QStringLiteral("facts.changed"), kT0 - 5 * kMinute) });
        const QPoint patch = lanes.markerPosition(0), server = lanes.markerPosition(1);
        QVERIFY(!patch.isNull() && !server.isNull());
        QVERIFY2(lanes.markerPosition(2).isNull(), "before the window: not drawn");
        QVERIFY(patch.x() < server.x());
        QVERIFY(patch.y() < server.y()); // the patch lane is above the server lane
        QCOMPARE(lanes.eventAt(server), 1);

        QSignalSpy clicked(&lanes, &TimelineLanes::markerClicked);
        QTest::mouseClick(&lanes, Qt::LeftButton, {}, server);
        QCOMPARE(clicked.size(), 1);
        QCOMPARE(clicked.first().first().toInt(), 1);
    }

    // The ring around the selected marker is whole on the right edge of the window, where
    // what just happened is drawn (it was cut off at the marker's radius).
    void selectionRingAtTheEdge()
    {
        TimelineLanes lanes;
        lanes.resize(800, lanes.sizeHint().height());
        lanes.setTimeWindow(kT0, kT0 + 60 * kMinute);
        lanes.setEvents({ makeEvent(QStringLiteral("patch.applied"), kT0 + 60 * kMinute) });
        lanes.setSelected(0);
        const QImage img = render(lanes);
        img.save(test::screenshotPath(QStringLiteral("timelinelanes-edge")));
        const QPoint c = lanes.markerPosition(0);
        QVERIFY(!c.isNull());
        QVERIFY(qAbs(c.x() - lanes.plotRect().right()) <= 1);
        const QColor ring = lanes.palette().color(QPalette::Highlight);
        int left = 0, right = 0;
        for (int dx = 6; dx <= 12; ++dx) {
            left += near(img.pixelColor(c.x() - dx, c.y()), ring) ? 1 : 0;
            right += near(img.pixelColor(c.x() + dx, c.y()), ring) ? 1 : 0;
        }
        QVERIFY2(left > 0, "the ring is drawn");
        QVERIFY2(right > 0, "the ring is drawn on the right of the marker too");
    }

    // The text of the window shown (longer for weeks across dates than for minutes) does not
    // widen the view: it made the Timeline tab push the host list aside on 4 weeks.
    void widthDoesNotFollowTheWindowText()
    {
        TimelineView view;
        view.show();
        view.setWindow(kT0, kT0 + 15 * kMinute);
        QCoreApplication::processEvents();
        const int narrow = view.minimumSizeHint().width();
        view.setWindow(kT0 - 28LL * 24 * 60 * kMinute, kT0);
        QCoreApplication::processEvents();
        QCOMPARE(view.minimumSizeHint().width(), narrow);
    }

    // A load that fails (the database busy or gone) says so and keeps the minutes drawn: they
    // were measured at their times. It used to replace them with nothing, so a busy database
    // for one reload blanked the tok/s chart until the next one.
    // A host's first window (fitted to its history, found by a query) never replaces a window
    // chosen while the query ran: under load the fit came late and turned the user's 6 h back.
    void aWindowChosenWhileTheFitRunsStays()
    {
        QTemporaryDir dir;
        store::setDatabasePath(dir.filePath(QStringLiteral("history.sqlite")));
        const QString host = QStringLiteral("alice@gpu1:22");
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        QVERIFY(timeline::record(makeEvent(QStringLiteral("facts.changed"), now - 150 * kMinute)).ok());
        TimelineView view;
        view.resize(1000, 700);
        view.show();
        view.setHost(host);              // the fit's query starts on a worker
        view.showLast(6 * 60 * kMinute); // the 6 h button, before its answer is delivered
        QVERIFY(transportPool()->waitForDone(30000));
        QTest::qWait(50);
        QCoreApplication::processEvents(); // the fit's answer, were it still current
        QCOMPARE(view.to() - view.from(), 6 * 60 * kMinute);
        // With nothing chosen, the fit applies: the history's first event and a little room.
        TimelineView fitted;
        fitted.setHost(host);
        QTRY_VERIFY_WITH_TIMEOUT(fitted.to() - fitted.from() > 150 * kMinute, 30000);
        QVERIFY(fitted.to() - fitted.from() < 6 * 60 * kMinute);
    }

    void aFailedLoadKeepsWhatWasDrawn()
    {
        QTemporaryDir dir;
        store::setDatabasePath(dir.filePath(QStringLiteral("history.sqlite")));
        const QString host = QStringLiteral("alice@gpu1:22");
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const qint64 first = (now / kMinute - 50) * kMinute;
        QList<timeline::MinuteRow> rows;
        QList<timeline::ServerMinuteRow> servers;
        for (int m = 0; m < 40; ++m) {
            timeline::MinuteRow row;
            row.t = first + m * kMinute;
            row.values = { 300.0, 60.0, 40.0, std::nan("") };
            rows.append(row);
            servers.append({ first + m * kMinute, { 30000, QStringLiteral("demo/Alpha") }, 1000.0 });
        }
        QVERIFY(timeline::saveMinutes(host, rows).ok());
        QVERIFY(timeline::saveServerMinutes(host, servers).ok());
        TimelineView view;
        view.resize(1000, 700);
        view.show();
        view.setHost(host);
        const auto points = [&view](int chart) {
            int n = 0;
            const TimeChart* c = view.charts().at(chart);
            for (int s = 0; s < c->seriesCount(); ++s)
                for (const QPointF& p : c->seriesData(s))
                    n += std::isnan(p.y()) ? 0 : 1;
            return n;
        };
        const int tokens = int(timeline::Series::Tokens), power = int(timeline::Series::Power);
        QTRY_VERIFY_WITH_TIMEOUT(points(tokens) >= 20 && points(power) >= 20, 30000);

        store::setDatabasePath(dir.filePath(QStringLiteral("no-such-folder/history.sqlite")));
        QSignalSpy loaded(&view, &TimelineView::eventsLoaded);
        view.reload();
        QTRY_VERIFY_WITH_TIMEOUT(loaded.size() >= 1, 30000);
        QVERIFY2(view.detailsText().contains(QStringLiteral("cannot be read")), qPrintable(view.detailsText()));
        QVERIFY(points(tokens) >= 20);
        QVERIFY(points(power) >= 20);
        store::setDatabasePath(dir.filePath(QStringLiteral("history.sqlite")));
    }
};

QTEST_MAIN(TestTimelineView)
#include "tst_timelineview.moc"
