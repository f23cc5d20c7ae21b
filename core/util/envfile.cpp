// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/util/envfile.h"

#include "core/util/secretregistry.h"
#include "core/util/shellquote.h"

#include <QFile>

namespace kf {

Result<QMap<QString, QString>> parseEnvFile(const QByteArray& text, const QString& sourceName)
{
    QMap<QString, QString> env;
    int lineNo = 0;
    for (QByteArray raw : text.split('\n')) {
        ++lineNo;
        if (raw.endsWith('\r'))
            raw.chop(1);
        QString line = QString::fromUtf8(raw);
        if (line.trimmed().isEmpty() || line.trimmed().startsWith(QLatin1Char('#')))
            continue;
        if (line.startsWith(QLatin1String("export ")))
            line = line.mid(7);
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        const QString key = line.left(qMax<qsizetype>(0, eq)).trimmed();
        if (eq <= 0 || !isShellName(key))
            return Result<QMap<QString, QString>>::failure(
                QStringLiteral("%1:%2: not a K=V line").arg(sourceName).arg(lineNo));
        QString value = line.mid(eq + 1);
        if (value.size() >= 2 && (value.front() == QLatin1Char('"') || value.front() == QLatin1Char('\''))
            && value.back() == value.front())
            value = value.mid(1, value.size() - 2);
        SecretRegistry::add(value.toUtf8());
        env.insert(key, value);
    }
    return env;
}

Result<QMap<QString, QString>> readEnvFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Result<QMap<QString, QString>>::failure(
            QStringLiteral("cannot read the environment file %1: %2").arg(path, f.errorString()));
    return parseEnvFile(f.readAll(), path);
}

} // namespace kf
