// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"

#include <QDateTime>
#include <QString>

namespace kf::timeline {

// A point in time as people give it to `timeline --since/--until`: a duration back from now
// ("90s", "30m", "2h", "7d", "2w") or a date and time, local unless it says otherwise
// ("2026-12-01", "2026-12-01 14:30", "2026-12-01T14:30:00Z", "2026-12-01T14:30:00+02:00").
// Pure: now is given. The result is UTC.
Result<QDateTime> parseTimeSpec(const QString& text, const QDateTime& now);

} // namespace kf::timeline
