// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/hostprofile.h"
#include "core/util/result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <functional>

#include <libssh2.h>

namespace kf::ssh {

class SecretSource;
class SessionSocket;

// The user a login is for: the profile's, else the local one (as OpenSSH does).
QString loginUserName(const HostProfile& profile);
// The key files a login tries: the profile's, else OpenSSH's defaults that exist.
QStringList identityFilesToTry(const HostProfile& profile);

// The user authentication of one login, on the session thread (blocking, each wait bounded
// by the socket's deadline): the methods the server offers, in OpenSSH's order (ssh-agent,
// identity files, keyboard-interactive, password), until one is accepted. Every secret
// comes from the session's one SecretSource.
//
// Failure: ErrorKind::Permanent when the server refused everything we could offer (it says
// what was tried and why each failed); Failed when the link was lost or a wait ended.
class Authenticator
{
public:
    // libssh2's keyboard-interactive callback; the session's, which finds this object through
    // the session's abstract pointer and calls answerPrompts().
    using PromptCallback = LIBSSH2_USERAUTH_KBDINT_RESPONSE_FUNC((*));

    Authenticator(LIBSSH2_SESSION* session, SessionSocket& socket, const HostProfile& profile, SecretSource& secrets,
        QString destination, PromptCallback promptCallback);

    Result<void> run();
    // libssh2's keyboard-interactive callback, forwarded by the session while run() runs.
    void answerPrompts(const char* name, int nameLen, const char* instruction, int instructionLen, int numPrompts,
        const LIBSSH2_USERAUTH_KBDINT_PROMPT* prompts, LIBSSH2_USERAUTH_KBDINT_RESPONSE* responses);

private:
    enum class Outcome { Accepted, Refused, Lost };
    Outcome agent();
    Outcome identityFiles();
    Outcome identityFile(const QString& keyPath);
    Outcome keyboardInteractive();
    Outcome password();
    // Runs a libssh2 call through EAGAIN; its rc, or LIBSSH2_ERROR_TIMEOUT when the wait
    // ended (then m_lost says why).
    int call(const std::function<int()>& libssh2Call);
    // Whether rc means the connection is gone; m_lost then says why.
    bool lost(int rc);
    QString lastError() const;

    LIBSSH2_SESSION* m_s;
    SessionSocket& m_socket;
    const HostProfile& m_profile;
    SecretSource& m_secrets;
    QString m_destination;
    PromptCallback m_promptCallback;
    QByteArray m_user;
    QStringList m_tried;    // for the final message: what went to the server
    QStringList m_problems; // and what went wrong with each
    bool m_rsaFailed = false;
    bool m_nonRsaTried = false;
    QString m_lost;
    // Keyboard-interactive: this attempt's state, read by answerPrompts().
    bool m_kbdCancelled = false;
    int m_kbdRounds = 0;
    int m_kbdAttempt = 0;
    QString m_kbdKeyPrefix;    // kept answers' keys: prefix + prompt
    QStringList m_kbdKeptUsed; // kept answers given in the current attempt
};

} // namespace kf::ssh
