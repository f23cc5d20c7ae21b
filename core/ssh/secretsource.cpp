// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/secretsource.h"

#include "core/hosts/secretstore.h"
#include "core/log/logging.h"
#include "core/util/secretregistry.h"

namespace kf::ssh {

SecretSource::SecretSource(QString destination, UserInteraction* interaction, std::shared_ptr<SecretStore> store)
    : m_destination(std::move(destination))
    , m_interaction(interaction)
    , m_ownStore(std::move(store))
{ }

SecretSource::~SecretSource()
{
    for (QByteArray& kept : m_kept)
        wipe(kept);
}

void SecretSource::beginLogin(bool reconnecting)
{
    m_reconnecting = reconnecting;
    m_prompted = false;
    m_store = m_ownStore ? m_ownStore : m_interaction ? m_interaction->secretStore() : nullptr;
}

std::optional<QByteArray> SecretSource::kept(const QString& key) const
{
    const auto it = m_kept.constFind(key);
    if (it == m_kept.cend())
        return std::nullopt;
    return QByteArray(it->constData(), it->size()); // a copy the caller wipes
}

void SecretSource::keep(const QString& key, const QByteArray& secret)
{
    forget(key);
    m_kept.insert(key, QByteArray(secret.constData(), secret.size()));
}

void SecretSource::forget(const QString& key)
{
    auto it = m_kept.find(key);
    if (it == m_kept.end())
        return;
    wipe(*it);
    m_kept.erase(it);
}

std::optional<SecretAnswer> SecretSource::ask(SecretRequest request, const QString& what)
{
    request.destination = m_destination;
    request.reconnecting = m_reconnecting;
    m_prompted = true;
    if (waiting)
        waiting(what);
    std::optional<SecretAnswer> answer = m_interaction->askSecret(request);
    if (waited)
        waited();
    return answer;
}

std::optional<QByteArray> SecretSource::readStored(const QString& key, const QString& what)
{
    Result<std::optional<QByteArray>> r = m_store->read(key);
    if (waited)
        waited(); // an unlock prompt of the keychain may have taken a while
    if (!r) {
        log::ssh()->info("{}: keychain lookup for {} failed: {}", m_destination, what, r.error());
        return std::nullopt;
    }
    if (r.value())
        log::ssh()->info("{}: trying the secret stored in the keychain for {}", m_destination, what);
    return std::move(r.value());
}

void SecretSource::store(const QString& key, const QByteArray& secret, const QString& what)
{
    if (Result<void> s = m_store->write(key, secret); !s)
        log::ssh()->warn("{}: could not store the {} in the keychain: {}", m_destination, what, s.error());
    else
        log::ssh()->info("{}: stored the {} in the keychain", m_destination, what);
    if (waited)
        waited();
}

QString SecretSource::removeRefused(const QString& key, const QString& noun, const QString& what)
{
    // A secret that no longer works must not be offered again at every login; without a
    // person to ask for a new one (a helper session) it stays for the next interactive login.
    if (!m_interaction)
        return {};
    if (Result<void> s = m_store->remove(key); !s)
        log::ssh()->warn("{}: could not remove the refused {} from the keychain: {}", m_destination, noun, s.error());
    else
        log::ssh()->info("{}: the {} stored in the keychain for {} was refused; removed it", m_destination, noun, what);
    if (waited)
        waited();
    return QStringLiteral("The %1 stored in the keychain for %2 was refused and has been removed. Enter the %1")
        .arg(noun, what);
}

SecretSource::Outcome SecretSource::tryEach(
    const Secret& s, const std::function<Verdict(const QByteArray&)>& use, QStringList& problems)
{
    enum class From { Session, Keychain, Person };
    // "passphrase for ~/.ssh/id_ed25519", "password" (the destination is said elsewhere).
    const QString forWhat = s.keyFile.isEmpty() ? m_destination : s.keyFile;
    const QString subject = s.keyFile.isEmpty() ? s.noun : s.noun + QStringLiteral(" for ") + s.keyFile;
    const QString owner = s.keyFile.isEmpty() ? m_destination : QStringLiteral("key ") + s.keyFile;
    bool keptTried = false;
    bool storedTried = false;
    bool wrongNoted = false;
    QString storedRefused; // why the next prompt says the stored one was removed
    for (int prompts = 0; prompts < 3;) {
        std::optional<QByteArray> candidate;
        From from = From::Person;
        bool remember = false;
        bool keepIt = false;
        if (!keptTried) {
            keptTried = true;
            candidate = kept(s.key);
            from = From::Session;
        }
        if (!candidate && m_store && !storedTried) {
            storedTried = true;
            candidate = readStored(s.key, forWhat);
            from = From::Keychain;
            if (candidate)
                SecretRegistry::add(*candidate);
        }
        if (!candidate) {
            if (!m_interaction) {
                problems << QStringLiteral("%1 needs a %2 and there is no way to ask for it").arg(owner, s.noun);
                break;
            }
            SecretRequest req;
            req.kind = s.kind;
            req.keyFile = s.keyFile;
            req.offerKeychain = m_store != nullptr;
            req.offerKeepForSession = true;
            req.prompt = !storedRefused.isEmpty() ? std::exchange(storedRefused, {})
                : prompts > 0                     ? QStringLiteral("Wrong %1; try again for %2").arg(s.noun, forWhat)
                : m_reconnecting ? QStringLiteral("The connection to %1 was lost. Reconnecting needs the %2 again")
                                       .arg(m_destination, subject)
                                 : s.noun.left(1).toUpper() + s.noun.mid(1) + QStringLiteral(" for ") + forWhat;
            ++prompts;
            std::optional<SecretAnswer> answer = ask(req, subject);
            if (!answer) {
                problems << s.noun + QStringLiteral(" prompt")
                        + (s.keyFile.isEmpty() ? QString() : QStringLiteral(" for ") + s.keyFile)
                        + QStringLiteral(" cancelled");
                break;
            }
            candidate = std::move(answer->secret);
            from = From::Person;
            remember = answer->storeInKeychain;
            keepIt = answer->keepForSession;
            SecretRegistry::add(*candidate);
        }
        const Verdict verdict = use(*candidate);
        if (verdict == Verdict::Accepted && remember && m_store)
            store(s.key, *candidate, s.noun + QStringLiteral(" of ") + forWhat);
        if (verdict == Verdict::Accepted && keepIt)
            keep(s.key, *candidate);
        wipe(*candidate);
        if (verdict == Verdict::Accepted)
            return { true, from == From::Keychain };
        if (verdict == Verdict::Stop)
            break;
        switch (from) {
        case From::Session: forget(s.key); break;
        case From::Keychain:
            storedRefused = removeRefused(s.key, s.noun, forWhat);
            if (!m_interaction) {
                problems << QStringLiteral("the %1 stored in the keychain for %2 was refused").arg(s.noun, forWhat);
                return {};
            }
            break;
        case From::Person:
            if (!std::exchange(wrongNoted, true))
                problems << QStringLiteral("wrong ") + subject;
            break;
        }
    }
    return {};
}

} // namespace kf::ssh
