// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// LocalTransport::readFile reads regular files only and never more than the limit: a FIFO
// does not block, /dev/zero does not exhaust memory, /proc files (size 0) are still bounded;
// readFileRange reads a range of a regular file.
#include "core/transport/localtransport.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

using namespace kf;

class TestReadLimits : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void refusals()
    {
        QTemporaryDir dir;
        LocalTransport t;
        const QString fifo = dir.filePath(QStringLiteral("fifo"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0644), 0);
        auto r = t.readFile(fifo);
        QVERIFY(!r);
        QVERIFY2(r.error().endsWith(QLatin1String("not a regular file (a FIFO)")), qPrintable(r.error()));
        const QString zero = dir.filePath(QStringLiteral("setup.py"));
        QVERIFY(QFile::link(QStringLiteral("/dev/zero"), zero));
        r = t.readFile(zero);
        QVERIFY(!r);
        QVERIFY2(r.error().endsWith(QLatin1String("not a regular file (a character device)")), qPrintable(r.error()));
        r = t.readFile(dir.path());
        QVERIFY(!r);
        QVERIFY2(r.error().endsWith(QLatin1String("not a regular file (a folder)")), qPrintable(r.error()));

        const QString big = dir.filePath(QStringLiteral("big"));
        {
            QFile f(big);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(1000, 'x'));
        }
        r = t.readFile(big, 999);
        QVERIFY(!r);
        QVERIFY2(r.error().endsWith(QLatin1String("file too large (1000 bytes, limit 999)")), qPrintable(r.error()));
        r = t.readFile(big, 1000);
        QVERIFY2(r, qPrintable(r.error()));
        QCOMPARE(r->size(), 1000);
        // /proc reports size 0; the read itself stops at the limit.
        r = t.readFile(QStringLiteral("/proc/self/maps"), 10);
        QVERIFY(!r);
        QVERIFY2(
            r.error().contains(QLatin1String("file too large (at least 11 bytes, limit 10)")), qPrintable(r.error()));
        r = t.readFile(QStringLiteral("/proc/self/maps"));
        QVERIFY2(r && r->size() > 11, qPrintable(r.error()));
    }

    // Ranged reads: bytes from an offset, short at the end, none past it; FIFOs refused.
    void ranges()
    {
        QTemporaryDir dir;
        LocalTransport t;
        const QString file = dir.filePath(QStringLiteral("f"));
        QByteArray data;
        for (int i = 0; i < 100000; ++i)
            data += char('a' + i % 26);
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(data);
        }
        QCOMPARE(t.readFileRange(file, 0, 10).value(), data.left(10));
        QCOMPARE(t.readFileRange(file, 99990, 100).value(), data.right(10));
        QCOMPARE(t.readFileRange(file, 100000, 10).value(), QByteArray());
        QCOMPARE(t.readFileRange(file, 200000, 10).value(), QByteArray());
        QCOMPARE(t.readFileRange(file, 12345, 0).value(), QByteArray());
        QCOMPARE(t.readFileRange(file, 5, 70000).value(), data.mid(5, 70000));
        QVERIFY(!t.readFileRange(file, -1, 10));
        const QString fifo = dir.filePath(QStringLiteral("fifo"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0644), 0);
        const auto r = t.readFileRange(fifo, 0, 10);
        QVERIFY(!r);
        QVERIFY2(r.error().endsWith(QLatin1String("not a regular file (a FIFO)")), qPrintable(r.error()));
        QVERIFY(!t.readFileRange(dir.filePath(QStringLiteral("missing")), 0, 10));
    }
};

QTEST_GUILESS_MAIN(TestReadLimits)
#include "tst_readlimits.moc"
