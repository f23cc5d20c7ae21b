// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The memory gate with real compilers through the real path: the demo host's sshd runs inside a
// memory cgroup (v1 or v2, made here) much smaller than what the heavy project's compiles need at
// once (tests/data/memgate-project: three nvcc and three g++ units of a few hundred MB each);
// `kernelforge-cli build start` + `build attach --json` build it with -j 6. Without the gate the
// OOM killer stops the build; with it, unchanged otherwise, the build finishes and the cgroup
// counts no OOM kill. The peaks it measured are kept in this machine's history and seed the next
// start. Skipped (with the reason) where no memory cgroup can be made or nvcc is missing.
#include "tests/support/memorycgroup.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

namespace {

// Units of depth 60 peak at about 190 MB (nvcc) and 145 MB (g++): six at once need about 1 GB.
constexpr qint64 kLimit = 600LL << 20;
const QString kNvcc = QStringLiteral("/usr/local/cuda/bin/nvcc");
// Configured once per build folder; "clean" so that every run compiles every unit.
const QString kCommand = QStringLiteral("cmake -S . -B build -G Ninja -DCMAKE_CUDA_COMPILER=%1 -DKF_DEPTH=60 "
                                        "$CMAKE_ARGS && cmake --build build --target clean && cmake --build build -j 6")
                             .arg(kNvcc);

QList<QJsonObject> events(const QByteArray& out, const QString& kind)
{
    QList<QJsonObject> found;
    for (const QByteArray& line : out.split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (o.value(QStringLiteral("event")).toString() == kind)
            found << o;
    }
    return found;
}

} // namespace

class TestCliMemoryGate : public QObject
{
    Q_OBJECT
    QTemporaryDir m_home; // the CLI's own HOME: its history database lives here

    QStringList env() const
    {
        return { QStringLiteral("HOME=") + m_home.path(), QStringLiteral("XDG_CONFIG_HOME="),
            QStringLiteral("XDG_STATE_HOME="), QStringLiteral("XDG_CACHE_HOME="), QStringLiteral("XDG_DATA_HOME=") };
    }

    // build start (extra flags), then build attach --json unless told not to.
    struct Run
    {
        QString id;
        int exitCode = -1;
        QByteArray out;
        QByteArray err;
    };
    Run build(const kf::DemoHost& demo, const QString& name, const QStringList& extra, bool follow = true)
    {
        Run run;
        const auto start = kf::test::runCli(
            QStringList { QStringLiteral("build"), QStringLiteral("start"), QStringLiteral("--command"), kCommand,
                QStringLiteral("--dir"), QStringLiteral("~/heavy"), QStringLiteral("--name"), name }
                + extra + kf::test::cliSshTarget(demo),
            60000, env());
        run.err = start.err;
        if (start.exitCode != 0)
            return run;
        run.id = QString::fromUtf8(start.out.trimmed());
        const auto next = kf::test::runCli(QStringList { QStringLiteral("build"),
                                               follow ? QStringLiteral("attach") : QStringLiteral("cancel"), run.id }
                + (follow ? QStringList { QStringLiteral("--json") } : QStringList()) + kf::test::cliSshTarget(demo),
            540000, env());
        run.exitCode = next.exitCode;
        run.out = next.out;
        run.err = next.err;
        return run;
    }

private Q_SLOTS:
    void gatedBuildLivesWhereUngatedIsKilled()
    {
        if (!QFile::exists(kNvcc))
            QSKIP("needs nvcc at /usr/local/cuda/bin/nvcc");
        if (QStandardPaths::findExecutable(QStringLiteral("ninja")).isEmpty()
            || QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty())
            QSKIP("needs cmake, ninja and python3");
        auto cgroup = kf::test::MemoryCgroup::create(
            QStringLiteral("kf-gate-test-%1").arg(QCoreApplication::applicationPid()), kLimit);
        if (!cgroup)
            QSKIP(qPrintable(cgroup.error()));
        KF_START_DEMO_HOST(demo);
        const QString src = kf::test::dataPath(QStringLiteral("memgate-project"));
        QVERIFY(QDir().mkpath(demo.homeDir() + QStringLiteral("/heavy")));
        for (const QString& f : QDir(src).entryList(QDir::Files))
            QVERIFY(QFile::copy(src + QLatin1Char('/') + f, demo.homeDir() + QStringLiteral("/heavy/") + f));
        // The whole server in the cgroup, as in a container: every session sshd makes from now on.
        const auto added = (*cgroup)->add(demo.sshdPid());
        QVERIFY2(added, qPrintable(added.error()));
        const QString jobs = demo.homeDir() + QStringLiteral("/.cache/kernelforge/jobs/");

        // Without the gate: killed.
        const qint64 before = (*cgroup)->oomKills();
        const Run ungated = build(demo, QStringLiteral("heavy (ungated)"), { QStringLiteral("--no-memory-gate") });
        QVERIFY2(!ungated.id.isEmpty(), ungated.err.constData());
        const qint64 afterUngated = (*cgroup)->oomKills();
        QVERIFY2(ungated.exitCode != 0 && afterUngated > before,
            qPrintable(
                QStringLiteral("the ungated build was not killed (exit %1, OOM kills %2 -> %3): the limit is too "
                               "large for these units\n%4")
                    .arg(ungated.exitCode)
                    .arg(before)
                    .arg(afterUngated)
                    .arg(QString::fromUtf8(kf::test::readFile(jobs + ungated.id + QStringLiteral("/log"))))));
        QVERIFY(!QFile::exists(jobs + ungated.id + QStringLiteral("/memgate")));
        // Classified as OOM, by the log or by the cgroup's count.
        const QList<QJsonObject> diags = events(ungated.out, QStringLiteral("diagnostic"));
        QVERIFY2(std::any_of(diags.begin(), diags.end(),
                     [](const QJsonObject& d) {
                         return d.value(QStringLiteral("kind")).toString() == QLatin1String("oom");
                     }),
            ungated.out.constData());

        // The same build through the gate: it finishes, and nothing was killed.
        const Run gated = build(demo, QStringLiteral("heavy"), {});
        const QByteArray log = kf::test::readFile(jobs + gated.id + QStringLiteral("/log"));
        QVERIFY2(gated.exitCode == 0, log.constData());
        QCOMPARE((*cgroup)->oomKills(), afterUngated);
        QVERIFY(QFileInfo(jobs + gated.id + QStringLiteral("/memgate")).isExecutable());
        // The memory it was judged against is the cgroup's, not the machine's.
        const QList<QJsonObject> memory = events(gated.out, QStringLiteral("memory"));
        QVERIFY2(!memory.isEmpty(), gated.out.constData());
        QCOMPARE(memory.last().value(QStringLiteral("total_kb")).toInteger(), kLimit / 1024);
        QCOMPARE(memory.last().value(QStringLiteral("cgroup")).toString(), (*cgroup)->path());
        QCOMPARE(memory.last().value(QStringLiteral("oom_kills")).toInteger(), 0);
        // What the gate did: six units done, none failed or killed, each peaking at a real size.
        const QList<QJsonObject> gate = events(gated.out, QStringLiteral("gate"));
        QVERIFY2(!gate.isEmpty(), gated.out.constData());
        const QJsonObject last = gate.last();
        QCOMPARE(last.value(QStringLiteral("done")).toInt(), 6);
        QCOMPARE(last.value(QStringLiteral("failed")).toInt(), 0);
        QCOMPARE(last.value(QStringLiteral("retried")).toInt(), 0);
        QCOMPARE(last.value(QStringLiteral("limit_kb")).toInteger(), kLimit / 1024);
        const QJsonArray recent = last.value(QStringLiteral("recent")).toArray();
        QCOMPARE(recent.size(), 6);
        for (const QJsonValue& u : recent)
            QVERIFY2(u.toObject().value(QStringLiteral("peak_kb")).toInteger() > 100 * 1024,
                qPrintable(QString::fromUtf8(QJsonDocument(u.toObject()).toJson())));

        // The next start is seeded with what this one learned (this machine's history); its seed
        // is there from the start, so it is cancelled at once.
        const Run again = build(demo, QStringLiteral("heavy"), {}, false);
        QVERIFY2(again.exitCode == 0, again.err.constData());
        const QList<QByteArray> seed
            = kf::test::readFile(jobs + again.id + QStringLiteral("/memgate.seed")).trimmed().split('\n');
        QCOMPARE(seed.size(), 6);
        for (const QByteArray& line : seed)
            QVERIFY2(line.split('\t').value(0).toLongLong() > 100 * 1024 && line.contains("heavy_"), line.constData());
        QCOMPARE((*cgroup)->oomKills(), afterUngated);
    }
};

QTEST_GUILESS_MAIN(TestCliMemoryGate)
#include "tst_cli_memorygate.moc"
