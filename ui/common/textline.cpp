// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/common/textline.h"

#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTextEdit>

namespace kf {

QTextCursor markLine(QPlainTextEdit* view, int line, const QColor& background, bool selectLine)
{
    QTextCursor c(view->document()->findBlockByNumber(line));
    if (selectLine)
        c.select(QTextCursor::LineUnderCursor);
    view->setTextCursor(c);
    view->centerCursor();
    QTextEdit::ExtraSelection mark;
    mark.cursor = c;
    mark.format.setBackground(background);
    mark.format.setProperty(QTextFormat::FullWidthSelection, true);
    view->setExtraSelections({ mark });
    return c;
}

} // namespace kf
