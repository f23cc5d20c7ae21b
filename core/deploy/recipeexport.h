// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/deploy/deployrecipe.h"
#include "core/util/result.h"

#include <QString>
#include <QStringList>

// "What worked on this host" as a deployment recipe, from the host's history alone (no
// connection needed):
//   facts    the last facts recorded (facts.changed), each with defaultRule()
//   patches  the newest apply (patch.applied) that went through and still stands (its journal
//            rows are not rolled back), with the review's decisions; a root below the host's
//            home is written ~/..., so it lands in the target's home
//   build    the newest build that succeeded (builds), as it ran (its spec: environment names
//            only), or the local profile of its name when the row has no spec; a promotion after
//            it (build.promoted, ok) gives the install's profile and the promote section instead
//            (the artifact, by name and hash, and its JIT caches where they were seeded)
//   verify   the newest verification that passed (verify.result), as an expectation
//   server   the newest launch (server.launched) that later answered healthy on its port
// What is not there is left out, and notes say why, one line each.
namespace kf::deploy {

struct RecipeExport
{
    DeployRecipe recipe;
    QStringList notes;
};

Result<RecipeExport> exportRecipe(const QString& host, const QString& name = {});

} // namespace kf::deploy
