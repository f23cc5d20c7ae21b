// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/patch/patchplan.h"

#include <QList>
#include <QString>

// Putting some of a patch's hunks onto a file's text (pure): what a review's choice writes,
// and what a file planned from its base gets when every missing hunk is added.
//
// A hunk is placed on the text reached so far by lining up the patch's planned "before" text
// with it (textdiff::lineMap): while that text is the plan's own, that is the plan's step,
// byte for byte. When the lines a hunk replaces (or the place it inserts at) are no longer
// side by side there, because a rejected earlier hunk changed them, it cannot be placed: it
// is "blocked". Hunks already in the file (PatchHunk::inPlace) are never placed again.
namespace kf::patch {

struct FileText
{
    bool exists = false;
    QString text;
};

struct PlacedHunks
{
    QList<bool> blocked; // per hunk: taken, but its place is not in the text
    int placed = 0;      // hunks put in
    bool touched = false;
};

// Puts the hunks of `p` with take[h] set onto *file. existedInPlan: the file existed before
// this patch in the plan (a patch that creates or deletes it).
PlacedHunks placeHunks(const PatchPlan& p, const QList<bool>& take, bool existedInPlan, FileText* file);

} // namespace kf::patch
