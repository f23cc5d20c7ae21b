// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QString>

namespace kf {

// Which syntax highlighter this build uses: "KSyntaxHighlighting 6.x" when KF6 was found
// at configure time, otherwise "built-in (diff, CMake, Python, C++/CUDA, shell)".
QString highlighterBackendName();

} // namespace kf
