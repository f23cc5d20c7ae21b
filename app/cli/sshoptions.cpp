// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "app/cli/sshoptions.h"

#include "app/cli/cli.h"
#include "core/util/pathcheck.h"

#include "core/hosts/userinteraction.h"
#include "core/log/redact.h"
#include "core/ssh/sshsession.h"
#include "core/ssh/sshtransport.h"
#include "core/timeline/producers.h"
#include "core/transport/localtransport.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QRegularExpression>
#include <QTimer>

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

// Follows one connection's state in the main thread (queued from the session thread) and
// keeps the CLI's word: a drop is reported, a reconnect too, and a connection that cannot
// come back ends the command with 255 instead of retrying forever.
class ConnectionWatch
{
public:
    ConnectionWatch(const std::shared_ptr<SshSession>& session, bool reconnect, int timeoutS)
        : m_session(session)
        , m_reconnect(reconnect)
        , m_timeoutS(timeoutS)
    {
        m_deadline.setSingleShot(true);
        QObject::connect(&m_deadline, &QTimer::timeout, &m_context, [this] {
            giveUp(QStringLiteral("%1 unreachable for %2 s (last error: %3); giving up (--timeout %4)")
                       .arg(describe())
                       .arg(m_lostFor.elapsed() / 1000)
                       .arg(m_lastReason)
                       .arg(m_timeoutS));
        });
        QObject::connect(
            session.get(), &SshSession::stateChanged, &m_context,
            [this](ConnectionState state, const QString& reason) { onState(state, reason); }, Qt::QueuedConnection);
    }

    bool down() const
    {
        const auto s = m_session.lock();
        return m_givenUp || !s || s->state() != ConnectionState::Ready;
    }

    static inline bool givenUp = false;

private:
    QString describe() const
    {
        const auto s = m_session.lock();
        return s ? s->describe() : QStringLiteral("the server");
    }

    void onState(ConnectionState state, const QString& reason)
    {
        if (m_givenUp || m_session.expired())
            return;
        timeline::recordConnection(describe(), m_state, state, reason);
        m_state = state;
        switch (state) {
        case ConnectionState::Reconnecting:
            m_lastReason = reason;
            if (!m_lost) {
                m_lost = true;
                m_lostFor.start();
                m_deadline.start(m_timeoutS * 1000);
                cli::err() << "kernelforge-cli: " << reason << "; reconnecting (giving up after " << m_timeoutS
                           << " s)\n"
                           << Qt::flush;
            }
            break;
        case ConnectionState::Ready:
            if (m_lost) {
                m_lost = false;
                m_deadline.stop();
                cli::err() << "kernelforge-cli: reconnected to " << describe() << " after "
                           << QString::number(double(m_lostFor.elapsed()) / 1000.0, 'f', 1) << " s\n"
                           << Qt::flush;
            }
            break;
        case ConnectionState::Failed:
        case ConnectionState::Disconnected:
            if (!m_reconnect && !m_lost)
                giveUp(reason + QStringLiteral("; not reconnecting (--no-reconnect)"));
            else
                giveUp(QStringLiteral("could not reconnect to %1: %2").arg(describe(), reason));
            break;
        default: break;
        }
    }

    void giveUp(const QString& line)
    {
        m_givenUp = true;
        givenUp = true;
        m_deadline.stop();
        cli::out().flush();
        std::fflush(stdout);
        cli::err() << "kernelforge-cli: " << line << '\n' << Qt::flush;
        // Every event loop of the main thread (QCoreApplication::exec and nested QEventLoops).
        QCoreApplication::exit(cli::kExitConnection);
    }

    std::weak_ptr<SshSession> m_session;
    bool m_reconnect;
    int m_timeoutS;
    QObject m_context;
    QTimer m_deadline;
    QElapsedTimer m_lostFor;
    QString m_lastReason;
    ConnectionState m_state = ConnectionState::Ready; // connectForCli hands over a Ready session
    bool m_lost = false;
    bool m_givenUp = false;
};

// The watches of this process's connections (the CLI makes one or two), for its lifetime.
std::vector<std::unique_ptr<ConnectionWatch>>& watches()
{
    // Never destroyed: a watch may hold a running timer when the process ends.
    static auto* all = new std::vector<std::unique_ptr<ConnectionWatch>>;
    return *all;
}
bool g_reconnect = true;

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
        } else if (a == QLatin1String("--no-reconnect")) {
            out->reconnect = false;
            args.removeAt(i);
        } else if (a == QLatin1String("--timeout") || a.startsWith(QLatin1String("--timeout="))) {
            QString v;
            if (!takeValue(args, i, QStringLiteral("--timeout"), &v, err))
                return false;
            bool ok = false;
            out->timeoutS = v.toInt(&ok);
            if (!ok || out->timeoutS <= 0) {
                *err = QStringLiteral("--timeout needs a number of seconds > 0: %1").arg(v);
                return false;
            }
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
    co.reconnect = options.reconnect;
    auto t = SshTransport::connect(options.profile(), co);
    if (!t)
        return kf::Result<std::shared_ptr<kf::Transport>>::failure(t.error());
    g_reconnect = options.reconnect;
    watches().push_back(std::make_unique<ConnectionWatch>(t.value()->session(), options.reconnect, options.timeoutS));
    return std::shared_ptr<kf::Transport>(t.value());
}

bool connectionGivenUp()
{
    return ConnectionWatch::givenUp;
}

bool connectionDown()
{
    return std::any_of(watches().cbegin(), watches().cend(), [](const auto& w) { return w->down(); });
}

bool reconnectEnabled()
{
    return g_reconnect;
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
