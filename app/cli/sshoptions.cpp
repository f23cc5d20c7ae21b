// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "app/cli/sshoptions.h"

#include "app/cli/cli.h"
#include "app/cli/flagtable.h"

#include "core/hosts/destination.h"
#include "core/hosts/hostevents.h"
#include "core/hosts/hostprofilestore.h"
#include "core/hosts/userinteraction.h"
#include "core/log/logging.h"
#include "core/ssh/sshsession.h"
#include "core/ssh/sshtransport.h"
#include "core/transport/localtransport.h"
#include "core/transport/transportpool.h"
#include "core/util/secretregistry.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QThreadPool>
#include <QTimer>

#include <cerrno>
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
        // Echo goes off (discarding what was typed before the question) before the prompt is
        // shown, as OpenSSH's readpassphrase does: whatever is typed once the prompt is visible
        // is kept. Flushing after the prompt lost a password typed quickly (a race seen in CI).
        termios old {};
        const bool isTerm = ::tcgetattr(fd, &old) == 0;
        if (isTerm && !request.echo) {
            termios quiet = old;
            quiet.c_lflag &= ~tcflag_t(ECHO);
            ::tcsetattr(fd, TCSAFLUSH, &quiet);
        }
        const QByteArray p = prompt.toUtf8();
        (void)::write(fd, p.constData(), size_t(p.size()));
        QByteArray secret;
        char c = 0;
        for (;;) {
            const ssize_t n = ::read(fd, &c, 1);
            if (n < 0 && errno == EINTR)
                continue;
            if (n != 1 || c == '\n')
                break;
            secret += c;
        }
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

    // The command is over: end the connection on purpose, which is no loss to report.
    void close()
    {
        m_closing = true;
        m_deadline.stop();
        if (const auto s = m_session.lock())
            s->disconnectFromHost();
    }

    // Whether the session is gone (the last reference to it dropped, its thread joined).
    bool released() const { return m_session.expired(); }

    static inline bool givenUp = false;

    QString describe() const
    {
        const auto s = m_session.lock();
        return s ? s->describe() : QStringLiteral("the server");
    }

private:
    void onState(ConnectionState state, const QString& reason)
    {
        if (m_givenUp || m_closing || m_session.expired())
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
    bool m_closing = false;
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
    HostProfile p = resolved.profile;
    if (!knownHostsFile.isEmpty())
        p.knownHostsFile = knownHostsFile;
    return p;
}

namespace {

Result<void> takeSshFlags(QStringList& args, SshCliOptions& out)
{
    bool noReconnect = false;
    FlagTable flags;
    flags
        .add("-p",
            [&out](const QString& v) -> Result<void> {
                const auto port = parsePort(v);
                if (!port)
                    return Result<void>::failure(QStringLiteral("invalid port: %1").arg(v));
                out.port = *port;
                return {};
            })
        .add("-i", &out.identityFiles)
        .add("-J", &out.jump)
        .add("-F", &out.configFile)
        .add("--known-hosts", &out.knownHostsFile)
        .add("--accept-new", &out.acceptNew)
        .add("--no-reconnect", &noReconnect)
        .add("--timeout", &out.timeoutS, 1, "a number of seconds > 0");
    if (const Result<void> taken = flags.take(args); !taken)
        return taken;
    out.reconnect = !noReconnect;
    return {};
}

// The destination as ssh resolves it, then the saved hosts (a broken hosts.yaml only means
// no saved host matches: it is not this command's file).
Result<void> resolve(SshCliOptions& out)
{
    SshConfigSources sources;
    if (!out.configFile.isEmpty()) {
        sources.userConfig = out.configFile;
        sources.explicitFile = true;
    }
    const auto files = loadSshConfigs(sources);
    if (!files)
        return Result<void>::failure(QStringLiteral("ssh configuration: ") + files.error());
    const auto saved = HostProfileStore().load();
    TypedDestination typed;
    typed.host = out.host;
    typed.given.user = out.user;
    typed.given.port = out.port;
    typed.given.proxyJump = out.jump;
    for (const QString& k : std::as_const(out.identityFiles))
        typed.given.identityFiles << (k.startsWith(QLatin1String("~/")) ? QDir::homePath() + k.mid(1) : k);
    const auto resolved = resolveDestination(typed, saved ? saved->profiles : QList<HostProfile>(), files.value());
    if (!resolved)
        return Result<void>::failure(resolved.error());
    out.resolved = resolved.value();
    for (const SshConfigNote& n : std::as_const(out.resolved.notes))
        cli::err() << "kernelforge-cli: " << n.toString() << '\n';
    return {};
}

Result<void> setDestination(SshCliOptions& out, const QString& text)
{
    const auto d = parseDestination(text, DestinationForm::Path);
    if (!d)
        return Result<void>::failure(d.error());
    out.user = d->user;
    out.host = d->host;
    out.hasRemotePath = d->path.has_value();
    out.remotePath = d->path.value_or(QString());
    return resolve(out);
}

} // namespace

Result<SshCliOptions> takeSshOptions(QStringList& args)
{
    SshCliOptions out;
    if (const Result<void> taken = takeSshFlags(args, out); !taken)
        return taken;
    qsizetype end = args.indexOf(QStringLiteral("--"));
    if (end < 0)
        end = args.size();
    qsizetype dest = -1;
    for (qsizetype j = 0; j < end && dest < 0; ++j)
        if (!args.at(j).startsWith(QLatin1Char('-')) && looksRemote(args.at(j)))
            dest = j;
    for (qsizetype j = 0; j < end && dest < 0; ++j)
        if (!args.at(j).startsWith(QLatin1Char('-')))
            dest = j;
    if (dest < 0)
        return Result<SshCliOptions>::failure(QStringLiteral("missing destination [user@]host"));
    if (const Result<void> set = setDestination(out, args.takeAt(dest)); !set)
        return set;
    return out;
}

Result<SshCliOptions> takeSshOptions(QStringList& args, const QString& destination)
{
    SshCliOptions out;
    if (const Result<void> taken = takeSshFlags(args, out); !taken)
        return taken;
    if (const Result<void> set = setDestination(out, destination); !set)
        return set;
    return out;
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

void closeConnections()
{
    for (const auto& w : watches())
        w->close();
    // A process handle released with deleteLater() inside a command's event loop that has
    // returned since (a log stream that ended in the same event that ended `build attach`)
    // still holds its session: delete such objects now, or the session thread would still be
    // running while the process exits, racing OpenSSL's atexit cleanup.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    // Calls still running on worker threads (a memory poll that outlived `build attach`, say)
    // return at once now that their connection is not Ready; their tasks then drop the last
    // references to the sessions, whose threads are joined here, while Qt still delivers events.
    transportPool()->waitForDone();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    for (const auto& w : watches())
        if (!w->released())
            log::ssh()->warn("{}: the connection is still in use as the command ends", w->describe().toStdString());
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

Result<TargetOptions> takeTargetOptions(QStringList& args)
{
    TargetOptions out;
    out.local = args.removeAll(QStringLiteral("--local")) > 0;
    // --help needs no destination: the command prints its usage.
    if (out.local || args.contains(QStringLiteral("--help")) || args.contains(QStringLiteral("-h")))
        return out;
    auto ssh = takeSshOptions(args);
    if (!ssh)
        return ssh.withoutValue();
    if (ssh->hasRemotePath)
        return Result<TargetOptions>::failure(
            QStringLiteral("a destination takes no :PATH (a port goes in -p PORT): %1").arg(ssh->remotePath));
    out.ssh = ssh.value();
    return out;
}

kf::Result<Target> openTarget(const TargetOptions& options)
{
    if (options.local) {
        auto local = std::make_shared<LocalTransport>();
        return Target { local, QStringLiteral("local"), local->describe() };
    }
    auto connected = connectForCli(options.ssh);
    if (!connected)
        return kf::Result<Target>::failure(connected.error());
    return Target { connected.value(), options.ssh.host, connected.value()->describe() };
}

} // namespace kf::cli
