// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/reviewdecision.h"

#include <QCryptographicHash>

namespace kf::patch {

QString hunkId(const QStringList& oldLines, const QStringList& newLines)
{
    QCryptographicHash h(QCryptographicHash::Sha256);
    for (const QString& l : oldLines)
        h.addData((l + QLatin1Char('\n')).toUtf8());
    h.addData(QByteArrayView("\0", 1));
    for (const QString& l : newLines)
        h.addData((l + QLatin1Char('\n')).toUtf8());
    return QString::fromLatin1(h.result().toHex().left(16));
}

} // namespace kf::patch
