// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issue #30 item 7, issue #33 item 3: the first error is the root cause. Real logs from public
// issues (tests/data/buildlogs/corpus, its README is the table of expectations), the field logs
// of the H200 run and the demo's CCCL failure: the compiler's, linker's, CMake's or Python's
// error ranks before the summaries that follow it (ninja's FAILED line even comes before it),
// an OOM kill is classified, and a log without a cause says so instead of naming a summary.
#include "core/remotebuild/buildloganalyzer.h"
#include "core/remotebuild/rootcause.h"

#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QtTest>

using kf::Diagnostic;
using K = kf::Diagnostic::Kind;
using S = kf::Diagnostic::Severity;

namespace {

QList<Diagnostic> analyze(const QByteArray& log)
{
    kf::BuildLogAnalyzer a;
    QList<Diagnostic> all = a.feed(log).diagnostics;
    all += a.finish().diagnostics;
    return all;
}

QString listing(const QList<Diagnostic>& all)
{
    QStringList out;
    for (const Diagnostic& d : all)
        out << kf::toString(d.kind) + QLatin1Char('/') + kf::toString(d.hint) + QStringLiteral(": ") + d.message;
    return out.join(QLatin1Char('\n'));
}

struct CorpusRow
{
    QString log;
    QString source;
    QString cause; // "none": no root cause in the log
    QString hint;  // "-": none
    bool oom = false;
};

// The table of tests/data/buildlogs/corpus/README.md.
QList<CorpusRow> corpusTable()
{
    QList<CorpusRow> rows;
    const QByteArray readme = kf::test::readData(QStringLiteral("buildlogs/corpus/README.md"));
    for (const QByteArray& line : readme.split('\n')) {
        if (!line.startsWith("| ") || !line.contains(".log |"))
            continue;
        const QStringList cells = QString::fromUtf8(line).split(QStringLiteral(" | "));
        if (cells.size() != 6)
            continue;
        CorpusRow r;
        r.log = cells[0].mid(2).trimmed();
        r.source = cells[2].trimmed();
        r.cause = cells[3].trimmed();
        r.hint = cells[4].trimmed();
        r.oom = cells[5].startsWith(QLatin1String("yes"));
        rows << r;
    }
    return rows;
}

} // namespace

class TestRootCause : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void corpusIsComplete()
    {
        const QList<CorpusRow> rows = corpusTable();
        // The issue asks for 25 real logs at least; every file is in the table, with its source.
        QVERIFY2(rows.size() >= 25, qPrintable(QString::number(rows.size())));
        QDir dir(kf::test::dataPath(QStringLiteral("buildlogs/corpus")));
        const QStringList files = dir.entryList({ QStringLiteral("*.log") }, QDir::Files);
        QCOMPARE(files.size(), rows.size());
        for (const CorpusRow& r : rows) {
            QVERIFY2(files.contains(r.log), qPrintable(r.log));
            QVERIFY2(r.source.startsWith(QLatin1String("https://github.com/")), qPrintable(r.source));
        }
        // Both kinds of truth are in it: logs with a cause, OOM kills, logs without a cause.
        QVERIFY(std::count_if(rows.begin(), rows.end(), [](const CorpusRow& r) { return r.oom; }) >= 3);
        QVERIFY(std::count_if(rows.begin(), rows.end(), [](const CorpusRow& r) { return r.cause == "none"; }) >= 3);
    }

    void corpus_data()
    {
        QTest::addColumn<QString>("log");
        QTest::addColumn<QString>("cause");
        QTest::addColumn<QString>("hint");
        QTest::addColumn<bool>("oom");
        for (const CorpusRow& r : corpusTable())
            QTest::newRow(qPrintable(r.log)) << r.log << r.cause << r.hint << r.oom;
    }

    void corpus()
    {
        QFETCH(QString, log);
        QFETCH(QString, cause);
        QFETCH(QString, hint);
        QFETCH(bool, oom);
        const QList<Diagnostic> all = analyze(kf::test::readData(QStringLiteral("buildlogs/corpus/") + log));
        const kf::RootCause root = kf::findRootCause(all);
        const QString seen = listing(all);
        if (cause == QLatin1String("none")) {
            QVERIFY2(!root.retained, qPrintable(seen));
            QVERIFY2(root.missing.startsWith(QLatin1String("No root cause in the log: ")), qPrintable(root.missing));
        } else {
            QVERIFY2(root.retained && root.diagnostic, qPrintable(seen));
            QVERIFY2(kf::diagnosticText(*root.diagnostic).contains(cause),
                qPrintable(kf::diagnosticText(*root.diagnostic) + QStringLiteral("\n--\n") + seen));
            QVERIFY(root.missing.isEmpty());
            // Nothing that ranks higher comes later, and the root is the first cause in the log.
            QCOMPARE(int(kf::rankOf(*root.diagnostic)), int(kf::DiagnosticRank::Cause));
            for (const Diagnostic& d : all) {
                if (d == *root.diagnostic)
                    break;
                QVERIFY2(kf::rankOf(d) != kf::DiagnosticRank::Cause, qPrintable(seen));
            }
        }
        const QString gotHint = root.diagnostic ? kf::toString(root.diagnostic->hint) : QString();
        QCOMPARE(gotHint.isEmpty() ? QStringLiteral("-") : gotHint, hint);
        QCOMPARE(root.diagnostic && kf::isOutOfMemory(*root.diagnostic), oom);
        // A hint comes with its text (the Build tab shows it under the root cause).
        if (hint != QLatin1String("-"))
            QVERIFY(!kf::hintText(root.diagnostic->hint).isEmpty());
    }

    // The demo server's build with the CCCL patch rolled back (issue #30 item 7): ninja's FAILED
    // line comes first, the compiler's fatal error under it is the root cause.
    void demoCcclFailure()
    {
        const QByteArray log
            = "-- Configuring done (0.4s)\n"
              "[kf 1/15 2 0.812] Building CXX object CMakeFiles/common_ops.dir/csrc/common/registry.cpp.o\n"
              "FAILED: CMakeFiles/common_ops.dir/csrc/common/cuda_version_info.cpp.o\n"
              "/usr/bin/c++ -DSGL_KERNEL_HAVE_CUDA_TOOLKIT=1 -I/home/u/sgl-kernel/include -isystem "
              "/usr/local/cuda/targets/x86_64-linux/include -c "
              "/home/u/sgl-kernel/csrc/common/cuda_version_info.cpp\n"
              "/home/u/sgl-kernel/csrc/common/cuda_version_info.cpp:7:10: fatal error: "
              "cuda/std/version: No such file or directory\n"
              "    7 | #include <cuda/std/version>\n"
              "      |          ^~~~~~~~~~~~~~~~~~\n"
              "compilation terminated.\n"
              "ninja: build stopped: subcommand failed.\n";
        const QList<Diagnostic> all = analyze(log);
        QCOMPARE(int(all.first().kind), int(K::Ninja)); // the log order: the summary first
        const kf::RootCause root = kf::findRootCause(all);
        QVERIFY(root.retained);
        QCOMPARE(int(root.diagnostic->kind), int(K::Compiler));
        QCOMPARE(int(root.diagnostic->hint), int(Diagnostic::Hint::Cccl));
        QCOMPARE(kf::diagnosticText(*root.diagnostic),
            QStringLiteral("/home/u/sgl-kernel/csrc/common/cuda_version_info.cpp:7:10: cuda/std/version: No such "
                           "file or directory"));
    }

    // The H200 field run (tests/data/field-h200): a real nvcc error, a real cgroup OOM kill
    // (ninja 1.12's FAILED: [code=137] and Killed), a command not on the PATH.
    void fieldLogs_data()
    {
        QTest::addColumn<QString>("log");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("cause");
        QTest::newRow("nvcc error") << "build_error.log" << int(K::Nvcc)
                                    << "unit_003.cu:23: identifier \"undeclared_scale\" is undefined";
        QTest::newRow("oom") << "build_oom.log" << int(K::Oom) << "exit code 137";
        QTest::newRow("not on PATH") << "build_notfound.log" << int(K::Shell) << "cmake: command not found";
    }
    void fieldLogs()
    {
        QFETCH(QString, log);
        QFETCH(int, kind);
        QFETCH(QString, cause);
        const QList<Diagnostic> all = analyze(kf::test::readData(QStringLiteral("field-h200/") + log));
        const kf::RootCause root = kf::findRootCause(all);
        QVERIFY2(root.retained, qPrintable(listing(all)));
        QCOMPARE(int(root.diagnostic->kind), kind);
        QVERIFY2(kf::diagnosticText(*root.diagnostic).contains(cause), qPrintable(listing(all)));
    }

    void ranks()
    {
        auto diag = [](K kind, S severity, const QString& message) {
            Diagnostic d;
            d.kind = kind;
            d.severity = severity;
            d.message = message;
            return d;
        };
        using R = kf::DiagnosticRank;
        QCOMPARE(kf::rankOf(diag(K::Ninja, S::Error, "build step failed: x.o")), R::Summary);
        QCOMPARE(kf::rankOf(diag(K::Make, S::Error, "make target failed: x (Error 1)")), R::Summary);
        QCOMPARE(kf::rankOf(diag(K::BuildFailed, S::Error, "ninja: build stopped")), R::Summary);
        QCOMPARE(kf::rankOf(diag(K::Linker, S::Error, "collect2: error: ld returned 1 exit status")), R::Summary);
        QCOMPARE(kf::rankOf(diag(K::Linker, S::Error, "a.o: undefined reference to `f'")), R::Cause);
        QCOMPARE(kf::rankOf(diag(K::Oom, S::Error, "Killed")), R::Cause);
        QCOMPARE(kf::rankOf(diag(K::Python, S::Error, "OSError: x")), R::Cause);
        QCOMPARE(kf::rankOf(diag(K::Compiler, S::Warning, "x")), R::Warning);
        QCOMPARE(kf::rankOf(diag(K::Compiler, S::Note, "x")), R::Note);
        // Nothing at all: the summaryless failure says where to look.
        const kf::RootCause nothing = kf::findRootCause({});
        QVERIFY(!nothing.retained && !nothing.diagnostic);
        QVERIFY2(nothing.missing.contains(QLatin1String("dmesg")), qPrintable(nothing.missing));
        // Where to look follows the summary: the linker's, make's, pip's, ninja's own words.
        QVERIFY(kf::findRootCause({ diag(K::Linker, S::Error, "collect2: error: ld returned 1 exit status") })
                    .missing.contains(QLatin1String("collect2")));
        QVERIFY(kf::findRootCause({ diag(K::BuildFailed, S::Error, "error: subprocess-exited-with-error") })
                    .missing.contains(QLatin1String("pip with -v")));
        QVERIFY(kf::findRootCause({ diag(K::Ninja, S::Error, "build step failed: x.o") })
                    .missing.contains(QLatin1String("FAILED:")));
    }
};

QTEST_GUILESS_MAIN(TestRootCause)
#include "tst_rootcause.moc"
