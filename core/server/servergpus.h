// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/server/serverlaunchprofile.h"
#include "core/util/result.h"

#include <QList>
#include <QString>
#include <QStringList>

// The GPUs of its host that an SGLang server uses, read from its command line the way SGLang's
// launch assigns them (python/sglang/srt/entrypoints/engine.py, managers/data_parallel_controller.py):
// TP rank t of pipeline stage p runs on GPU
//   base_gpu_id + (p % pp_per_node) * tp_per_node + (t % tp_per_node) * gpu_id_step
// with tp_per_node = tp / max(nnodes / pp, 1) and pp_per_node = max(pp / nnodes, 1), and the
// data-parallel replicas of --dp N (without --enable-dp-attention, which keeps them inside the TP
// group) follow each other, each tp * pp * gpu_id_step further on.
// Flags read: --tp/--tp-size/--tensor-parallel-size, --dp/--dp-size/--data-parallel-size,
// --pp/--pp-size/--pipeline-parallel-size, --nnodes, --base-gpu-id, --gpu-id-step,
// --enable-dp-attention; "--flag value" or "--flag=value", the last one wins (argparse). What the
// command line does not say is not seen (CUDA_VISIBLE_DEVICES in a wrapper script).
// Pure; every number is range-checked, so at most kMaxServerGpus GPUs come out.
namespace kf {

constexpr int kMaxServerGpus = 4096;

// The GPU indices, ascending, for a server command's words (shellSplit of the command).
Result<QList<int>> serverGpus(const QStringList& words);
// The same for the command a launch profile starts.
Result<QList<int>> serverGpus(const ServerLaunchProfile& profile);
// "0-7", "0, 2, 4-5"; "none" for an empty list.
QString gpuRangeText(const QList<int>& gpus);

} // namespace kf
