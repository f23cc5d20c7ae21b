// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"

#include <QDateTime>
#include <QJsonObject>
#include <QMetaType>
#include <QString>
#include <QStringList>

// One entry of a host's deployment timeline: something KernelForge did or saw on that host,
// when, by whom, in one line for people and as details for tools.
//
// Kinds (stable strings, the JSON "kind"; a kind this version does not know is kept and shown):
//   patch.planned      a patch set planned on a root: statuses per patch
//   patch.applied      an apply: set, root, files (journal ids, hashes), the review's choices
//   patch.rolled_back  a rollback: the journal entries undone or refused
//   build.started      \ read from the builds table (core/remotebuild/buildhistory): profile,
//   build.finished     / flags, env names, exit status, duration, OOM, first error
//   build.promoted     a verified build sent to this host from another (core/deploy/promotestep.h):
//                      ok, refused (the differences) or failed; the artifact's hash, the fingerprint
//   verify.result      a post-build verification (core/events/verification.h)
//   server.launched    an inference server started: model, TP, port, arguments, job id
//   server.healthy     the server's /health answered 200 after it did not (or first seen so)
//   server.unhealthy   it stopped answering 200 after it did
//   server.stopped     the server's job ended: exit status, cancelled or not
//   bench.run          a serving benchmark, read from bench_runs (core/servebench/benchstore)
//   facts.changed      the tool versions on the host differ from the last ones seen
//   connection.lost    a Ready connection dropped   connection.restored   it came back
//   recipe.step        one step of `recipe apply` (core/deploy): facts, plan, apply, build,
//                      verify, launch with its outcome
namespace kf::timeline {

namespace kind {
inline const QString PatchPlanned = QStringLiteral("patch.planned");
inline const QString PatchApplied = QStringLiteral("patch.applied");
inline const QString PatchRolledBack = QStringLiteral("patch.rolled_back");
inline const QString BuildStarted = QStringLiteral("build.started");
inline const QString BuildFinished = QStringLiteral("build.finished");
inline const QString BuildPromoted = QStringLiteral("build.promoted");
inline const QString VerifyResult = QStringLiteral("verify.result");
inline const QString ServerLaunched = QStringLiteral("server.launched");
inline const QString ServerHealthy = QStringLiteral("server.healthy");
inline const QString ServerUnhealthy = QStringLiteral("server.unhealthy");
inline const QString ServerStopped = QStringLiteral("server.stopped");
inline const QString BenchRun = QStringLiteral("bench.run");
inline const QString FactsChanged = QStringLiteral("facts.changed");
inline const QString ConnectionLost = QStringLiteral("connection.lost");
inline const QString ConnectionRestored = QStringLiteral("connection.restored");
inline const QString RecipeStep = QStringLiteral("recipe.step");
} // namespace kind

// Every kind above, in the order the timeline draws their lanes.
QStringList knownKinds();
// "patch", "build", "verify", "server", "bench", "facts", "connection", "recipe": the lane.
QString category(const QString& kind);
// The lanes in drawing order: the categories of knownKinds().
QStringList categories();
// The lane's colour, "#rrggbb" (the window and the HTML report draw alike).
QString categoryColor(const QString& category);
// The pane an event came from, as the window names its tabs: "patches", "build",
// "server", "overview" (a recipe step names its own in details.pane).
QString paneFor(const QString& kind, const QJsonObject& details = {});

struct Event
{
    qint64 id = 0;  // the events row; 0 for events read from another table
    QDateTime time; // UTC
    QString host;   // hostKey() of the host (core/timeline/hostkey.h)
    QString kind;
    QString actor; // who did or saw it: "alice (kernelforge-cli)"; empty when not known
    QString summary;
    QJsonObject details;
    QString source = QStringLiteral("events"); // the table it was read from: events, builds, bench_runs
    // Optional: an event with a key is recorded once (a second record() with it is ignored).
    QString key;

    // {"time": ISO 8601 UTC with ms, "host", "kind", "actor", "summary", "details", "source"}.
    QJsonObject toJson() const;
    static Result<Event> fromJson(const QJsonObject& object);
    bool operator==(const Event&) const = default;
};

// Whether the event reports something that went wrong: a build that did not succeed, a
// failed verification or recipe step, an apply with refusals, a server gone unhealthy, a
// lost connection. Drawn ringed in red.
bool isFailure(const Event& event);

} // namespace kf::timeline

Q_DECLARE_METATYPE(kf::timeline::Event)
