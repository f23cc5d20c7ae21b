// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Security properties against the real sshd:
//  - a changed host key never connects (20 attempts through the library and 20 through the
//    real kernelforge-cli binary) and nothing runs on the server;
//  - a password / key passphrase used to log in appears nowhere afterwards: log file,
//    history database, config dir (hosts.yaml), state/data/cache dirs;
//  - a patch apply keeps each file's mode and its backup is not more readable than it;
//  - the demo sshd listens on 127.0.0.1 only.
#include "core/hosts/hostprofilestore.h"
#include "core/hosts/userinteraction.h"
#include "core/log/logging.h"
#include "core/patch/applier.h"
#include "core/patch/patchplan.h"
#include "core/patch/patchset.h"
#include "core/ssh/sshsession.h"
#include "core/ssh/sshtransport.h"
#include "core/store/database.h"
#include "core/store/paths.h"
#include "tests/support/scriptedinteraction.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

using namespace kf;
using kf::test::ScriptedInteraction;

namespace {

constexpr int kAttempts = 20;

// Gives the same secret every time and always accepts host keys: the worst user there is,
// which must still never get a changed key through; a wrong secret is not asked for forever.
ScriptedInteraction scripted(const QByteArray& secret)
{
    ScriptedInteraction ui(HostKeyDecision::AcceptAndSave);
    ui.answers = { secret };
    ui.repeatLast = true;
    ui.maxSecretQuestions = 6;
    return ui;
}

// Files under dir (recursively) whose bytes contain needle, as UTF-8 or UTF-16.
QStringList filesContaining(const QString& dir, const QByteArray& needle)
{
    QStringList hits;
    const QByteArray utf16(reinterpret_cast<const char*>(QString::fromUtf8(needle).utf16()), needle.size() * 2);
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString f = it.next();
        const QByteArray data = test::readFile(f);
        if (data.contains(needle) || data.contains(utf16))
            hits << f;
    }
    return hits;
}

QStringList cliSshOptions(const DemoHost& demo)
{
    return { QStringLiteral("-p"), QString::number(demo.port()), QStringLiteral("-i"), demo.clientKeyPath(),
        QStringLiteral("--known-hosts"), demo.knownHostsPath() };
}

QString destination(const DemoHost& demo)
{
    return demo.user() + QStringLiteral("@127.0.0.1");
}

// Inodes of the listening TCP sockets in /proc/net/tcp{,6} -> "address:port" (hex as the kernel writes it).
QMap<QString, QString> listeningSockets(const QString& table)
{
    QMap<QString, QString> out;
    const QList<QByteArray> lines = test::readFile(table).split('\n');
    for (int i = 1; i < lines.size(); ++i) {
        const QList<QByteArray> cols = lines[i].simplified().split(' ');
        if (cols.size() < 10 || cols[3] != "0A") // 0A = TCP_LISTEN
            continue;
        out.insert(QString::fromLatin1(cols[9]), QString::fromLatin1(cols[1]));
    }
    return out;
}

} // namespace

class TestSecurity : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        qunsetenv("SSH_AUTH_SOCK");
        QVERIFY(m_xdg.isValid());
        // Every file KernelForge writes goes below one folder we can search afterwards.
        for (const char* var : { "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME" })
            qputenv(var, (m_xdg.path() + QLatin1Char('/') + QString::fromLatin1(var)).toUtf8());
        log::Options o;
        o.level = spdlog::level::trace; // the most talkative setting is the one that could leak
        o.toStderr = false;
        log::init(o);
        store::setDatabasePath(paths::stateDir() + QStringLiteral("/history.sqlite"));
    }

    void changedHostKeyNeverConnects()
    {
        KF_START_DEMO_HOST(demo);
        QVERIFY(demo.restart(/*newHostKey=*/true).ok());
        const QByteArray knownBefore = test::readFile(demo.knownHostsPath());
        ScriptedInteraction ui = scripted({});
        for (int i = 0; i < kAttempts; ++i) {
            SshConnectOptions o;
            o.acceptNewHostKey = (i % 2) == 0; // accept-new must not cover a changed key
            o.interaction = (i % 4) < 2 ? &ui : nullptr;
            o.reconnect = false;
            auto c = SshTransport::connect(demo.profile(), o);
            QVERIFY2(!c.ok(), qPrintable(QStringLiteral("attempt %1 connected to a changed host key").arg(i)));
            QVERIFY2(c.error().contains(QLatin1String("changed"), Qt::CaseInsensitive)
                    || c.error().contains(QLatin1String("does not match"), Qt::CaseInsensitive),
                qPrintable(c.error()));
        }
        const QString marker = demo.homeDir() + QStringLiteral("/marker");
        for (int i = 0; i < kAttempts; ++i) {
            QStringList args = QStringList { QStringLiteral("exec") } << cliSshOptions(demo);
            if (i % 2 == 0)
                args << QStringLiteral("--accept-new");
            args << destination(demo) << QStringLiteral("--") << QStringLiteral("touch ") + marker;
            const auto r = test::runCli(args, 60000);
            QCOMPARE(r.exitCode, 255);
            QVERIFY2(r.err.contains("changed") || r.err.contains("CHANGED") || r.err.contains("does not match"),
                r.err.constData());
        }
        QVERIFY(!QFile::exists(marker));
        QCOMPARE(test::readFile(demo.knownHostsPath()), knownBefore);       // the old entry was not replaced
        QCOMPARE(int(demo.sshdLog().count(QLatin1String("Accepted "))), 0); // no login at all
    }

    void secretsDoNotPersist_data()
    {
        QTest::addColumn<bool>("password");
        QTest::newRow("key passphrase") << false;
        QTest::newRow("password") << true;
    }

    void secretsDoNotPersist()
    {
        QFETCH(bool, password);
        if (password && !test::isRoot())
            QSKIP("password logins need a local user with a password (root only)");
        KF_START_DEMO_HOST(demo);
        QTemporaryDir keys;
        HostProfile p = demo.profile();
        p.name = password ? QStringLiteral("sec-password") : QStringLiteral("sec-passphrase");
        p.isDemo = false;
        const QByteArray secret = password ? QByteArrayLiteral("Pw-7d1f0c-unlikely-anywhere")
                                           : QByteArrayLiteral("Pp-93ab2e-unlikely-anywhere");
        if (password) {
            QVERIFY(demo.addPasswordUser(QStringLiteral("kfsecpw"), QString::fromLatin1(secret)).ok());
            p.user = QStringLiteral("kfsecpw");
            p.identityFiles = {};
        } else {
            const QString key = test::makeKey(keys.path(), QStringLiteral("ed25519"), QString::fromLatin1(secret));
            QVERIFY(test::authorizeKey(demo, key));
            p.identityFiles = { key };
        }
        ScriptedInteraction ui = scripted(secret);
        SshConnectOptions o;
        o.interaction = &ui;
        auto c = SshTransport::connect(p, o);
        QVERIFY2(c.ok(), qPrintable(c.error()));
        QVERIFY(ui.asked.size() >= 1); // the secret was really used
        auto t = c.value();
        // Use the connection the way the app does: a command, a file, a journaled patch apply,
        // the profile saved; and a failed login with the secret as a wrong answer's neighbour.
        QCOMPARE(t->exec({ QStringLiteral("echo ok") }, 30000).stdOut, QByteArray("ok\n"));
        // The password user is a real account whose home the demo folder is not: the patch
        // part runs with the key (the history database gets a journal entry there).
        if (!password) {
            const QString home = QString::fromUtf8(t->exec({ QStringLiteral("printf %s \"$HOME\"") }, 30000).stdOut);
            const QString src = test::dataPath(QStringLiteral("sgl-kernel-variants/2025-10-cmp0177"));
            for (const QString& rel :
                { QStringLiteral("CMakeLists.txt"), QStringLiteral("python/sgl_kernel/flash_attn.py"),
                    QStringLiteral("python/sgl_kernel/__init__.py") }) {
                QVERIFY(t->mkpath(QStringLiteral("tree/") + QFileInfo(rel).path()).ok());
                QVERIFY(t->writeFileAtomic(QStringLiteral("tree/") + rel, test::readFile(src + QLatin1Char('/') + rel))
                            .ok());
            }
            const auto set = patch::loadPatchSet(QStringLiteral("builtin:sgl-kernel-sm120-cuda13"));
            QVERIFY(set);
            const patch::SetPlan plan = patch::planSet(*t, set.value(), home + QStringLiteral("/tree"));
            QVERIFY2(plan, qPrintable(plan.error));
            QVERIFY(patch::applyPlan(*t, plan).ok());
        }
        QVERIFY(HostProfileStore().upsert(p).ok());
        ScriptedInteraction wrong = scripted(secret + "-wrong");
        o.interaction = &wrong;
        o.reconnect = false;
        QVERIFY(!SshTransport::connect(p, o).ok());
        log::flush();

        QVERIFY(QFile::exists(log::logFilePath()));
        QVERIFY(QFileInfo(log::logFilePath()).size() > 0);
        if (!password)
            QVERIFY(QFile::exists(store::databasePath()));
        QVERIFY(QFile::exists(HostProfileStore::defaultPath()));
        QCOMPARE(filesContaining(m_xdg.path(), secret), QStringList());
        QCOMPARE(filesContaining(QFileInfo(log::logFilePath()).absolutePath(), secret), QStringList());
        QCOMPARE(filesContaining(QFileInfo(store::databasePath()).absolutePath(), secret), QStringList());
        QCOMPARE(filesContaining(paths::configDir(), secret), QStringList());
        // The remote side keeps nothing either (backups, journal copies, temp files).
        QCOMPARE(filesContaining(demo.homeDir(), secret), QStringList());
    }

    void applyKeepsModesAndBackupsAreNotMoreReadable_data()
    {
        QTest::addColumn<int>("mode");
        QTest::newRow("0600") << 0600;
        QTest::newRow("0640") << 0640;
        QTest::newRow("0644") << 0644;
        QTest::newRow("0700") << 0700;
        QTest::newRow("0400") << 0400;
    }

    void applyKeepsModesAndBackupsAreNotMoreReadable()
    {
        QFETCH(int, mode);
        KF_START_DEMO_HOST(demo);
        auto c = SshTransport::connect(demo.profile());
        QVERIFY2(c.ok(), qPrintable(c.error()));
        auto t = c.value();
        const QString tree = demo.homeDir() + QStringLiteral("/tree");
        const QString src = test::dataPath(QStringLiteral("sgl-kernel-variants/2025-10-cmp0177"));
        const QStringList files { QStringLiteral("CMakeLists.txt"), QStringLiteral("python/sgl_kernel/flash_attn.py"),
            QStringLiteral("python/sgl_kernel/__init__.py") };
        for (const QString& rel : files) {
            QDir().mkpath(QFileInfo(tree + QLatin1Char('/') + rel).absolutePath());
            QVERIFY(QFile::copy(src + QLatin1Char('/') + rel, tree + QLatin1Char('/') + rel));
            QCOMPARE(::chmod(QFile::encodeName(tree + QLatin1Char('/') + rel).constData(), mode_t(mode)), 0);
        }
        const auto set = patch::loadPatchSet(QStringLiteral("builtin:sgl-kernel-sm120-cuda13"));
        QVERIFY(set);
        const patch::SetPlan plan = patch::planSet(*t, set.value(), tree);
        QVERIFY2(plan, qPrintable(plan.error));
        const patch::ApplyReport report = patch::applyPlan(*t, plan);
        QVERIFY(report.ok());
        int written = 0;
        for (const patch::FileApply& f : report.files) {
            if (f.outcome != patch::FileApply::Written)
                continue;
            ++written;
            struct stat st
            { };
            QCOMPARE(::stat(QFile::encodeName(tree + QLatin1Char('/') + f.file).constData(), &st), 0);
            QCOMPARE(int(st.st_mode & 07777), mode);
            QVERIFY(!f.backupPath.isEmpty());
            const QString backup = f.backupPath.startsWith(QLatin1Char('/')) ? f.backupPath
                                                                             : demo.homeDir() + QLatin1Char('/')
                    + QString(f.backupPath).remove(QRegularExpression(QStringLiteral("^~/")));
            QCOMPARE(::stat(QFile::encodeName(backup).constData(), &st), 0);
            const int backupMode = int(st.st_mode & 07777);
            QVERIFY2((backupMode & ~mode & 0777) == 0,
                qPrintable(QStringLiteral("%1: backup mode %2 grants more than the original's %3")
                               .arg(f.file, QString::number(backupMode, 8), QString::number(mode, 8))));
        }
        QVERIFY(written >= 1);
    }

    void demoSshdListensOnLoopbackOnly()
    {
        KF_START_DEMO_HOST(demo);
        const qint64 pid = demo.sshdPid();
        QVERIFY(pid > 0);
        // The sockets the listener holds, by inode.
        QSet<QString> inodes;
        const QDir fds(QStringLiteral("/proc/%1/fd").arg(pid));
        for (const QString& fd : fds.entryList(QDir::System | QDir::Files | QDir::NoDotAndDotDot)) {
            const QString target = QFile::symLinkTarget(fds.filePath(fd));
            if (target.contains(QLatin1String("socket:[")))
                inodes.insert(target.section(QLatin1Char('['), 1).chopped(1));
        }
        const QMap<QString, QString> v4 = listeningSockets(QStringLiteral("/proc/net/tcp"));
        const QMap<QString, QString> v6 = listeningSockets(QStringLiteral("/proc/net/tcp6"));
        const QString portHex = QStringLiteral("%1").arg(demo.port(), 4, 16, QLatin1Char('0')).toUpper();
        int listening = 0;
        for (const QString& inode : std::as_const(inodes)) {
            QVERIFY2(!v6.contains(inode), qPrintable(QStringLiteral("sshd listens on IPv6 ") + v6.value(inode)));
            if (!v4.contains(inode))
                continue;
            ++listening;
            QCOMPARE(v4.value(inode), QStringLiteral("0100007F:") + portHex); // 127.0.0.1 in the kernel's byte order
        }
        QCOMPARE(listening, 1);
        // And nobody else listens on the port on another address.
        for (auto it = v4.cbegin(); it != v4.cend(); ++it)
            if (it.value().endsWith(QLatin1Char(':') + portHex))
                QCOMPARE(it.value(), QStringLiteral("0100007F:") + portHex);
        for (auto it = v6.cbegin(); it != v6.cend(); ++it)
            QVERIFY(!it.value().endsWith(QLatin1Char(':') + portHex));
    }

private:
    QTemporaryDir m_xdg;
};

QTEST_GUILESS_MAIN(TestSecurity)
#include "tst_security.moc"
