// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/common/flowlayout.h"

#include <QStyle>
#include <QWidget>

namespace kf {

namespace {
constexpr int kDefaultGap = 6;
} // namespace

FlowLayout::FlowLayout(QWidget* parent)
    : QLayout(parent)
{ }

FlowLayout::~FlowLayout()
{
    while (QLayoutItem* item = takeAt(0))
        delete item;
}

void FlowLayout::addItem(QLayoutItem* item)
{
    m_items.append(item);
    invalidate();
}

int FlowLayout::count() const
{
    return int(m_items.size());
}

QLayoutItem* FlowLayout::itemAt(int index) const
{
    return m_items.value(index);
}

QLayoutItem* FlowLayout::takeAt(int index)
{
    if (index < 0 || index >= m_items.size())
        return nullptr;
    QLayoutItem* item = m_items.takeAt(index);
    invalidate();
    return item;
}

Qt::Orientations FlowLayout::expandingDirections() const
{
    for (const QLayoutItem* item : m_items)
        if (!item->isEmpty() && (item->expandingDirections() & Qt::Horizontal))
            return Qt::Horizontal;
    return {};
}

int FlowLayout::heightForWidth(int width) const
{
    return layoutRows(QRect(0, 0, width, 0), false);
}

QSize FlowLayout::minimumSize() const
{
    QSize size;
    for (const QLayoutItem* item : m_items)
        if (!item->isEmpty())
            size = size.expandedTo(item->minimumSize()).expandedTo(QSize(0, item->sizeHint().height()));
    const QMargins m = contentsMargins();
    return size + QSize(m.left() + m.right(), m.top() + m.bottom());
}

QSize FlowLayout::sizeHint() const
{
    // All on one row.
    int width = 0;
    int height = 0;
    int shown = 0;
    for (const QLayoutItem* item : m_items) {
        if (item->isEmpty())
            continue;
        width += item->sizeHint().width();
        height = qMax(height, item->sizeHint().height());
        ++shown;
    }
    const QMargins m = contentsMargins();
    return { width + qMax(0, shown - 1) * horizontalGap() + m.left() + m.right(), height + m.top() + m.bottom() };
}

void FlowLayout::setGeometry(const QRect& rect)
{
    QLayout::setGeometry(rect);
    layoutRows(rect, true);
}

int FlowLayout::horizontalGap() const
{
    if (spacing() >= 0)
        return spacing();
    const QWidget* w = parentWidget();
    const int gap = w ? w->style()->pixelMetric(QStyle::PM_LayoutHorizontalSpacing, nullptr, w) : -1;
    return gap >= 0 ? gap : kDefaultGap;
}

int FlowLayout::verticalGap() const
{
    if (spacing() >= 0)
        return spacing();
    const QWidget* w = parentWidget();
    const int gap = w ? w->style()->pixelMetric(QStyle::PM_LayoutVerticalSpacing, nullptr, w) : -1;
    return gap >= 0 ? gap : kDefaultGap;
}

int FlowLayout::layoutRows(const QRect& rect, bool apply) const
{
    const QRect area = rect.marginsRemoved(contentsMargins());
    const int hGap = horizontalGap();
    const int vGap = verticalGap();
    QList<QLayoutItem*> shown;
    for (QLayoutItem* item : m_items)
        if (!item->isEmpty())
            shown.append(item);
    int y = area.y();
    qsizetype first = 0;
    while (first < shown.size()) {
        // The row: as many items as fit (at least one).
        qsizetype end = first;
        int used = 0;
        int rowHeight = 0;
        int expanding = 0;
        while (end < shown.size()) {
            const int w = qMin(shown[end]->sizeHint().width(), qMax(area.width(), shown[end]->minimumSize().width()));
            const int next = used + (end > first ? hGap : 0) + w;
            if (end > first && next > area.width())
                break;
            used = next;
            rowHeight = qMax(rowHeight, shown[end]->sizeHint().height());
            if (shown[end]->expandingDirections() & Qt::Horizontal)
                ++expanding;
            ++end;
        }
        if (apply) {
            // The spare width goes to the expanding items, the last one taking the remainder.
            int spare = qMax(0, area.width() - used);
            int x = area.x();
            for (qsizetype i = first; i < end; ++i) {
                QLayoutItem* item = shown[i];
                int w = qMin(item->sizeHint().width(), qMax(area.width(), item->minimumSize().width()));
                if (expanding > 0 && (item->expandingDirections() & Qt::Horizontal)) {
                    const int extra = spare / expanding;
                    w += extra;
                    spare -= extra;
                    --expanding;
                }
                const int h = (item->expandingDirections() & Qt::Vertical) ? rowHeight
                                                                           : qMin(rowHeight, item->sizeHint().height());
                item->setGeometry(QRect(x, y + (rowHeight - h) / 2, w, h));
                x += w + hGap;
            }
        }
        y += rowHeight + vGap;
        first = end;
    }
    if (!shown.isEmpty())
        y -= vGap;
    return y - area.y() + contentsMargins().top() + contentsMargins().bottom();
}

} // namespace kf
