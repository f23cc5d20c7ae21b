// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/jobs/jobfolder.h"
#include "core/remotebuild/buildprofile.h"
#include "core/util/result.h"

#include <QMap>
#include <QString>

namespace kf {
class Transport;
}

// Starting a build, one way for the Build pane, `kernelforge-cli build start`, the recipe runner
// and fleet rollouts: a kernel_tree profile's sgl-kernel tree is found (resolveBuildTree, either
// layout), the profile's job starts detached there and its history row is written at once
// (core/remotebuild/buildhistory.h), started on the server's clock, with the profile, the folder
// it builds in and the environment it builds in (buildenvironment.h: the facts probe, taken just
// before the job starts; spec "environment"). Verification (core/verify/provenance.h) and the launch gate judge
// libraries by these rows, so every build is in them, also one that nobody follows to its end. Blocking: a worker
// thread.
namespace kf {

struct BuildStartOptions
{
    QString host;    // the history's host key (Transport::describe())
    QString jobRoot; // empty: kDefaultJobRoot
    // Added to the profile's environment for this job only (a token): never recorded, never on a
    // command line; register it with SecretRegistry before.
    QMap<QString, QString> secretEnv;
    QString actor; // empty: timeline::defaultActor()
};

struct StartedBuild
{
    JobInfo job;
    BuildProfile profile; // as started: working_dir is the tree for a kernel_tree profile
    QString treeNote;     // which tree and layout (empty: not a kernel_tree profile)
    QString historyError; // why the history row was not written (the build runs anyway); empty: written
};

Result<StartedBuild> startRecordedBuild(
    Transport& transport, const BuildProfile& profile, const BuildStartOptions& options);

} // namespace kf
