// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The memory gate: what install() adds to a job, the prelude run by sh, the parsers of the
// launchers' files, the learning rule, and the launcher itself (resources/gate/kf-memgate) on
// stand-in compilers under a fake memory limit (KF_MEMGATE_ROOT): admission never lets more
// run than fits, whatever the timing; a compile the OOM killer stops runs again alone; a peak
// is measured. The real compilers in a real cgroup: tests/cli/tst_cli_memorygate.cpp.
#include "core/remotebuild/buildhistory.h"
#include "core/remotebuild/buildprofile.h"
#include "core/remotebuild/memorygate.h"
#include "core/store/database.h"

#include "tests/support/testsupport.h"

#include <QDir>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;

namespace {

const QString kLauncher = QStringLiteral(KF_SOURCE_DIR "/resources/gate/kf-memgate");

const JobFile* fileNamed(const JobSpec& spec, const QString& name)
{
    for (const JobFile& f : spec.files)
        if (f.name == name)
            return &f;
    return nullptr;
}

bool writeExecutable(const QString& path, const QByteArray& text)
{
    if (!test::writeFile(path, text))
        return false;
    return QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

} // namespace

class TestMemoryGate : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;

    // A fake / whose only cgroup (v2, /kf) allows limitMb, with nothing used.
    QString fakeRoot(int limitMb)
    {
        const QString root = m_tmp.filePath(QStringLiteral("root-%1").arg(limitMb));
        test::writeFile(root + QStringLiteral("/proc/self/cgroup"), "0::/kf\n");
        test::writeFile(
            root + QStringLiteral("/proc/self/mountinfo"), "30 25 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
        test::writeFile(root + QStringLiteral("/proc/meminfo"), "MemTotal: 64000000 kB\nMemAvailable: 60000000 kB\n");
        test::writeFile(root + QStringLiteral("/proc/vmstat"), "oom_kill 0\n");
        test::writeFile(
            root + QStringLiteral("/sys/fs/cgroup/kf/memory.max"), QByteArray::number(qint64(limitMb) << 20));
        test::writeFile(root + QStringLiteral("/sys/fs/cgroup/kf/memory.current"), "0\n");
        test::writeFile(root + QStringLiteral("/sys/fs/cgroup/kf/memory.events"), "oom 0\noom_kill 0\n");
        return root;
    }

    static QProcessEnvironment gateEnv(const QString& root, const QString& dir)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("KF_MEMGATE_ROOT"), root);
        env.insert(QStringLiteral("KF_MEMGATE_DIR"), dir);
        env.insert(QStringLiteral("KF_MEMGATE_POLL_MS"), QStringLiteral("50"));
        env.insert(QStringLiteral("KF_MEMGATE_RESERVE_MB"), QStringLiteral("64"));
        return env;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }

    void installAddsLauncherSeedAndPrelude()
    {
        JobSpec spec;
        spec.env.insert(QStringLiteral("CMAKE_ARGS"),
            QStringLiteral("-DA=1 -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER:STRING=sccache"));
        memorygate::install(spec, { { QStringLiteral("obj/a.o"), QStringLiteral("cxx"), 2048 } });
        const JobFile* launcher = fileNamed(spec, QStringLiteral("memgate"));
        QVERIFY(launcher);
        QVERIFY(launcher->executable);
        QVERIFY(launcher->data.startsWith("#!/bin/sh"));
        QCOMPARE(launcher->data, test::readFile(kLauncher)); // the resource is the source file
        const JobFile* seed = fileNamed(spec, QStringLiteral("memgate.seed"));
        QVERIFY(seed);
        QCOMPARE(seed->data, QByteArray("2048\tcxx\tobj/a.o\n"));
        QVERIFY(fileNamed(spec, QStringLiteral("prelude")));
        // The profile's launchers move behind the gate; the rest of CMAKE_ARGS stays.
        QCOMPARE(spec.env.value(QStringLiteral("CMAKE_ARGS")), QStringLiteral("-DA=1"));
        for (const JobFile& f : spec.files)
            QVERIFY2(jobs::isValidJobFileName(f.name), qPrintable(f.name));
    }

    // The prelude as the job runner sources it: every variable the header promises.
    void preludeSetsTheVariables()
    {
        JobSpec spec;
        spec.env.insert(QStringLiteral("CMAKE_ARGS"), QStringLiteral("-DA=1 -DCMAKE_CXX_COMPILER_LAUNCHER=ccache"));
        memorygate::install(spec, {});
        const QString job = m_tmp.filePath(QStringLiteral("prelude-job"));
        QVERIFY(test::writeFile(job + QStringLiteral("/prelude"), fileNamed(spec, QStringLiteral("prelude"))->data));
        const auto r = test::runProgram(QStringLiteral("/bin/sh"),
            { QStringLiteral("-c"),
                QStringLiteral("KF_JOB_DIR=$1; CMAKE_ARGS=$2; export KF_JOB_DIR CMAKE_ARGS; "
                               "CMAKE_C_COMPILER_LAUNCHER=distcc; export CMAKE_C_COMPILER_LAUNCHER; "
                               "FLASHINFER_NVCC_LAUNCHER=sccache; export FLASHINFER_NVCC_LAUNCHER; "
                               ". \"$1/prelude\" && env"),
                QStringLiteral("sh"), job, spec.env.value(QStringLiteral("CMAKE_ARGS")) });
        QCOMPARE(r.exitCode, 0);
        const QString env = QString::fromUtf8(r.out);
        const QString g = job + QStringLiteral("/memgate");
        auto has = [&](const QString& line) {
            QVERIFY2(env.split(QLatin1Char('\n')).contains(line), qPrintable(line + QStringLiteral(" in\n") + env));
        };
        has(QStringLiteral("KF_MEMGATE_DIR=") + job);
        has(QStringLiteral("CMAKE_C_COMPILER_LAUNCHER=") + g + QStringLiteral(";distcc"));
        has(QStringLiteral("CMAKE_CXX_COMPILER_LAUNCHER=") + g + QStringLiteral(";ccache"));
        has(QStringLiteral("CMAKE_CUDA_COMPILER_LAUNCHER=") + g);
        has(QStringLiteral("CMAKE_ARGS=-DCMAKE_C_COMPILER_LAUNCHER=%1;distcc -DCMAKE_CXX_COMPILER_LAUNCHER=%1;ccache "
                           "-DCMAKE_CUDA_COMPILER_LAUNCHER=%1 -DA=1")
                .arg(g));
        has(QStringLiteral("PYTORCH_NVCC=") + job + QStringLiteral("/bin/nvcc"));
        has(QStringLiteral("FLASHINFER_NVCC_LAUNCHER=") + g + QStringLiteral(" sccache"));
        has(QStringLiteral("FLASHINFER_CXX_LAUNCHER=") + g);
        has(QStringLiteral("DG_JIT_NVCC_COMPILER=") + job + QStringLiteral("/bin/nvcc"));
        has(QStringLiteral("CUDA_NVCC_EXECUTABLE=") + job + QStringLiteral("/bin/nvcc"));
        has(QStringLiteral("KF_MEMGATE_NVCC_THREAD_MB=4096"));
        QVERIFY(QFileInfo(job + QStringLiteral("/bin/nvcc")).isSymLink());
    }

    void profileTurnsTheGateOff()
    {
        const auto parsed = parseBuildProfiles("profiles:\n  - name: a\n    command: make\n"
                                               "  - name: b\n    command: make\n    memory_gate: false\n");
        QVERIFY2(parsed, qPrintable(parsed.error));
        QVERIFY(parsed.profiles[0].memoryGate);
        QVERIFY(!parsed.profiles[1].memoryGate);
        QVERIFY(fileNamed(parsed.profiles[0].toJobSpec(), QStringLiteral("memgate")));
        QVERIFY(parsed.profiles[1].toJobSpec().files.isEmpty());
        QCOMPARE(parseBuildProfiles(serializeBuildProfiles(parsed.profiles)).profiles, parsed.profiles);
        const auto bad = parseBuildProfiles("profiles:\n  - name: a\n    command: make\n    memory_gate: maybe\n");
        QVERIFY(!bad);
        QCOMPARE(bad.errorLine, 4);
    }

    void parsePeaksAndSeed()
    {
        const QList<UnitPeak> p = memorygate::parsePeaks("2048\t1200\t0\tnvcc\tCMakeFiles/x.dir/a.cu.o\n"
                                                         "9\tx\t0\tcc\tbad.o\n"
                                                         "4096\t30\tsignal 9\tcxx\tb.o\n"
                                                         "short line\n"
                                                         "1\t2\t0\tcc\t\n");
        QCOMPARE(p.size(), 2);
        QCOMPARE(p[0],
            (UnitPeak {
                QStringLiteral("CMakeFiles/x.dir/a.cu.o"), QStringLiteral("nvcc"), 2048, 1200, QStringLiteral("0") }));
        QCOMPARE(p[1].status, QStringLiteral("signal 9"));
        QCOMPARE(memorygate::seedFile({ { QStringLiteral("a\tb"), QStringLiteral("cc"), 1 },
                     { QStringLiteral("ok.o"), QStringLiteral("cc"), 5 },
                     { QStringLiteral("zero.o"), QStringLiteral("cc"), 0 } }),
            QByteArray("5\tcc\tok.o\n"));
    }

    void parseState()
    {
        const GateStatus s = memorygate::parseState(
            R"({"v":1,"updated_ms":5000,"done":3,"retried":1,"failed":0,
                "memory":{"limit_kb":1048576,"available_kb":524288,"reserve_kb":65536,"source":"cgroup v2 /kf"},
                "waiting":[{"key":"b.o","kind":"cxx","est_kb":400000,"since_ms":4000,"exclusive":false}],
                "running":[{"key":"a.o","kind":"nvcc","est_kb":300000,"since_ms":1000,"admitted_ms":2000,
                            "rss_kb":100,"peak_kb":200,"exclusive":true}],
                "recent":[{"key":"c.o","kind":"cc","peak_kb":7,"wall_ms":80,"status":"0"}]})");
        QVERIFY(s.present);
        QCOMPARE(s.updatedMs, 5000);
        QCOMPARE(s.waiting.size(), 1);
        QCOMPARE(s.waiting[0].unit, QStringLiteral("b.o"));
        QCOMPARE(s.waiting[0].sinceMs, 4000);
        QCOMPARE(s.running[0].sinceMs, 2000); // admitted, not queued
        QVERIFY(s.running[0].exclusive);
        QCOMPARE(s.running[0].rssKb, 100);
        QCOMPARE(s.recent[0].wallMs, 80);
        QCOMPARE(s.limitKb, 1048576);
        QCOMPARE(s.source, QStringLiteral("cgroup v2 /kf"));
        QCOMPARE(s.retried, 1);
        QVERIFY(!memorygate::parseState("[]").present);
        QVERIFY(!memorygate::parseState(R"({"v":2})").present);
        QVERIFY(!memorygate::parseState("{not json").present);
    }

    // Largest attempt of this run, never below half of the learned value; untouched units stay.
    void learningRule()
    {
        const QList<UnitPeak> before { { QStringLiteral("a.o"), QStringLiteral("cxx"), 1000 },
            { QStringLiteral("b.o"), QStringLiteral("cxx"), 1000 },
            { QStringLiteral("c.o"), QStringLiteral("cc"), 50 } };
        const QList<UnitPeak> measured { { QStringLiteral("a.o"), QStringLiteral("cxx"), 100, 5, QStringLiteral("0") },
            { QStringLiteral("b.o"), QStringLiteral("cxx"), 700, 5, QStringLiteral("signal 9") },
            { QStringLiteral("b.o"), QStringLiteral("cxx"), 1500, 9, QStringLiteral("0") },
            { QStringLiteral("d.o"), QStringLiteral("nvcc"), 3000, 9, QStringLiteral("0") } };
        const QList<UnitPeak> l = memorygate::learn(before, measured);
        QCOMPARE(l.size(), 4);
        QCOMPARE(l[0].peakKb, 500);  // a: a cache hit halves at most
        QCOMPARE(l[1].peakKb, 1500); // b: the retry's peak
        QCOMPARE(l[2].peakKb, 50);   // c: not compiled, kept
        QCOMPARE(l[3].unit, QStringLiteral("d.o"));
        QCOMPARE(l[3].peakKb, 3000);
        QCOMPARE(l[3].wallMs, -1); // learned, not an attempt
    }

    // CMake's compiler checks go through the gate at every configure, each in a scratch project
    // of a new name: learning them would grow the history by one unit per configure.
    void configureChecksAreNotLearned()
    {
        const QList<UnitPeak> measured { { QStringLiteral("CMakeFiles/cmTC_5e8d3.dir/CMakeCXXCompilerABI.cpp.o"),
                                             QStringLiteral("cxx"), 9000 },
            { QStringLiteral("CMakeFiles/CMakeScratch/TryCompile-ab12/x.o"), QStringLiteral("cc"), 9000 },
            { QStringLiteral("CMakeFiles/demo.dir/unit1.cpp.o"), QStringLiteral("cxx"), 100 } };
        const QList<UnitPeak> stale { { QStringLiteral("CMakeFiles/cmTC_0a1b2.dir/x.c.o"), QStringLiteral("cc"), 5 } };
        const QList<UnitPeak> l = memorygate::learn(stale, measured);
        QCOMPARE(l.size(), 1);
        QCOMPARE(l[0].unit, QStringLiteral("CMakeFiles/demo.dir/unit1.cpp.o"));
        QVERIFY(memorygate::isConfigureCheck(QStringLiteral("build/CMakeFiles/cmTC_ff.dir/a.cu.o")));
        QVERIFY(!memorygate::isConfigureCheck(QStringLiteral("CMakeFiles/common_ops.dir/cmTC.cu.o")));
    }

    // The history keeps a profile's learned peaks per host (replaced whole) and seeds its next job.
    void historyKeepsPeaksAndSeedsTheNextJob()
    {
        store::setDatabasePath(m_tmp.filePath(QStringLiteral("history.sqlite")));
        QList<UnitPeak> many;
        for (int i = 0; i < 250; ++i) // more than one statement's worth
            many.append({ QStringLiteral("u%1.o").arg(i, 3, 10, QLatin1Char('0')), QStringLiteral("cxx"), 1000 + i });
        QVERIFY(buildhistory::saveLearnedPeaks(QStringLiteral("h"), QStringLiteral("p"), QStringLiteral("j1"), many));
        QVERIFY(buildhistory::saveLearnedPeaks(QStringLiteral("h"), QStringLiteral("other"), QStringLiteral("j2"),
            { { QStringLiteral("x.o"), QStringLiteral("cc"), 5 } }));
        auto read = buildhistory::learnedPeaks(QStringLiteral("h"), QStringLiteral("p"));
        QVERIFY2(read, qPrintable(read.error()));
        QCOMPARE(*read, many);
        QVERIFY(buildhistory::saveLearnedPeaks(QStringLiteral("h"), QStringLiteral("p"), QStringLiteral("j3"),
            { { QStringLiteral("a.o"), QStringLiteral("nvcc"), 7 } }));
        read = buildhistory::learnedPeaks(QStringLiteral("h"), QStringLiteral("p"));
        QCOMPARE(read->size(), 1);
        QCOMPARE(buildhistory::learnedPeaks(QStringLiteral("h"), QStringLiteral("other"))->size(), 1);
        QVERIFY(buildhistory::learnedPeaks(QStringLiteral("elsewhere"), QStringLiteral("p"))->isEmpty());

        BuildProfile profile;
        profile.name = QStringLiteral("p");
        profile.command = QStringLiteral("make");
        QCOMPARE(
            fileNamed(buildhistory::seededJobSpec(profile, QStringLiteral("h")), QStringLiteral("memgate.seed"))->data,
            QByteArray("7\tnvcc\ta.o\n"));
        profile.memoryGate = false;
        QVERIFY(buildhistory::seededJobSpec(profile, QStringLiteral("h")).files.isEmpty());
    }

    // Eight compiles of 400 MB learned peaks at once under a 1000 MB limit: at most two at a time
    // (2 x 460 fits in 1000 - 64, 3 x 460 does not), whatever order the launchers arrive in.
    void admissionNeverOverfills()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty())
            QSKIP("the launcher needs python3");
        const QString root = fakeRoot(1000);
        const QString dir = m_tmp.filePath(QStringLiteral("job-admit"));
        const QString running = m_tmp.filePath(QStringLiteral("running"));
        QDir().mkpath(running);
        QByteArray seed;
        for (int i = 0; i < 8; ++i)
            seed += QByteArray::number(400 * 1024) + "\tcxx\tu" + QByteArray::number(i) + ".o\n";
        QVERIFY(test::writeFile(dir + QStringLiteral("/memgate.seed"), seed));
        // The stand-in compiler counts who runs with it (a folder entry per running compile).
        const QString cc = m_tmp.filePath(QStringLiteral("bin/g++"));
        QVERIFY(writeExecutable(cc,
            "#!/bin/sh\nmkdir \"$KF_T/$$\"\nls \"$KF_T\" | wc -l >> \"$KF_T.counts\"\nsleep 0.3\nrmdir "
            "\"$KF_T/$$\"\n"));
        QProcessEnvironment env = gateEnv(root, dir);
        env.insert(QStringLiteral("KF_T"), running);
        std::vector<std::unique_ptr<QProcess>> procs;
        for (int i = 0; i < 8; ++i) {
            auto p = std::make_unique<QProcess>();
            p->setProcessEnvironment(env);
            p->setWorkingDirectory(m_tmp.path());
            p->start(kLauncher,
                { cc, QStringLiteral("-c"), QStringLiteral("u%1.cpp").arg(i), QStringLiteral("-o"),
                    QStringLiteral("u%1.o").arg(i) });
            procs.push_back(std::move(p));
        }
        for (auto& p : procs) {
            QVERIFY(p->waitForFinished(180000));
            QVERIFY2(p->exitCode() == 0, p->readAllStandardError().constData());
        }
        const QList<QByteArray> counts = test::readFile(running + QStringLiteral(".counts")).trimmed().split('\n');
        QCOMPARE(counts.size(), 8);
        for (const QByteArray& c : counts)
            QVERIFY2(c.trimmed().toInt() <= 2, counts.join(' ').constData());
        const QList<UnitPeak> peaks = memorygate::parsePeaks(test::readFile(dir + QStringLiteral("/memgate.peaks")));
        QCOMPARE(peaks.size(), 8);
        const GateStatus s = memorygate::parseState(test::readFile(dir + QStringLiteral("/memgate.state")));
        QVERIFY(s.present);
        QCOMPARE(s.done, 8);
        QVERIFY(s.running.isEmpty() && s.waiting.isEmpty());
        QCOMPARE(s.limitKb, 1000 * 1024);
        QCOMPARE(s.source, QStringLiteral("cgroup v2 /kf"));
    }

    // A compile killed by SIGKILL while the cgroup's oom_kill count rose runs again, alone.
    void oomKilledCompileRunsAgainAlone()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty())
            QSKIP("the launcher needs python3");
        const QString root = fakeRoot(2000);
        const QString dir = m_tmp.filePath(QStringLiteral("job-oom"));
        QDir().mkpath(dir);
        const QString cc = m_tmp.filePath(QStringLiteral("bin/oomcc"));
        // First run: the "kernel" counts an OOM kill, then the compiler dies of SIGKILL.
        QVERIFY(writeExecutable(cc,
            "#!/bin/sh\nif [ ! -e \"$KF_T\" ]; then touch \"$KF_T\"; printf 'oom 1\\noom_kill 1\\n' > \"$KF_EV\"; "
            "kill -KILL $$; fi\necho compiled\n"));
        QProcessEnvironment env = gateEnv(root, dir);
        env.insert(QStringLiteral("KF_T"), m_tmp.filePath(QStringLiteral("oom-once")));
        env.insert(QStringLiteral("KF_EV"), root + QStringLiteral("/sys/fs/cgroup/kf/memory.events"));
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(kLauncher, { cc, QStringLiteral("-o"), QStringLiteral("x.o") });
        QVERIFY(p.waitForFinished(60000));
        const QByteArray err = p.readAllStandardError();
        QCOMPARE(p.exitCode(), 0);
        QVERIFY2(err.contains("x.o was killed by the OOM killer") && err.contains("running it again alone"),
            err.constData());
        QVERIFY(p.readAllStandardOutput().contains("compiled"));
        const QList<UnitPeak> peaks = memorygate::parsePeaks(test::readFile(dir + QStringLiteral("/memgate.peaks")));
        QCOMPARE(peaks.size(), 2);
        QCOMPARE(peaks[0].status, QStringLiteral("signal 9"));
        QCOMPARE(peaks[1].status, QStringLiteral("0"));
        QCOMPARE(memorygate::parseState(test::readFile(dir + QStringLiteral("/memgate.state"))).retried, 1);
    }

    // A SIGKILL without an OOM kill (someone's kill -9) is the compile's own end: no second run.
    void plainKillIsNotRetried()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty())
            QSKIP("the launcher needs python3");
        const QString root = fakeRoot(2000);
        const QString dir = m_tmp.filePath(QStringLiteral("job-kill"));
        QDir().mkpath(dir);
        const QString cc = m_tmp.filePath(QStringLiteral("bin/killcc"));
        QVERIFY(writeExecutable(cc, "#!/bin/sh\nkill -KILL $$\n"));
        QProcess p;
        p.setProcessEnvironment(gateEnv(root, dir));
        p.start(kLauncher, { cc, QStringLiteral("-o"), QStringLiteral("k.o") });
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitStatus(), QProcess::CrashExit); // the launcher ends as its compile did
        QCOMPARE(memorygate::parsePeaks(test::readFile(dir + QStringLiteral("/memgate.peaks"))).size(), 1);
    }

    // The peak of the compile's process tree is measured (a child allocating 80 MB).
    void peakIsMeasured()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty())
            QSKIP("the launcher needs python3");
        const QString dir = m_tmp.filePath(QStringLiteral("job-peak"));
        QDir().mkpath(dir);
        const QString cc = m_tmp.filePath(QStringLiteral("bin/bigtool"));
        QVERIFY(writeExecutable(
            cc, "#!/bin/sh\npython3 -c 'import time; b = bytearray(80 * 1024 * 1024); time.sleep(1.5)'\n"));
        QProcess p;
        p.setProcessEnvironment(gateEnv(fakeRoot(4000), dir));
        p.start(kLauncher, { cc, QStringLiteral("-c"), QStringLiteral("big.cpp") });
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QList<UnitPeak> peaks = memorygate::parsePeaks(test::readFile(dir + QStringLiteral("/memgate.peaks")));
        QCOMPARE(peaks.size(), 1);
        QCOMPARE(peaks[0].unit, QStringLiteral("big.cpp")); // no -o: the source
        QCOMPARE(peaks[0].kind, QStringLiteral("other"));
        QVERIFY2(peaks[0].peakKb >= 80 * 1024, qPrintable(QString::number(peaks[0].peakKb)));
    }

    // Without its folder (a CMake cache naming an old job's launcher) the command runs ungated;
    // the nvcc link runs the nvcc it is told to.
    void ungatedAndNvccLink()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty())
            QSKIP("the launcher needs python3");
        auto r = test::runProgram(
            kLauncher, { QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("exit 7") });
        QCOMPARE(r.exitCode, 7);
        const QString bin = m_tmp.filePath(QStringLiteral("shim/bin"));
        QDir().mkpath(bin);
        QVERIFY(QFile::link(kLauncher, bin + QStringLiteral("/nvcc")));
        const QString fake = m_tmp.filePath(QStringLiteral("bin/fakenvcc"));
        QVERIFY(writeExecutable(fake, "#!/bin/sh\necho \"fake nvcc $*\"\n"));
        r = test::runProgram(bin + QStringLiteral("/nvcc"), { QStringLiteral("--version") }, 60000, {},
            { QStringLiteral("KF_MEMGATE_NVCC=") + fake });
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QByteArray("fake nvcc --version\n"));
    }
};

QTEST_GUILESS_MAIN(TestMemoryGate)
#include "tst_memorygate.moc"
