// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QByteArray>
#include <QString>

#include <memory>
#include <optional>

namespace kf {

// What the SSH layer asks a person. The GUI implements it with dialogs, the CLI with the
// terminal (or refuses in batch mode). Methods are called on the SSH session thread and
// block it until answered; implementations marshal to their own thread
// (BlockingQueuedConnection or an equivalent) and never touch libssh2.
struct HostKeyInfo
{
    enum class Kind { Unknown, Changed, Revoked };
    Kind kind = Kind::Unknown;
    QString host;
    quint16 port = 22;
    QString keyType;        // "ssh-ed25519", "ecdsa-sha2-nistp256", ...
    QString fingerprint;    // "SHA256:..." exactly as OpenSSH prints it
    QByteArray keyBlob;     // the raw public key (wire format)
    QString knownHostsFile; // where "accept and save" appends
    QString oldEntryFile;   // Changed/Revoked: the entry that disagrees
    int oldEntryLine = 0;
    QString oldKeyType;
};

enum class HostKeyDecision { Reject, AcceptOnce, AcceptAndSave };

struct SecretRequest
{
    enum class Kind { Password, Passphrase, KeyboardInteractive };
    Kind kind = Kind::Password;
    QString destination; // "alice@gpu1:22"
    QString prompt;      // server's prompt text for keyboard-interactive
    QString keyFile;     // Passphrase: which key
    bool echo = false;
    bool offerKeychain = false; // show "remember in the system keychain" (off by default)
    // The connection was Ready and dropped: the session is logging in again and waits for
    // this answer (the prompt says so; streams are paused until then).
    bool reconnecting = false;
    // Show "keep for this session (not stored)": the answer stays in memory for the life of
    // the session so that later reconnects need nobody at the screen.
    bool offerKeepForSession = false;
};

struct SecretAnswer
{
    QByteArray secret; // wiped by the caller after use (kf::wipe)
    bool storeInKeychain = false;
    bool keepForSession = false; // in memory only, wiped when the session ends
};

class SecretStore;

class UserInteraction
{
public:
    virtual ~UserInteraction() = default;
    // Where secrets go when SecretAnswer::storeInKeychain is ticked, and where they are looked
    // up before asking. Null (the default): nothing is remembered and the box is not offered.
    virtual std::shared_ptr<SecretStore> secretStore() const { return {}; }
    // Changed and Revoked keys are never accepted; they are reported through this call
    // (the answer is ignored) so the UI can show the warning with the old entry's file:line.
    virtual HostKeyDecision askHostKey(const HostKeyInfo& info) = 0;
    // nullopt: the person cancelled.
    virtual std::optional<SecretAnswer> askSecret(const SecretRequest& request) = 0;
};

} // namespace kf
