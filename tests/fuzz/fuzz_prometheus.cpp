// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/monitor/prometheustext.h"
#include "core/monitor/servermetrics.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const kf::PromText text
        = kf::parsePrometheusText(QByteArrayView(reinterpret_cast<const char*>(data), qsizetype(size)));
    const kf::ServerMetrics first = kf::deriveServerMetrics(text);
    (void)kf::deriveServerMetrics(text, &text, 1.0);
    (void)first;
    return 0;
}
