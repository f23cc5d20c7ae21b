// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

// Every command reaches a server through the user's login shell: sshd runs `$SHELL -c LINE`,
// and bash, dash, zsh, fish and tcsh parse LINE each their own way (fish acts on \\ and \'
// inside single quotes, tcsh expands ! history and refuses a newline inside quotes, csh has
// no `2>`). So KernelForge never hands the login shell a script. The one LINE it sends is
//
//   exec /bin/sh -c 'for kf_a; do ... done; ...; eval "$kf_s"' sh 'E0' 'E1' ...
//
// where E0 is a POSIX sh script and E1... its arguments ($1...), each written as a printf
// format made only of printable ASCII without ' " \ ! $ ` (each other byte is \ooo, % is %%,
// a leading - is \055). Inside single quotes no login shell changes such a word, and every
// backslash is followed by a digit. /bin/sh decodes every word with printf (no trailing
// newline is lost) and evaluates the script with the arguments as "$@". Each byte of a
// script travels once, at most four bytes wide; nothing is quoted twice.
//
// The LINE is visible in the server's process list while /bin/sh starts: never put a secret
// in a script or an argument (CommandSpec::env travels on stdin).
namespace kf::loginshell {

// libssh2 1.10 sends a channel request in one packet and refuses (LIBSSH2_ERROR_INVAL) one
// whose payload reaches 35000 - 256 bytes; the exec request spends 18 of them on its header.
inline constexpr qsizetype kMaxLineBytes = 35000 - 256 - 18 - 1;

// The printf format that prints `bytes` exactly (see above).
QByteArray encode(const QByteArray& bytes);
// The LINE for the login shell: runs `script` with /bin/sh, with `arguments` as $1...
QByteArray line(const QString& script, const QList<QByteArray>& arguments = {});
} // namespace kf::loginshell
