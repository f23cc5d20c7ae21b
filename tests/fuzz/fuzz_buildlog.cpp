// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/build/buildloganalyzer.h"
#include "core/build/ninjalog.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    // Fed in two uneven chunks: chunk boundaries must not change what is found.
    kf::BuildLogAnalyzer a;
    a.feed(bytes.left(bytes.size() / 3));
    a.feed(bytes.mid(bytes.size() / 3));
    a.finish();
    (void)kf::parseNinjaLog(bytes);
    return 0;
}
