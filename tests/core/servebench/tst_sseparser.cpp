// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/servebench/sseparser.h"

#include <QtTest>

using namespace kf;

namespace {
QList<QByteArray> parse(const QByteArray& stream, int step, bool finish = false, QString* error = nullptr)
{
    SseParser p(64);
    QList<QByteArray> events;
    const int n = step <= 0 ? int(stream.size()) : step;
    bool ok = true;
    for (qsizetype i = 0; i < stream.size() && ok; i += n)
        ok = p.feed(QByteArrayView(stream).sliced(i, qMin<qsizetype>(n, stream.size() - i)), &events);
    if (finish)
        p.finish(&events);
    if (error)
        *error = p.error();
    return events;
}
} // namespace

class TestSseParser : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void events_data()
    {
        QTest::addColumn<QByteArray>("stream");
        QTest::addColumn<QList<QByteArray>>("events");
        QTest::newRow("sglang") << QByteArray("data: {\"a\":1}\n\ndata: [DONE]\n\n")
                                << QList<QByteArray> { "{\"a\":1}", "[DONE]" };
        QTest::newRow("crlf") << QByteArray("data: x\r\n\r\ndata: y\r\n\r\n") << QList<QByteArray> { "x", "y" };
        QTest::newRow("cr only") << QByteArray("data: x\r\rdata: y\r\r") << QList<QByteArray> { "x", "y" };
        QTest::newRow("no space") << QByteArray("data:x\n\n") << QList<QByteArray> { "x" };
        QTest::newRow("two spaces keep one") << QByteArray("data:  x\n\n") << QList<QByteArray> { " x" };
        QTest::newRow("multi-line data") << QByteArray("data: a\ndata: b\n\n") << QList<QByteArray> { "a\nb" };
        QTest::newRow("comments and fields")
            << QByteArray(": keep-alive\nevent: token\nid: 7\nretry: 10\ndata: z\n\n") << QList<QByteArray> { "z" };
        QTest::newRow("blank lines without data") << QByteArray("\n\n: ping\n\n") << QList<QByteArray> {};
        QTest::newRow("empty data") << QByteArray("data:\n\n") << QList<QByteArray> { "" };
        QTest::newRow("unfinished event waits") << QByteArray("data: a\n\ndata: b\n") << QList<QByteArray> { "a" };
    }
    void events()
    {
        QFETCH(QByteArray, stream);
        QFETCH(QList<QByteArray>, events);
        for (int step : { 1, 2, 5, 0 })
            QCOMPARE(parse(stream, step), events);
    }

    void finishDispatchesTheLastEvent()
    {
        QCOMPARE(parse("data: a\n\ndata: [DONE]\n", 1, true), (QList<QByteArray> { "a", "[DONE]" }));
        QCOMPARE(parse("data: a\n\ndata: [DONE]", 0, true), (QList<QByteArray> { "a", "[DONE]" }));
    }

    void boundedEvents()
    {
        QString error;
        // One line longer than the bound (64 bytes here), arriving in pieces.
        parse("data: " + QByteArray(100, 'x') + "\n\n", 7, false, &error);
        QVERIFY2(error.contains(QStringLiteral("exceeds 64 bytes")), qPrintable(error));
        // Many short data lines adding up past the bound.
        QByteArray many;
        for (int i = 0; i < 20; ++i)
            many += "data: 0123456789\n";
        error.clear();
        parse(many, 0, false, &error);
        QVERIFY2(error.contains(QStringLiteral("exceeds 64 bytes")), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestSseParser)
#include "tst_sseparser.moc"
