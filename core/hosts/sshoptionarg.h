// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"

#include <QString>

// Values handed to the system's OpenSSH client as `-o Keyword=value` (key install through the
// system ssh, the Ansible inventory's ansible_ssh_common_args). ssh reads such a value as a line
// of its config: split into words at spaces (UserKnownHostsFile takes several files), "..."
// quoting with \\ and \" escapes (misc.c argv_split), then %-tokens and ${VAR} expanded.
namespace kf {

// "UserKnownHostsFile=\"PATH\"" for exactly the file PATH: quoted, '%' written "%%". Refused:
// a control character, and "${" (ssh expands an environment variable there and has no escape).
Result<QString> userKnownHostsOption(const QString& path);

} // namespace kf
