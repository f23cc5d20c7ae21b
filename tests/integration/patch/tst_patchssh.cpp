// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Patch sets over the real sshd (DemoHost): the CLI applies the built-in set to the demo
// project, refuses after a concurrent change, survives a connection killed mid-apply with
// the old or the new file (never a mix), and rolls back. Tests with a "transport" column run
// the same arrangement over SSH and on LocalTransport (the CLI's --local, the window's local host).
#include "core/patch/applier.h"
#include "core/patch/patchplan.h"
#include "core/patch/patchset.h"
#include "core/patch/review.h"
#include "core/patch/rootpath.h"
#include "core/ssh/sshtransport.h"
#include "core/store/database.h"
#include "core/store/historystore.h"
#include "core/transport/localtransport.h"
#include "tests/support/testsupport.h"
#include "tests/support/transporttarget.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtConcurrent>
#include <QtTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace kf;
using namespace kf::patch;

namespace {

void writeFile(const QString& path, const QByteArray& data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(data);
}

QString oneLineDiff(const QString& file, const QString& from, const QString& to)
{
    return QStringLiteral("--- a/%1\n+++ b/%1\n@@ -1 +1 @@\n-%2\n+%3\n").arg(file, from, to);
}

// True when some process has the FIFO open for reading or waits in open(2) for a writer:
// then a non-blocking open for writing succeeds instead of failing with ENXIO.
bool fifoHasReader(const QString& path)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_NONBLOCK);
    if (fd < 0)
        return false;
    ::close(fd);
    return true;
}

using Target = test::TransportTarget;
using test::startTarget;

const QStringList kTransports { QStringLiteral("ssh"), QStringLiteral("local") };

// The rows of a test that has only the transport column.
void transportRows()
{
    QTest::addColumn<QString>("transport");
    for (const QString& t : kTransports)
        QTest::newRow(qPrintable(t)) << t;
}

} // namespace

class TestPatchSsh : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cliApplyAgainRollback();
    void refusesAfterConcurrentChange();
    void killedMidApplyLeavesOldOrNew();
    void hostileFilesAreRefusedUnopened_data();
    void hostileFilesAreRefusedUnopened();
    void escapingPathsAreRefusedOverSsh();
    void symlinksAndHardLinks_data();
    void symlinksAndHardLinks();
    void deletingThroughASymlinkIsRefused_data();
    void deletingThroughASymlinkIsRefused();
    void plantedLinksAreRefused_data();
    void plantedLinksAreRefused();
    void backupsKeepOwnerGroupMode_data();
    void backupsKeepOwnerGroupMode();
    void canonicalRootsOverSsh();
    void everySubsetOfThePythonHunks();

private:
    QTemporaryDir m_state;
};

void TestPatchSsh::initTestCase()
{
    qunsetenv("SSH_AUTH_SOCK");
    QVERIFY(m_state.isValid());
    store::setDatabasePath(m_state.filePath(QStringLiteral("history.sqlite")));
}

void TestPatchSsh::cliApplyAgainRollback()
{
    KF_START_DEMO_HOST(demo);
    const QString cmake = demo.homeDir() + QStringLiteral("/sgl-kernel/CMakeLists.txt");
    const QByteArray original = test::readFile(cmake);
    QVERIFY(original.contains("cmake_policy(SET CMP0169 OLD)"));
    const QStringList ssh { QStringLiteral("-p"), QString::number(demo.port()), QStringLiteral("-i"),
        demo.clientKeyPath(), QStringLiteral("--known-hosts"), demo.knownHostsPath() };
    const QString root = demo.user() + QLatin1Char('@') + demo.host() + QStringLiteral(":sgl-kernel");
    const QStringList env { QStringLiteral("XDG_STATE_HOME=") + m_state.filePath(QStringLiteral("cli-state")) };
    auto run = [&](const QString& action) {
        return test::runCli(QStringList { QStringLiteral("patch"), action, QStringLiteral("--set"),
                                QStringLiteral("builtin:sgl-kernel-sm120-cuda13"), QStringLiteral("--root"), root,
                                QStringLiteral("--json") }
                + ssh,
            120000, env);
    };
    const auto apply = run(QStringLiteral("apply"));
    QVERIFY2(apply.exitCode == 0, QByteArray(apply.out + apply.err).constData());
    QCOMPARE(apply.out.count("\"status\":\"applied\""), 4);
    const QByteArray patched = test::readFile(cmake);
    QVERIFY(patched.contains("if(POLICY CMP0169)"));
    QVERIFY(test::readFile(demo.homeDir() + QStringLiteral("/sgl-kernel/python/sgl_kernel/flash_attn.py"))
                .contains("FA3_AVAILABLE = False"));
    // Backups live on the server, next to nothing of the user's.
    QVERIFY(QDir(demo.homeDir() + QStringLiteral("/.cache/kernelforge/patch-backups")).exists());

    const auto again = run(QStringLiteral("apply"));
    QCOMPARE(again.exitCode, 0);
    QCOMPARE(again.out.count("\"status\":\"already-applied\""), 4);
    QCOMPARE(test::readFile(cmake), patched);

    const auto rollback = run(QStringLiteral("rollback"));
    QVERIFY2(rollback.exitCode == 0, QByteArray(rollback.out + rollback.err).constData());
    QCOMPARE(rollback.out.count("\"status\":\"rolled-back\""), 2);
    QCOMPARE(test::readFile(cmake), original);

    // A wrong key is a connection error (255), not a patch error.
    const auto bad
        = test::runCli({ QStringLiteral("patch"), QStringLiteral("plan"), QStringLiteral("--set"),
                           QStringLiteral("builtin:sgl-kernel-sm120-cuda13"), QStringLiteral("--root"), root,
                           QStringLiteral("-p"), QString::number(demo.port()), QStringLiteral("--known-hosts"),
                           m_state.filePath(QStringLiteral("empty_known_hosts")) },
            60000, env);
    QCOMPARE(bad.exitCode, 255);
}

void TestPatchSsh::refusesAfterConcurrentChange()
{
    KF_START_DEMO_HOST(demo);
    auto transport = SshTransport::connect(demo.profile());
    QVERIFY2(transport, qPrintable(transport.error()));
    const auto set = loadPatchSet(QStringLiteral("builtin:sgl-kernel-sm120-cuda13"));
    QVERIFY(set);
    const SetPlan plan = planSet(*transport.value(), set.value(), QStringLiteral("sgl-kernel"));
    QVERIFY2(plan, qPrintable(plan.error));
    QCOMPARE(plan.count(PatchStatus::WillApply), 4);
    const QString cmake = demo.homeDir() + QStringLiteral("/sgl-kernel/CMakeLists.txt");
    {
        QFile f(cmake);
        QVERIFY(f.open(QIODevice::Append));
        f.write("# someone edited this on the server meanwhile\n");
    }
    const QByteArray concurrent = test::readFile(cmake);
    const ApplyReport report = applyPlan(*transport.value(), plan);
    QVERIFY(report.changedSinceReview());
    QCOMPARE(test::readFile(cmake), concurrent);
    // Re-plan, apply, roll back over SSH.
    const SetPlan fresh = planSet(*transport.value(), set.value(), QStringLiteral("sgl-kernel"));
    const ApplyReport ok = applyPlan(*transport.value(), fresh);
    QVERIFY(ok.ok());
    for (const FileApply& f : ok.files) {
        if (f.outcome != FileApply::Written)
            continue;
        const auto r = rollbackApply(*transport.value(), f.journalId);
        QVERIFY2(r, qPrintable(r.error()));
    }
    QCOMPARE(test::readFile(cmake), concurrent);
}

void TestPatchSsh::killedMidApplyLeavesOldOrNew()
{
    KF_START_DEMO_HOST(demo);
    // A large file makes the upload take long enough to cut the connection in the middle.
    const QString dir = demo.homeDir() + QStringLiteral("/big");
    QDir().mkpath(dir);
    QByteArray old;
    for (int i = 0; i < 400000; ++i)
        old += "set(VAR_" + QByteArray::number(i) + " value)\n";
    {
        QFile f(dir + QStringLiteral("/CMakeLists.txt"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(old);
    }
    const QByteArray yaml = "name: big\npatches:\n  - id: all\n    file: CMakeLists.txt\n    edits:\n      - replace: "
                            "{find: ' value)', with: ' other_value)'}\n";
    const auto set = parsePatchSetYaml(yaml, QStringLiteral("big.yaml"));
    QVERIFY2(set, qPrintable(set.error()));
    auto transport = SshTransport::connect(demo.profile());
    QVERIFY2(transport, qPrintable(transport.error()));
    const SetPlan plan = planSet(*transport.value(), set.value(), QStringLiteral("big"));
    QCOMPARE(plan.count(PatchStatus::WillApply), 1);
    const QByteArray proposed = plan.files.first().proposed;
    std::shared_ptr<Transport> t = transport.value();
    QFuture<ApplyReport> future = QtConcurrent::run([t, plan]() { return applyPlan(*t, plan); });
    // Cut the connection once the temporary upload file exists (the write is under way).
    QTRY_VERIFY_WITH_TIMEOUT(future.isFinished()
            || !QDir(dir)
                    .entryList({ QStringLiteral(".CMakeLists.txt.kf-tmp-*") }, QDir::Files | QDir::Hidden)
                    .isEmpty(),
        60000);
    const bool cut = !future.isFinished();
    if (cut)
        demo.dropConnections();
    QTRY_VERIFY_WITH_TIMEOUT(future.isFinished(), 120000);
    const QByteArray now = test::readFile(dir + QStringLiteral("/CMakeLists.txt"));
    QVERIFY2(now == old || now == proposed, "the file is neither the old nor the new text");
    if (cut) {
        qInfo("connection cut mid-apply: file is %s", now == old ? "the old one" : "the new one");
        if (now == old)
            QVERIFY(!future.result().ok()); // and the report says it failed
    }
}

// `patch plan` over the real sshd on a tree whose setup.py is no regular file or is too big:
// a clear error, exit 2, no hang, no bad_alloc and no sftp-server left blocked on the FIFO.
void TestPatchSsh::hostileFilesAreRefusedUnopened_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("message");   // from `patch plan`
    QTest::addColumn<QString>("readError"); // from Transport::readFile over SFTP
    // The symlink leaves the root, so planning refuses it before any read.
    QTest::newRow("symlink to /dev/zero")
        << "zero"
        << "\"setup.py\" leads outside the root HOME/hostile through a symlink (to /dev/zero)"
        << "not a regular file (a character device)";
    QTest::newRow("fifo") << "fifo"
                          << "not a regular file (a FIFO)"
                          << "not a regular file (a FIFO)";
    QTest::newRow("too large") << "large"
                               << "file too large (17825792 bytes, limit 16777216)"
                               << "file too large (17825792 bytes, limit 1000)";
}

void TestPatchSsh::hostileFilesAreRefusedUnopened()
{
    QFETCH(QString, kind);
    QFETCH(QString, message);
    QFETCH(QString, readError);
    KF_START_DEMO_HOST(demo);
    const QString tree = demo.homeDir() + QStringLiteral("/hostile");
    QDir().mkpath(tree);
    const QString setup = tree + QStringLiteral("/setup.py");
    if (kind == QLatin1String("zero")) {
        QVERIFY(QFile::link(QStringLiteral("/dev/zero"), setup));
    } else if (kind == QLatin1String("fifo")) {
        QCOMPARE(::mkfifo(QFile::encodeName(setup).constData(), 0644), 0);
    } else {
        QFile f(setup);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY(f.resize(17 * 1024 * 1024)); // sparse: costs no disk
    }
    const QString patch = m_state.filePath(QStringLiteral("setup-%1.patch").arg(kind));
    writeFile(patch, oneLineDiff(QStringLiteral("setup.py"), QStringLiteral("a"), QStringLiteral("b")).toUtf8());
    const auto r = test::runCli(
        { QStringLiteral("patch"), QStringLiteral("plan"), QStringLiteral("--set"), patch, QStringLiteral("--root"),
            demo.user() + QStringLiteral("@127.0.0.1:hostile"), QStringLiteral("-p"), QString::number(demo.port()),
            QStringLiteral("-i"), demo.clientKeyPath(), QStringLiteral("--known-hosts"), demo.knownHostsPath() },
        60000, { QStringLiteral("XDG_STATE_HOME=") + m_state.filePath(QStringLiteral("cli-state")) });
    QVERIFY2(!r.crashed, r.err.constData());
    QCOMPARE(r.exitCode, 2);
    // Messages name the root by its real path (HOME: the demo's home folder).
    message.replace(QStringLiteral("HOME"), QFileInfo(demo.homeDir()).canonicalFilePath());
    QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
    if (kind == QLatin1String("fifo"))
        QVERIFY2(!fifoHasReader(setup), "a process (sftp-server) is blocked opening the FIFO");
    // The read itself refuses, unopened, and the SFTP session stays usable.
    auto transport = SshTransport::connect(demo.profile());
    QVERIFY2(transport, qPrintable(transport.error()));
    const auto read = transport.value()->readFile(QStringLiteral("hostile/setup.py"), 1000);
    QVERIFY(!read);
    QVERIFY2(read.error().endsWith(readError), qPrintable(read.error()));
    if (kind == QLatin1String("fifo"))
        QVERIFY(!fifoHasReader(setup));
    QVERIFY(transport.value()->stat(QStringLiteral("hostile")).value().isDir);
}

// Diffs naming ../ paths and symlinks leading out of the root are refused over SSH; nothing
// outside the root changes.
void TestPatchSsh::escapingPathsAreRefusedOverSsh()
{
    KF_START_DEMO_HOST(demo);
    const QString home = demo.homeDir();
    writeFile(home + QStringLiteral("/.bashrc"), "old\n");
    writeFile(home + QStringLiteral("/tree/ok.txt"), "old\n");
    QVERIFY(QFile::link(home, home + QStringLiteral("/tree/up")));
    const QStringList ssh { QStringLiteral("-p"), QString::number(demo.port()), QStringLiteral("-i"),
        demo.clientKeyPath(), QStringLiteral("--known-hosts"), demo.knownHostsPath() };
    const QStringList env { QStringLiteral("XDG_STATE_HOME=") + m_state.filePath(QStringLiteral("cli-state")) };
    const QString root = demo.user() + QStringLiteral("@127.0.0.1:tree");
    struct Case
    {
        QString diff;
        QString message;
    };
    const QList<Case> cases {
        { oneLineDiff(QStringLiteral("../../../.bashrc"), QStringLiteral("old"), QStringLiteral("pwned")),
            QStringLiteral("\"../../../.bashrc\" leaves the root: it has a \"..\" component") },
        { oneLineDiff(QStringLiteral("../.bashrc"), QStringLiteral("old"), QStringLiteral("pwned")),
            QStringLiteral("leaves the root") },
        { oneLineDiff(QStringLiteral("up/.bashrc"), QStringLiteral("old"), QStringLiteral("pwned")),
            QStringLiteral("\"up/.bashrc\" leads outside the root %1/tree through a symlink")
                .arg(QFileInfo(home).canonicalFilePath()) },
    };
    int n = 0;
    for (const Case& c : cases) {
        const QString patch = m_state.filePath(QStringLiteral("escape-%1.patch").arg(++n));
        writeFile(patch, c.diff.toUtf8());
        for (const QString& action : { QStringLiteral("plan"), QStringLiteral("apply") }) {
            const auto r = test::runCli(QStringList { QStringLiteral("patch"), action, QStringLiteral("--set"), patch,
                                            QStringLiteral("--root"), root }
                    + ssh,
                60000, env);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(c.message.toUtf8()), r.err.constData());
        }
    }
    QCOMPARE(test::readFile(home + QStringLiteral("/.bashrc")), QByteArray("old\n"));
    QVERIFY(!QDir(home + QStringLiteral("/.cache/kernelforge/patch-backups")).exists());
}

// Apply writes through a symlink inside the root (the link stays a link), says when a hard
// link is split, and rollback restores exactly what was there.
void TestPatchSsh::symlinksAndHardLinks_data()
{
    transportRows();
}

void TestPatchSsh::symlinksAndHardLinks()
{
    QFETCH(QString, transport);
    Target target;
    const Result<void> started = startTarget(transport, target);
    QVERIFY2(started, qPrintable(started.error()));
    const QString tree = target.home + QStringLiteral("/links");
    writeFile(tree + QStringLiteral("/real.txt"), "old\n");
    writeFile(tree + QStringLiteral("/hard.txt"), "old\n");
    QVERIFY(QFile::link(QStringLiteral("real.txt"), tree + QStringLiteral("/link.txt")));
    QCOMPARE(::link(QFile::encodeName(tree + QStringLiteral("/hard.txt")).constData(),
                 QFile::encodeName(tree + QStringLiteral("/hard-other.txt")).constData()),
        0);
    const auto set
        = patchSetFromDiff(oneLineDiff(QStringLiteral("link.txt"), QStringLiteral("old"), QStringLiteral("new"))
                + oneLineDiff(QStringLiteral("hard.txt"), QStringLiteral("old"), QStringLiteral("new")),
            QStringLiteral("links.patch"));
    QVERIFY2(set, qPrintable(set.error()));
    const SetPlan plan = planSet(*target.transport, set.value(), QStringLiteral("links"));
    QVERIFY2(plan, qPrintable(plan.error));
    QCOMPARE(plan.count(PatchStatus::WillApply), 2);
    const ApplyReport report = applyPlan(*target.transport, plan);
    QVERIFY(report.ok());
    QCOMPARE(report.files.size(), 2);
    QVERIFY(QFileInfo(tree + QStringLiteral("/link.txt")).isSymLink());
    QCOMPARE(QFileInfo(tree + QStringLiteral("/link.txt")).symLinkTarget(),
        QFileInfo(tree + QStringLiteral("/real.txt")).absoluteFilePath());
    QCOMPARE(test::readFile(tree + QStringLiteral("/real.txt")), QByteArray("new\n"));
    QVERIFY2(report.files[0].message.contains(QLatin1String("written through the symlink link.txt")),
        qPrintable(report.files[0].message));
    QCOMPARE(test::readFile(tree + QStringLiteral("/hard.txt")), QByteArray("new\n"));
    QCOMPARE(test::readFile(tree + QStringLiteral("/hard-other.txt")), QByteArray("old\n"));
    QVERIFY2(report.files[1].message.contains(QLatin1String("had 2 hard links")), qPrintable(report.files[1].message));
    for (const FileApply& f : report.files) {
        const auto r = rollbackApply(*target.transport, f.journalId);
        QVERIFY2(r, qPrintable(r.error()));
    }
    QVERIFY(QFileInfo(tree + QStringLiteral("/link.txt")).isSymLink());
    QCOMPARE(test::readFile(tree + QStringLiteral("/real.txt")), QByteArray("old\n"));
    QCOMPARE(test::readFile(tree + QStringLiteral("/hard.txt")), QByteArray("old\n"));
}

// A diff that deletes a symlink (inside the root) is refused at apply: neither the link nor
// its target is removed, and no backup is made.
void TestPatchSsh::deletingThroughASymlinkIsRefused_data()
{
    transportRows();
}

void TestPatchSsh::deletingThroughASymlinkIsRefused()
{
    QFETCH(QString, transport);
    Target target;
    const Result<void> started = startTarget(transport, target);
    QVERIFY2(started, qPrintable(started.error()));
    const QString tree = target.home + QStringLiteral("/links");
    writeFile(tree + QStringLiteral("/real.txt"), "old\n");
    QVERIFY(QFile::link(QStringLiteral("real.txt"), tree + QStringLiteral("/link.txt")));
    const auto set = patchSetFromDiff(QStringLiteral("diff --git a/link.txt b/link.txt\ndeleted file mode 100644\n"
                                                     "--- a/link.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-old\n"),
        QStringLiteral("delete.patch"));
    QVERIFY2(set, qPrintable(set.error()));
    const SetPlan plan = planSet(*target.transport, set.value(), QStringLiteral("links"));
    QVERIFY2(plan, qPrintable(plan.error));
    QCOMPARE(plan.count(PatchStatus::WillApply), 1);
    const ApplyReport report = applyPlan(*target.transport, plan);
    QVERIFY(!report.ok());
    QCOMPARE(report.files.size(), 1);
    QCOMPARE(report.files[0].outcome, FileApply::Refused);
    const QString real = QFileInfo(tree + QStringLiteral("/real.txt")).canonicalFilePath();
    QCOMPARE(report.files[0].message,
        QStringLiteral("link.txt is a symlink to %1: deleting through a link is refused (delete the link or its "
                       "target by hand)")
            .arg(real));
    QVERIFY(QFileInfo(tree + QStringLiteral("/link.txt")).isSymLink());
    QCOMPARE(test::readFile(tree + QStringLiteral("/real.txt")), QByteArray("old\n"));
    QVERIFY(!QDir(target.home + QStringLiteral("/.cache/kernelforge/patch-backups")).exists());
}

// A symlink planted after the review (between plan and apply) or after the apply (between
// apply and rollback) redirects nothing: leading out of the root, through "..", or to
// another file inside it, the apply or rollback is refused and names what changed, and the
// file the link leads to keeps its text (the one the skipped write would have accepted).
void TestPatchSsh::plantedLinksAreRefused_data()
{
    QTest::addColumn<QString>("transport");
    QTest::addColumn<QString>("when");    // "apply": planted after the plan; "rollback": after the apply
    QTest::addColumn<QString>("link");    // the link planted, relative to the root
    QTest::addColumn<QString>("to");      // its target as written in the link
    QTest::addColumn<QString>("lands");   // the file it leads to, relative to the home folder
    QTest::addColumn<QString>("message"); // ROOT and HOME: real paths
    const QString apply = QStringLiteral("\"sub/f.txt\" leads outside the root ROOT through a symlink (to LANDS)");
    const QString applyInside
        = QStringLiteral("sub/f.txt now resolves to LANDS, not ROOT/sub/f.txt as reviewed; re-plan");
    const QString rollback = QStringLiteral("not rolling back apply ID: ") + apply;
    const QString rollbackInside = QStringLiteral(
        "not rolling back apply ID: sub/f.txt now resolves to LANDS, but the apply wrote ROOT/sub/f.txt");
    for (const QString& t : kTransports) {
        for (const QString& when : { QStringLiteral("apply"), QStringLiteral("rollback") }) {
            const bool a = when == QLatin1String("apply");
            auto row = [&](const char* name, const char* link, const QString& to, const char* lands, bool outside) {
                QTest::newRow(qPrintable(QStringLiteral("%1, %2: %3").arg(t, when, QLatin1String(name))))
                    << t << when << QString::fromLatin1(link) << to << QString::fromLatin1(lands)
                    << (outside ? (a ? apply : rollback) : (a ? applyInside : rollbackInside));
            };
            row("folder link out of the root", "sub", QStringLiteral("HOME/outside"), "outside/f.txt", true);
            row("folder link through ..", "sub", QStringLiteral("../outside"), "outside/f.txt", true);
            row("file link through ..", "sub/f.txt", QStringLiteral("../../outside/f.txt"), "outside/f.txt", true);
            row("file link inside the root", "sub/f.txt", QStringLiteral("../other/f.txt"), "tree/other/f.txt", false);
            row("folder link inside the root", "sub", QStringLiteral("other"), "tree/other/f.txt", false);
        }
    }
}

void TestPatchSsh::plantedLinksAreRefused()
{
    QFETCH(QString, transport);
    QFETCH(QString, when);
    QFETCH(QString, link);
    QFETCH(QString, to);
    QFETCH(QString, lands);
    QFETCH(QString, message);
    Target target;
    const Result<void> started = startTarget(transport, target);
    QVERIFY2(started, qPrintable(started.error()));
    const QString home = QFileInfo(target.home).canonicalFilePath();
    const QString tree = home + QStringLiteral("/tree");
    const bool beforeApply = when == QLatin1String("apply");
    // The planted link's file holds what the skipped step would accept: the reviewed text
    // before the apply, the applied text before the rollback.
    const QByteArray bait = beforeApply ? "old\n" : "new\n";
    writeFile(tree + QStringLiteral("/sub/f.txt"), "old\n");
    writeFile(home + QLatin1Char('/') + lands, bait);
    const auto set
        = patchSetFromDiff(oneLineDiff(QStringLiteral("sub/f.txt"), QStringLiteral("old"), QStringLiteral("new")),
            QStringLiteral("p.patch"));
    QVERIFY2(set, qPrintable(set.error()));
    const SetPlan plan = planSet(*target.transport, set.value(), QStringLiteral("tree"));
    QVERIFY2(plan, qPrintable(plan.error));
    QCOMPARE(plan.count(PatchStatus::WillApply), 1);
    qint64 journalId = 0;
    if (!beforeApply) {
        const ApplyReport report = applyPlan(*target.transport, plan);
        QVERIFY(report.ok());
        journalId = report.files.value(0).journalId;
    }
    // Plant: the name (folder or file) moves aside and a link takes its place.
    const QString linkPath = tree + QLatin1Char('/') + link;
    QVERIFY(QFile::rename(linkPath, linkPath + QStringLiteral(".moved")));
    QVERIFY(QFile::link(QString(to).replace(QStringLiteral("HOME"), home), linkPath));
    // ID first: the real paths put in for ROOT and LANDS are random temp folders that may hold "ID".
    message.replace(QStringLiteral("ID"), QString::number(journalId))
        .replace(QStringLiteral("ROOT"), tree)
        .replace(QStringLiteral("LANDS"), home + QLatin1Char('/') + lands);
    if (beforeApply) {
        const ApplyReport report = applyPlan(*target.transport, plan);
        QCOMPARE(report.files.size(), 1);
        QCOMPARE(report.files[0].outcome, FileApply::Refused);
        QCOMPARE(report.files[0].message, message);
        QVERIFY(!QDir(home + QStringLiteral("/.cache/kernelforge/patch-backups")).exists());
    } else {
        const auto r = rollbackApply(*target.transport, journalId);
        QVERIFY(!r);
        QCOMPARE(r.error(), message);
        QVERIFY(!HistoryStore().entry(journalId)->rolledBack());
    }
    QCOMPARE(test::readFile(home + QLatin1Char('/') + lands), bait);
    QCOMPARE(test::readFile(linkPath + QStringLiteral(".moved")
                 + (link == QLatin1String("sub") ? QStringLiteral("/f.txt") : QString())),
        beforeApply ? QByteArray("old\n") : QByteArray("new\n"));
}

// Backups keep the original's owner, group and mode, in folders only the user can enter.
void TestPatchSsh::backupsKeepOwnerGroupMode_data()
{
    transportRows();
}

void TestPatchSsh::backupsKeepOwnerGroupMode()
{
    if (!test::isRoot())
        QSKIP("giving a file another owner and group needs root");
    QFETCH(QString, transport);
    Target target;
    const Result<void> started = startTarget(transport, target);
    QVERIFY2(started, qPrintable(started.error()));
    const QString tree = target.home + QStringLiteral("/owned");
    const QString file = tree + QStringLiteral("/f.txt");
    writeFile(file, "old\n");
    const QByteArray f8 = QFile::encodeName(file);
    QCOMPARE(::chown(f8.constData(), uid_t(1), gid_t(1)), 0); // user and group "daemon"
    QCOMPARE(::chmod(f8.constData(), 0640), 0);
    const auto set = patchSetFromDiff(
        oneLineDiff(QStringLiteral("f.txt"), QStringLiteral("old"), QStringLiteral("new")), QStringLiteral("o.patch"));
    QVERIFY(set);
    const SetPlan plan = planSet(*target.transport, set.value(), QStringLiteral("owned"));
    const ApplyReport report = applyPlan(*target.transport, plan);
    QVERIFY(report.ok());
    // Journaled with its real path.
    const QString local = report.files.value(0).backupPath;
    QVERIFY2(local.startsWith(
                 QFileInfo(target.home).canonicalFilePath() + QStringLiteral("/.cache/kernelforge/patch-backups/")),
        qPrintable(local));
    struct stat st
    { };
    QCOMPARE(::stat(QFile::encodeName(local).constData(), &st), 0);
    QCOMPARE(st.st_uid, uid_t(1));
    QCOMPARE(st.st_gid, gid_t(1));
    QCOMPARE(st.st_mode & 07777, mode_t(0640));
    // The folders made for backups (this apply's and patch-backups itself): the user's only.
    const QString stampDir = QFileInfo(local).absolutePath();
    for (const QString& dir : { stampDir, QFileInfo(stampDir).absolutePath() }) {
        QCOMPARE(::stat(QFile::encodeName(dir).constData(), &st), 0);
        QVERIFY2((st.st_mode & 07777) == 0700, qPrintable(dir));
    }
    // The written file kept its owner, group and mode too, and rollback restores them.
    QCOMPARE(::stat(f8.constData(), &st), 0);
    QCOMPARE(st.st_uid, uid_t(1));
    QCOMPARE(st.st_gid, gid_t(1));
    const auto r = rollbackApply(*target.transport, report.files.value(0).journalId);
    QVERIFY2(r, qPrintable(r.error()));
    QCOMPARE(::stat(f8.constData(), &st), 0);
    QCOMPARE(st.st_uid, uid_t(1));
    QCOMPARE(st.st_gid, gid_t(1));
    QCOMPARE(st.st_mode & 07777, mode_t(0640));
    QCOMPARE(test::readFile(file), QByteArray("old\n"));
}

// Roots over SSH are what the user's shell calls them (cd DIR && pwd -P): "~", relative,
// trailing slashes, "." and symlinks resolved; a folder that is not there is said so.
void TestPatchSsh::canonicalRootsOverSsh()
{
    KF_START_DEMO_HOST(demo);
    const QString home = QFileInfo(demo.homeDir()).canonicalFilePath();
    QVERIFY(QFile::link(demo.homeDir() + QStringLiteral("/sgl-kernel"), demo.homeDir() + QStringLiteral("/sk link")));
    auto transport = SshTransport::connect(demo.profile());
    QVERIFY2(transport, qPrintable(transport.error()));
    const auto roots = canonicalRoots(*transport.value(),
        { QStringLiteral("~"), QStringLiteral("sgl-kernel/"), QStringLiteral("~/sgl-kernel/./python/.."),
            QStringLiteral("sk link"), demo.homeDir() + QStringLiteral("/sk link/"), QStringLiteral("nope"),
            QStringLiteral("sgl-kernel/CMakeLists.txt") });
    QVERIFY2(roots, qPrintable(roots.error()));
    QCOMPARE(roots->size(), 7);
    QCOMPARE(roots->at(0).value_or(QString()), home);
    for (int i = 1; i <= 4; ++i)
        QCOMPARE(roots->at(i).value_or(QString()), home + QStringLiteral("/sgl-kernel"));
    QVERIFY(!roots->at(5));
    QVERIFY(!roots->at(6)); // a file is not a root
    const auto missing = canonicalRoot(*transport.value(), QStringLiteral("nope"));
    QVERIFY(!missing);
    QVERIFY2(missing.error().contains(QStringLiteral("cannot resolve the root nope")), qPrintable(missing.error()));
    QCOMPARE(planSet(*transport.value(), loadPatchSet(QStringLiteral("builtin:sgl-kernel-sm120-cuda13")).value(),
                 QStringLiteral("sk link/"))
                 .root,
        home + QStringLiteral("/sgl-kernel"));
}

// Issue #30's first path, for every choice a reviewer can make: each subset of the built-in
// python patch's hunks is applied to the demo server's flash_attn.py. Either the result
// compiles with python3 -m py_compile, or the apply refuses it (the server's python said
// so) and the file is untouched. The plan afterwards reads "already applied" only when every
// hunk was taken; otherwise "partly applied (k of n hunks)" with exactly the missing hunks
// offered, and taking them completes the patch. Each round is rolled back.
void TestPatchSsh::everySubsetOfThePythonHunks()
{
    KF_START_DEMO_HOST(demo);
    auto connected = SshTransport::connect(demo.profile());
    QVERIFY2(connected, qPrintable(connected.error()));
    const std::shared_ptr<Transport> t = connected.value();
    const auto set = loadPatchSet(QStringLiteral("builtin:sgl-kernel-sm120-cuda13"));
    QVERIFY(set);
    const QString file = QStringLiteral("python/sgl_kernel/flash_attn.py");
    const QString local = demo.homeDir() + QStringLiteral("/sgl-kernel/") + file;
    const QByteArray original = test::readFile(local);
    const SetPlan first = planSet(*t, set.value(), QStringLiteral("sgl-kernel"));
    QVERIFY2(first, qPrintable(first.error));
    int py = -1;
    for (int i = 0; i < first.patches.size(); ++i)
        if (first.patches[i].id == QLatin1String("fa3-import-soft-fail"))
            py = i;
    QVERIFY(py >= 0);
    const int n = int(first.patches[py].patchHunks.size());
    QVERIFY2(n >= 2 && n <= 6, qPrintable(QString::number(n)));
    const QByteArray full = first.fileFor(file)->proposed;
    auto compiles = [&](const QByteArray& text) {
        const QString copy = m_state.filePath(QStringLiteral("check.py"));
        writeFile(copy, text);
        return test::runProgram(QStringLiteral("python3"), { QStringLiteral("-m"), QStringLiteral("py_compile"), copy })
                   .exitCode
            == 0;
    };
    int refusedCount = 0, partly = 0;
    for (int subset = 1; subset < (1 << n); ++subset) {
        const QString round = QStringLiteral("subset %1 of %2 hunks").arg(subset).arg(n);
        QCOMPARE(test::readFile(local), original);
        const SetPlan plan = planSet(*t, set.value(), QStringLiteral("sgl-kernel"));
        QVERIFY2(plan.patches[py].status == PatchStatus::WillApply, qPrintable(round));
        Review review(plan);
        QList<bool> taken;
        for (int h = 0; h < n; ++h) {
            taken.append(subset & (1 << h));
            review.setHunkAccepted(py, h, taken.last());
        }
        ApplyOptions options = review.applyOptions();
        options.onlyFiles = { file };
        const ApplyReport report = applyPlan(*t, plan, options);
        QCOMPARE(report.files.size(), 1);
        const FileApply& f = report.files.first();
        if (f.outcome == FileApply::Refused) {
            QVERIFY2(f.unparsable, qPrintable(round + QStringLiteral(": ") + f.message));
            QVERIFY2(f.message.contains(QStringLiteral("no longer parses as Python")), qPrintable(f.message));
            QVERIFY2(
                !compiles(review.resultFor(file)), qPrintable(round + QStringLiteral(": refused, yet it compiles")));
            QCOMPARE(test::readFile(local), original);
            const SetPlan after = planSet(*t, set.value(), QStringLiteral("sgl-kernel"));
            QVERIFY2(after.patches[py].status == PatchStatus::WillApply, qPrintable(round));
            ++refusedCount;
            continue;
        }
        QVERIFY2(f.outcome == FileApply::Written, qPrintable(round + QStringLiteral(": ") + f.message));
        QVERIFY2(compiles(test::readFile(local)), qPrintable(round + QStringLiteral(": written and broken")));
        const SetPlan after = planSet(*t, set.value(), QStringLiteral("sgl-kernel"));
        const PatchPlan& p = after.patches[py];
        const QString what = round + QStringLiteral(": ") + statusText(p.status) + QStringLiteral(" — ") + p.reason;
        if (subset == (1 << n) - 1) {
            QVERIFY2(p.status == PatchStatus::AlreadyApplied, qPrintable(what));
        } else {
            ++partly;
            QVERIFY2(p.status == PatchStatus::PartlyApplied, qPrintable(what));
            QCOMPARE(p.partsText(), QStringLiteral("%1 of %2 hunks").arg(taken.count(true)).arg(n));
            QCOMPARE(p.patchHunks.size(), n);
            for (int h = 0; h < n; ++h)
                QCOMPARE(p.patchHunks[h].inPlace, bool(taken[h]));
            // The missing hunks stay applicable: taking them gives the whole patch.
            const Review rest(after);
            QCOMPARE(rest.resultFor(file), full);
        }
        for (const RollbackResult& r : runRollback(*t, planRollback(t->describe(), { f.journalId }).value()))
            QVERIFY2(r.ok, qPrintable(round + QStringLiteral(": ") + r.message));
    }
    qInfo("%d subsets refused as broken Python, %d written partly, 1 whole", refusedCount, partly);
    QVERIFY(refusedCount >= 1); // the split (hunk 2 rejected) is among them
    QCOMPARE(test::readFile(local), original);
}

QTEST_GUILESS_MAIN(TestPatchSsh)
#include "tst_patchssh.moc"
