// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/gpu/throttlereasons.h"

#include <utility>

namespace kf {

QStringList reasonPhrases(quint64 mask)
{
    static const std::pair<quint64, const char*> kPhrases[] = {
        { 0x1, "idle" },
        { 0x2, "app clocks setting" },
        { 0x4, "power cap" },
        { 0x8, "HW slowdown" },
        { 0x10, "sync boost" },
        { 0x20, "thermal slowdown" },
        { 0x40, "HW thermal slowdown" },
        { 0x80, "HW power brake" },
        { 0x100, "display clock setting" },
    };
    QStringList phrases;
    quint64 known = 0;
    for (const auto& [bit, phrase] : kPhrases) {
        known |= bit;
        if (mask & bit)
            phrases.append(QString::fromLatin1(phrase));
    }
    for (int b = 0; b < 64; ++b) {
        const quint64 bit = quint64(1) << b;
        if ((mask & bit) && !(known & bit))
            phrases.append(QStringLiteral("reason 0x") + QString::number(bit, 16));
    }
    return phrases;
}

} // namespace kf
