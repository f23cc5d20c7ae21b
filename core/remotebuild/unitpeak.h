// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QList>
#include <QString>

namespace kf {

// The peak memory of one translation unit's compile (the compiler's whole process tree), as the
// memory gate measured it (memgate.peaks, core/remotebuild/memorygate.h) or as the build history
// keeps it for the profile's next run (buildhistory::learnedPeaks).
struct UnitPeak
{
    QString unit;       // the output file (-o), relative to the compile's folder when inside it
    QString kind;       // nvcc, cxx, cc, other
    qint64 peakKb = 0;  // KiB
    qint64 wallMs = -1; // how long the attempt took; -1 for learned peaks
    QString status;     // the attempt's exit status ("0", "1", "signal 9"); empty for learned peaks
    bool operator==(const UnitPeak&) const = default;
};

} // namespace kf
