// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/gpu/nvidiasmi.h"
#include "core/server/serverclient.h"
#include "core/store/database.h"
#include "core/timeline/seriesrecorder.h"

#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace kf;
using namespace kf::timeline;

namespace {

QList<GpuSample> gpus(double power, double temp, double used)
{
    QList<GpuSample> out;
    for (int i = 0; i < 2; ++i) {
        GpuSample g;
        g.index = i;
        g.setValue(GpuField::PowerDraw, power);
        g.setValue(GpuField::TempGpu, temp + i); // GPU 1 is one degree hotter
        g.setValue(GpuField::MemUsed, used);
        g.setValue(GpuField::MemTotal, 1000);
        out << g;
    }
    return out;
}

int gaps(const QList<QPointF>& points)
{
    return int(std::count_if(points.cbegin(), points.cend(), [](const QPointF& p) { return std::isnan(p.y()); }));
}

} // namespace

class TestSeriesStore : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    int m_db = 0;
    // Two minutes ago and a bit, on a minute boundary: old enough for flush() to close.
    const qint64 m_t0 = (QDateTime::currentMSecsSinceEpoch() / 60000 - 10) * 60000;

private Q_SLOTS:
    void init() { store::setDatabasePath(m_dir.filePath(QStringLiteral("s%1.sqlite").arg(++m_db))); }

    void minutesAggregateAndPersist()
    {
        {
            SeriesRecorder r;
            for (int s = 0; s < 120; s += 2) // two minutes at 0.5 Hz
                r.addGpuBlock(QStringLiteral("h"), m_t0 + s * 1000, gpus(s < 60 ? 100 : 300, 50, 250));
            ServerStatus st;
            st.reachable = true;
            st.port = 30000;
            st.modelPath = QStringLiteral("m/A");
            st.hasMetrics = true;
            st.metrics.genThroughput = 1500;
            st.timeMs = m_t0 + 5000;
            r.addServerStatus(QStringLiteral("h"), st);
            QVERIFY(r.live(QStringLiteral("h"), Series::Power));
            QVERIFY(!r.live(QStringLiteral("other"), Series::Power));
            QCOMPARE(r.live(QStringLiteral("h"), Series::Power)->lastValue(), 600.0); // both GPUs
        } // the destructor writes the open minute too
        const auto rows = loadMinutes(QStringLiteral("h"), m_t0 - 60000, m_t0 + 3600000);
        QVERIFY2(rows, qPrintable(rows.error()));
        QCOMPARE(rows->size(), 2);
        QCOMPARE(rows->at(0).t, m_t0);
        QCOMPARE(rows->at(0).values[size_t(Series::Power)], 200.0);
        QCOMPARE(rows->at(1).values[size_t(Series::Power)], 600.0);
        QCOMPARE(rows->at(0).values[size_t(Series::Temperature)], 51.0); // the hottest
        QCOMPARE(rows->at(0).values[size_t(Series::Memory)], 25.0);
        // tok/s is a server's, stored apart (the host's column is what came before servers were told apart).
        QVERIFY(std::isnan(rows->at(0).values[size_t(Series::Tokens)]));
        const auto servers = loadServerMinutes(QStringLiteral("h"), m_t0 - 60000, m_t0 + 3600000);
        QVERIFY2(servers, qPrintable(servers.error()));
        QCOMPARE(servers->size(), 1); // no poll in the second minute: no row
        QCOMPARE(servers->at(0).t, m_t0);
        QCOMPARE(servers->at(0).server, (ServerKey { 30000, QStringLiteral("m/A") }));
        QCOMPARE(servers->at(0).tokensPerS, 1500.0);
    }

    // Issue #30, item 4: two servers of a host are two lines, each named by port and model, never
    // one line going from one into the other; stored, then read back, they stay apart.
    void serversApart()
    {
        const QString host = QStringLiteral("h");
        {
            SeriesRecorder r;
            auto poll = [&](quint16 port, const QString& model, qint64 t, double tokens) {
                ServerStatus st;
                st.reachable = true;
                st.port = port;
                st.modelPath = model;
                st.hasMetrics = true;
                st.metrics.genThroughput = tokens;
                st.timeMs = t;
                r.addServerStatus(host, st);
            };
            for (int s = 0; s < 90; s += 2) { // interleaved, as the polls of two servers come
                poll(30000, QStringLiteral("m/A"), m_t0 + s * 1000, 100);
                poll(30001, QStringLiteral("m/B"), m_t0 + s * 1000 + 500, 900);
            }
            // 30000 stops answering: a gap in its own line, not a point in another's.
            ServerStatus down;
            down.port = 30000;
            down.timeMs = m_t0 + 91000;
            r.addServerStatus(host, down);
            // Another model on 30000 later: another server, another line.
            poll(30000, QStringLiteral("m/C"), m_t0 + 95000, 50);
            QCOMPARE(r.liveServers(host),
                (QList<ServerKey> { { 30000, QStringLiteral("m/A") }, { 30000, QStringLiteral("m/C") },
                    { 30001, QStringLiteral("m/B") } }));
            const SeriesBuffer* a = r.liveServer(host, { 30000, QStringLiteral("m/A") });
            QVERIFY(a && std::isnan(a->lastValue()));
            const QList<LabelledSeries> live = serverTokenSeries(&r, host, {}, {}, m_t0, m_t0 + 120000, 400);
            QCOMPARE(live.size(), 3);
            QCOMPARE(live[0].label, QStringLiteral("port 30000 · m/A"));
            QCOMPARE(live[2].label, QStringLiteral("port 30001 · m/B"));
            for (const QPointF& p : live[0].points)
                QVERIFY(std::isnan(p.y()) || p.y() == 100);
            for (const QPointF& p : live[2].points)
                QVERIFY(std::isnan(p.y()) || p.y() == 900);
        }
        const auto stored = loadServerMinutes(host, m_t0 - 60000, m_t0 + 3600000);
        QVERIFY2(stored, qPrintable(stored.error()));
        // What came before servers were told apart is a line of its own, labelled so.
        QList<MinuteRow> legacy { { m_t0 - 120000, { NAN, NAN, NAN, 700 } } };
        const QList<LabelledSeries> read
            = serverTokenSeries(nullptr, host, *stored, legacy, m_t0 - 180000, m_t0 + 180000, 400);
        QStringList labels;
        for (const LabelledSeries& s : read)
            labels << s.label;
        QCOMPARE(labels,
            QStringList({ "port 30000 · m/A", "port 30000 · m/C", "port 30001 · m/B",
                "recorded before servers were told apart" }));
        for (const QPointF& p : read[2].points)
            QVERIFY(std::isnan(p.y()) || p.y() == 900);
    }

    void gapsStayGaps()
    {
        SeriesRecorder r;
        r.addGpuBlock(QStringLiteral("h"), m_t0, gpus(100, 40, 100));
        r.addGpuBlock(QStringLiteral("h"), m_t0 + 1000, gpus(100, 40, 100));
        // Nothing for five minutes (the app was not watching), then samples again.
        r.addGpuBlock(QStringLiteral("h"), m_t0 + 301000, gpus(100, 40, 100));
        r.addGpuBlock(QStringLiteral("h"), m_t0 + 302000, gpus(100, 40, 100));
        const QList<QPointF> live
            = r.live(QStringLiteral("h"), Series::Power)->decimated(m_t0 - 1000, m_t0 + 400000, 800);
        QCOMPARE(gaps(live), 1);
        // The GPU stream's own gap (a reconnect) ends the line too.
        r.addGap(QStringLiteral("h"), m_t0 + 302000);
        r.addGpuBlock(QStringLiteral("h"), m_t0 + 303000, gpus(100, 40, 100));
        QCOMPARE(gaps(r.live(QStringLiteral("h"), Series::Power)->decimated(m_t0 - 1000, m_t0 + 400000, 800)), 2);
        r.flush(); // minute 5 is over two minutes old: written too
        // Stored minutes: 0 and 5 were measured, 1..4 have no row and are drawn as a gap.
        const auto rows = loadMinutes(QStringLiteral("h"), m_t0, m_t0 + 3600000);
        QCOMPARE(rows->size(), 2);
        QCOMPARE(rows->at(1).t, m_t0 + 300000);
        const QList<QPointF> merged = mergedSeries(nullptr, rows.value(), Series::Power, m_t0, m_t0 + 600000, 400);
        QCOMPARE(merged.size(), 3);
        QVERIFY(!std::isnan(merged[0].y()));
        QVERIFY(std::isnan(merged[1].y()));
        QCOMPARE(merged[2].y(), 200.0);
        // Nothing measured at all: nothing drawn.
        for (const QPointF& p : mergedSeries(nullptr, rows.value(), Series::Tokens, m_t0, m_t0 + 600000, 400))
            QVERIFY(std::isnan(p.y()));
    }

    void storedMinutesBeforeTheLiveBuffer()
    {
        // Weeks of minutes: the merge decimates them to about two points a column.
        QList<MinuteRow> stored;
        const qint64 start = m_t0 - 14LL * 24 * 3600 * 1000;
        for (qint64 t = start; t < m_t0; t += 60000)
            stored << MinuteRow { t, { double((t / 60000) % 100), 40, 10, NAN } };
        SeriesRecorder r;
        r.addGpuBlock(QStringLiteral("h"), m_t0 + 1000, gpus(100, 40, 100));
        r.addGpuBlock(QStringLiteral("h"), m_t0 + 2000, gpus(100, 40, 100));
        const QList<QPointF> merged
            = mergedSeries(r.live(QStringLiteral("h"), Series::Power), stored, Series::Power, start, m_t0 + 60000, 500);
        QVERIFY2(merged.size() <= 2 * 500 + 8, qPrintable(QString::number(merged.size())));
        QVERIFY(merged.size() > 500);
        QCOMPARE(merged.last().y(), 200.0); // the live samples come last
        QCOMPARE(gaps(merged), 0);          // stored minutes run into the live buffer
    }

    void oldMinutesArePruned()
    {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const qint64 old = now - qint64(kRetentionDays + 1) * 24 * 3600 * 1000;
        QVERIFY(saveMinutes(QStringLiteral("h"), { { old, { 1, 1, 1, 1 } }, { now - 60000, { 2, 2, 2, 2 } } }));
        QVERIFY(
            saveServerMinutes(QStringLiteral("h"), { { old, { 30000, {} }, 1 }, { now - 60000, { 30000, {} }, 2 } }));
        QCOMPARE(pruneMinutes(now).value(), 2);
        QCOMPARE(loadMinutes(QStringLiteral("h"), 0, now)->size(), 1);
        QCOMPARE(loadServerMinutes(QStringLiteral("h"), 0, now)->size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestSeriesStore)
#include "tst_seriesrecorder.moc"
