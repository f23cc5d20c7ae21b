// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/util/pathcheck.h"

#include <QStringList>

namespace kf {

QString firstControlCharacter(const QString& s)
{
    for (const QChar c : s) {
        const char16_t u = c.unicode();
        if (u >= 0x20 && u != 0x7f)
            continue;
        switch (u) {
        case '\n': return QStringLiteral("\\n");
        case '\r': return QStringLiteral("\\r");
        case '\t': return QStringLiteral("\\t");
        default: return QStringLiteral("\\x%1").arg(uint(u), 2, 16, QLatin1Char('0'));
        }
    }
    return {};
}

Result<QString> normalizeRelativePath(const QString& path)
{
    auto refuse = [&](const QString& why) {
        return Result<QString>::failure(QStringLiteral("path \"%1\" leaves the root: %2").arg(path, why));
    };
    if (const QString c = firstControlCharacter(path); !c.isEmpty())
        return Result<QString>::failure(QStringLiteral("path \"%1\" is refused: it contains the control character %2")
                                            .arg(QString(path).replace(QLatin1Char('\n'), QStringLiteral("\\n")), c));
    if (path.startsWith(QLatin1Char('/')))
        return refuse(QStringLiteral("it is absolute"));
    if (path.startsWith(QLatin1Char('~')))
        return refuse(QStringLiteral("it starts with \"~\""));
    QStringList kept;
    for (const QString& part : path.split(QLatin1Char('/'), Qt::SkipEmptyParts)) {
        if (part == QLatin1String("."))
            continue;
        if (part == QLatin1String(".."))
            return refuse(QStringLiteral("it has a \"..\" component"));
        kept.append(part);
    }
    if (kept.isEmpty())
        return Result<QString>::failure(QStringLiteral("path \"%1\" names no file below the root").arg(path));
    return kept.join(QLatin1Char('/'));
}

} // namespace kf
