// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QString>

class QWidget;

namespace kf::exportfolder {

// Where every export's save dialog opens (charts' CSV and PNG, the GPU history, the timeline's
// report and recipe): the folder the last export was saved to, while it exists; else the
// user's Documents folder, while it exists; else the home folder. One rule, so no export
// opens in the working directory the app happened to start in.
QString folder();
// Remembers the folder of `path`, a file an export just wrote.
void remember(const QString& path);

// The save dialog every export uses: Qt's own (not the platform's, so tests drive it by
// objectName), opened in folder() with `fileName` suggested; the folder of the path chosen is
// remembered. Empty when cancelled.
QString askSavePath(QWidget* parent, const QString& title, const QString& fileName, const QString& filter,
    const QString& objectName = QStringLiteral("exportDialog"));

} // namespace kf::exportfolder
