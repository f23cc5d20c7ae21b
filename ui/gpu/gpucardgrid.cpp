// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/gpu/gpucardgrid.h"

#include "ui/gpu/gpucard.h"

#include <QGridLayout>
#include <QResizeEvent>

namespace kf {

GpuCardGrid::GpuCardGrid(QWidget* parent)
    : QWidget(parent)
    , m_grid(new QGridLayout(this))
{
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setSpacing(6);
    // The layout must not raise the minimum width to its current columns' width: the width
    // decides the columns, not the other way round.
    m_grid->setSizeConstraint(QLayout::SetNoConstraint);
    setMinimumWidth(GpuCard::kMinimumWidth);
}

void GpuCardGrid::setCards(const QList<GpuCard*>& cards)
{
    m_cards = cards;
    relayout(true);
}

int GpuCardGrid::columnsFor(int width) const
{
    const int spacing = m_grid->horizontalSpacing();
    int cardWidth = GpuCard::kMinimumWidth;
    for (const GpuCard* card : m_cards)
        cardWidth = qMax(cardWidth, card->minimumSizeHint().width());
    const int fit = (width + spacing) / (cardWidth + spacing);
    return qBound(1, fit, kMaxColumns);
}

void GpuCardGrid::relayout(bool force)
{
    const int columns = columnsFor(width());
    if (!force && columns == m_columns)
        return;
    m_columns = columns;
    for (GpuCard* card : std::as_const(m_cards))
        m_grid->removeWidget(card);
    for (int c = 0; c < kMaxColumns; ++c)
        m_grid->setColumnStretch(c, c < columns ? 1 : 0);
    for (qsizetype i = 0; i < m_cards.size(); ++i)
        m_grid->addWidget(m_cards[i], int(i / columns), int(i % columns));
    // Rows of the tallest card: the scroll area scrolls what does not fit.
    int cardHeight = 0;
    for (const GpuCard* card : std::as_const(m_cards))
        cardHeight = qMax(cardHeight, card->minimumSizeHint().height());
    const int rows = int((m_cards.size() + columns - 1) / columns);
    setMinimumHeight(rows > 0 ? rows * cardHeight + (rows - 1) * m_grid->verticalSpacing() : 0);
}

void GpuCardGrid::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (event->size().width() != event->oldSize().width())
        relayout(false);
}

} // namespace kf
