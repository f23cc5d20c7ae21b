// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/userinteraction.h"

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace kf {
class SecretStore;
}

namespace kf::ssh {

// Where a session's login secrets come from, in this order: one the person asked to keep
// for this session (SecretAnswer::keepForSession: memory only, wiped with the session), the
// system keychain (SecretStore), a person (UserInteraction). One per session, so that a
// reconnect needs nobody at the screen when the person kept the secret. Session thread only.
class SecretSource
{
public:
    // What unlocks one thing: a key file's passphrase, or the account's password.
    struct Secret
    {
        SecretRequest::Kind kind = SecretRequest::Kind::Password;
        QString key;     // the SecretStore key (passphraseKey(), passwordKey())
        QString noun;    // "passphrase", "password"
        QString keyFile; // the key file a passphrase unlocks; empty for a password
    };
    // What the server made of one try.
    enum class Verdict { Accepted, Wrong, Stop };
    struct Outcome
    {
        bool accepted = false;
        bool fromKeychain = false;
    };

    // destination: "alice@gpu1:22". Null interaction: nobody is asked. The keychain is
    // `store`, else the interaction's (looked up at each login); none: no keychain.
    SecretSource(QString destination, UserInteraction* interaction, std::shared_ptr<SecretStore> store);
    ~SecretSource();
    SecretSource(const SecretSource&) = delete;
    SecretSource& operator=(const SecretSource&) = delete;

    // Set by the session. waiting(what): a person is about to be asked for `what`.
    // waited(): something may have taken a person's time (an answer, a keychain unlock).
    std::function<void(const QString& what)> waiting;
    std::function<void()> waited;

    // At the start of each login: whether it logs in again after a drop (the prompts say so).
    void beginLogin(bool reconnecting);
    // Whether this login asked a person anything (else a second session can log in quietly).
    bool prompted() const { return m_prompted; }
    bool reconnecting() const { return m_reconnecting; }
    bool canAsk() const { return m_interaction != nullptr; }
    bool hasKeychain() const { return m_store != nullptr; }

    // The keychain -> prompt -> forget loop of one secret: `use` tries each candidate with
    // the server. The kept one and the keychain's are tried once each, then the person is
    // asked up to three times. A refused kept secret is forgotten; a refused stored one is
    // removed from the keychain (when a person can be asked for another) and the next prompt
    // says so; an accepted answer is stored or kept as the person ticked. What went wrong is
    // appended to `problems`.
    Outcome tryEach(const Secret& secret, const std::function<Verdict(const QByteArray&)>& use, QStringList& problems);

    // For answers that are not one secret (keyboard-interactive prompts): the kept copy
    // (the caller wipes it), keeping and forgetting, and asking a person.
    std::optional<QByteArray> kept(const QString& key) const;
    void keep(const QString& key, const QByteArray& secret);
    void forget(const QString& key);
    // Fills in the destination and the reconnect flag; `what` names the secret for waiting().
    std::optional<SecretAnswer> ask(SecretRequest request, const QString& what);

private:
    // The keychain's secret (logged, never the secret); nullopt when none or when the
    // keychain fails (then the login goes on as if nothing was stored).
    std::optional<QByteArray> readStored(const QString& key, const QString& what);
    void store(const QString& key, const QByteArray& secret, const QString& what);
    // Removes a stored secret the server refused; returns the prompt that says so.
    QString removeRefused(const QString& key, const QString& noun, const QString& what);

    QString m_destination;
    UserInteraction* m_interaction;
    std::shared_ptr<SecretStore> m_ownStore;
    std::shared_ptr<SecretStore> m_store; // this login's
    bool m_reconnecting = false;
    bool m_prompted = false;
    // Own copies by SecretStore key (keyboard-interactive: a prefix + the prompt), wiped.
    QHash<QString, QByteArray> m_kept;
};

} // namespace kf::ssh
