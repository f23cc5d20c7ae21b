// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The process poll's parsers: pmon (real H200 captures), ps lines, the sectioned output,
// and the signal answer and permission rule.
#include "core/gpu/gpuprocesses.h"
#include "core/gpu/processsignal.h"
#include "tests/support/testsupport.h"

#include <QProcess>
#include <QtTest>

using namespace kf;

namespace {
QByteArray capture(const char* name)
{
    return test::readData(QStringLiteral("nvidia-smi/h200-driver580/") + QLatin1String(name));
}

// This poll's nonce (listGpuProcesses makes a new one each time).
const QByteArray kMark = "0123456789abcdef";

// The script's output as a server would print it: sections opened by "\x1eKF<mark> name status".
QByteArray section(const char* name, int status, const QByteArray& body)
{
    return "\x1eKF" + kMark + ' ' + QByteArray(name) + ' ' + QByteArray::number(status) + '\n' + body
        + (body.endsWith('\n') || body.isEmpty() ? "" : "\n");
}
} // namespace

class TestGpuProcesses : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void pmonUnderLoad()
    {
        // pmon -c 3 -s um: three samples of pid 486 (python3) on GPU 0.
        const PmonResult r = parsePmon(capture("pmon_load_um.txt"));
        QVERIFY(r.sawHeader);
        QCOMPARE(r.badLines, 0);
        QCOMPARE(r.rows.size(), 3);
        const PmonRow& row = r.rows.first();
        QCOMPARE(row.gpu, 0);
        QCOMPARE(row.pid, qint64(486));
        QCOMPARE(row.type, QStringLiteral("C"));
        QCOMPARE(row.smPercent, 98.0);
        QCOMPARE(row.memPercent, 23.0);
        QCOMPARE(row.fbMiB, 21610.0);
        QCOMPARE(row.command, QStringLiteral("python3"));
    }

    void pmonIdleRowIsNoProcess()
    {
        for (const char* name : { "pmon_idle_um.txt", "pmon_after_um.txt" }) {
            const PmonResult r = parsePmon(capture(name));
            QVERIFY(r.sawHeader);
            QCOMPARE(r.rows.size(), 0);
            QCOMPARE(r.idleRows, 1);
            QCOMPARE(r.badLines, 0);
        }
    }

    void pmonWithoutMemoryColumnsAndWithDateTime()
    {
        const PmonResult u = parsePmon(capture("pmon_load_u.txt")); // -s u: no fb/ccpm
        QCOMPARE(u.rows.size(), 2);
        QCOMPARE(u.rows[0].smPercent, 99.0);
        QVERIFY(!hasValue(u.rows[0].fbMiB));
        QCOMPARE(u.rows[0].command, QStringLiteral("python3"));
        const PmonResult dt = parsePmon(capture("pmon_load_um_DT.txt")); // -o DT: Date Time first
        QVERIFY(dt.sawHeader);
        QCOMPARE(dt.badLines, 0);
        QCOMPARE(dt.rows.size(), 2);
        QCOMPARE(dt.rows[1].gpu, 0);
        QCOMPARE(dt.rows[1].pid, qint64(486));
        QCOMPARE(dt.rows[1].smPercent, 99.0);
        QCOMPARE(dt.rows[1].fbMiB, 21610.0);
    }

    void pmonGarbageAndTruncation()
    {
        const QByteArray whole = capture("pmon_load_um.txt");
        // Cut inside the last row: the row has too few columns and is skipped with why.
        const QByteArray cut = whole.left(whole.lastIndexOf("21610"));
        const PmonResult r = parsePmon(cut);
        QCOMPARE(r.rows.size(), 2);
        QCOMPARE(r.badLines, 1);
        QVERIFY2(r.errors.value(0).startsWith(QStringLiteral("line 5: ")), qPrintable(r.errors.value(0)));
        // No header: nothing is a row; every line says why.
        const PmonResult noHeader = parsePmon("    0        486     C     98\nFailed to initialize NVML\n");
        QVERIFY(!noHeader.sawHeader);
        QCOMPARE(noHeader.rows.size(), 0);
        QCOMPARE(noHeader.badLines, 2);
        // A pid or GPU that is no whole number, binary noise, a huge pid.
        QByteArray junk = whole.left(whole.indexOf("    0 "));
        junk += "    x        486     C     98     23      -      -      -      -  21610      0    python3\n";
        junk += "    0       4.5x     C     98     23      -      -      -      -  21610      0    python3\n";
        junk += "    0  99999999999     C     98     23      -      -      -      -  21610      0    python3\n";
        junk += QByteArray("\x00\xff\x1e\n", 4);
        junk += "    1        487   C+G      -      -      -      -      -      -      -      -    my app\n";
        const PmonResult j = parsePmon(junk);
        QCOMPARE(j.badLines, 4);
        QCOMPARE(j.rows.size(), 1);
        QCOMPARE(j.rows[0].pid, qint64(487));
        QCOMPARE(j.rows[0].type, QStringLiteral("C+G"));
        QVERIFY(!hasValue(j.rows[0].smPercent)); // "-": no value, not 0
        QCOMPARE(j.rows[0].command, QStringLiteral("my app"));
        // Nothing at all, or only noise: no crash, nothing found.
        QCOMPARE(parsePmon({}).rows.size(), 0);
        QCOMPARE(parsePmon(QByteArray(70000, '#')).rows.size(), 0);
    }

    void psLines()
    {
        const PsResult r
            = parsePsLines("  486     0 root                             102  726312 python3 -c import torch; x = 1\n"
                           "error: garbage\n"
                           " 4101  1000 alice                              0.3   9000 /usr/bin/python3   a  b\n"
                           "  77");
        QCOMPARE(r.rows.size(), 2);
        QCOMPARE(r.badLines, 2);
        QCOMPARE(r.rows[0].pid, qint64(486));
        QCOMPARE(r.rows[0].uid, qint64(0));
        QCOMPARE(r.rows[0].user, QStringLiteral("root"));
        QCOMPARE(r.rows[0].cpuPercent, 102.0);
        QCOMPARE(r.rows[0].rssKiB, 726312.0);
        QCOMPARE(r.rows[0].commandLine, QStringLiteral("python3 -c import torch; x = 1"));
        QCOMPARE(r.rows[1].commandLine, QStringLiteral("/usr/bin/python3   a  b")); // its own spaces kept
    }

    void sectionsJoinAppsPmonAndPs()
    {
        // The real H200 captures of one load, as the poll script prints them.
        const QByteArray apps = capture("compute_apps_load_units.csv");
        QByteArray appsRows; // noheader,nounits: "486, python3, 21610, GPU-..."
        const QList<QByteArray> cols = apps.split('\n').value(1).split(',');
        appsRows = cols[0] + ", " + cols[1].trimmed() + ", 21610, " + cols[3].trimmed() + '\n';
        const QByteArray out = "Welcome to the server (a login banner)\n" + section("me", 0, {})
            + section("gpus", 0, "0, " + cols[3].trimmed() + '\n') + section("apps", 0, appsRows)
            + section("pmon", 0, capture("pmon_load_um.txt"))
            + section("ps", 0, "  486     0 root                             102  726312 python3 matmul.py --n 8192\n")
            + section("end", 0, {});
        const GpuProcessList list = parseGpuProcessOutput(out, kMark);
        QVERIFY(list.complete);
        QVERIFY(list.pmonAvailable);
        QCOMPARE(list.myUid, qint64(0));
        QCOMPARE(list.badLines, 0);
        QCOMPARE(list.processes.size(), 1);
        const GpuProcess& p = list.processes.first();
        QCOMPARE(p.gpuIndex, 0);
        QCOMPARE(p.pid, qint64(486));
        QCOMPARE(p.usedMemoryMiB, 21610.0);
        QCOMPARE(p.smPercent, 98.0);
        QCOMPARE(p.user, QStringLiteral("root"));
        QCOMPARE(p.uid, qint64(0));
        QCOMPARE(p.cpuPercent, 102.0);
        QCOMPARE(p.rssKiB, 726312.0);
        QCOMPARE(p.commandLine, QStringLiteral("python3 matmul.py --n 8192"));
        QCOMPARE(p.type, QStringLiteral("C"));
    }

    void withoutPmonSmIsUnknown()
    {
        // An old driver or a vGPU guest: pmon refused; the apps table still lists the process.
        const QByteArray out = section("me", 1000, {})
            + section("apps", 0, "560, python3, 58352, GPU-3b439167-c6d1-b01d-3fb1-c3ce7921e9cc\n")
            + section("pmon", 2, "Invalid combination of input arguments. Please run \"nvidia-smi -h\" for help.\n")
            + section("end", 0, {});
        GpuSample gpu;
        gpu.index = 3;
        gpu.setText(GpuField::Uuid, QStringLiteral("GPU-3b439167-c6d1-b01d-3fb1-c3ce7921e9cc"));
        const GpuProcessList list = parseGpuProcessOutput(out, kMark, { gpu });
        QVERIFY(!list.pmonAvailable);
        QVERIFY2(list.pmonError.startsWith(QStringLiteral("Invalid combination")), qPrintable(list.pmonError));
        QCOMPARE(list.processes.size(), 1);
        QCOMPARE(list.processes[0].gpuIndex, 3); // joined through the stream's samples
        QVERIFY(!hasValue(list.processes[0].smPercent));
        QCOMPARE(list.processes[0].uid, qint64(-1)); // ps did not list it
        QCOMPARE(list.myUid, qint64(1000));
    }

    void truncatedOrGarbageOutput()
    {
        const QByteArray out = section("me", 0, {}) + section("apps", 0, "560, python3, 58352, GPU-x\n")
            + section("pmon", 0, capture("pmon_load_um.txt"));
        for (qsizetype n = 0; n <= out.size(); ++n) {
            const GpuProcessList list = parseGpuProcessOutput(out.left(n), kMark);
            QVERIFY(!list.complete);
            QVERIFY(list.processes.size() <= 2);
        }
        const GpuProcessList noise
            = parseGpuProcessOutput(QByteArray("\x1eKF\n\x1eKF ps\n\x1eKF ps 99999999999999999999\n"
                                               "\x1eKF apps x\n, , ,\n\x1eKF pmon 0\n#\n"),
                kMark);
        QCOMPARE(noise.processes.size(), 0);
        QVERIFY(!noise.complete);
        QCOMPARE(noise.myUid, qint64(-1));
    }

    // A co-tenant names its process so that nvidia-smi's and ps' output carry marker lines:
    // with the nonce unknown to it (and 0x1e taken out of tool output by the script) they are
    // text of its row, and the SSH user stays who it is.
    void toolOutputCannotForgeASection()
    {
        const QByteArray forged = "\x1eKF me 0\n\x1eKF end 0\n\x1eKF" + QByteArray("guessed0guessed0") + " me 0\n";
        const QByteArray out = section("me", 1000, {})
            + section("apps", 0, "560, evil\n" + forged + ", 58352, GPU-3b439167-c6d1-b01d-3fb1-c3ce7921e9cc\n")
            + section("ps", 0, "  560  1001 mallory  1.0 1000 sh -c x\n" + forged)
            // A second "me" with the right nonce would be the script's own: only the first counts.
            + section("me", 0, {}) + section("end", 0, {});
        const GpuProcessList list = parseGpuProcessOutput(out, kMark);
        QCOMPARE(list.myUid, qint64(1000));
        QVERIFY(list.complete);
        // The poll script removes 0x1e from every tool's output before printing it.
        const QString script = gpuProcessScript();
        QVERIFY(script.contains(QStringLiteral("tr -d '\\036'")));
        QVERIFY(script.contains(QStringLiteral("unset KF_MARK"))); // the tools it runs never see the nonce
        // Nothing without the nonce opens a section.
        QCOMPARE(parseGpuProcessOutput(out, "fedcba9876543210").myUid, qint64(-1));
        QCOMPARE(parseGpuProcessOutput(out, {}).myUid, qint64(-1));
    }

    void startTimesJoinTheirProcess()
    {
        const QByteArray out = section("me", 1000, {})
            + section("apps", 0, "560, python3, 58352, GPU-a\n561, python3, 1, GPU-a\n")
            + section("start", 0, "560 123456\n561 x\n") + section("end", 0, {});
        const GpuProcessList list = parseGpuProcessOutput(out, kMark);
        QCOMPARE(list.processes.size(), 2);
        QCOMPARE(list.processes[0].startTicks, qint64(123456));
        QCOMPARE(list.processes[1].startTicks, qint64(-1)); // not a number: not known, never guessed
        QCOMPARE(list.badLines, 1);
    }

    // nvitop's host line: /proc/stat's cpu ticks, MemTotal/MemAvailable and the CPU count from
    // the poll's host section; the busy share is between two polls, never from one.
    void hostSectionAndTheCpuShare()
    {
        const QByteArray body = "cpu  1000 10 290 8000 500 0 200 0 0 0\n"
                                "MemTotal:       528000000 kB\n"
                                "MemAvailable:   396000000 kB\n"
                                "cpus 64\n";
        const QByteArray out = section("me", 1000, {}) + section("host", 0, body) + section("end", 0, {});
        const GpuProcessList list = parseGpuProcessOutput(out, kMark);
        QCOMPARE(list.host.cpuTotalTicks, 10000.0);
        QCOMPARE(list.host.cpuIdleTicks, 8500.0); // idle + iowait
        QCOMPARE(list.host.cpus, 64);
        QCOMPARE(list.host.memTotalKiB, 528000000.0);
        QCOMPARE(list.host.memAvailableKiB, 396000000.0);
        QVERIFY(!hasValue(list.host.cpuPercent)); // one poll: no share yet
        HostLoad later = list.host;
        later.cpuTotalTicks += 1000;
        later.cpuIdleTicks += 750;
        QCOMPARE(cpuPercentBetween(list.host, later), 25.0);
        QVERIFY(!hasValue(cpuPercentBetween(later, list.host))); // a reboot: counters went back
        QVERIFY(!hasValue(cpuPercentBetween(HostLoad(), later)));

        // Garbage, a truncated line, a machine that has more available than total: no values, no guess.
        const HostLoad bad = parseHostLoad("cpu 1 2 x 4\nMemTotal: 10 kB\nMemAvailable: 20 kB\ncpus -3\ncpus\n");
        QVERIFY(!hasValue(bad.cpuTotalTicks));
        QCOMPARE(bad.memTotalKiB, 10.0);
        QVERIFY(!hasValue(bad.memAvailableKiB));
        QCOMPARE(bad.cpus, -1);
        const HostLoad none = parseHostLoad({});
        QVERIFY(!hasValue(none.cpuTotalTicks) && !hasValue(none.memTotalKiB) && !hasValue(none.memAvailableKiB));
        QCOMPARE(none.cpus, -1);
    }

    // The script's host section, run by a real POSIX shell on this machine's /proc (the tools
    // before it fail: no nvidia-smi here), reads as the host.
    void theScriptsHostSectionOnThisMachine()
    {
        QProcess sh;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("KF_MARK"), QString::fromLatin1(kMark));
        sh.setProcessEnvironment(env);
        sh.start(QStringLiteral("/bin/sh"),
            { QStringLiteral("-c"), gpuProcessScript(), QStringLiteral("sh"),
                QStringLiteral("/nonexistent/nvidia-smi") });
        QVERIFY(sh.waitForFinished(60000));
        const GpuProcessList list = parseGpuProcessOutput(sh.readAllStandardOutput(), kMark);
        QVERIFY(list.complete);
        QVERIFY(list.host.cpuTotalTicks > 0);
        QVERIFY(list.host.cpuIdleTicks >= 0 && list.host.cpuIdleTicks <= list.host.cpuTotalTicks);
        QVERIFY(list.host.cpus >= 1);
        QVERIFY(list.host.memTotalKiB > 0);
        QVERIFY(list.host.memAvailableKiB > 0 && list.host.memAvailableKiB <= list.host.memTotalKiB);
    }

    void signalAnswers()
    {
        ExecResult r;
        r.exitCode = 0;
        r.stdOut = "banner\n\x1eKF signal signalled\n";
        QCOMPARE(parseSignalOutput(r, 42, QStringLiteral("TERM")).outcome, SignalOutcome::Signalled);
        QCOMPARE(parseSignalOutput(r, 42, QStringLiteral("TERM")).message, QStringLiteral("sent TERM to 42"));
        r.stdOut = "\x1eKF signal gone\n";
        QCOMPARE(parseSignalOutput(r, 42, QStringLiteral("KILL")).outcome, SignalOutcome::Gone);
        r.stdOut = "\x1eKF signal denied\n";
        QCOMPARE(parseSignalOutput(r, 42, QStringLiteral("TERM")).outcome, SignalOutcome::PermissionDenied);
        r.stdOut = "\x1eKF signal alive\n";
        QCOMPARE(parseSignalOutput(r, 42, QStringLiteral("0")).outcome, SignalOutcome::Signalled);
        r.stdOut = "sh: 1: something odd\n";
        const SignalResult odd = parseSignalOutput(r, 42, QStringLiteral("TERM"));
        QCOMPARE(odd.outcome, SignalOutcome::Failed);
        QVERIFY(odd.message.contains(QStringLiteral("something odd")));
        ExecResult lost;
        lost.error = QStringLiteral("connection lost");
        QCOMPARE(parseSignalOutput(lost, 42, QStringLiteral("TERM")).outcome, SignalOutcome::Failed);
    }

    void whoMaySignal()
    {
        GpuProcess p;
        p.pid = 4100;
        p.uid = 1000;
        p.user = QStringLiteral("alice");
        QCOMPARE(mayUserSignal(p, 1000), QString());
        QCOMPARE(mayUserSignal(p, 0), QString()); // root
        QVERIFY(mayUserSignal(p, 1001).contains(QStringLiteral("owned by alice (uid 1000)")));
        QVERIFY(!mayUserSignal(p, -1).isEmpty());
        p.uid = -1; // ps did not list it
        QVERIFY(mayUserSignal(p, 0).contains(QStringLiteral("does not list")));
        p.uid = 0;
        p.pid = 1;
        QVERIFY(!mayUserSignal(p, 0).isEmpty());
        QCOMPARE(normalizedSignalName(QStringLiteral("sigterm")), QStringLiteral("TERM"));
        QCOMPARE(normalizedSignalName(QStringLiteral("KILL")), QStringLiteral("KILL"));
        QCOMPARE(normalizedSignalName(QStringLiteral("HUP")), QString());
        QCOMPARE(normalizedSignalName(QStringLiteral("9")), QString());
    }
};

QTEST_GUILESS_MAIN(TestGpuProcesses)
#include "tst_gpuprocesses.moc"
