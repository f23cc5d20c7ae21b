// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QColor>
#include <QProgressBar>

namespace kf {

// A GPU card's Util/Mem bar whose text stays readable over both parts: the filled part is a
// dark fill with light text, the empty part the view's base colour with its text colour; the
// text is drawn twice, each copy clipped to its part (styles draw one colour over both, which
// vanishes over a fill of similar lightness). WCAG contrast of each pair: contrastRatio().
class UsageBar : public QProgressBar
{
    Q_OBJECT
public:
    explicit UsageBar(QWidget* parent = nullptr);
    QColor fillColor() const;
    QColor textOnFill() const;
    QColor emptyColor() const;
    QColor textOnEmpty() const;
    // WCAG 2 contrast ratio of two colours, 1 (same) to 21 (black on white).
    static double contrastRatio(const QColor& a, const QColor& b);

protected:
    void paintEvent(QPaintEvent* event) override;
};

} // namespace kf
