// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/common/verticalscrollarea.h"

#include <QEvent>
#include <QLayout>
#include <QScrollBar>

namespace kf {

namespace {
// Enough for a row or two of the content: the window's height is not held up by this pane.
constexpr int kMinimumHeight = 80;

// What the content can shrink to: its layout's minimum, or its own minimum size.
QSize contentMinimum(const QWidget* content)
{
    QSize size = content->minimumSizeHint();
    if (content->layout())
        size = size.expandedTo(content->layout()->totalMinimumSize());
    return size.expandedTo(content->minimumSize());
}
} // namespace

VerticalScrollArea::VerticalScrollArea(QWidget* content, QWidget* parent)
    : QScrollArea(parent)
{
    setObjectName(QStringLiteral("verticalScrollArea"));
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Expanding);
    setWidget(content);
    // The content's minimum width is ours: follow it when its layout changes.
    content->installEventFilter(this);
}

int VerticalScrollArea::chromeWidth() const
{
    // The vertical scroll bar is counted even while hidden: showing it must not cut the content.
    return 2 * frameWidth() + verticalScrollBar()->sizeHint().width();
}

QSize VerticalScrollArea::minimumSizeHint() const
{
    const QWidget* content = widget();
    if (!content)
        return QScrollArea::minimumSizeHint();
    return { contentMinimum(content).width() + chromeWidth(),
        qMin(kMinimumHeight, contentMinimum(content).height()) + 2 * frameWidth() };
}

QSize VerticalScrollArea::sizeHint() const
{
    const QWidget* content = widget();
    if (!content)
        return QScrollArea::sizeHint();
    const QSize hint = content->sizeHint().expandedTo(contentMinimum(content));
    return { hint.width() + chromeWidth(), hint.height() + 2 * frameWidth() };
}

bool VerticalScrollArea::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == widget() && event->type() == QEvent::LayoutRequest)
        updateGeometry();
    return QScrollArea::eventFilter(watched, event);
}

} // namespace kf
