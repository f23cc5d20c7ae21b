// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The remote disk fills up: a 256 KiB tmpfs mounted inside the demo home (root only). An
// atomic write, a patch apply and `kernelforge-cli put` that do not fit must fail with an
// error that says "no space left on device on <dir> (<free> free, <needed> needed)", leave
// the original byte-identical and leave no temp file behind.
#include "core/patch/applier.h"
#include "core/patch/patchplan.h"
#include "core/patch/patchset.h"
#include "core/ssh/sshtransport.h"
#include "core/store/database.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/mount.h>
#include <sys/statvfs.h>

using namespace kf;

namespace {

QStringList tempLitter(const QString& dir)
{
    QStringList out;
    for (const QString& f : QDir(dir).entryList(QDir::Files | QDir::Hidden))
        if (f.contains(QLatin1String(".kf-tmp-")))
            out << f;
    return out;
}

// A small tmpfs, unmounted (lazily, so a busy sftp-server cannot block it) on scope exit.
class SmallDisk
{
public:
    explicit SmallDisk(const QString& dir)
        : m_dir(dir)
    {
        QDir().mkpath(dir);
        if (::mount("tmpfs", QFile::encodeName(dir).constData(), "tmpfs", 0, "size=256k,mode=0755") == 0)
            m_mounted = true;
        else
            m_error = QString::fromLocal8Bit(strerror(errno));
    }
    ~SmallDisk()
    {
        if (m_mounted)
            ::umount2(QFile::encodeName(m_dir).constData(), MNT_DETACH);
    }
    bool mounted() const { return m_mounted; }
    QString error() const { return m_error; }
    qint64 freeBytes() const
    {
        struct statvfs st
        { };
        return ::statvfs(QFile::encodeName(m_dir).constData(), &st) == 0 ? qint64(st.f_bavail) * qint64(st.f_frsize)
                                                                         : -1;
    }
    // Fills the disk, then frees `leave` bytes.
    bool fillLeaving(qint64 leave)
    {
        QFile f(m_dir + QStringLiteral("/filler"));
        if (!f.open(QIODevice::WriteOnly))
            return false;
        const QByteArray block(4096, 'f');
        while (f.write(block) == block.size() && f.flush()) { }
        f.close(); // the last write failed with ENOSPC: the disk is full
        return QFile::resize(f.fileName(), qMax<qint64>(0, QFileInfo(f).size() - leave));
    }

private:
    QString m_dir;
    QString m_error;
    bool m_mounted = false;
};

} // namespace

class TestFaultsDiskFull : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        qunsetenv("SSH_AUTH_SOCK");
        QVERIFY(m_dir.isValid());
        store::setDatabasePath(m_dir.filePath(QStringLiteral("history.sqlite")));
    }

    // The fallback for servers without statvfs@openssh.com reads `df -Pk DIR`.
    void parseDf_data()
    {
        QTest::addColumn<QByteArray>("output");
        QTest::addColumn<qint64>("availableKiB");
        QTest::newRow("gnu coreutils") << QByteArray(
            "Filesystem     1024-blocks  Used Available Capacity Mounted on\n"
            "tmpfs                  256   252         4      99% /home/u/full\n")
                                       << qint64(4);
        QTest::newRow("busybox") << QByteArray(
            "Filesystem           1024-blocks    Used Available Capacity Mounted on\n"
            "/dev/root               7675216 5012344   2318928  68% /\n")
                                 << qint64(2318928);
        QTest::newRow("spaces in names") << QByteArray("Filesystem 1024-blocks Used Available Capacity Mounted on\n"
                                                       "my disk 1000 1000 0 100% /mnt/my full disk\n")
                                         << qint64(0);
        QTest::newRow("no header") << QByteArray("df: /nope: No such file or directory\n") << qint64(-1);
        QTest::newRow("no numbers") << QByteArray("Filesystem 1024-blocks Used Available Capacity Mounted on\n-\n")
                                    << qint64(-1);
    }
    void parseDf()
    {
        QFETCH(QByteArray, output);
        QFETCH(qint64, availableKiB);
        const Result<qint64> r = SshTransport::parseDfAvailableKiB(output);
        if (availableKiB < 0) {
            QVERIFY(!r.ok());
        } else {
            QVERIFY2(r.ok(), qPrintable(r.error()));
            QCOMPARE(r.value(), availableKiB);
        }
    }

    void atomicWriteThatDoesNotFit()
    {
        if (!test::isRoot())
            QSKIP("mounting a small tmpfs as the full remote disk needs root");
        KF_START_DEMO_HOST(demo);
        SmallDisk disk(demo.homeDir() + QStringLiteral("/full"));
        if (!disk.mounted())
            QSKIP(qPrintable(QStringLiteral("mount -t tmpfs is not permitted here: ") + disk.error()));
        auto c = SshTransport::connect(demo.profile());
        QVERIFY2(c.ok(), qPrintable(c.error()));
        auto t = c.value();
        QVERIFY(t->writeFileAtomic(QStringLiteral("~/full/victim.txt"), "ORIGINAL\n").ok());
        const Result<void> s = t->writeFileAtomic(QStringLiteral("~/full/victim.txt"), QByteArray(1024 * 1024, 'N'));
        QVERIFY(!s.ok());
        qInfo("error shown: %s", qPrintable(s.error()));
        QVERIFY2(s.error().contains(QLatin1String("victim.txt")), qPrintable(s.error()));
        // SFTP v3 reports ENOSPC as a bare SSH_FX_FAILURE; the transport asks statvfs@openssh.com.
        QVERIFY2(s.error().contains(QLatin1String("no space left on device on ~/full (")), qPrintable(s.error()));
        QVERIFY2(s.error().contains(QLatin1String(" free, 1.0 MiB needed)")), qPrintable(s.error()));
        QCOMPARE(test::readFile(demo.homeDir() + QStringLiteral("/full/victim.txt")), QByteArray("ORIGINAL\n"));
        QCOMPARE(tempLitter(demo.homeDir() + QStringLiteral("/full")), QStringList());
        // The space came back: nothing of the failed write stays allocated.
        QVERIFY2(disk.freeBytes() > 200 * 1024, qPrintable(QString::number(disk.freeBytes())));
        // And the connection is still usable.
        QVERIFY(t->writeFileAtomic(QStringLiteral("~/full/victim.txt"), "SMALL\n").ok());
        QCOMPARE(test::readFile(demo.homeDir() + QStringLiteral("/full/victim.txt")), QByteArray("SMALL\n"));
    }

    void patchApplyOnAFullDisk()
    {
        if (!test::isRoot())
            QSKIP("mounting a small tmpfs as the full remote disk needs root");
        KF_START_DEMO_HOST(demo);
        const QString tree = demo.homeDir() + QStringLiteral("/full");
        SmallDisk disk(tree);
        if (!disk.mounted())
            QSKIP(qPrintable(QStringLiteral("mount -t tmpfs is not permitted here: ") + disk.error()));
        auto c = SshTransport::connect(demo.profile());
        QVERIFY2(c.ok(), qPrintable(c.error()));
        auto t = c.value();
        const QString src = test::dataPath(QStringLiteral("sgl-kernel-variants/2025-10-cmp0177"));
        const QStringList files { QStringLiteral("CMakeLists.txt"), QStringLiteral("python/sgl_kernel/flash_attn.py"),
            QStringLiteral("python/sgl_kernel/__init__.py") };
        QMap<QString, QByteArray> originals;
        for (const QString& rel : files) {
            QDir().mkpath(QFileInfo(tree + QLatin1Char('/') + rel).absolutePath());
            QVERIFY(QFile::copy(src + QLatin1Char('/') + rel, tree + QLatin1Char('/') + rel));
            originals.insert(rel, test::readFile(tree + QLatin1Char('/') + rel));
        }
        const auto set = patch::loadPatchSet(QStringLiteral("builtin:sgl-kernel-sm120-cuda13"));
        QVERIFY(set);
        const patch::SetPlan plan = patch::planSet(*t, set.value(), tree);
        QVERIFY2(plan, qPrintable(plan.error));
        QVERIFY(disk.fillLeaving(0));
        const patch::ApplyReport report = patch::applyPlan(*t, plan);
        QVERIFY(!report.ok());
        int failed = 0;
        for (const patch::FileApply& f : report.files) {
            const QByteArray now = test::readFile(tree + QLatin1Char('/') + f.file);
            if (f.outcome == patch::FileApply::Failed) {
                ++failed;
                qInfo("%s: %s", qPrintable(f.file), qPrintable(f.message));
                QVERIFY(!f.message.isEmpty());
                QCOMPARE(now, originals.value(f.file)); // intact
            } else {
                QVERIFY2(f.outcome != patch::FileApply::Refused, qPrintable(f.message));
                QVERIFY(now == originals.value(f.file) || now == plan.fileFor(f.file)->proposed);
            }
        }
        QVERIFY(failed >= 1);
        QString firstMessage;
        for (const patch::FileApply& f : report.files)
            if (f.outcome == patch::FileApply::Failed && firstMessage.isEmpty())
                firstMessage = f.message;
        QVERIFY2(firstMessage.contains(QLatin1String("no space left on device on ")), qPrintable(firstMessage));
        QVERIFY2(firstMessage.contains(QLatin1String("(0 bytes free, ")), qPrintable(firstMessage));
        for (const QString& rel : files)
            QCOMPARE(tempLitter(QFileInfo(tree + QLatin1Char('/') + rel).absolutePath()), QStringList());
        // With space again the same plan applies (the failed files are still as reviewed).
        QVERIFY(QFile::remove(tree + QStringLiteral("/filler")));
        const patch::SetPlan again = patch::planSet(*t, set.value(), tree);
        QVERIFY(patch::applyPlan(*t, again).ok());
    }

    void cliPutThatDoesNotFit()
    {
        if (!test::isRoot())
            QSKIP("mounting a small tmpfs as the full remote disk needs root");
        QVERIFY2(QFile::exists(QStringLiteral(KF_CLI_BINARY)), "build kernelforge-cli first");
        KF_START_DEMO_HOST(demo);
        SmallDisk disk(demo.homeDir() + QStringLiteral("/full"));
        if (!disk.mounted())
            QSKIP(qPrintable(QStringLiteral("mount -t tmpfs is not permitted here: ") + disk.error()));
        QFile victim(demo.homeDir() + QStringLiteral("/full/victim.bin"));
        QVERIFY(victim.open(QIODevice::WriteOnly));
        victim.write("ORIGINAL\n");
        victim.close();
        const QString local = m_dir.filePath(QStringLiteral("victim.bin"));
        QFile big(local);
        QVERIFY(big.open(QIODevice::WriteOnly));
        big.write(QByteArray(2 * 1024 * 1024, 'B'));
        big.close();
        const QStringList opts { QStringLiteral("-p"), QString::number(demo.port()), QStringLiteral("-i"),
            demo.clientKeyPath(), QStringLiteral("--known-hosts"), demo.knownHostsPath() };
        const auto put = test::runCli(QStringList { QStringLiteral("put") }
            << opts << local << demo.user() + QLatin1Char('@') + demo.host() + QStringLiteral(":full/victim.bin"));
        QCOMPARE(put.exitCode, 1);
        QVERIFY2(
            put.err.contains("kernelforge-cli put: cannot write full/victim.bin: no space left on device on full ("),
            put.err.constData());
        QVERIFY2(put.err.contains(" free, 2.0 MiB needed)"), put.err.constData());
        QCOMPARE(test::readFile(victim.fileName()), QByteArray("ORIGINAL\n"));
        QCOMPARE(tempLitter(demo.homeDir() + QStringLiteral("/full")), QStringList());
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestFaultsDiskFull)
#include "tst_faults_diskfull.moc"
