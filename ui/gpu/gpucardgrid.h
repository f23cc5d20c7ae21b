// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QList>
#include <QWidget>

class QGridLayout;

namespace kf {

class GpuCard;

// The GPU cards in a grid that reflows: as many columns as fit the width (at most
// maxColumns, at least one), so a narrow window gets fewer columns and more rows instead of
// a horizontal scrollbar or clipped cards. Its minimum width is one card's; its minimum
// height follows the rows (a QScrollArea around it scrolls vertically).
class GpuCardGrid : public QWidget
{
    Q_OBJECT
public:
    explicit GpuCardGrid(QWidget* parent = nullptr);
    // The cards in order; the grid lays them out (it does not own them).
    void setCards(const QList<GpuCard*>& cards);
    int columns() const { return m_columns; }
    static constexpr int kMaxColumns = 4;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void relayout(bool force);
    int columnsFor(int width) const;

    QGridLayout* m_grid;
    QList<GpuCard*> m_cards;
    int m_columns = 0;
};

} // namespace kf
