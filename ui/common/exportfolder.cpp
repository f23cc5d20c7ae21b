// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/common/exportfolder.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace kf::exportfolder {

namespace {
const QString kKey = QStringLiteral("export/lastFolder");
}

QString folder()
{
    const QString last = QSettings().value(kKey).toString();
    if (!last.isEmpty() && QFileInfo(last).isDir())
        return last;
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (!documents.isEmpty() && QFileInfo(documents).isDir())
        return documents;
    return QDir::homePath();
}

void remember(const QString& path)
{
    if (!path.isEmpty())
        QSettings().setValue(kKey, QFileInfo(path).absolutePath());
}

QString askSavePath(
    QWidget* parent, const QString& title, const QString& fileName, const QString& filter, const QString& objectName)
{
    QFileDialog dialog(parent, title, folder(), filter);
    dialog.setObjectName(objectName);
    dialog.setOption(QFileDialog::DontUseNativeDialog, true);
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setFileMode(QFileDialog::AnyFile);
    dialog.selectFile(fileName);
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return {};
    const QString path = dialog.selectedFiles().first();
    remember(path);
    return path;
}

} // namespace kf::exportfolder
