// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/knownhosts.h"
#include "core/ssh/serverfacts.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    (void)kf::parseKnownHosts(bytes, QStringLiteral("known_hosts"));
    (void)kf::parseServerFacts(bytes);
    return 0;
}
