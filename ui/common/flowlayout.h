// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QLayout>
#include <QList>

namespace kf {

// A row of controls (a pane's toolbar) that wraps onto more rows when the width is short,
// instead of making the window wider: its minimum width is its widest item's. Items keep
// their size hints; a row's spare width goes to its horizontally expanding items (a line
// edit, a combo box set to Expanding), as in a QHBoxLayout. Height for width: the parent
// layout gives it the rows it needs.
class FlowLayout : public QLayout
{
public:
    explicit FlowLayout(QWidget* parent = nullptr);
    ~FlowLayout() override;

    void addItem(QLayoutItem* item) override;
    int count() const override;
    QLayoutItem* itemAt(int index) const override;
    QLayoutItem* takeAt(int index) override;
    Qt::Orientations expandingDirections() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect& rect) override;

private:
    int horizontalGap() const;
    int verticalGap() const;
    // Lays the items out in `rect` (only measures unless apply); returns the height used.
    int layoutRows(const QRect& rect, bool apply) const;

    QList<QLayoutItem*> m_items;
};

} // namespace kf
