// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/serverfacts.h"
#include "core/remotebuild/buildprofile.h"
#include "core/transport/transport.h"

#include <QList>
#include <QString>

// Preflight: is this server ready for a multi-hour build with this profile?
//
// The server facts probe (core/hosts/serverfacts.h) runs with a ProjectProbe for the profile
// (its working directory, build folder and environment); a pure function judges the facts with
// the sgl-kernel rules (core/sglkernel/rules.h).
namespace kf {

struct PreflightCheck
{
    enum class Level { Pass, Warn, Fail };
    Level level = Level::Pass;
    QString id; // "tree", "cmake", "nvcc", "cuda-arch", "cmake-policy", "cccl", "ccache", "torch", "ram", "disk", ...
    QString message; // what was found
    QString fix;     // what to do (empty for Pass)
};

QString toString(PreflightCheck::Level l); // "pass", "warn", "fail"

// What the probe needs to look at for this profile.
ProjectProbe preflightProbe(const BuildProfile& profile);
QList<PreflightCheck> evaluatePreflight(const ServerFacts& facts, const BuildProfile& profile);
// Finds the profile's sgl-kernel tree (resolveBuildTree), runs the probe there (blocking;
// worker thread) and judges it.
Result<QList<PreflightCheck>> runPreflight(Transport& transport, const BuildProfile& profile);

} // namespace kf
