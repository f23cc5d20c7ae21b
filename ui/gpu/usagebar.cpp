// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/gpu/usagebar.h"

#include <QPainter>
#include <QPainterPath>

#include <cmath>

namespace kf {

namespace {

double luminance(const QColor& c)
{
    const auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

} // namespace

UsageBar::UsageBar(QWidget* parent)
    : QProgressBar(parent)
{ }

QColor UsageBar::fillColor() const
{
    // A mid-dark blue: white text on it passes 4.5:1 whatever the theme.
    return QColor(0x2b, 0x5c, 0xb8);
}

QColor UsageBar::textOnFill() const
{
    return Qt::white;
}

QColor UsageBar::emptyColor() const
{
    return palette().color(QPalette::Base);
}

QColor UsageBar::textOnEmpty() const
{
    return palette().color(QPalette::Text);
}

double UsageBar::contrastRatio(const QColor& a, const QColor& b)
{
    const double la = luminance(a);
    const double lb = luminance(b);
    return (qMax(la, lb) + 0.05) / (qMin(la, lb) + 0.05);
}

void UsageBar::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QRectF r = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
    QPainterPath outline;
    outline.addRoundedRect(r, 3, 3);
    p.fillPath(outline, emptyColor());
    const double span = double(maximum() - minimum());
    const double frac = span > 0 ? qBound(0.0, double(value() - minimum()) / span, 1.0) : 0.0;
    const QRectF filled(r.left(), r.top(), r.width() * frac, r.height());
    p.save();
    p.setClipRect(filled);
    p.fillPath(outline, fillColor());
    p.restore();
    p.setPen(palette().color(QPalette::Mid));
    p.drawPath(outline);
    if (!isTextVisible())
        return;
    const QString label = text();
    p.save();
    p.setClipRect(filled);
    p.setPen(textOnFill());
    p.drawText(rect(), Qt::AlignCenter, label);
    p.restore();
    p.setClipRect(QRectF(filled.right(), r.top(), r.right() - filled.right() + 1, r.height()));
    p.setPen(textOnEmpty());
    p.drawText(rect(), Qt::AlignCenter, label);
}

} // namespace kf
