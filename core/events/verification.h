// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// What a post-build verification found, as the timeline keeps it (event kind verify.result)
// and a deployment recipe expects it (core/deploy/deployrecipe.h): the small interface
// between the verifier (core/verify: kernelforge-cli verify) and the rest. The verifier
// fills one in from its report and records it with timeline::recordVerification().
//
// details JSON of a verify.result event:
//   {"ok": bool, "summary": "...", "dir": "/abs/folder",
//    "import_ok": bool|null, "fa3": bool|null (flash_ops importable; null: not tried),
//    "gpus": ["9.0", ...] (compute capabilities),
//    "launch_blockers": ["sm100a.so cannot run on GPUs 0-7: ...", ...] (what makes a server
//                       launch fail: VerifyReport::launchBlockers(); absent in older events: none known),
//    "libraries": [{"name": "common_ops.abi3.so", "origin": "build"|"package",
//                   "targets": ["sm_90a", "compute_90a", ...]}],
//    "home": "/home/u" (the server's $HOME: a build profile's "~/x" is home/x),
//    "made_by": ["20261204-101500-ab12", ...] (the builds that made the libraries; absent: none known)}
namespace kf::timeline {

struct VerifiedLibrary
{
    QString name;        // file name
    QString origin;      // "build" or "package"
    QStringList targets; // SASS "sm_90a" and PTX "compute_90a" names, sorted
    bool operator==(const VerifiedLibrary&) const = default;
};

struct VerificationResult
{
    bool ok = false;
    QString summary; // one line
    QString dir;
    std::optional<bool> importOk;
    std::optional<bool> fa3;
    QStringList gpuCapabilities;
    QList<VerifiedLibrary> libraries;
    QStringList launchBlockers; // the failed checks a server launch cannot get past, one line each
    QString home;
    QStringList madeBy; // job ids (core/verify/provenance.h)

    QJsonObject toJson() const;
    static VerificationResult fromJson(const QJsonObject& object);
    bool operator==(const VerificationResult&) const = default;
};

// The library's name without the Python ABI tag: "common_ops" for common_ops.abi3.so and
// common_ops.cpython-311-x86_64-linux-gnu.so, so one build compares across Pythons.
QString libraryStem(const QString& fileName);

// A post-build verification (the verifier's one line after it ran) in the host's timeline as a
// verify.result event; a failure to record is logged, never returned.
void recordVerification(const QString& host, const VerificationResult& result);

} // namespace kf::timeline
