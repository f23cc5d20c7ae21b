// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/libssh2error.h"

namespace kf::ssh {

bool isLinkLost(int rc)
{
    switch (rc) {
    case LIBSSH2_ERROR_SOCKET_SEND:
    case LIBSSH2_ERROR_SOCKET_RECV:
    case LIBSSH2_ERROR_SOCKET_DISCONNECT:
    case LIBSSH2_ERROR_SOCKET_TIMEOUT:
    case LIBSSH2_ERROR_TIMEOUT:
    case LIBSSH2_ERROR_BAD_SOCKET:
    case LIBSSH2_ERROR_BANNER_RECV:
    case LIBSSH2_ERROR_BANNER_SEND:
    case LIBSSH2_ERROR_KEX_FAILURE:
    case LIBSSH2_ERROR_KEY_EXCHANGE_FAILURE:
    case LIBSSH2_ERROR_DECRYPT:
    case LIBSSH2_ERROR_ENCRYPT:
    case LIBSSH2_ERROR_INVALID_MAC:
    case LIBSSH2_ERROR_PROTO: return true;
    default: return false;
    }
}

QString libssh2LastError(LIBSSH2_SESSION* session)
{
    if (!session)
        return QStringLiteral("not connected");
    char* msg = nullptr;
    int len = 0;
    const int rc = libssh2_session_last_error(session, &msg, &len, 0);
    return QStringLiteral("%1 (libssh2 error %2)").arg(QString::fromUtf8(msg, len)).arg(rc);
}

} // namespace kf::ssh
