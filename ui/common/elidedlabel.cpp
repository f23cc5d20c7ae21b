// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/common/elidedlabel.h"
#include "ui/common/plaintext.h"

#include <QHelpEvent>
#include <QPainter>
#include <QStyle>
#include <QToolTip>

namespace kf {

ElidedLabel::ElidedLabel(QWidget* parent, Qt::TextElideMode mode)
    : QLabel(parent)
    , m_mode(mode)
{
    setTextFormat(Qt::PlainText);
    setWordWrap(false);
}

bool ElidedLabel::isElided() const
{
    return shownText() != text();
}

QString ElidedLabel::shownText() const
{
    return fontMetrics().elidedText(text(), m_mode, contentsRect().width());
}

QString ElidedLabel::effectiveToolTip() const
{
    if (!toolTip().isEmpty())
        return toolTip();
    return isElided() ? text() : QString();
}

QSize ElidedLabel::minimumSizeHint() const
{
    // A few characters and the ellipsis; the rest is cut.
    const QMargins m = contentsMargins();
    const int width = fontMetrics().horizontalAdvance(QStringLiteral("MMM\u2026"));
    return { qMin(width, QLabel::minimumSizeHint().width()) + m.left() + m.right(),
        QLabel::minimumSizeHint().height() };
}

bool ElidedLabel::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip && toolTip().isEmpty()) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (isElided())
            QToolTip::showText(help->globalPos(), plainToolTip(text()), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QLabel::event(event);
}

void ElidedLabel::paintEvent(QPaintEvent* event)
{
    Q_UNUSED(event)
    QPainter painter(this);
    style()->drawItemText(
        &painter, contentsRect(), int(alignment()), palette(), isEnabled(), shownText(), foregroundRole());
}

} // namespace kf
