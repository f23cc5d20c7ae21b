// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/versioncompare.h"

#include "core/remotebuild/buildprofile.h"
#include "core/transport/transport.h"

#include <QByteArrayView>
#include <QList>
#include <QMultiMap>
#include <QString>

// Preflight: is this server ready for a multi-hour build with this profile?
//
// One remote /bin/sh script (preflightScript) gathers facts, run in the profile's working
// directory with its environment; a pure function judges them. The script's output, one
// fact a line, tab-separated ("key \t value"), keys may repeat:
//   cmake \t 3.25.1            ninja \t 1.11.1          nvcc \t 13.0      nvcc_path \t /usr/local/cuda/bin/nvcc
//   python \t 3.11.2           torch \t 2.9.0+cu130     torch_cuda \t 13.0
//   memavailable_kb \t N       memtotal_kb \t N         disk_free_kb \t N   cpus \t N
//   workdir \t ok|missing      cccl_dir \t /usr/local/cuda/include/cccl (when it exists)
//   cmakelists \t <line>       the CMakeLists.txt lines that mention cmake_policy, POLICY,
//                              cccl or cmake_minimum_required (in file order)
//   dflag_env \t NAME=value    a CMake-only variable exported in the server's environment
// A missing tool has no line.
namespace kf {

struct PreflightCheck
{
    enum class Level { Pass, Warn, Fail };
    Level level = Level::Pass;
    QString id;      // "cmake", "nvcc", "cuda-arch", "cmake-policy", "cccl", "ram", "disk", ...
    QString message; // what was found
    QString fix;     // what to do (empty for Pass)
};

QString toString(PreflightCheck::Level l); // "pass", "warn", "fail"

using PreflightFacts = QMultiMap<QString, QString>;
PreflightFacts parsePreflightFacts(QByteArrayView text);
QString preflightScript(const BuildProfile& profile);
QList<PreflightCheck> evaluatePreflight(const PreflightFacts& facts, const BuildProfile& profile);
// Runs the script (blocking; worker thread) and judges it.
Result<QList<PreflightCheck>> runPreflight(Transport& transport, const BuildProfile& profile);

} // namespace kf
