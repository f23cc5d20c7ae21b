// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/patch/review.h"

#include <QIcon>

namespace kf {

// The patch tree's icon for a review state: a coloured disc with a glyph (+ will apply,
// ± partly chosen, × rejected, ½ partly applied, ✓ applied, – not applicable, ! conflict), so
// the state reads without colour too.
QIcon reviewStateIcon(patch::ReviewState state);

} // namespace kf
