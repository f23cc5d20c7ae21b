// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/timeseries/seriescsv.h"

#include <QtTest>

#include <cmath>

using namespace kf;

class TestSeriesCsv : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void emptyHistoryIsTheHeaderAlone()
    {
        QCOMPARE(seriesCsv({}), QByteArray("time_utc,epoch_ms\r\n"));
        CsvSeries s { QStringLiteral("Generation throughput"), QStringLiteral("tokens/s"), QStringLiteral("tok/s"),
            {} };
        QCOMPARE(seriesCsv({ s }), QByteArray("time_utc,epoch_ms,Generation throughput: tokens/s (tok/s)\r\n"));
    }

    void columnNamesLeaveOutEmptyParts()
    {
        QCOMPARE(csvColumnName({ QStringLiteral("Requests"), QStringLiteral("running"), {}, {} }),
            QStringLiteral("Requests: running"));
        QCOMPARE(csvColumnName({ {}, QStringLiteral("GPU 0"), QStringLiteral("%"), {} }), QStringLiteral("GPU 0 (%)"));
        QCOMPARE(csvColumnName({ QStringLiteral("KV cache used"), {}, QStringLiteral("%"), {} }),
            QStringLiteral("KV cache used (%)"));
    }

    // Rows are the union of the series' times; a series without a value there, or with a gap,
    // has an empty cell (never 0).
    void rowsMergeTheSeriesTimes()
    {
        const qint64 t0 = 1764673697000LL; // 2025-12-02T11:08:17Z
        CsvSeries a { QStringLiteral("GPU utilization"), QStringLiteral("GPU 0"), QStringLiteral("%"),
            { QPointF(t0, 41), QPointF(t0 + 1000, 42.5), QPointF(t0 + 2000, std::nan("")), QPointF(t0 + 3000, 0) } };
        CsvSeries b { QStringLiteral("GPU utilization"), QStringLiteral("GPU 1"), QStringLiteral("%"),
            { QPointF(t0 + 1000, 40), QPointF(t0 + 1500, 1e-3) } };
        const QList<QByteArray> lines = seriesCsv({ a, b }).split('\n');
        QCOMPARE(lines.size(), 7); // header, 5 rows, the empty rest after the last CRLF
        QCOMPARE(lines[0], QByteArray("time_utc,epoch_ms,GPU utilization: GPU 0 (%),GPU utilization: GPU 1 (%)\r"));
        QCOMPARE(lines[1], QByteArray("2025-12-02T11:08:17.000Z,1764673697000,41,\r"));
        QCOMPARE(lines[2], QByteArray("2025-12-02T11:08:18.000Z,1764673698000,42.5,40\r"));
        QCOMPARE(lines[3], QByteArray("2025-12-02T11:08:18.500Z,1764673698500,,0.001\r"));
        QCOMPARE(lines[4], QByteArray("2025-12-02T11:08:19.000Z,1764673699000,,\r"));
        QCOMPARE(lines[5], QByteArray("2025-12-02T11:08:20.000Z,1764673700000,0,\r"));
        QCOMPARE(lines[6], QByteArray());
    }

    void namesWithCommasAndQuotesAreQuoted()
    {
        CsvSeries s { QStringLiteral("Time to first token"), QStringLiteral("p50, \"warm\""), QStringLiteral("ms"),
            { QPointF(0, 12) } };
        const QByteArray csv = seriesCsv({ s });
        QVERIFY(csv.startsWith("time_utc,epoch_ms,\"Time to first token: p50, \"\"warm\"\" (ms)\"\r\n"));
        QVERIFY(csv.endsWith("1970-01-01T00:00:00.000Z,0,12\r\n"));
        CsvSeries line { QStringLiteral("a\nb"), {}, {}, {} };
        QCOMPARE(seriesCsv({ line }), QByteArray("time_utc,epoch_ms,\"a\nb\"\r\n"));
    }

    // Two points of one series at one time (a decimated column): the later one is the row's.
    void oneRowPerTime()
    {
        CsvSeries s { {}, QStringLiteral("x"), {}, { QPointF(5, 1), QPointF(5, 2), QPointF(6, 3) } };
        QCOMPARE(seriesCsv({ s }),
            QByteArray("time_utc,epoch_ms,x\r\n1970-01-01T00:00:00.005Z,5,2\r\n1970-01-01T00:00:00.006Z,6,3\r\n"));
    }
};

QTEST_GUILESS_MAIN(TestSeriesCsv)
#include "tst_seriescsv.moc"
