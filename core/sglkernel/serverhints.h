// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/serverfacts.h"

#include <QStringList>

namespace kf::sglkernel {

// What a server's facts mean for building and running sgl-kernel there, one sentence each,
// most important first: an incomplete run, a driver/library mismatch, CMake too old for
// sgl-kernel's policies, nvcc too old for the GPUs, CUDA 13's CCCL include move, FA3 on GPUs
// it is not for, the nvcc memory budget, a missing Ninja or PyTorch. The numbers come from
// core/sglkernel/rules.h. Pure.
QStringList serverHints(const ServerFacts& facts);

} // namespace kf::sglkernel
