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

QString libssh2ErrorMeaning(int rc)
{
    switch (rc) {
    case LIBSSH2_ERROR_BANNER_RECV:
        return QStringLiteral(
            "the server did not answer as an SSH server (wrong port, or it closed the connection at once)");
    case LIBSSH2_ERROR_BANNER_SEND: return QStringLiteral("the connection was lost while greeting the server");
    case LIBSSH2_ERROR_INVALID_MAC:
    case LIBSSH2_ERROR_DECRYPT:
    case LIBSSH2_ERROR_ENCRYPT:
        return QStringLiteral("the connection's data was damaged on the way (a network device may be interfering)");
    case LIBSSH2_ERROR_KEX_FAILURE:
    case LIBSSH2_ERROR_KEY_EXCHANGE_FAILURE:
        return QStringLiteral("the server and KernelForge found no key exchange or cipher they both support");
    case LIBSSH2_ERROR_ALLOC: return QStringLiteral("this computer ran out of memory");
    case LIBSSH2_ERROR_SOCKET_SEND:
        return QStringLiteral("the connection was lost while sending (the server closed it or the network dropped)");
    case LIBSSH2_ERROR_SOCKET_RECV:
        return QStringLiteral("the connection was lost while reading (the server closed it or the network dropped)");
    case LIBSSH2_ERROR_SOCKET_DISCONNECT: return QStringLiteral("the server closed the connection");
    case LIBSSH2_ERROR_TIMEOUT:
    case LIBSSH2_ERROR_SOCKET_TIMEOUT: return QStringLiteral("the server stopped answering (timed out)");
    case LIBSSH2_ERROR_BAD_SOCKET: return QStringLiteral("the connection is no longer open");
    case LIBSSH2_ERROR_PROTO:
        return QStringLiteral("the server sent something that is not valid SSH (the connection is unusable)");
    case LIBSSH2_ERROR_HOSTKEY_INIT:
    case LIBSSH2_ERROR_HOSTKEY_SIGN: return QStringLiteral("the server's host key could not be checked");
    case LIBSSH2_ERROR_PASSWORD_EXPIRED: return QStringLiteral("the password has expired; change it on the server");
    case LIBSSH2_ERROR_FILE: return QStringLiteral("a key file could not be read");
    case LIBSSH2_ERROR_METHOD_NONE:
    case LIBSSH2_ERROR_METHOD_NOT_SUPPORTED:
        return QStringLiteral("the server does not offer a way to log in that KernelForge supports");
    case LIBSSH2_ERROR_AUTHENTICATION_FAILED: return QStringLiteral("the server did not accept the login");
    case LIBSSH2_ERROR_PUBLICKEY_UNVERIFIED: return QStringLiteral("the server did not accept the key");
    case LIBSSH2_ERROR_KEYFILE_AUTH_FAILED:
        // No "passphrase" here: the Authenticator asks again only when libssh2's own words say so.
        return QStringLiteral("the key could not be unlocked or read");
    case LIBSSH2_ERROR_CHANNEL_FAILURE:
    case LIBSSH2_ERROR_CHANNEL_REQUEST_DENIED:
    case LIBSSH2_ERROR_REQUEST_DENIED: return QStringLiteral("the server refused the request");
    case LIBSSH2_ERROR_CHANNEL_CLOSED:
    case LIBSSH2_ERROR_CHANNEL_EOF_SENT: return QStringLiteral("the server closed this channel");
    case LIBSSH2_ERROR_SFTP_PROTOCOL: return QStringLiteral("the server's file transfer (SFTP) refused the request");
    case LIBSSH2_ERROR_KNOWN_HOSTS: return QStringLiteral("the known_hosts file could not be read or written");
    case LIBSSH2_ERROR_AGENT_PROTOCOL: return QStringLiteral("ssh-agent did not answer as expected");
    default: return {};
    }
}

QString libssh2ErrorText(int rc, const QString& libraryMessage)
{
    const QString meaning = libssh2ErrorMeaning(rc);
    const QString library = libraryMessage.trimmed();
    if (meaning.isEmpty())
        return library.isEmpty() ? QStringLiteral("libssh2 error %1").arg(rc)
                                 : QStringLiteral("%1 (libssh2 error %2)").arg(library).arg(rc);
    if (library.isEmpty())
        return QStringLiteral("%1 (libssh2 error %2)").arg(meaning).arg(rc);
    return QStringLiteral("%1 (%2, libssh2 error %3)").arg(meaning, library).arg(rc);
}

QString libssh2LastError(LIBSSH2_SESSION* session)
{
    if (!session)
        return QStringLiteral("not connected");
    char* msg = nullptr;
    int len = 0;
    const int rc = libssh2_session_last_error(session, &msg, &len, 0);
    return libssh2ErrorText(rc, QString::fromUtf8(msg, len));
}

} // namespace kf::ssh
