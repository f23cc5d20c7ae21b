// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/monitor/nvidiasmi.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArrayView bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    (void)kf::parseGpuCsv(bytes);
    (void)kf::parseGpuCsv(bytes, kf::defaultGpuFields());
    (void)kf::parseComputeApps(bytes);
    (void)kf::probeGpuFields(bytes);
    return 0;
}
