// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/serverfacts.h"

#include <QStringList>

namespace kf::sglkernel {

// What a server's facts mean for building and running sgl-kernel there, one sentence each,
// most important first: an incomplete run, a driver/library mismatch, which sgl-kernel tree the
// facts looked at (with a project probe), CMake too old for the tree's cmake_minimum_required or
// sgl-kernel's policies, a torch other than the one the tree asks for, both kernel wheels
// installed, nvcc too old for the GPUs, CUDA 13's CCCL include move (unless the CMakeLists or
// CPLUS_INCLUDE_PATH already adds it), FA3 on GPUs it is not for, the nvcc memory budget, a missing
// Ninja or PyTorch. The numbers come from core/sglkernel/rules.h and the tree. Pure.
QStringList serverHints(const ServerFacts& facts);

} // namespace kf::sglkernel
