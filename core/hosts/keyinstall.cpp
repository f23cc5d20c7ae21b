// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/hosts/keyinstall.h"

#include "core/hosts/destination.h"
#include "core/hosts/sshoptionarg.h"
#include "core/log/logging.h"
#include "core/transport/transport.h"
#include "core/util/loginshell.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QSysInfo>

namespace kf::keyinstall {
namespace {

// $1: the public key line. Prints one verdict line last: "kf-key: added", "kf-key: present" or
// "kf-key: refused: WHY" (exit 3); anything else failing exits non-zero with its stderr.
// sshd's StrictModes (auth.c, secure_filename): the file and every folder up to the home folder
// must belong to the user or root and not be writable by group or others.
constexpr char kScript[] = R"SH(set -u
refuse() { printf 'kf-key: refused: %s\n' "$1"; exit 3; }
key=$1
blob=$(printf '%s\n' "$key" | awk '{ print $2 }')
[ -n "$blob" ] || refuse "the public key line is empty"
cd || refuse "cannot enter the home folder"
uid=$(id -u)
check() {
    info=$(stat -L -c '%u %a' -- "$1" 2>/dev/null) || refuse "cannot read the owner and mode of $2"
    owner=${info% *}
    mode=${info#* }
    if [ "$owner" != "$uid" ] && [ "$owner" != 0 ]; then
        refuse "$2 belongs to user id $owner, not to you (id $uid) or root: sshd (StrictModes) would ignore authorized_keys"
    fi
    if [ $(( 0$mode & 022 )) -ne 0 ]; then
        refuse "$2 is writable by group or others (mode $mode): sshd (StrictModes) would ignore authorized_keys; on the server run: chmod go-w $3"
    fi
}
check . "your home folder ($(pwd -P))" '~'
umask 077
if [ ! -e .ssh ] && [ ! -L .ssh ]; then
    # Another installation may make it at the same moment: only a folder still missing is a failure.
    mkdir -m 700 .ssh 2>/dev/null || [ -d .ssh ] || refuse "cannot create ~/.ssh"
fi
[ -d .ssh ] || refuse "~/.ssh is not a folder"
check .ssh "~/.ssh" '~/.ssh'
# One installation at a time (mkdir is atomic): two at once would each copy the file, add their
# key and rename, and the later rename would drop the earlier key.
lock=.ssh/.kf-authorized_keys.lock
tmp=
tries=0
until mkdir -- "$lock" 2>/dev/null; do
    tries=$((tries + 1))
    [ "$tries" -lt 50 ] || refuse "another key installation has held ~/.ssh/.kf-authorized_keys.lock for 10 s; if none is running, remove that folder"
    sleep 0.2 2>/dev/null || sleep 1
done
trap 'rmdir -- "$lock" 2>/dev/null; [ -z "$tmp" ] || rm -f -- "$tmp"' EXIT
f=.ssh/authorized_keys
[ -L "$f" ] && refuse "~/.ssh/authorized_keys is a symbolic link: KernelForge replaces the file in one rename, which would replace the link; add the key to the file it points to yourself"
if [ -e "$f" ]; then
    [ -f "$f" ] || refuse "~/.ssh/authorized_keys is not a regular file"
    check "$f" "~/.ssh/authorized_keys" '~/.ssh/authorized_keys'
    if awk -v b="$blob" '!/^[ \t]*#/ { for (i = 1; i <= NF; i++) if ($i == b) found = 1 } END { exit !found }' "$f"; then
        echo "kf-key: present"
        exit 0
    fi
fi
tmp=$(mktemp .ssh/.authorized_keys.kf.XXXXXX) || refuse "cannot create a temporary file in ~/.ssh"
if [ -e "$f" ]; then
    cat -- "$f" > "$tmp" || exit 1
    if [ -s "$tmp" ] && [ -n "$(tail -c 1 -- "$tmp")" ]; then printf '\n' >> "$tmp" || exit 1; fi
    chmod "$(stat -c '%a' -- "$f")" "$tmp" || exit 1
else
    chmod 600 "$tmp" || exit 1
fi
printf '%s\n' "$key" >> "$tmp" || exit 1
sync -- "$tmp" 2>/dev/null
mv -f -- "$tmp" "$f" || exit 1
if command -v restorecon >/dev/null 2>&1; then restorecon -F .ssh "$f" >/dev/null 2>&1; fi
echo "kf-key: added"
)SH";

constexpr qint64 kMaxOutput = 1 << 20;

QString findTool(const QString& name)
{
    QString p = QStandardPaths::findExecutable(name);
    if (p.isEmpty())
        p = QStandardPaths::findExecutable(name, { QStringLiteral("/usr/bin"), QStringLiteral("/bin") });
    return p;
}

// The verdict of the script's output (the last "kf-key: " line; login scripts may print before it).
Result<InstallReport> verdict(const QByteArray& out, const QByteArray& err, int exitCode, const QString& where,
    const QString& carrier, const QString& problem)
{
    const QList<QByteArray> lines = out.split('\n');
    QByteArray last;
    for (const QByteArray& l : lines)
        if (l.startsWith("kf-key: "))
            last = l.mid(8).trimmed();
    InstallReport r;
    r.carrier = carrier;
    if (exitCode == 0 && last == "added") {
        r.added = true;
        r.message = QStringLiteral("added the key to ~/.ssh/authorized_keys on %1 (through %2)").arg(where, carrier);
        return r;
    }
    if (exitCode == 0 && last == "present") {
        r.message = QStringLiteral("the key is already in ~/.ssh/authorized_keys on %1; nothing changed").arg(where);
        return r;
    }
    if (last.startsWith("refused: "))
        return Result<InstallReport>::failure(
            QStringLiteral("%1 refused: %2").arg(where, QString::fromUtf8(last.mid(9))), ErrorKind::Permanent);
    QString why = problem;
    if (why.isEmpty())
        why = QString::fromUtf8(err.trimmed().right(600));
    if (why.isEmpty())
        why = QStringLiteral("exit status %1").arg(exitCode);
    return Result<InstallReport>::failure(
        QStringLiteral("could not add the key on %1 (through %2): %3").arg(where, carrier, why));
}

} // namespace

QString defaultKeyPath()
{
    return QDir::homePath() + QStringLiteral("/.ssh/kernelforge_ed25519");
}

Result<QByteArray> checkPublicKeyLine(const QByteArray& lineIn)
{
    const QByteArray line = lineIn.trimmed();
    static const QRegularExpression shape(QStringLiteral(
        "^(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(256|384|521)|sk-ssh-ed25519@openssh.com|sk-ecdsa-sha2-nistp256@"
        "openssh.com) [A-Za-z0-9+/]+=* ?[\\x20-\\x7e]*$"));
    if (line.isEmpty() || line.contains('\n') || !shape.match(QString::fromLatin1(line)).hasMatch())
        return Result<QByteArray>::failure(QStringLiteral(
            "not an OpenSSH public key line (\"ssh-ed25519 AAAA... comment\", one line of printable ASCII)"));
    return line;
}

Result<LocalKey> ensureKey(const QString& privateKeyPath)
{
    LocalKey key;
    key.privateKeyPath = QDir::cleanPath(privateKeyPath);
    const QString pubPath = key.privateKeyPath + QStringLiteral(".pub");
    const QString keygen = findTool(QStringLiteral("ssh-keygen"));
    auto runKeygen = [&](const QStringList& args, QByteArray* out) -> Result<void> {
        if (keygen.isEmpty())
            return Result<void>::failure(QStringLiteral("ssh-keygen not found; install the OpenSSH client"));
        QProcess p;
        p.setStandardInputFile(QProcess::nullDevice()); // never waits for a passphrase
        p.start(keygen, args);
        if (!p.waitForFinished(60000)) {
            p.kill();
            p.waitForFinished(3000);
            return Result<void>::failure(QStringLiteral("ssh-keygen did not finish"));
        }
        if (out)
            *out = p.readAllStandardOutput();
        if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
            return Result<void>::failure(QStringLiteral("ssh-keygen failed: %1")
                                             .arg(QString::fromLocal8Bit(p.readAllStandardError()).trimmed()));
        return {};
    };
    if (!QFileInfo::exists(key.privateKeyPath)) {
        const QString folder = QFileInfo(key.privateKeyPath).absolutePath();
        if (!QDir().mkpath(folder))
            return Result<LocalKey>::failure(QStringLiteral("cannot create %1").arg(folder));
        if (folder == QDir::homePath() + QStringLiteral("/.ssh"))
            QFile::setPermissions(folder, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        const QString comment = QStringLiteral("kernelforge@") + QSysInfo::machineHostName();
        if (const Result<void> made
            = runKeygen({ QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"), QStringLiteral("-N"),
                            QString(), QStringLiteral("-C"), comment, QStringLiteral("-f"), key.privateKeyPath },
                nullptr);
            !made)
            return Result<LocalKey>::failure(made.error());
        key.created = true;
        log::ssh()->info("made the key {}", key.privateKeyPath.toStdString());
    }
    QByteArray pub;
    QFile pubFile(pubPath);
    if (pubFile.open(QIODevice::ReadOnly)) {
        pub = pubFile.read(16 * 1024);
    } else if (const Result<void> derived
               = runKeygen({ QStringLiteral("-y"), QStringLiteral("-f"), key.privateKeyPath }, &pub);
               !derived) {
        return Result<LocalKey>::failure(
            QStringLiteral("cannot read the public half of %1: %2").arg(key.privateKeyPath, derived.error()));
    }
    const Result<QByteArray> line = checkPublicKeyLine(pub);
    if (!line)
        return Result<LocalKey>::failure(QStringLiteral("%1: %2").arg(pubPath, line.error()));
    key.publicKeyLine = line.value();
    return key;
}

Result<InstallReport> installKey(Transport& transport, const QByteArray& publicKeyLine)
{
    const Result<QByteArray> line = checkPublicKeyLine(publicKeyLine);
    if (!line)
        return Result<InstallReport>::failure(line.error());
    CommandSpec spec;
    spec.command = QString::fromLatin1(kScript);
    spec.arguments = { QString::fromLatin1(line.value()) };
    spec.maxOutputBytes = kMaxOutput;
    const ExecResult r = transport.exec(spec, 120000);
    QString problem = r.error;
    if (problem.isEmpty() && !r.signal.isEmpty())
        problem = QStringLiteral("killed by signal %1").arg(r.signal);
    return verdict(r.stdOut, r.stdErr, r.exitCode, transport.describe(), QStringLiteral("libssh2"), problem);
}

Result<QStringList> systemSshArguments(const HostProfile& p, const SystemSshOptions& o)
{
    QStringList args { QStringLiteral("-T"), QStringLiteral("-p"), QString::number(p.port), QStringLiteral("-o"),
        QStringLiteral("ConnectTimeout=20") };
    if (o.batchMode)
        args << QStringLiteral("-o") << QStringLiteral("BatchMode=yes");
    if (o.acceptNewHostKey)
        args << QStringLiteral("-o") << QStringLiteral("StrictHostKeyChecking=accept-new");
    for (const QString& id : p.identityFiles)
        args << QStringLiteral("-i") << id;
    if (!p.identityFiles.isEmpty())
        args << QStringLiteral("-o") << QStringLiteral("IdentitiesOnly=yes");
    if (!p.proxyJump.isEmpty()) {
        if (const auto jump = checkProxyJump(p.proxyJump); !jump)
            return Result<QStringList>::failure(jump.error());
        args << QStringLiteral("-J") << p.proxyJump.trimmed();
    }
    if (!p.knownHostsFile.isEmpty()) {
        const auto option = userKnownHostsOption(p.knownHostsFile);
        if (!option)
            return Result<QStringList>::failure(option.error());
        args << QStringLiteral("-o") << option.value();
    }
    if (!p.user.isEmpty())
        args << QStringLiteral("-l") << p.user;
    // "--" ends ssh's options: a host name cannot be read as one.
    args << QStringLiteral("--") << p.host;
    return args;
}

Result<InstallReport> installKeyWithSystemSsh(
    const HostProfile& profile, const QByteArray& publicKeyLine, const SystemSshOptions& options)
{
    const Result<QByteArray> line = checkPublicKeyLine(publicKeyLine);
    if (!line)
        return Result<InstallReport>::failure(line.error());
    const QString program = options.program.contains(QLatin1Char('/')) ? options.program : findTool(options.program);
    if (program.isEmpty())
        return Result<InstallReport>::failure(
            QStringLiteral("%1 not found; install the OpenSSH client").arg(options.program));
    auto arguments = systemSshArguments(profile, options);
    if (!arguments)
        return Result<InstallReport>::failure(arguments.error());
    QStringList args = arguments.value();
    args << QString::fromLatin1(loginshell::line(QString::fromLatin1(kScript), { line.value() }));
    QProcess p;
    p.setStandardInputFile(QProcess::nullDevice());
    p.start(program, args);
    if (!p.waitForStarted(10000))
        return Result<InstallReport>::failure(QStringLiteral("cannot run %1: %2").arg(program, p.errorString()));
    QByteArray out;
    QByteArray err;
    QString problem;
    QElapsedTimer clock;
    clock.start();
    while (p.state() != QProcess::NotRunning) {
        p.waitForFinished(100);
        out += p.readAllStandardOutput();
        err += p.readAllStandardError();
        if (out.size() + err.size() > kMaxOutput)
            problem = QStringLiteral("more than 1 MiB of output: stopped");
        else if (clock.elapsed() > options.timeoutMs)
            problem = QStringLiteral("no answer within %1 s").arg(options.timeoutMs / 1000);
        if (!problem.isEmpty()) {
            p.kill();
            p.waitForFinished(3000);
            break;
        }
    }
    out += p.readAllStandardOutput();
    err += p.readAllStandardError();
    const int exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    // ssh's own failures (exit 255) say why on stderr: "Permission denied (publickey)", "Host key
    // verification failed."
    return verdict(out, err, exitCode, profile.destination(), QStringLiteral("system ssh"), problem);
}

} // namespace kf::keyinstall
