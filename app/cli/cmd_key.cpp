// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// kernelforge-cli key install: key login for a server that takes a password, or an RSA key
// libssh2 1.10 cannot use (core/hosts/keyinstall.h), like ssh-copy-id.
#include "app/cli/cli.h"
#include "app/cli/flagtable.h"
#include "app/cli/sshoptions.h"

#include "core/hosts/keyinstall.h"

#include <fcntl.h>
#include <unistd.h>

namespace {

using namespace kf;

void usage(QTextStream& s)
{
    s << "Usage: kernelforge-cli key install [-p PORT] [-i KEY] [-J JUMP] [--known-hosts FILE] [--accept-new]\n"
      << "                                   [USER@]HOST [--key FILE] [--via-system-ssh]\n"
      << "\n"
      << "Sets up key login on a server, like ssh-copy-id: makes an ed25519 key of KernelForge's own\n"
      << "(no passphrase) unless FILE exists, logs in, and appends FILE.pub to ~/.ssh/authorized_keys\n"
      << "there: ~/.ssh made 0700 and the file 0600 when missing, the key added once, the file replaced\n"
      << "in one rename (never truncated). A home folder or ~/.ssh that sshd's StrictModes would\n"
      << "reject (writable by group or others) is refused with the reason.\n"
      << "\n"
      << "  --key FILE        the key to install (default ~/.ssh/kernelforge_ed25519)\n"
      << "  --via-system-ssh  log in with the system's OpenSSH client (ssh) instead: for RSA keys, which\n"
      << "                    libssh2 1.10 cannot sign for OpenSSH >= 8.8; ssh asks for passphrases and\n"
      << "                    host keys on the terminal itself\n"
      << "  -p PORT, -i KEY, -J JUMP, --known-hosts FILE, --accept-new   as for 'exec'\n"
      << "\n"
      << "The password (or a key's passphrase) is asked on the terminal; it is never an argument.\n"
      << "Exit status: 0 when the key is installed or was already there; 1 when the server refused\n"
      << "or the install failed; 2 on bad usage; 255 when the connection, host key or login failed.\n";
}

int runInstall(const QStringList& argv)
{
    const QString me = QStringLiteral("kernelforge-cli key install");
    QStringList args = argv;
    QString keyFile = keyinstall::defaultKeyPath();
    bool viaSystemSsh = false;
    cli::FlagTable flags;
    flags.add("--key", &keyFile).add("--via-system-ssh", &viaSystemSsh);
    if (const auto taken = flags.take(args); !taken)
        return cli::usageError(me, taken.error(), usage);
    const auto ssh = cli::takeSshOptions(args);
    if (!ssh)
        return cli::usageError(me, ssh.error(), usage);
    if (ssh->hasRemotePath)
        return cli::usageError(me, QStringLiteral("the destination takes no :PATH"), usage);
    if (!args.isEmpty())
        return cli::usageError(me, QStringLiteral("unexpected argument ") + args.first(), usage);
    if (keyFile.isEmpty())
        return cli::usageError(me, QStringLiteral("--key needs a file"), usage);

    const Result<keyinstall::LocalKey> key = keyinstall::ensureKey(keyFile);
    if (!key) {
        cli::err() << me << ": " << key.error() << '\n';
        return 1;
    }
    cli::out() << (key->created ? "made the key " : "using the key ") << key->privateKeyPath << '\n' << Qt::flush;

    Result<keyinstall::InstallReport> report = Result<keyinstall::InstallReport>::failure(QString());
    const HostProfile profile = ssh->profile();
    if (viaSystemSsh) {
        keyinstall::SystemSshOptions o;
        // With a terminal, ssh asks for a passphrase or an unknown host key itself.
        const int tty = ::open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
        o.batchMode = tty < 0;
        if (tty >= 0)
            ::close(tty);
        o.acceptNewHostKey = ssh->acceptNew;
        report = keyinstall::installKeyWithSystemSsh(profile, key->publicKeyLine, o);
    } else {
        const auto transport = cli::connectForCli(*ssh);
        if (!transport) {
            QString why = transport.error();
            if (why.contains(QLatin1String("RSA keys need libssh2")))
                why += QStringLiteral("; add --via-system-ssh to install the key with the system's ssh, which can");
            return cli::connectionError(me, why);
        }
        report = keyinstall::installKey(*transport.value(), key->publicKeyLine);
    }
    if (!report) {
        cli::err() << me << ": " << report.error() << '\n';
        return 1;
    }
    QString login = key->privateKeyPath;
    if (profile.port != 22)
        login += QStringLiteral(" -p ") + QString::number(profile.port);
    login
        += QLatin1Char(' ') + (profile.user.isEmpty() ? profile.host : profile.user + QLatin1Char('@') + profile.host);
    cli::out() << report->message << '\n'
               << "log in with it: kernelforge-cli exec -i " << login << " -- true  (in the app: Identity files)\n";
    return 0;
}

int runKey(const QStringList& argv)
{
    QStringList args = argv;
    if (args.isEmpty() || args.first() == QLatin1String("--help") || args.first() == QLatin1String("-h")) {
        usage(args.isEmpty() ? cli::err() : cli::out());
        return args.isEmpty() ? cli::kExitUsage : 0;
    }
    const QString sub = args.takeFirst();
    if (sub != QLatin1String("install"))
        return cli::usageError(
            QStringLiteral("kernelforge-cli key"), QStringLiteral("unknown subcommand '%1'").arg(sub), usage);
    if (args.contains(QStringLiteral("--help")) || args.contains(QStringLiteral("-h"))) {
        usage(cli::out());
        return 0;
    }
    return runInstall(args);
}

const cli::Registration reg { "key", "Set up key login on a server (like ssh-copy-id; RSA keys via the system ssh)",
    &runKey };

} // namespace
