// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/textdiff.h"
#include "core/patch/unifieddiff.h"

// Parses the input as a diff, then applies every file's hunks to the input itself (a text
// that mostly does not match: offsets, fuzz and rejections all run).
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char*>(data), qsizetype(size));
    const kf::patch::UnifiedDiff diff = kf::patch::parseUnifiedDiff(text);
    const kf::textdiff::TextLines lines = kf::textdiff::splitLines(text);
    for (const auto& file : diff.files)
        (void)kf::patch::applyHunks(lines, file.hunks);
    return 0;
}
