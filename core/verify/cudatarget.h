// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QList>
#include <QString>
#include <QStringView>

#include <optional>

// CUDA code targets (what a library carries) and compute capabilities (what a GPU is), and
// the rule that says which code a GPU can run. The rule (checked on a real H200, compute
// capability 9.0: tests/data/fatbin/h200/run.txt):
//   - SASS sm_XY runs on compute capability X.Z with Z >= Y (same major): sm_80 does not run
//     on 9.0, sm_90 runs on 9.0.
//   - SASS sm_XYa (arch-specific, 'a') runs on exactly X.Y: sm_90a on 9.0 only.
//   - SASS sm_XYf (family-specific, 'f', CUDA 12.9+) runs on X.Z with Z >= Y.
//   - PTX compute_XY is compiled by the driver (JIT) for any X'.Y' >= X.Y: compute_80 runs on
//     9.0, with a slow first launch and without the newer architecture's features.
//   - PTX compute_XYa JITs only for exactly X.Y; compute_XYf for X.Z with Z >= Y.
//   - LTO-IR (lto_XY, -dlto) is not loaded by the driver at all.
// When both fit, the driver takes SASS. Nothing fitting: "no kernel image is available for
// execution on the device" at the first launch, never at import.
namespace kf {

struct CudaTarget
{
    enum class Kind : quint8 { Sass, Ptx, LtoIr };
    enum class Variant : quint8 { None, ArchSpecific, FamilySpecific };
    Kind kind = Kind::Sass;
    int arch = 0; // major * 10 + minor: 90, 100, 120, 86
    Variant variant = Variant::None;

    int major() const { return arch / 10; }
    int minor() const { return arch % 10; }
    // "sm_90a", "compute_80", "sm_100f", "lto_90" (nvcc's spellings).
    QString name() const;
    bool operator==(const CudaTarget&) const = default;
    // Sorts by arch, then SASS before PTX before LTO-IR, then variant.
    bool operator<(const CudaTarget& o) const;
};

// Parses nvcc's spellings: sm_90a, compute_80, sm_100f, lto_90. Empty on anything else.
std::optional<CudaTarget> parseCudaTarget(QStringView text);
// Sorted, without duplicates.
QList<CudaTarget> uniqueTargets(QList<CudaTarget> targets);
QString joinTargetNames(const QList<CudaTarget>& targets);

struct ComputeCapability
{
    int major = 0;
    int minor = 0;
    int number() const { return major * 10 + minor; }
    QString toString() const; // "9.0"
    bool operator==(const ComputeCapability&) const = default;
};
// nvidia-smi's compute_cap: "9.0", "12.0". Empty on anything else.
std::optional<ComputeCapability> parseComputeCapability(QStringView text);

// Whether code for `target` runs on a GPU of compute capability `cc`.
bool runsOn(const CudaTarget& target, ComputeCapability cc);

// What a GPU would run from a library's targets: the SASS the driver picks, else the PTX it
// would JIT, else nothing, with a sentence for people.
struct KernelImageChoice
{
    std::optional<CudaTarget> target;
    bool jit = false;
    // "sm_90a SASS", "JIT from compute_80 PTX (slow first launch)", or why nothing runs:
    // "no kernel image for 9.0: sm_100a and sm_120a run only on 10.0 and 12.0; no PTX".
    QString reason;
    bool runs() const { return target.has_value(); }
};
KernelImageChoice chooseKernelImage(const QList<CudaTarget>& targets, ComputeCapability cc);

} // namespace kf
