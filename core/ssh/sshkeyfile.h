// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QByteArray>
#include <QString>

// What a private key file is, without decrypting it: enough to ask for a passphrase only
// when one is needed and to explain RSA failures on libssh2 < 1.11.
//
// Formats recognised:
//   -----BEGIN OPENSSH PRIVATE KEY-----   base64 of: "openssh-key-v1\0", string ciphername
//       ("none" when unencrypted), string kdfname, string kdfoptions, uint32 count,
//       string public key blob (whose first string is the key type), ...
//   -----BEGIN RSA PRIVATE KEY----- / EC / DSA (PEM; "Proc-Type: 4,ENCRYPTED" when encrypted)
//   -----BEGIN PRIVATE KEY----- / ENCRYPTED PRIVATE KEY (PKCS#8; type not visible)
namespace kf {

struct SshKeyFileInfo
{
    enum class Format { Unknown, OpenSsh, Pem, Pkcs8 };
    Format format = Format::Unknown;
    QString keyType; // "ssh-ed25519", "ecdsa-sha2-nistp256", "ssh-rsa", ... empty if not visible
    bool encrypted = false;
    bool isRsa() const { return keyType == QLatin1String("ssh-rsa"); }
};

SshKeyFileInfo inspectPrivateKey(const QByteArray& text);

} // namespace kf
