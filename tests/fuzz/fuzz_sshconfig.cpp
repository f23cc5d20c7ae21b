// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/hostprofilestore.h"
#include "core/ssh/sshconfig.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    (void)kf::parseSshConfig(bytes, QStringLiteral("fuzz_config"));
    (void)kf::parseHostProfiles(bytes, QStringLiteral("hosts.yaml"));
    return 0;
}
