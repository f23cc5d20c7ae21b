// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/patchset.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    (void)kf::patch::parsePatchSetYaml(
        QByteArray(reinterpret_cast<const char*>(data), qsizetype(size)), QStringLiteral("fuzz.yaml"));
    return 0;
}
