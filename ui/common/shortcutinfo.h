// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QKeySequence>
#include <QList>
#include <QString>

namespace kf {

// One keyboard shortcut as Help > Keyboard Shortcuts lists it. Views whose keys are not menu
// actions (the diff's Space / a / r, the review's n / p) describe them with the same table
// their key handling reads, so the list cannot drift from what the keys do.
struct ShortcutInfo
{
    QString where; // "Window", "Hosts", "Patches", "Diff"
    QString what;  // "Next tab"
    QList<QKeySequence> keys;
};

} // namespace kf
