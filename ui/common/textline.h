// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QColor>
#include <QTextCursor>

class QPlainTextEdit;

namespace kf {

// Shows line `line` (0-based block) of `view` in the middle of it, the cursor on it and the
// whole line's width marked in `background` (a search hit, the line a diagnostic names).
// With selectLine the line's text is selected too. Returns the cursor it put there.
QTextCursor markLine(QPlainTextEdit* view, int line, const QColor& background, bool selectLine = false);

} // namespace kf
