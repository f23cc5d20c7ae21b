// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The captures of the field test on a lent NVIDIA H200 (tests/data/field-h200, docs/FIELD.md)
// replayed through the real parsers and classifiers. Expected values come from the other
// outputs of the same machine (nvidia-smi's own table, nvcc --version, the generated source),
// never from KernelForge.
#include "core/gpu/nvidiasmi.h"
#include "core/hosts/serverfacts.h"
#include "core/remotebuild/buildloganalyzer.h"
#include "core/remotebuild/ninjalog.h"
#include "tests/support/testsupport.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QtTest>

using namespace kf;

namespace {

QByteArray field(const char* name)
{
    return test::readData(QStringLiteral("field-h200/") + QLatin1String(name));
}

// The first capture of re in the machine's own report (machine.txt: nvidia-smi, nvcc --version, ...).
QString machine(const char* pattern)
{
    const auto m = QRegularExpression(QLatin1String(pattern), QRegularExpression::MultilineOption)
                       .match(QString::fromUtf8(field("machine.txt")));
    return m.hasMatch() ? m.captured(1) : QStringLiteral("<no match for %1>").arg(QLatin1String(pattern));
}

QList<GpuField> streamFields()
{
    QList<GpuField> out;
    for (const QByteArray& n : field("stream_fields.txt").trimmed().split(','))
        out << gpuFieldFromName(n);
    return out;
}

// One line of the noheader,nounits capture, split independently of the parser.
QMap<QString, QString> rawRow(const QByteArray& line)
{
    const QStringList names = QString::fromUtf8(field("stream_fields.txt").trimmed()).split(u',');
    const QStringList cols = QString::fromUtf8(line).split(QStringLiteral(", "));
    QMap<QString, QString> row;
    for (qsizetype i = 0; i < names.size() && i < cols.size(); ++i)
        row.insert(names[i], cols[i].trimmed());
    return row;
}

BuildLogEvents analyze(const char* log)
{
    BuildLogAnalyzer a;
    BuildLogEvents all = a.feed(field(log));
    const BuildLogEvents tail = a.finish();
    all.progress += tail.progress;
    all.diagnostics += tail.diagnostics;
    return all;
}

} // namespace

class TestFieldH200 : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void probeAsksForWhatWasStreamed()
    {
        // GpuMonitor probes --help-query-gpu and streams what it chose; the capture ran that list.
        const GpuFieldProbe probe
            = probeGpuFields(field("help_query_gpu.txt"), QList<GpuField> { GpuField::Timestamp } + defaultGpuFields());
        QVERIFY(probe.ok);
        QVERIFY2(probe.missing.isEmpty(), qPrintable(probe.missing.join(u',')));
        QCOMPARE(probe.queryNames.join(u','), QString::fromUtf8(field("stream_fields.txt").trimmed()));
    }

    void streamParsesEveryRowAsNvidiaSmiWroteIt()
    {
        const QByteArray data = field("stream.csv");
        const GpuCsvResult r = parseGpuCsv(data, streamFields());
        QCOMPARE(r.badLines, 0);
        QVERIFY(r.fatal.isEmpty());
        const QList<QByteArray> lines = data.trimmed().split('\n');
        QCOMPARE(r.samples.size(), lines.size());
        QVERIFY(lines.size() >= 60);
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const GpuSample& s = r.samples[i];
            const auto raw = rawRow(lines[i]);
            QCOMPARE(s.index, raw.value(QStringLiteral("index")).toInt());
            QCOMPARE(s.text(GpuField::Uuid), raw.value(QStringLiteral("uuid")));
            QCOMPARE(s.text(GpuField::Name), raw.value(QStringLiteral("name")));
            QCOMPARE(s.text(GpuField::Pstate), raw.value(QStringLiteral("pstate")));
            QCOMPARE(s.value(GpuField::UtilGpu), raw.value(QStringLiteral("utilization.gpu")).toDouble());
            QCOMPARE(s.value(GpuField::MemUsed), raw.value(QStringLiteral("memory.used")).toDouble());
            QCOMPARE(s.value(GpuField::MemTotal), raw.value(QStringLiteral("memory.total")).toDouble());
            QCOMPARE(s.value(GpuField::TempGpu), raw.value(QStringLiteral("temperature.gpu")).toDouble());
            QCOMPARE(s.value(GpuField::PowerDraw), raw.value(QStringLiteral("power.draw")).toDouble());
            QCOMPARE(s.value(GpuField::PowerLimit), raw.value(QStringLiteral("power.limit")).toDouble());
            QCOMPARE(s.value(GpuField::ClockSm), raw.value(QStringLiteral("clocks.sm")).toDouble());
            QVERIFY(!hasValue(s.value(GpuField::FanSpeed))); // [N/A] on this passively cooled board
            bool ok = false;
            QVERIFY(s.hasReasons);
            QCOMPARE(s.reasons, raw.value(QStringLiteral("clocks_throttle_reasons.active")).toULongLong(&ok, 16));
            QVERIFY(ok);
        }
    }

    void directQueryWithUnitsAgreesWithTheStream()
    {
        // direct.csv: another nvidia-smi in the same seconds, with header (renamed fields) and units.
        const GpuCsvResult direct = parseGpuCsv(field("direct.csv"));
        QVERIFY(direct.sawHeader);
        QCOMPARE(direct.badLines, 0);
        QCOMPARE(direct.samples.size(), field("direct.csv").trimmed().count('\n'));
        const GpuCsvResult stream = parseGpuCsv(field("stream.csv"), streamFields());
        // What does not move under load is the same in both and as nvidia-smi's table says.
        const double total = machine(R"(\d+MiB / (\d+)MiB)").toDouble();
        QVERIFY(total > 0);
        for (const auto* r : { &direct, &stream }) {
            for (const GpuSample& s : r->samples) {
                QCOMPARE(s.text(GpuField::Name), machine(R"(^\|\s+0\s+(NVIDIA \S+))"));
                QCOMPARE(s.value(GpuField::MemTotal), total);
                QCOMPARE(s.value(GpuField::PowerLimit), machine(R"(\d+W\s*/\s*(\d+)W)").toDouble());
                QCOMPARE(s.text(GpuField::Uuid), stream.samples.first().text(GpuField::Uuid));
                QVERIFY(s.timeMs > 0);
            }
        }
        // Memory held by the load: both streams agree at every second they share.
        for (const GpuSample& s : stream.samples) {
            const auto nearest = std::min_element(
                direct.samples.begin(), direct.samples.end(), [&](const GpuSample& a, const GpuSample& b) {
                    return qAbs(a.timeMs - s.timeMs) < qAbs(b.timeMs - s.timeMs);
                });
            QVERIFY(qAbs(nearest->timeMs - s.timeMs) <= 1000);
            QCOMPARE(nearest->value(GpuField::MemUsed), s.value(GpuField::MemUsed));
            QCOMPARE(nearest->text(GpuField::Pstate), s.text(GpuField::Pstate));
        }
    }

    void computeAppsNameTheLoad()
    {
        const ComputeAppsResult apps = parseComputeApps(field("apps.txt"));
        QCOMPARE(apps.badLines, 0);
        QCOMPARE(apps.processes.size(), 1);
        const GpuProcess& p = apps.processes.first();
        // load.out: "load ready pid=N ..." printed by the PyTorch process itself.
        const auto m = QRegularExpression(QStringLiteral(R"(pid=(\d+))")).match(QString::fromUtf8(field("load.out")));
        QVERIFY(m.hasMatch());
        QCOMPARE(p.pid, m.captured(1).toLongLong());
        QCOMPARE(p.name, QStringLiteral("python3"));
        QVERIFY(p.usedMemoryMiB > 40 * 1024); // the load held 40 GiB
        QList<GpuProcess> joined = apps.processes;
        const GpuCsvResult stream = parseGpuCsv(field("stream.csv"), streamFields());
        joinProcessesToGpus(joined, stream.samples.mid(0, 1));
        QCOMPARE(joined.first().gpuIndex, 0);
        QVERIFY(joined.first().usedMemoryMiB <= stream.samples.first().value(GpuField::MemUsed));
        // The same query through kernelforge-cli exec over SSH gave the same table.
        QCOMPARE(parseComputeApps(field("apps_ssh.txt")).processes.first().pid, p.pid);
    }

    void factsMatchTheMachinesOwnTools_data()
    {
        QTest::addColumn<QString>("raw");
        QTest::addColumn<bool>("login");
        QTest::newRow("over ssh (login PATH)") << QStringLiteral("facts_raw_ssh.txt") << true;
        QTest::newRow("local (the run's PATH)") << QStringLiteral("facts_raw_local.txt") << false;
    }

    void factsMatchTheMachinesOwnTools()
    {
        QFETCH(QString, raw);
        QFETCH(bool, login);
        const auto r = parseServerFacts(field(raw.toUtf8().constData()));
        QVERIFY2(r, qPrintable(r.error()));
        const ServerFacts& f = *r;
        QVERIFY(f.complete);
        QCOMPARE(f.driverVersion, machine(R"(Driver Version: (\S+))"));
        QCOMPARE(f.nvcc, machine(R"(release [\d.]+, V(\S+))"));
        QCOMPARE(f.python, machine(R"(^Python (\S+))"));
        QCOMPARE(f.os, machine(R"re(^PRETTY_NAME="(.+)")re"));
        QCOMPARE(QString::number(f.cpuCount), machine(R"(^(\d+)$)"));
        QCOMPARE(f.gpus.size(), 1);
        QCOMPARE(f.gpus.first().name, machine(R"(^\|\s+0\s+(NVIDIA \S+))"));
        QCOMPARE(f.gpus.first().memoryMiB, machine(R"(\d+MiB / (\d+)MiB)").toDouble());
        QCOMPARE(f.gpus.first().computeCapability, QStringLiteral("9.0")); // Hopper
        if (login) {
            // sshd's default PATH: cmake, ninja and the torch python live in /opt/torch/.venv/bin.
            QVERIFY(f.cmake.isEmpty());
            QVERIFY(f.ninja.isEmpty());
            QVERIFY(f.torch.isEmpty());
            QVERIFY(f.torchError.contains(QLatin1String("No module named 'torch'")));
        } else {
            QCOMPARE(f.cmake, machine(R"(^cmake version (\S+))"));
            QCOMPARE(f.ninja, machine(R"(^(1\.\d+\.\S+)$)"));
            QCOMPARE(f.torch, machine(R"(^torch (\d+\.\d+\.\d+))"));
        }
        // kernelforge-cli facts --json printed the same facts there.
        const QJsonObject cli = QJsonDocument::fromJson(field(login ? "facts_ssh.json" : "facts_local.json")).object();
        const QJsonObject mine = f.toJson();
        for (const char* key : { "driver", "nvcc", "cmake", "ninja", "python3", "torch", "os", "cpus", "gpus" })
            QCOMPARE(cli.value(QLatin1String(key)), mine.value(QLatin1String(key)));
    }

    void commandNotFoundOnTheLoginPathIsNamed()
    {
        // The first build there: the profile's cmake is not on the PATH the job gets (exit 127).
        const BuildLogEvents ev = analyze("build_notfound.log");
        QCOMPARE(ev.diagnostics.size(), 1);
        const Diagnostic& d = ev.diagnostics.first();
        QCOMPARE(toString(d.kind), toString(Diagnostic::Kind::Shell));
        QCOMPARE(toString(d.severity), toString(Diagnostic::Severity::Error));
        QCOMPARE(toString(d.hint), toString(Diagnostic::Hint::NotOnPath));
        QCOMPARE(d.message, QStringLiteral("cmake: command not found"));
        QVERIFY(d.file.endsWith(QLatin1String("/cmd")));
        QCOMPARE(d.line, 1);
    }

    void realBuildProgressReachesTheEnd()
    {
        const BuildLogEvents ev = analyze("build_ok.log");
        QVERIFY(ev.diagnostics.isEmpty());
        QVERIFY(!ev.progress.isEmpty());
        const NinjaLog log = parseNinjaLog(field("ninja_log.txt"));
        QVERIFY2(log, qPrintable(log.error));
        // Every edge ninja ran, counted by ninja's own log, is one step of the progress.
        QCOMPARE(ev.progress.last().total, log.lastRun.size());
        QCOMPARE(ev.progress.last().done, ev.progress.last().total);
        QCOMPARE(int(ev.progress.last().source), int(ProgressUpdate::Source::NinjaKf));
        int last = 0;
        for (const ProgressUpdate& p : ev.progress) {
            QVERIFY(p.done >= last);
            last = p.done;
            QCOMPARE(p.total, log.lastRun.size());
        }
        // ninja's elapsed time at the last step is the wall time its log spans (ms vs s).
        QVERIFY(qAbs(ev.progress.last().elapsedS * 1000 - double(log.wallMs())) < 1000);
    }

    void realNvccErrorsPointAtTheirLines()
    {
        // The lines the generator planted the errors on, found in the source itself.
        const QList<QByteArray> src = field("build_error_unit_003.cu").split('\n');
        int undeclared = -1, badTemplate = -1;
        for (qsizetype i = 0; i < src.size(); ++i) {
            if (src[i].contains("undeclared_scale"))
                undeclared = int(i + 1);
            if (src[i].contains("<\"x\""))
                badTemplate = int(i + 1);
        }
        QVERIFY(undeclared > 0 && badTemplate > 0);
        const BuildLogEvents ev = analyze("build_error.log");
        QList<Diagnostic> nvcc;
        for (const Diagnostic& d : ev.diagnostics)
            if (d.kind == Diagnostic::Kind::Nvcc)
                nvcc << d;
        QCOMPARE(nvcc.size(), 2);
        QVERIFY(nvcc[0].file.endsWith(QLatin1String("src/unit_003.cu")));
        QCOMPARE(nvcc[0].line, undeclared);
        QCOMPARE(nvcc[0].message, QStringLiteral("identifier \"undeclared_scale\" is undefined"));
        QCOMPARE(nvcc[1].line, badTemplate);
        QCOMPARE(toString(nvcc[1].severity), toString(Diagnostic::Severity::Error));
    }

    void realOomKillIsAnOom()
    {
        // memory.events of the cgroup the build ran in: the kernel killed processes for memory.
        const auto m = QRegularExpression(QStringLiteral(R"(^oom_kill (\d+)$)"), QRegularExpression::MultilineOption)
                           .match(QString::fromUtf8(field("oom_memory_events.txt")));
        QVERIFY(m.hasMatch());
        const int kills = m.captured(1).toInt();
        QVERIFY(kills > 0);
        const BuildLogEvents ev = analyze("build_oom.log");
        int ooms = 0;
        for (const Diagnostic& d : ev.diagnostics) {
            if (d.kind == Diagnostic::Kind::Oom) {
                ++ooms;
                QCOMPARE(toString(d.hint), toString(Diagnostic::Hint::Oom));
            }
        }
        // One "Killed" per compile the OOM killer ended (ninja ran 16 at a time), and ninja 1.12's
        // "FAILED: [code=137]" (128 + SIGKILL) for each of those steps (issue #33).
        const int killed = int(field("build_oom.log").count("\nKilled\n"));
        QCOMPARE(ooms, killed + int(field("build_oom.log").count("FAILED: [code=137]")));
        QVERIFY(killed >= 1 && killed <= kills);
    }
};

QTEST_GUILESS_MAIN(TestFieldH200)
#include "tst_fieldh200.moc"
