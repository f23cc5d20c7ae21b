// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

// The inference server's launches, stops and health turns in the host's timeline
// (core/events/eventlog.h), one call where each happens. A failure to record is logged, never
// returned. Blocking on the local database only; any thread.
namespace kf {
struct ServerLaunchProfile;
struct ServerStatus;
} // namespace kf

namespace kf::timeline {

// The inference server (core/server): launched as a detached job, its job ended.
// forcedPast: the refusals a forced launch went past (launchpolicy.h); empty for a plain launch.
void recordServerLaunched(
    const QString& host, const ServerLaunchProfile& profile, const QString& jobId, const QStringList& forcedPast = {});
// A launch's profile as its server.launched event holds it (name, python, model_path, tp, port,
// enable_metrics, extra_args, demo), and back: the one reading of it (recipe export, JIT caches).
QJsonObject launchDetails(const ServerLaunchProfile& profile);
ServerLaunchProfile launchProfileFromDetails(const QJsonObject& details);
void recordServerStopped(const QString& host, const QString& jobId, int exitStatus, bool cancelled);
// A poll's answer after the previous one (null: the first): server.healthy when /health turned
// 200, server.unhealthy when it stopped being 200. Anything else records nothing.
void recordServerHealth(const QString& host, const ServerStatus* previous, const ServerStatus& now);

} // namespace kf::timeline
