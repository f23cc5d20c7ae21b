// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QList>
#include <QPair>
#include <QString>

namespace kf {

// Versions of KernelForge and the libraries it was built with and runs against.
// extra: more rows from the caller (the GUI adds the active highlighter).
QList<QPair<QString, QString>> componentVersions();
QString versionReport(const QString& program, const QList<QPair<QString, QString>>& extra = {});

} // namespace kf
