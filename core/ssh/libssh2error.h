// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QString>

#include <libssh2.h>

// What a libssh2 return code means, for every caller on a session thread (ops, login).
namespace kf::ssh {

// Whether rc says the connection itself is gone (socket, key exchange, MAC, protocol),
// not just one request refused.
bool isLinkLost(int rc);

// What rc means to a person, as a sentence a user can act on ("the connection was lost while
// reading (the server closed it or the network dropped)"); empty for a code with no plainer
// words than libssh2's own.
QString libssh2ErrorMeaning(int rc);

// The one text a libssh2 error reaches a person as: the meaning first, then libssh2's own
// message and code in parentheses for support: "the connection was lost while reading (the
// server closed it or the network dropped) (transport read, libssh2 error -43)". A code with
// no meaning keeps libssh2's message first.
QString libssh2ErrorText(int rc, const QString& libraryMessage);

// libssh2ErrorText for the last error of `session`.
QString libssh2LastError(LIBSSH2_SESSION* session);

} // namespace kf::ssh
