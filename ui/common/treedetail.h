// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QString>

class QTreeWidget;
class QWidget;

namespace kf {

// The tree over a pane (a QTextBrowser named detailName) that shows its current row in full,
// wrapped: long messages, hints and fixes do not fit a column. Returns the splitter holding both,
// with the tree's parent as its parent.
QWidget* treeWithDetail(QTreeWidget* tree, const QString& detailName);

} // namespace kf
