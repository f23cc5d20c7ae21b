// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The memory a server's processes may use: cgroup v1 and v2 layouts laid out under a fake root
// folder, read by the probe (memoryViewFunction() under /bin/sh) and by the memory gate's own
// reader (resources/gate/kf-memgate --memory, KF_MEMGATE_ROOT), both parsed by parseMemoryView.
#include "core/hosts/memoryview.h"

#include "tests/support/testsupport.h"

#include <QDir>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;

namespace {

constexpr qint64 kGiB = qint64(1) << 30;
constexpr qint64 kMiB = qint64(1) << 20;
const QByteArray kV1Unlimited = "9223372036854771712"; // PAGE_COUNTER_MAX pages of 4 KiB

// A fake "/" for the readers: the files they read and nothing else.
class FakeRoot
{
public:
    FakeRoot() { file("/proc/meminfo", "MemTotal:       16000000 kB\nMemFree:  1 kB\nMemAvailable:   12000000 kB\n"); }
    QString path() const { return m_dir.path(); }
    void file(const QString& p, const QByteArray& text) { QVERIFY(test::writeFile(m_dir.path() + p, text)); }
    // A cgroup folder's files (value pairs), made with its parents.
    void cgroup(const QString& folder, const QList<QPair<QString, QByteArray>>& files)
    {
        QDir().mkpath(m_dir.path() + folder);
        for (const auto& [name, text] : files)
            file(folder + QLatin1Char('/') + name, text + '\n');
    }

private:
    QTemporaryDir m_dir;
};

QByteArray probe(const FakeRoot& root)
{
    const auto r = test::runProgram(QStringLiteral("/bin/sh"),
        { QStringLiteral("-c"),
            QString::fromUtf8(memoryViewFunction()) + QStringLiteral("kf_memview \"$1\" /proc/self/cgroup"),
            QStringLiteral("sh"), root.path() });
    return r.out;
}

QByteArray gate(const FakeRoot& root)
{
    const auto r = test::runProgram(QStringLiteral(KF_SOURCE_DIR "/resources/gate/kf-memgate"),
        { QStringLiteral("--memory") }, 60000, {}, { QStringLiteral("KF_MEMGATE_ROOT=") + root.path() });
    return r.exitCode == 0 ? r.out : QByteArray("exit ") + QByteArray::number(r.exitCode) + ' ' + r.err;
}

bool hasPython()
{
    return !QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty();
}

} // namespace

class TestMemoryView : public QObject
{
    Q_OBJECT

    // Both readers see the same view; returns it.
    static MemoryView read(const FakeRoot& root)
    {
        const QByteArray sh = probe(root);
        const MemoryView v = parseMemoryView(sh);
        if (hasPython()) {
            const QByteArray py = gate(root);
            const MemoryView w = parseMemoryView(py);
            if (!(v == w))
                qWarning("probe:\n%s\ngate:\n%s", sh.constData(), py.constData());
            [&] { QVERIFY(v == w); }();
        }
        return v;
    }

private Q_SLOTS:
    // systemd's layout under cgroup v2: the limit sits on the user's slice, two levels above the
    // session's scope; the scope's own memory.max is "max", the root has no memory files.
    void v2NestedLimitAboveTheSession()
    {
        FakeRoot r;
        r.file("/proc/self/cgroup", "0::/user.slice/user-1000.slice/session-3.scope\n");
        r.file("/proc/self/mountinfo",
            "24 30 0:22 / /sys rw,nosuid - sysfs sysfs rw\n"
            "30 24 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 "
            "rw,nsdelegate,memory_recursiveprot\n");
        r.file("/proc/vmstat", "pgfault 12\noom_kill 7\n");
        const QString base = QStringLiteral("/sys/fs/cgroup/user.slice");
        r.cgroup(base + QStringLiteral("/user-1000.slice/session-3.scope"),
            { { "memory.max", "max" }, { "memory.current", QByteArray::number(3 * kGiB) },
                { "memory.stat", "anon 100\nfile 200\ninactive_file " + QByteArray::number(kGiB) },
                { "memory.events", "low 0\nhigh 0\nmax 4\noom 2\noom_kill 2\noom_group_kill 0" },
                { "memory.peak", QByteArray::number(5 * kGiB) } });
        r.cgroup(base + QStringLiteral("/user-1000.slice"),
            { { "memory.max", QByteArray::number(4 * kGiB) }, { "memory.current", QByteArray::number(3 * kGiB) },
                { "memory.stat", "inactive_file " + QByteArray::number(kGiB) }, { "memory.events", "oom_kill 3" } });
        r.cgroup(base, { { "memory.max", "max" }, { "memory.current", QByteArray::number(6 * kGiB) } });
        r.cgroup(QStringLiteral("/sys/fs/cgroup"), { { "cgroup.controllers", "cpu memory" } });

        const MemoryView v = read(r);
        QCOMPARE(v.cgroupVersion, 2);
        QCOMPARE(v.cgroupPath, QStringLiteral("/user.slice/user-1000.slice/session-3.scope"));
        QCOMPARE(v.levels.size(), 4);
        QCOMPARE(v.levels[0].path, QStringLiteral("/user.slice/user-1000.slice/session-3.scope"));
        QCOMPARE(v.levels[1].path, QStringLiteral("/user.slice/user-1000.slice"));
        QCOMPARE(v.levels[2].path, QStringLiteral("/user.slice"));
        QCOMPARE(v.levels[3].path, QStringLiteral("/"));
        QVERIFY(!hasValue(v.levels[0].maxBytes));     // "max"
        QVERIFY(!hasValue(v.levels[3].currentBytes)); // the root has no memory files
        QCOMPARE(v.levels[0].peakBytes, double(5 * kGiB));
        QCOMPARE(v.kernelOomKills, 7.0);
        QCOMPARE(v.oomKills(), 2.0); // the own cgroup's, not the slice's
        QCOMPARE(v.limitKiB(), double(4 * kGiB / 1024));
        // 4 GiB limit, 3 GiB used of which 1 GiB is reclaimable cache: 2 GiB left, under MemAvailable.
        QCOMPARE(v.availableKiB(), double(2 * kGiB / 1024));
        QVERIFY(v.hasCgroupLimit());
        QCOMPARE(v.bindingLevel(), &v.levels[1]);
        QCOMPARE(v.limitSource(), QStringLiteral("cgroup v2 /user.slice/user-1000.slice (limit 4.0 GiB)"));
    }

    // A container with its own cgroup namespace: /proc/self/cgroup says "0::/" and the mount's
    // root is the container's cgroup, whose memory.max is the container's limit.
    void v2ContainerNamespace()
    {
        FakeRoot r;
        r.file("/proc/self/cgroup", "0::/\n");
        r.file("/proc/self/mountinfo", "500 490 0:31 / /sys/fs/cgroup ro,nosuid - cgroup2 cgroup rw\n");
        r.cgroup(QStringLiteral("/sys/fs/cgroup"),
            { { "memory.max", QByteArray::number(300 * kMiB) }, { "memory.current", QByteArray::number(100 * kMiB) },
                { "memory.events", "oom_kill 0" } });
        const MemoryView v = read(r);
        QCOMPARE(v.cgroupVersion, 2);
        QCOMPARE(v.levels.size(), 1);
        QCOMPARE(v.levels[0].path, QStringLiteral("/"));
        QCOMPARE(v.limitKiB(), double(300 * 1024));
        QCOMPARE(v.availableKiB(), double(200 * 1024)); // no memory.stat: nothing counted as cache
        QCOMPARE(v.oomKills(), 0.0);
    }

    // cgroup v1 next to an unlimited v2 mount (a hybrid host like Debian's older ones): memory is
    // on the v1 hierarchy. The job's own cgroup reads v1's "no limit", its parent has the limit.
    void v1NestedUnlimitedValueAndHybridMounts()
    {
        FakeRoot r;
        r.file("/proc/self/cgroup",
            "12:pids:/builds/job1\n5:cpu,cpuacct:/builds/job1\n4:memory:/builds/job1\n1:name=systemd:/x\n0::/x\n");
        r.file("/proc/self/mountinfo",
            "30 25 0:26 / /sys/fs/cgroup/unified rw,nosuid - cgroup2 cgroup2 rw\n"
            "31 25 0:27 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"
            "32 25 0:28 / /sys/fs/cgroup/memory rw,nosuid,nodev - cgroup cgroup rw,memory\n");
        r.file("/proc/vmstat", "oom_kill 1\n");
        r.cgroup(QStringLiteral("/sys/fs/cgroup/memory/builds/job1"),
            { { "memory.limit_in_bytes", kV1Unlimited }, { "memory.usage_in_bytes", QByteArray::number(500 * kMiB) },
                { "memory.stat",
                    "cache 1\ninactive_file 5\ntotal_cache 2\ntotal_inactive_file " + QByteArray::number(100 * kMiB) },
                { "memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 4" },
                { "memory.max_usage_in_bytes", QByteArray::number(900 * kMiB) } });
        r.cgroup(QStringLiteral("/sys/fs/cgroup/memory/builds"),
            { { "memory.limit_in_bytes", QByteArray::number(kGiB) },
                { "memory.usage_in_bytes", QByteArray::number(600 * kMiB) },
                { "memory.stat", "total_inactive_file " + QByteArray::number(100 * kMiB) },
                { "memory.oom_control", "oom_kill 0" } });
        r.cgroup(QStringLiteral("/sys/fs/cgroup/memory"),
            { { "memory.limit_in_bytes", kV1Unlimited }, { "memory.usage_in_bytes", QByteArray::number(8 * kGiB) } });

        const MemoryView v = read(r);
        QCOMPARE(v.cgroupVersion, 1);
        QCOMPARE(v.cgroupPath, QStringLiteral("/builds/job1"));
        QCOMPARE(v.levels.size(), 3);
        QVERIFY(!hasValue(v.levels[0].maxBytes));
        QVERIFY(!hasValue(v.levels[2].maxBytes));
        QCOMPARE(v.levels[0].inactiveFileBytes, double(100 * kMiB)); // total_ wins over the local count
        QCOMPARE(v.levels[0].peakBytes, double(900 * kMiB));
        QCOMPARE(v.oomKills(), 4.0);
        QCOMPARE(v.limitKiB(), double(1024 * 1024));
        QCOMPARE(v.availableKiB(), double((1024 - 500) * 1024));
        QCOMPARE(v.limitSource(), QStringLiteral("cgroup v1 /builds (limit 1.0 GiB)"));
    }

    // Docker without a cgroup namespace: /proc/self/cgroup names the host's path, the mount's
    // root is that path, so the mount point is the container's own cgroup.
    void v1BindMountedContainer()
    {
        FakeRoot r;
        r.file("/proc/self/cgroup", "9:memory:/docker/0123abcd\n");
        r.file("/proc/self/mountinfo",
            "600 590 0:40 /docker/0123abcd /sys/fs/cgroup/memory ro,nosuid - cgroup cgroup rw,memory\n");
        r.cgroup(QStringLiteral("/sys/fs/cgroup/memory"),
            { { "memory.limit_in_bytes", QByteArray::number(2 * kGiB) },
                { "memory.usage_in_bytes", QByteArray::number(kGiB) } });
        const MemoryView v = read(r);
        QCOMPARE(v.cgroupVersion, 1);
        QCOMPARE(v.levels.size(), 1);
        QCOMPARE(v.levels[0].path, QStringLiteral("/docker/0123abcd"));
        QCOMPARE(v.limitKiB(), double(2 * 1024 * 1024));
        QCOMPARE(v.availableKiB(), double(1024 * 1024));
    }

    // No limit anywhere: what is available is MemAvailable, and it says so.
    void unlimitedEverywhereIsMemAvailable()
    {
        FakeRoot r;
        r.file("/proc/self/cgroup", "0::/system.slice/sshd.service\n");
        r.file("/proc/self/mountinfo", "30 25 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
        r.cgroup(QStringLiteral("/sys/fs/cgroup/system.slice/sshd.service"),
            { { "memory.max", "max" }, { "memory.current", QByteArray::number(kGiB) } });
        r.cgroup(QStringLiteral("/sys/fs/cgroup/system.slice"), { { "memory.max", "max" } });
        const MemoryView v = read(r);
        QCOMPARE(v.levels.size(), 3);
        QVERIFY(!v.hasCgroupLimit());
        QCOMPARE(v.limitKiB(), 16000000.0);
        QCOMPARE(v.availableKiB(), 12000000.0);
        QCOMPARE(v.bindingLevel(), nullptr);
        QCOMPARE(v.limitSource(), QStringLiteral("MemAvailable"));
    }

    // A limit with more room than the host has: MemAvailable decides, the limit is still named.
    void hostTighterThanTheLimit()
    {
        FakeRoot r;
        r.file("/proc/self/cgroup", "0::/big\n");
        r.file("/proc/self/mountinfo", "30 25 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
        r.cgroup(QStringLiteral("/sys/fs/cgroup/big"),
            { { "memory.max", QByteArray::number(64 * kGiB) }, { "memory.current", QByteArray::number(kGiB) } });
        const MemoryView v = read(r);
        QCOMPARE(v.availableKiB(), 12000000.0);
        QCOMPARE(v.bindingLevel(), nullptr);
        QCOMPARE(v.limitKiB(), 16000000.0);
        QCOMPARE(v.limitSource(), QStringLiteral("cgroup v2 /big (limit 64.0 GiB)"));
    }

    // No memory controller mounted (only cpu): no cgroup, MemAvailable.
    void noMemoryController()
    {
        FakeRoot r;
        r.file("/proc/self/cgroup", "3:cpu:/a\n");
        r.file("/proc/self/mountinfo", "31 25 0:27 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n");
        const MemoryView v = read(r);
        QCOMPARE(v.cgroupVersion, 0);
        QVERIFY(v.levels.isEmpty());
        QVERIFY(!hasValue(v.oomKills()));
        QCOMPARE(v.availableKiB(), 12000000.0);
    }

    // Nothing readable at all: no values, never zeros.
    void nothingReadable()
    {
        const MemoryView v = parseMemoryView("");
        QVERIFY(!hasValue(v.limitKiB()));
        QVERIFY(!hasValue(v.availableKiB()));
    }

    // The parser alone: garbage values are no values, "max" and 2^60 and more are no limit,
    // keys before a level are ignored, and at most 64 levels are kept.
    void parserBounds()
    {
        QByteArray text = "cg_max=5\nmem_total_kb=abc\nmem_available_kb=-3\ncg_version=3\ncg_level=/a\ncg_max=max\n"
                          "cg_current=1152921504606846976\ncg_oom_kill=x\ncg_level=/\ncg_max=12\r\n";
        MemoryView v = parseMemoryView(text);
        QVERIFY(!hasValue(v.memTotalKiB));
        QVERIFY(!hasValue(v.memAvailableKiB));
        QCOMPARE(v.cgroupVersion, 0);
        QCOMPARE(v.levels.size(), 2);
        QVERIFY(!hasValue(v.levels[0].maxBytes));
        QVERIFY(!hasValue(v.levels[0].currentBytes));
        QVERIFY(!hasValue(v.levels[0].oomKills));
        QCOMPARE(v.levels[1].maxBytes, 12.0);
        QByteArray many;
        for (int i = 0; i < 100; ++i)
            many += "cg_level=/l" + QByteArray::number(i) + "\n";
        QCOMPARE(parseMemoryView(many).levels.size(), 64);
    }

    // This machine, as it is: both readers agree on it too.
    void thisMachine()
    {
        const MemoryView v = parseMemoryView(test::runProgram(QStringLiteral("/bin/sh"),
            { QStringLiteral("-c"),
                QString::fromUtf8(memoryViewFunction()) + QStringLiteral("kf_memview \"\" /proc/self/cgroup") })
                                                 .out);
        QVERIFY(v.memTotalKiB > 0);
        QVERIFY(v.availableKiB() > 0);
        QVERIFY(v.availableKiB() <= v.memAvailableKiB);
        if (!hasPython())
            return;
        const MemoryView w = parseMemoryView(
            test::runProgram(QStringLiteral(KF_SOURCE_DIR "/resources/gate/kf-memgate"), { QStringLiteral("--memory") })
                .out);
        QCOMPARE(w.cgroupVersion, v.cgroupVersion);
        QCOMPARE(w.cgroupPath, v.cgroupPath);
        QCOMPARE(w.levels.size(), v.levels.size());
        QCOMPARE(w.limitKiB(), v.limitKiB());
    }
};

QTEST_GUILESS_MAIN(TestMemoryView)
#include "tst_memoryview.moc"
