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

// libssh2's message for the last error of `session`, with its code.
QString libssh2LastError(LIBSSH2_SESSION* session);

} // namespace kf::ssh
