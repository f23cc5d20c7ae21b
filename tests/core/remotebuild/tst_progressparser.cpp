// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/buildloganalyzer.h"
#include "core/remotebuild/logsplitter.h"
#include "core/remotebuild/progressparser.h"

#include "tests/support/testsupport.h"

#include <QRandomGenerator>
#include <QtTest>

using kf::ProgressUpdate;
using Src = kf::ProgressUpdate::Source;

class TestProgressParser : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parse_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<bool>("isProgress");
        QTest::addColumn<int>("source");
        QTest::addColumn<int>("done");
        QTest::addColumn<int>("total");
        QTest::addColumn<int>("running");
        QTest::addColumn<int>("percent");
        QTest::addColumn<QString>("description");

        QTest::newRow("ninja default")
            << QByteArray("[196/430] Building CUDA object CMakeFiles/common_ops.dir/csrc/gemm/nvfp4_quant_kernels.cu.o")
            << true << int(Src::Ninja) << 196 << 430 << -1 << 45
            << QStringLiteral("Building CUDA object CMakeFiles/common_ops.dir/csrc/gemm/nvfp4_quant_kernels.cu.o");
        QTest::newRow("ninja kf status") << QByteArray("[kf 12/430 8 734.2] Building CUDA object x.cu.o") << true
                                         << int(Src::NinjaKf) << 12 << 430 << 8 << 2
                                         << QStringLiteral("Building CUDA object x.cu.o");
        QTest::newRow("pip indentation") << QByteArray("  [3/6] Linking CXX shared module common_ops.so") << true
                                         << int(Src::Ninja) << 3 << 6 << -1 << 50
                                         << QStringLiteral("Linking CXX shared module common_ops.so");
        QTest::newRow("uv box prefix") << QByteArray("  \xe2\x94\x82 [kf 5/10 2 3.0] Building CXX object a.o") << true
                                       << int(Src::NinjaKf) << 5 << 10 << 2 << 50
                                       << QStringLiteral("Building CXX object a.o");
        QTest::newRow("ansi colours") << QByteArray("\x1b[1m[7/8]\x1b[0m Linking x") << true << int(Src::Ninja) << 7
                                      << 8 << -1 << 87 << QStringLiteral("Linking x");
        QTest::newRow("cmake makefile") << QByteArray("[ 42%] Building CXX object CMakeFiles/x.dir/a.cpp.o") << true
                                        << int(Src::CMakePercent) << -1 << -1 << -1 << 42
                                        << QStringLiteral("Building CXX object CMakeFiles/x.dir/a.cpp.o");
        QTest::newRow("cmake 100%") << QByteArray("[100%] Built target common_ops") << true << int(Src::CMakePercent)
                                    << -1 << -1 << -1 << 100 << QStringLiteral("Built target common_ops");
        QTest::newRow("make wrapped by pip")
            << QByteArray("      [  7%] Building CUDA object CMakeFiles/k.dir/k.cu.o") << true << int(Src::CMakePercent)
            << -1 << -1 << -1 << 7 << QStringLiteral("Building CUDA object CMakeFiles/k.dir/k.cu.o");
        QTest::newRow("truncated ninja") << QByteArray("[19") << false << 0 << 0 << 0 << 0 << 0 << QString();
        QTest::newRow("truncated kf") << QByteArray("[kf 3/") << false << 0 << 0 << 0 << 0 << 0 << QString();
        QTest::newRow("kf without elapsed") << QByteArray("[kf 3/10 1") << false << 0 << 0 << 0 << 0 << 0 << QString();
        QTest::newRow("done above total") << QByteArray("[11/10] x") << false << 0 << 0 << 0 << 0 << 0 << QString();
        QTest::newRow("zero total") << QByteArray("[0/0] x") << false << 0 << 0 << 0 << 0 << 0 << QString();
        QTest::newRow("percent above 100") << QByteArray("[101%] x") << false << 0 << 0 << 0 << 0 << 0 << QString();
        QTest::newRow("python list") << QByteArray("['a', 'b']") << false << 0 << 0 << 0 << 0 << 0 << QString();
        QTest::newRow("cmake message") << QByteArray("-- Configuring done (4.1s)") << false << 0 << 0 << 0 << 0 << 0
                                       << QString();
        QTest::newRow("pip progress bar") << QByteArray("   \xe2\x94\x81\xe2\x94\x81 1.2/3.4 MB 5.0 MB/s") << false << 0
                                          << 0 << 0 << 0 << 0 << QString();
    }

    void parse()
    {
        QFETCH(QByteArray, line);
        QFETCH(bool, isProgress);
        const auto u = kf::parseProgressLine(kf::normalizeLogLine(line));
        QCOMPARE(u.has_value(), isProgress);
        if (!isProgress)
            return;
        QFETCH(int, source);
        QFETCH(int, done);
        QFETCH(int, total);
        QFETCH(int, running);
        QFETCH(int, percent);
        QFETCH(QString, description);
        QCOMPARE(int(u->source), source);
        QCOMPARE(u->done, done);
        QCOMPARE(u->total, total);
        QCOMPARE(u->running, running);
        QCOMPARE(u->percent, percent);
        QCOMPARE(u->description, description);
    }

    void kfStatusCarriesElapsed()
    {
        const auto u = kf::parseProgressLine("[kf 12/430 8 734.25] x");
        QVERIFY(u);
        QCOMPARE(u->elapsedS, 734.25);
    }

    void elapsedIsExactlyToDouble()
    {
        // The elapsed seconds of our NINJA_STATUS take a fast decimal path; it must give the very
        // double QByteArray::toDouble() gives, for every shape (and odd ones take the slow path).
        QByteArrayList numbers { "0", "0.0", "734.25", "0.1", "0.3", "1.7976931348623157", "999999999999999",
            "99999999999999.9", "1234567890123456", "0000000000000000001.5", "5.", ".5", "1.2.3", "00.000000000000001",
            "123456.7890123" };
        QRandomGenerator rng(7);
        for (int i = 0; i < 20000; ++i) {
            QByteArray n = QByteArray::number(rng.bounded(1, 19));
            QByteArray digits;
            for (int k = int(n.toInt()); k > 0; --k)
                digits += char('0' + rng.bounded(10));
            const int dot = int(rng.bounded(int(digits.size()) + 1));
            numbers << (dot == 0 ? digits : digits.left(dot) + '.' + digits.mid(dot));
        }
        for (const QByteArray& n : numbers) {
            bool ok = false;
            const double want = n.toDouble(&ok);
            const auto u = kf::parseProgressLine(QByteArray("[kf 1/2 3 " + n + "] x"));
            QCOMPARE(u.has_value(), ok);
            if (ok)
                QVERIFY2(u->elapsedS == want, n.constData());
        }
    }

    void splitterKeepsPartialLines()
    {
        // Every split point of a log with \n, \r\n and lone \r gives the same lines.
        const QByteArray log("[1/3] a\r[2/3] b\r\n[3/3] c\nlast-without-newline");
        const QByteArrayList expected { "[1/3] a", "[2/3] b", "[3/3] c", "last-without-newline" };
        for (int cut = 0; cut <= log.size(); ++cut) {
            for (int cut2 = cut; cut2 <= log.size(); cut2 += 3) {
                kf::LogSplitter s;
                QByteArrayList got = s.feed(log.left(cut));
                got += s.feed(log.mid(cut, cut2 - cut));
                got += s.feed(log.mid(cut2));
                got += s.flush();
                QCOMPARE(got, expected);
            }
        }
    }

    void splitterCapsHugeLines()
    {
        kf::LogSplitter s;
        const QByteArray big(kf::LogSplitter::kMaxLine + 10, 'x');
        const auto lines = s.feed(big);
        QCOMPARE(lines.size(), 1);
        QCOMPARE(lines.first().size(), kf::LogSplitter::kMaxLine);
        QCOMPARE(s.flush().value(0).size(), 10);
    }

    void analyzerOnPipLogByteByByte()
    {
        const QByteArray log = kf::test::readData(QStringLiteral("buildlogs/pip_sgl_kernel_failed.log"));
        QVERIFY(!log.isEmpty());
        auto run = [&](int step) {
            kf::BuildLogAnalyzer a;
            kf::BuildLogEvents all;
            for (qsizetype i = 0; i < log.size(); i += step) {
                const auto ev = a.feed(log.mid(i, step));
                all.progress += ev.progress;
                all.diagnostics += ev.diagnostics;
                all.lines += ev.lines;
            }
            const auto ev = a.finish();
            all.progress += ev.progress;
            all.diagnostics += ev.diagnostics;
            all.lines += ev.lines;
            return all;
        };
        const auto whole = run(int(log.size()));
        QCOMPARE(whole.lines, int(log.count('\n')));
        QCOMPARE(whole.progress.size(), 3);
        QCOMPARE(whole.progress.last().done, 3);
        QCOMPARE(whole.progress.last().total, 6);
        QCOMPARE(whole.progress.last().running, 2);
        for (int step : { 1, 7, 64 }) {
            const auto pieces = run(step);
            QCOMPARE(pieces.progress, whole.progress);
            QCOMPARE(pieces.diagnostics, whole.diagnostics);
        }
    }
};

QTEST_GUILESS_MAIN(TestProgressParser)
#include "tst_progressparser.moc"
