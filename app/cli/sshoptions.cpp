// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "app/cli/sshoptions.h"

#include "core/util/pathcheck.h"

#include "core/hosts/interaction.h"
#include "core/log/redact.h"
#include "core/transport/localtransport.h"
#include "core/transport/sshtransport.h"

#include <QDir>
#include <QRegularExpression>

#include <cstdio>
#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

namespace kf::cli {
namespace {

// The terminal, if there is one: secrets are read from /dev/tty with echo off, as ssh
// does. Host keys are never asked (StrictHostKeyChecking=yes; --accept-new for TOFU).
class TtyInteraction final : public UserInteraction
{
public:
    HostKeyDecision askHostKey(const HostKeyInfo&) override { return HostKeyDecision::Reject; }
    std::optional<SecretAnswer> askSecret(const SecretRequest& request) override
    {
        const int fd = ::open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
        if (fd < 0)
            return std::nullopt;
        QString prompt = request.prompt.isEmpty() ? QStringLiteral("Password: ") : request.prompt;
        if (!prompt.endsWith(QLatin1Char(' ')))
            prompt += request.prompt.endsWith(QLatin1Char(':')) ? QStringLiteral(" ") : QStringLiteral(": ");
        const QByteArray p = prompt.toUtf8();
        (void)::write(fd, p.constData(), size_t(p.size()));
        termios old {};
        const bool isTerm = ::tcgetattr(fd, &old) == 0;
        if (isTerm && !request.echo) {
            termios quiet = old;
            quiet.c_lflag &= ~tcflag_t(ECHO);
            ::tcsetattr(fd, TCSAFLUSH, &quiet);
        }
        QByteArray secret;
        char c = 0;
        while (::read(fd, &c, 1) == 1 && c != '\n')
            secret += c;
        if (isTerm && !request.echo) {
            ::tcsetattr(fd, TCSAFLUSH, &old);
            (void)::write(fd, "\n", 1);
        }
        ::close(fd);
        SecretAnswer a;
        a.secret = secret;
        kf::wipe(secret);
        return a;
    }
};

bool takeValue(QStringList& args, qsizetype& i, const QString& name, QString* value, QString* error)
{
    const QString a = args.at(i);
    if (a.startsWith(name + QLatin1Char('=')) && name.startsWith(QLatin1String("--"))) {
        *value = a.mid(name.size() + 1);
        args.removeAt(i);
        return true;
    }
    if (i + 1 >= args.size()) {
        *error = QStringLiteral("option %1 needs a value").arg(name);
        return false;
    }
    *value = args.at(i + 1);
    args.removeAt(i);
    args.removeAt(i);
    return true;
}

bool looksRemote(const QString& arg)
{
    const qsizetype slash = arg.indexOf(QLatin1Char('/'));
    const qsizetype colon = arg.indexOf(QLatin1Char(':'));
    const qsizetype at = arg.indexOf(QLatin1Char('@'));
    auto before = [slash](qsizetype pos) { return pos > 0 && (slash < 0 || pos < slash); };
    return before(colon) || before(at);
}

} // namespace

HostProfile SshCliOptions::profile() const
{
    HostProfile p;
    p.name = host;
    p.host = host;
    p.port = port;
    p.user = user;
    for (const QString& k : identityFiles)
        p.identityFiles << (k.startsWith(QLatin1String("~/")) ? QDir::homePath() + k.mid(1) : k);
    p.proxyJump = jump;
    p.knownHostsFile = knownHostsFile;
    return p;
}

bool takeSshOptions(QStringList& args, SshCliOptions* out, QString* error)
{
    QString dummy;
    QString* err = error ? error : &dummy;
    qsizetype end = args.indexOf(QStringLiteral("--"));
    if (end < 0)
        end = args.size();
    qsizetype i = 0;
    QString portText;
    while (i < end) {
        const QString a = args.at(i);
        const qsizetype before = args.size();
        if (a == QLatin1String("-p")) {
            if (!takeValue(args, i, a, &portText, err))
                return false;
        } else if (a == QLatin1String("-i")) {
            QString v;
            if (!takeValue(args, i, a, &v, err))
                return false;
            out->identityFiles << v;
        } else if (a == QLatin1String("-J")) {
            if (!takeValue(args, i, a, &out->jump, err))
                return false;
        } else if (a == QLatin1String("--known-hosts") || a.startsWith(QLatin1String("--known-hosts="))) {
            if (!takeValue(args, i, QStringLiteral("--known-hosts"), &out->knownHostsFile, err))
                return false;
        } else if (a == QLatin1String("--accept-new")) {
            out->acceptNew = true;
            args.removeAt(i);
        } else {
            ++i;
            continue;
        }
        end -= before - args.size();
    }
    if (!portText.isEmpty()) {
        bool ok = false;
        const uint port = portText.toUInt(&ok);
        if (!ok || port == 0 || port > 65535) {
            *err = QStringLiteral("invalid port: %1").arg(portText);
            return false;
        }
        out->port = quint16(port);
    }
    // The destination.
    qsizetype dest = -1;
    for (qsizetype j = 0; j < end; ++j) {
        if (!args.at(j).startsWith(QLatin1Char('-')) && looksRemote(args.at(j))) {
            dest = j;
            break;
        }
    }
    if (dest < 0)
        for (qsizetype j = 0; j < end && dest < 0; ++j)
            if (!args.at(j).startsWith(QLatin1Char('-')))
                dest = j;
    if (dest < 0) {
        *err = QStringLiteral("missing destination [user@]host");
        return false;
    }
    QString d = args.takeAt(dest);
    const qsizetype at = d.indexOf(QLatin1Char('@'));
    const qsizetype slash = d.indexOf(QLatin1Char('/'));
    if (at > 0 && (slash < 0 || at < slash)) {
        out->user = d.left(at);
        d = d.mid(at + 1);
    }
    QString host = d;
    if (d.startsWith(QLatin1Char('['))) { // [v6::addr]:path
        const qsizetype close = d.indexOf(QLatin1Char(']'));
        if (close < 0) {
            *err = QStringLiteral("bad destination: %1").arg(d);
            return false;
        }
        host = d.mid(1, close - 1);
        if (d.size() > close + 1 && d.at(close + 1) == QLatin1Char(':')) {
            out->remotePath = d.mid(close + 2);
            out->hasRemotePath = true;
        }
    } else if (const qsizetype colon = d.indexOf(QLatin1Char(':')); colon >= 0) {
        host = d.left(colon);
        out->remotePath = d.mid(colon + 1);
        out->hasRemotePath = true;
    }
    if (host.isEmpty()) {
        *err = QStringLiteral("missing host name");
        return false;
    }
    // A newline in a remote path would end a shell word on the server (mv, rm); refuse
    // control characters in every part of the destination.
    for (const QString& part : { out->remotePath, host, out->user }) {
        if (const QString c = firstControlCharacter(part); !c.isEmpty()) {
            *err = QStringLiteral("refusing a destination with the control character %1 in it").arg(c);
            return false;
        }
    }
    out->host = host;
    return true;
}

kf::Result<std::shared_ptr<kf::Transport>> connectForCli(const SshCliOptions& options)
{
    static TtyInteraction tty;
    SshConnectOptions co;
    co.acceptNewHostKey = options.acceptNew;
    co.interaction = &tty;
    co.promptForHostKeys = false;
    co.reconnect = false; // a dropped link fails the command instead of waiting
    auto t = SshTransport::connect(options.profile(), co);
    if (!t)
        return kf::Result<std::shared_ptr<kf::Transport>>::failure(t.error());
    return std::shared_ptr<kf::Transport>(t.value());
}

bool takeTargetOptions(QStringList& args, TargetOptions* out, QString* error)
{
    out->local = args.removeAll(QStringLiteral("--local")) > 0;
    if (out->local || args.contains(QStringLiteral("--help")) || args.contains(QStringLiteral("-h")))
        return true;
    return takeSshOptions(args, &out->ssh, error);
}

kf::Result<Target> openTarget(const TargetOptions& options)
{
    if (options.local)
        return Target { std::make_shared<LocalTransport>(), QStringLiteral("local") };
    auto connected = connectForCli(options.ssh);
    if (!connected)
        return kf::Result<Target>::failure(connected.error());
    return Target { connected.value(), options.ssh.host };
}

} // namespace kf::cli
