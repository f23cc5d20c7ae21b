// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/authenticator.h"

#include "core/hosts/secretstore.h"
#include "core/log/logging.h"
#include "core/ssh/knownhosts.h"
#include "core/ssh/libssh2error.h"
#include "core/ssh/secretsource.h"
#include "core/ssh/sessionsocket.h"
#include "core/ssh/sshkeyfile.h"
#include "core/util/secretregistry.h"

#include <QDir>
#include <QFile>

#include <cstdlib>
#include <cstring>
#include <pwd.h>
#include <unistd.h>

namespace kf::ssh {
namespace {

QString expandHome(const QString& path)
{
    if (path == QLatin1String("~"))
        return QDir::homePath();
    if (path.startsWith(QLatin1String("~/")))
        return QDir::homePath() + path.mid(1);
    return path;
}

using Verdict = SecretSource::Verdict;

} // namespace

QString loginUserName(const HostProfile& profile)
{
    if (!profile.user.isEmpty())
        return profile.user;
    const passwd* pw = ::getpwuid(::geteuid());
    return pw ? QString::fromLocal8Bit(pw->pw_name) : qEnvironmentVariable("USER");
}

QStringList identityFilesToTry(const HostProfile& p)
{
    QStringList keys;
    for (const QString& k : p.identityFiles)
        keys << expandHome(k);
    if (keys.isEmpty()) {
        for (const char* def : { "id_ed25519", "id_ecdsa", "id_rsa" }) {
            const QString path = QDir::homePath() + QStringLiteral("/.ssh/") + QLatin1String(def);
            if (QFile::exists(path))
                keys << path;
        }
    }
    return keys;
}

Authenticator::Authenticator(LIBSSH2_SESSION* session, SessionSocket& socket, const HostProfile& profile,
    SecretSource& secrets, QString destination, PromptCallback promptCallback)
    : m_s(session)
    , m_socket(socket)
    , m_profile(profile)
    , m_secrets(secrets)
    , m_destination(std::move(destination))
    , m_promptCallback(promptCallback)
    , m_user(loginUserName(profile).toUtf8())
{ }

QString Authenticator::lastError() const
{
    return libssh2LastError(m_s);
}

int Authenticator::call(const std::function<int()>& libssh2Call)
{
    const Result<int> rc = m_socket.drive(m_s, libssh2Call);
    if (rc)
        return rc.value();
    if (m_lost.isEmpty())
        m_lost = rc.error();
    return LIBSSH2_ERROR_TIMEOUT;
}

bool Authenticator::lost(int rc)
{
    if (!isLinkLost(rc))
        return false;
    if (m_lost.isEmpty())
        m_lost = QStringLiteral("connection to %1 lost: %2").arg(m_destination, lastError());
    return true;
}

Result<void> Authenticator::run()
{
    char* list = nullptr;
    bool authenticated = false; // the server took "none"
    const Result<int> listed = m_socket.drive(m_s, [&] {
        list = libssh2_userauth_list(m_s, m_user.constData(), unsigned(m_user.size()));
        if (list)
            return 0;
        authenticated = libssh2_userauth_authenticated(m_s) != 0;
        return authenticated ? 0 : libssh2_session_last_errno(m_s);
    });
    if (!listed)
        return Result<void>::failure(listed.error());
    if (authenticated)
        return {};
    if (!list)
        return Result<void>::failure(
            QStringLiteral("%1 did not list authentication methods: %2").arg(m_destination, lastError()));
    const QString methods = QString::fromLatin1(list);
    const QStringList offered = methods.split(QLatin1Char(','), Qt::SkipEmptyParts);

    // OpenSSH's order. Each method tries what it has and says whether the server took it.
    const std::pair<QLatin1String, Outcome (Authenticator::*)()> order[] = {
        { QLatin1String("publickey"), &Authenticator::agent },
        { QLatin1String("publickey"), &Authenticator::identityFiles },
        { QLatin1String("keyboard-interactive"), &Authenticator::keyboardInteractive },
        { QLatin1String("password"), &Authenticator::password },
    };
    for (const auto& [method, attempt] : order) {
        if (!offered.contains(method))
            continue;
        switch ((this->*attempt)()) {
        case Outcome::Accepted: return {};
        case Outcome::Lost: return Result<void>::failure(m_lost);
        case Outcome::Refused: break;
        }
    }
#ifndef KF_LIBSSH2_HAS_RSA_SHA2
    if (m_rsaFailed && !m_nonRsaTried)
        return Result<void>::failure(
            QStringLiteral("Authentication to %1 failed: RSA keys need libssh2 >= 1.11; use an ed25519 or ECDSA key")
                .arg(m_destination),
            ErrorKind::Permanent);
#endif
    if (m_rsaFailed)
        m_problems << QStringLiteral("an RSA key was refused")
#ifndef KF_LIBSSH2_HAS_RSA_SHA2
                + QStringLiteral(" (RSA keys need libssh2 >= 1.11; use an ed25519 or ECDSA key)")
#endif
            ;
    if (m_tried.isEmpty())
        m_problems << QStringLiteral("the server offers %1 and no usable key or prompt is available").arg(methods);
    return Result<void>::failure(
        QStringLiteral("Permission denied for %1 (tried: %2)%3")
            .arg(m_destination, m_tried.isEmpty() ? QStringLiteral("nothing") : m_tried.join(QStringLiteral(", ")),
                m_problems.isEmpty() ? QString() : QStringLiteral(": ") + m_problems.join(QStringLiteral("; "))),
        ErrorKind::Permanent);
}

Authenticator::Outcome Authenticator::agent()
{
    if (qEnvironmentVariableIsEmpty("SSH_AUTH_SOCK"))
        return Outcome::Refused;
    LIBSSH2_AGENT* agent = libssh2_agent_init(m_s);
    if (!agent || libssh2_agent_connect(agent) != 0) {
        m_problems << QStringLiteral("cannot reach ssh-agent at %1").arg(qEnvironmentVariable("SSH_AUTH_SOCK"));
        if (agent)
            libssh2_agent_free(agent);
        return Outcome::Refused;
    }
    const int listed = call([&] { return libssh2_agent_list_identities(agent); });
    libssh2_agent_publickey* id = nullptr;
    libssh2_agent_publickey* prev = nullptr;
    int agentKeys = 0;
    bool accepted = false;
    while (listed == 0 && libssh2_agent_get_identity(agent, &id, prev) == 0) {
        prev = id;
        ++agentKeys;
        const bool rsa = keyTypeOfBlob(QByteArray(reinterpret_cast<const char*>(id->blob), qsizetype(id->blob_len)))
            == QLatin1String("ssh-rsa");
        const int rc = call([&] { return libssh2_agent_userauth(agent, m_user.constData(), id); });
        if (rc == 0) {
            // id belongs to the agent's identity list: read it before freeing the agent.
            log::ssh()->info("{}: authenticated with an agent key ({})", m_destination, QString::fromUtf8(id->comment));
            accepted = true;
            break;
        }
        if (lost(rc))
            break;
        (rsa ? m_rsaFailed : m_nonRsaTried) = true;
    }
    if (!accepted && m_lost.isEmpty()) {
        if (agentKeys > 0)
            m_tried << QStringLiteral("ssh-agent (%1 keys)").arg(agentKeys);
        else
            m_problems << QStringLiteral("ssh-agent holds no keys");
    }
    libssh2_agent_disconnect(agent);
    libssh2_agent_free(agent);
    return accepted ? Outcome::Accepted : m_lost.isEmpty() ? Outcome::Refused : Outcome::Lost;
}

Authenticator::Outcome Authenticator::identityFiles()
{
    for (const QString& keyPath : identityFilesToTry(m_profile))
        if (const Outcome o = identityFile(keyPath); o != Outcome::Refused)
            return o;
    return Outcome::Refused;
}

Authenticator::Outcome Authenticator::identityFile(const QString& keyPath)
{
    QFile f(keyPath);
    if (!f.open(QIODevice::ReadOnly)) {
        m_problems << QStringLiteral("cannot read key %1: %2").arg(keyPath, f.errorString());
        return Outcome::Refused;
    }
    const SshKeyFileInfo info = inspectPrivateKey(f.readAll());
    const QByteArray path = QFile::encodeName(keyPath);
    auto attempt = [&](const QByteArray& passphrase) {
        if (!m_tried.contains(keyPath))
            m_tried << keyPath;
        const int rc = call([&] {
            return libssh2_userauth_publickey_fromfile_ex(m_s, m_user.constData(), unsigned(m_user.size()), nullptr,
                path.constData(), passphrase.isNull() ? "" : passphrase.constData());
        });
        const QString err = lastError();
        if (rc == 0)
            return Verdict::Accepted;
        if (lost(rc))
            return Verdict::Stop;
        const bool unusable = rc == LIBSSH2_ERROR_FILE || rc == LIBSSH2_ERROR_KEYFILE_AUTH_FAILED;
        if (info.encrypted && unusable && err.contains(QLatin1String("passphrase"), Qt::CaseInsensitive))
            return Verdict::Wrong;
        if (unusable || rc == LIBSSH2_ERROR_METHOD_NOT_SUPPORTED) {
            m_problems << QStringLiteral("cannot use key %1: %2").arg(keyPath, err);
        } else {
            (info.isRsa() ? m_rsaFailed : m_nonRsaTried) = true;
            if (!info.isRsa())
                m_problems << QStringLiteral("the server refused key %1").arg(keyPath);
        }
        return Verdict::Stop;
    };
    SecretSource::Outcome outcome;
    if (!info.encrypted)
        outcome.accepted = attempt(QByteArray()) == Verdict::Accepted;
    else
        outcome = m_secrets.tryEach({ SecretRequest::Kind::Passphrase, SecretStore::passphraseKey(keyPath),
                                        QStringLiteral("passphrase"), keyPath },
            attempt, m_problems);
    if (outcome.accepted) {
        log::ssh()->info("{}: authenticated with {}{}", m_destination, keyPath,
            outcome.fromKeychain ? QStringLiteral(" (passphrase from the keychain)") : QString());
        return Outcome::Accepted;
    }
    return m_lost.isEmpty() ? Outcome::Refused : Outcome::Lost;
}

Authenticator::Outcome Authenticator::keyboardInteractive()
{
    if (!m_secrets.canAsk())
        return Outcome::Refused;
    // Three tries, like the password: each one a fresh exchange with the server.
    m_kbdCancelled = false;
    m_kbdKeyPrefix = QStringLiteral("kbd:")
        + SecretStore::passwordKey(QString::fromUtf8(m_user), m_profile.host, m_profile.port) + QLatin1Char(':');
    bool asked = false;
    for (m_kbdAttempt = 0; m_kbdAttempt < 3 && !m_kbdCancelled; ++m_kbdAttempt) {
        m_kbdRounds = 0;
        m_kbdKeptUsed.clear();
        const int rc = call([&] {
            return libssh2_userauth_keyboard_interactive_ex(
                m_s, m_user.constData(), unsigned(m_user.size()), m_promptCallback);
        });
        if (m_kbdRounds > 0 && !asked) {
            asked = true;
            m_tried << QStringLiteral("keyboard-interactive");
        }
        if (rc == 0)
            return Outcome::Accepted;
        if (lost(rc))
            return Outcome::Lost;
        for (const QString& key : std::as_const(m_kbdKeptUsed))
            m_secrets.forget(key); // refused: ask next time
        if (m_kbdRounds == 0)
            break; // the server asked nothing: no answer of ours can help
    }
    if (asked)
        m_problems << (m_kbdCancelled ? QStringLiteral("keyboard-interactive cancelled")
                                      : QStringLiteral("keyboard-interactive: wrong answer"));
    return Outcome::Refused;
}

void Authenticator::answerPrompts(const char* name, int nameLen, const char* instruction, int instructionLen,
    int numPrompts, const LIBSSH2_USERAUTH_KBDINT_PROMPT* prompts, LIBSSH2_USERAUTH_KBDINT_RESPONSE* responses)
{
    ++m_kbdRounds;
    const QString header
        = QString(QString::fromUtf8(name, nameLen) + QLatin1Char(' ') + QString::fromUtf8(instruction, instructionLen))
              .trimmed();
    for (int i = 0; i < numPrompts; ++i) {
        responses[i].text = nullptr;
        responses[i].length = 0;
        if (m_kbdCancelled)
            continue;
        const QString text = QString::fromUtf8(prompts[i].text, int(prompts[i].length));
        const QString keptKey = m_kbdKeyPrefix + text;
        const bool echo = prompts[i].echo != 0;
        std::optional<SecretAnswer> answer;
        if (!echo && m_kbdAttempt == 0) {
            if (std::optional<QByteArray> kept = m_secrets.kept(keptKey)) {
                answer = SecretAnswer { std::move(*kept), false, false };
                m_kbdKeptUsed << keptKey;
            }
        }
        if (!answer) {
            SecretRequest req;
            req.kind = SecretRequest::Kind::KeyboardInteractive;
            QString intro = header;
            if (m_kbdAttempt > 0)
                intro = QStringLiteral("Wrong answer; try again.\n") + intro;
            else if (m_secrets.reconnecting())
                intro = QStringLiteral("The connection to %1 was lost. Reconnecting needs this answer again.\n")
                            .arg(m_destination)
                    + intro;
            intro = intro.trimmed();
            req.prompt = intro.isEmpty() ? text : intro + QLatin1Char('\n') + text;
            req.echo = echo;
            req.offerKeepForSession = !echo;
            answer = m_secrets.ask(req, QStringLiteral("answer to \"%1\"").arg(text.trimmed()));
            if (!answer) {
                m_kbdCancelled = true;
                continue;
            }
            if (!echo && answer->keepForSession) {
                m_secrets.keep(keptKey, answer->secret);
                m_kbdKeptUsed << keptKey; // forgotten again if the server refuses it
            }
        }
        if (!echo)
            SecretRegistry::add(answer->secret);
        // libssh2 frees the response with its allocator (malloc/free: we passed none).
        auto* copy = static_cast<char*>(::malloc(size_t(answer->secret.size()) + 1));
        if (copy) {
            std::memcpy(copy, answer->secret.constData(), size_t(answer->secret.size()));
            responses[i].text = copy;
            responses[i].length = unsigned(answer->secret.size());
        }
        wipe(answer->secret);
    }
}

Authenticator::Outcome Authenticator::password()
{
    if (!m_secrets.canAsk() && !m_secrets.hasKeychain())
        return Outcome::Refused;
    bool sent = false;
    auto attempt = [&](const QByteArray& pw) {
        if (!std::exchange(sent, true))
            m_tried << QStringLiteral("password");
        const int rc = call([&] {
            return libssh2_userauth_password_ex(
                m_s, m_user.constData(), unsigned(m_user.size()), pw.constData(), unsigned(pw.size()), nullptr);
        });
        if (rc == 0)
            return Verdict::Accepted;
        if (lost(rc))
            return Verdict::Stop;
        if (rc == LIBSSH2_ERROR_PASSWORD_EXPIRED) {
            m_problems << QStringLiteral("the password has expired; change it with a terminal ssh login");
            return Verdict::Stop;
        }
        return Verdict::Wrong;
    };
    const SecretSource::Outcome outcome
        = m_secrets.tryEach({ SecretRequest::Kind::Password,
                                SecretStore::passwordKey(QString::fromUtf8(m_user), m_profile.host, m_profile.port),
                                QStringLiteral("password"), {} },
            attempt, m_problems);
    if (outcome.accepted) {
        if (outcome.fromKeychain)
            log::ssh()->info("{}: authenticated with the password stored in the keychain", m_destination);
        return Outcome::Accepted;
    }
    return m_lost.isEmpty() ? Outcome::Refused : Outcome::Lost;
}

} // namespace kf::ssh
