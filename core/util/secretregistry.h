// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QByteArray>
#include <QString>

// Secrets (passwords, passphrases, tokens) are registered here the moment they enter the
// process; every log line is passed through redact() before it reaches a sink, so a
// secret that slips into a message (a command line, an error string) is never written.
// Thread-safe. Secrets shorter than 4 bytes are not registered (they would mangle logs).
namespace kf {

class SecretRegistry
{
public:
    static void add(const QByteArray& secret);
    static void remove(const QByteArray& secret);
    static void clear();
    // Replaces every registered secret, and the values of obvious secret-bearing
    // options (password=..., --password ..., -p in sshpass), with "***".
    static std::string redact(std::string_view text);
};

inline QString redact(const QString& text)
{
    const QByteArray u = text.toUtf8();
    return QString::fromStdString(SecretRegistry::redact(std::string_view(u.constData(), size_t(u.size()))));
}

// Overwrites the bytes of a secret in place before it is released (best effort against
// memory disclosure; the compiler may not elide it).
void wipe(QByteArray& secret);
void wipe(QString& secret);

} // namespace kf
