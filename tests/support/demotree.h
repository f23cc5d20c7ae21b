// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QString>

namespace kf::test {

// The demo sgl-kernel's CMakeLists.txt (patched with the built-in set) with the CCCL include
// patch's lines taken out again, as a person who rolled back only that edit has it; false when
// the lines are not there.
bool takeOutCcclPatch(const QString& cmakeLists);

} // namespace kf::test
