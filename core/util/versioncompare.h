// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QString>

namespace kf {

// Compares the leading dotted numbers of two tool versions numerically ("3.9" < "3.31",
// "13.0.88" > "12.8"); whatever follows the numbers ("-rc1", "+cu130", " (Debian)") is
// ignored and missing parts count as 0. Returns <0, 0 or >0.
int compareVersions(const QString& a, const QString& b);

} // namespace kf
