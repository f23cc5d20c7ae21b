// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"

#include <QByteArray>
#include <QMap>
#include <QString>

namespace kf {

// An environment file (`build start --env-file`, `recipe apply --env-file`): K=V lines; blank
// lines and # comments skipped, an `export ` prefix and one pair of quotes around the value
// dropped (no escapes). The values are secrets: each is registered for redaction
// (core/util/secretregistry.h) as it is read. Errors name the line ("FILE:3: not a K=V line").
Result<QMap<QString, QString>> parseEnvFile(const QByteArray& text, const QString& sourceName);
// Reads and parses the file.
Result<QMap<QString, QString>> readEnvFile(const QString& path);

} // namespace kf
