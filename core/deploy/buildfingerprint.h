// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/serverfacts.h"
#include "core/remotebuild/buildenvironment.h"
#include "core/verify/cudatarget.h"

#include <QJsonObject>
#include <QStringList>

#include <optional>

// What decides whether a build made on one host runs on another (issue #36: promote a verified
// build instead of building it again). Taken from the source host's facts when its build passed
// verification, and held against each target's facts. Its environment part is the one recorded
// with the build's history row when it started (core/remotebuild/buildenvironment.h):
//   arch           equal (x86_64, aarch64)
//   glibc          the target's at least the source's (a library runs on the glibc it was linked
//                  against and newer)
//   Python ABI     equal SOABI (cpython-312-x86_64-linux-gnu): an extension is built for one
//   torch          equal version, local tag included (2.9.1+cu130): extensions link its C++ API
//   torch C++ ABI  equal _GLIBCXX_USE_CXX11_ABI where both are known
//   CUDA           the target's driver runs the toolkit the build used (CUDA's minor-version
//                  compatibility: 11.x needs >= 450.80.02, 12.x >= 525.60.13, 13.x >= 580)
//   GPUs           every GPU of the target runs code from the library's targets (cudatarget.h)
// (a build without device code, host-compiled only, asks nothing of the driver and the GPUs)
// What cannot be asked on the target is a refusal too: a promotion never guesses.
namespace kf::deploy {

struct BuildFingerprint
{
    BuildEnvironment environment; // arch, glibc, Python ABI, torch and its C++ ABI, the CUDA toolkit
    QList<CudaTarget> targets;    // the built libraries' SASS/PTX targets, from the verification
    QString patchPlan;            // the patch state it was built from (the plan's fingerprint hash)
    QString profile;              // the build profile's name

    QJsonObject toJson() const;
    static BuildFingerprint fromJson(const QJsonObject& o);
    bool operator==(const BuildFingerprint&) const = default;
};

BuildFingerprint fingerprintOf(const BuildEnvironment& source, const QList<CudaTarget>& targets,
    const QString& patchPlan = {}, const QString& profile = {});

// The driver a CUDA toolkit's code needs at least ("580" for 13.x); empty for an unknown major.
QString minimumDriverFor(const QString& cudaToolkit);

// Why the build does not fit the target, one sentence each naming both sides ("torch 2.9.1+cu130
// here, 2.9.0+cu129 on gpu-b"); empty: it fits. targetName is how the sentences name the target.
QStringList promotionRefusals(const BuildFingerprint& built, const ServerFacts& target, const QString& targetName);

} // namespace kf::deploy
