// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QScrollArea>

namespace kf {

// A pane's part that may be taller than a small window (1024x640): it scrolls vertically, never
// sideways. Its minimum width is its content's minimum width (plus the scroll bar), so the
// content is never cut on the right; its minimum height is small, so it does not hold the
// window's height up. With room to spare the content stretches to fill it, as without a
// scroll area. Content that should wrap or reflow to the width (word-wrapped labels, a
// FlowLayout, a reflowing grid) does.
class VerticalScrollArea : public QScrollArea
{
    Q_OBJECT
public:
    explicit VerticalScrollArea(QWidget* content, QWidget* parent = nullptr);

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    int chromeWidth() const;
};

} // namespace kf
