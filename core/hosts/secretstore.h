// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"

#include <QByteArray>
#include <QString>

#include <memory>
#include <optional>

namespace kf {

// Where login secrets are remembered when the person ticks "Remember in the system keychain"
// (SecretAnswer::storeInKeychain). The system implementation is the desktop keychain through
// qtkeychain (Secret Service / KWallet); a build without qtkeychain has none, and then the
// box is not offered.
//
// Entries live under the service kService. Keys:
//   passwordKey():   "alice@gpu1:22"                  the login password of that account
//   passphraseKey(): "/home/alice/.ssh/id_ed25519"    the passphrase of that private key
//
// Calls block until the keychain answers (an unlock prompt of the desktop may take a while);
// they may come from any thread, including SSH session threads. Errors are messages a person
// can read; they never contain the secret.
class SecretStore
{
public:
    static constexpr char kService[] = "KernelForge";

    virtual ~SecretStore() = default;

    // nullopt: nothing stored under key.
    virtual Result<std::optional<QByteArray>> read(const QString& key) = 0;
    virtual Result<void> write(const QString& key, const QByteArray& secret) = 0;
    // Succeeds when nothing was stored.
    virtual Result<void> remove(const QString& key) = 0;

    static QString passwordKey(const QString& user, const QString& host, quint16 port);
    static QString passphraseKey(const QString& keyFile);

    // The desktop keychain; null when the build has no qtkeychain.
    static std::shared_ptr<SecretStore> createSystem();
    // Same, with a bound on every call (for tests of a keychain that never answers).
    static std::shared_ptr<SecretStore> createSystem(int timeoutMs);
};

} // namespace kf
