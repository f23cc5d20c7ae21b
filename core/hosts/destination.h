// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"

#include <QString>
#include <QStringView>

#include <optional>

// Where to log in, as people type it: the one parser for the connect dialog, the CLI's
// destinations and ProxyJump hops. OpenSSH's grammar:
//   [user@]host[:port]          ssh -J, ProxyJump, the connect dialog     alice@gpu1:2222
//   [user@][v6addr][:port]      an IPv6 address in brackets               bob@[fe80::1]:22
//   ssh://[user@]host[:port]    the URI form ssh and ProxyJump accept
//   [user@]host:PATH            scp's form (DestinationForm::Path): what follows the first ':'
//                               outside brackets is a path, not a port   alice@gpu1:~/sgl-kernel
// The user is everything before the LAST '@' of the user@host part, as OpenSSH splits it
// (`ssh a@b@host` logs in as "a@b"). Refused, with a message naming the reason: an empty
// user, host or port, a port outside 1-65535, whitespace or '/' in the user or host, a control
// character anywhere (a newline in a remote path would end a shell word on the server), an
// unbracketed IPv6 address with a port. Nothing is trimmed: callers trim what people typed.
namespace kf {

enum class DestinationForm {
    Port, // [user@]host[:port]
    Path, // [user@]host[:PATH]
};

struct Destination
{
    QString user;                // empty: not given (the local user name)
    QString host;                // without the brackets
    std::optional<quint16> port; // Port form: given
    std::optional<QString> path; // Path form: given, possibly empty ("host:" means the home folder)
    bool operator==(const Destination&) const = default;
};

// Pure.
Result<Destination> parseDestination(QStringView text, DestinationForm form = DestinationForm::Port);

// A TCP port as people write it: digits only, 1-65535 ("+22", " 22" and "0" are not ports).
std::optional<quint16> parsePort(QStringView text);

// The Port form of d, which parseDestination() reads back: brackets around a host with a ':'.
QString formatDestination(const Destination& d);

// A host name or address that came from elsewhere (a Prometheus label, a ProxyJump hop) and
// will reach hosts.yaml, an Ansible inventory or an ssh command line: a DNS name (letters,
// digits, '-', '_', '.'), an IPv4 address or an IPv6 address (hex digits, ':', '.', a zone
// after '%'), at most 253 characters, not starting with '-' or '.'. The error names the text
// (control characters escaped) and the reason.
Result<void> checkHostName(QStringView text);

// A ProxyJump value as ssh's -J and ProxyJump take it ("[user@]host[:port][,...]", hops may be
// ssh:// URIs): every hop parses (parseDestination), its host passes checkHostName and its user
// is letters, digits, '.', '_', '-', '@'. OpenSSH turns -J into a ProxyCommand that a shell
// runs, so this is checked here, whatever the local ssh's version would refuse.
Result<void> checkProxyJump(QStringView text);

// scp's test of whether an argument names a remote place: a ':' outside brackets comes before
// any '/' and is not the first character ("host:x", "[::1]:x"; not "./a:b", not ":x").
bool hasRemoteColon(QStringView text);

} // namespace kf
