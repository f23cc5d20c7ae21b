// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/patch/stateicon.h"

#include <QPainter>
#include <QPixmap>

namespace kf {

QIcon reviewStateIcon(patch::ReviewState s)
{
    QColor color;
    QString glyph;
    switch (s) {
    case patch::ReviewState::WillApply:
        color = QColor(0x1f, 0x6f, 0xeb);
        glyph = QStringLiteral("+");
        break;
    case patch::ReviewState::Partly:
        color = QColor(0x9a, 0x67, 0x00);
        glyph = QStringLiteral("\u00b1");
        break;
    case patch::ReviewState::Rejected:
        color = QColor(0x8c, 0x95, 0x9f);
        glyph = QStringLiteral("\u00d7");
        break;
    case patch::ReviewState::PartlyApplied:
        color = QColor(0x1a, 0x7f, 0x37);
        glyph = QStringLiteral("\u00bd");
        break;
    case patch::ReviewState::AlreadyApplied:
        color = QColor(0x1a, 0x7f, 0x37);
        glyph = QStringLiteral("\u2713");
        break;
    case patch::ReviewState::NotApplicable:
        color = QColor(0x8c, 0x95, 0x9f);
        glyph = QStringLiteral("\u2013");
        break;
    case patch::ReviewState::Conflict:
        color = QColor(0xcf, 0x22, 0x2e);
        glyph = QStringLiteral("!");
        break;
    }
    QPixmap pm(32, 32);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.setBrush(color);
    p.setPen(Qt::NoPen);
    p.drawEllipse(2, 2, 28, 28);
    p.setPen(Qt::white);
    QFont f = p.font();
    f.setPixelSize(20);
    f.setBold(true);
    p.setFont(f);
    p.drawText(QRect(0, 0, 32, 32), Qt::AlignCenter, glyph);
    return QIcon(pm);
}

} // namespace kf
