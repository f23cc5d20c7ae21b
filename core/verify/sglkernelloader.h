// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/verify/verifyreport.h"

#include <QList>
#include <QSet>
#include <QString>

#include <optional>

// sgl-kernel's common_ops loader, followed per GPU. Since the unified releases (sglang PR
// #10701) an sgl-kernel package ships common_ops twice, sgl_kernel/sm90/common_ops.*.so (built
// with fast math) and sgl_kernel/sm100/common_ops.*.so, and `import sgl_kernel` loads one of
// them by the compute capability of the process's current CUDA device. The rule, as
// _load_architecture_specific_ops() in sgl-kernel/python/sgl_kernel/load_utils.py has it
// (github.com/sgl-project/sglang, read at commit 7252a2385c40 and 00acd8d76283; public report
// and proposed fix: sglang PR #35526, "every GPU but cc 9.0 is sent to sm100/"):
//   - compute capability 9.0 -> sm90/; any other, and no GPU -> sm100/;
//   - the first compiled file matching <package>/<folder>/common_ops.* is loaded; when the
//     folder has none (or loading it raises), <package>/common_ops.* is tried, then a plain
//     `import common_ops`;
//   - a missing kernel image is not an import error: it surfaces at the first launch ("no
//     kernel image is available for execution on the device"), so the loader never falls back
//     for it and the library it picked must carry SASS or PTX for the GPU
//     (core/verify/cudatarget.h's rule);
//   - the choice is made once per process, by torch.cuda.current_device() when sgl_kernel is
//     imported: a process that then works on a GPU of another compute capability keeps it.
// Verification (core/verify/verifyreport.h) judges the libraries this rule picks here, per GPU,
// instead of judging every variant against every GPU.
namespace kf {

// "sm90" or "sm100": the folder the loader picks for a GPU of compute capability `cc`.
QString sglKernelLoaderFolder(std::optional<ComputeCapability> cc);
// The libraries of the report that the loader chooses among (sm90/ and sm100/ common_ops, and
// the package's own common_ops beside them), by path: judged by loaderCoverageChecks(), not by
// the generic per-library check.
QSet<QString> loaderChosenLibraries(const VerifyReport& report);
// Checks ("arch", so a Fail is a launch blocker through VerifyReport::launchBlockers()): per
// package with variant folders and per GPU with a known compute capability, the library the
// loader picks and whether it carries code for that GPU; a Warn when the GPUs of one host pick
// different variants.
QList<PreflightCheck> loaderCoverageChecks(const VerifyReport& report);

} // namespace kf
