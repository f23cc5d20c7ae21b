// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

// A reviewer's decisions on one patch, written down so that another plan of the same set
// (on another host: a deployment recipe, core/deploy) can be reviewed the same way
// (patch::Review::decisions() / applyDecisions()). A hunk is named by what it changes, as
// Review keeps decisions across re-plans: hunkId() of its old and new lines.
namespace kf::patch {

struct RejectedHunk
{
    int index = 0; // 1-based, in the source plan (for people; matching uses id)
    QString id;    // hunkId()
    bool operator==(const RejectedHunk&) const = default;
};

struct DecisionRecord
{
    QString patchId;
    QString file;
    bool accepted = true;              // false: the whole patch was rejected
    QList<RejectedHunk> rejectedHunks; // of an accepted patch
    bool operator==(const DecisionRecord&) const = default;
};

// The first 16 hex digits of SHA-256 over the old lines, a NUL, and the new lines (each
// line followed by '\n').
QString hunkId(const QStringList& oldLines, const QStringList& newLines);

} // namespace kf::patch
