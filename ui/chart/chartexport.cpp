// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/chart/chartexport.h"

#include "ui/chart/timechart.h"
#include "ui/common/exportfolder.h"

#include <QDateTime>
#include <QDir>
#include <QMainWindow>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStatusBar>
#include <QWidget>

namespace kf::chartexport {

namespace {

QString askPath(QWidget* parent, const QString& title, const QString& suggested, const QString& filter)
{
    return exportfolder::askSavePath(parent, title, suggested, filter, QStringLiteral("chartExportDialog"));
}

// Where the file went (or why not): the status bar of the main window, else a message box.
void announce(QWidget* from, const QString& message, bool failed)
{
    QWidget* top = from ? from->window() : nullptr;
    if (auto* main = qobject_cast<QMainWindow*>(top)) {
        main->statusBar()->showMessage(message, 30000);
        return;
    }
    auto* box = new QMessageBox(failed ? QMessageBox::Warning : QMessageBox::Information,
        failed ? QObject::tr("Export failed") : QObject::tr("Exported"), message, QMessageBox::Ok, top);
    box->setObjectName(QStringLiteral("chartExportMessage"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace

Result<void> writeCsv(const QString& path, const QList<CsvSeries>& series)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return Result<void>::failure(QObject::tr("cannot write %1: %2").arg(path, f.errorString()));
    f.write(seriesCsv(series));
    if (!f.commit())
        return Result<void>::failure(QObject::tr("cannot write %1: %2").arg(path, f.errorString()));
    return {};
}

Result<void> writePng(const QString& path, QWidget* what)
{
    if (!what)
        return Result<void>::failure(QObject::tr("nothing to save"));
    // QPixmap::save writes in place; a temporary file renamed over the target keeps an old
    // file whole when the write fails.
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return Result<void>::failure(QObject::tr("cannot write %1: %2").arg(path, f.errorString()));
    if (!what->grab().save(&f, "PNG"))
        return Result<void>::failure(QObject::tr("cannot write %1: the PNG encoder failed").arg(path));
    if (!f.commit())
        return Result<void>::failure(QObject::tr("cannot write %1: %2").arg(path, f.errorString()));
    return {};
}

QString exportCsv(QWidget* parent, const QList<CsvSeries>& series, const QString& suggested)
{
    const QString path = askPath(
        parent, QObject::tr("Export chart data (CSV, whole history)"), suggested, QObject::tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return {};
    if (const Result<void> written = writeCsv(path, series); !written) {
        announce(parent, QObject::tr("Export failed: %1").arg(written.error()), true);
        return {};
    }
    announce(parent, QObject::tr("Chart data saved to %1").arg(QDir::toNativeSeparators(path)), false);
    return path;
}

QString exportPng(QWidget* parent, QWidget* what, const QString& suggested)
{
    const QString path
        = askPath(parent, QObject::tr("Export chart image (PNG)"), suggested, QObject::tr("PNG images (*.png)"));
    if (path.isEmpty())
        return {};
    if (const Result<void> written = writePng(path, what); !written) {
        announce(parent, QObject::tr("Export failed: %1").arg(written.error()), true);
        return {};
    }
    announce(parent, QObject::tr("Chart image saved to %1").arg(QDir::toNativeSeparators(path)), false);
    return path;
}

QList<CsvSeries> historyOf(const QList<TimeChart*>& charts)
{
    QList<CsvSeries> out;
    for (const TimeChart* c : charts)
        if (c)
            out += c->history();
    return out;
}

QString suggestedName(const QString& title, const QString& suffix)
{
    static const QRegularExpression notWord(QStringLiteral("[^a-z0-9]+"));
    QString base = title.toLower().replace(notWord, QStringLiteral("-"));
    while (base.startsWith(u'-'))
        base.remove(0, 1);
    while (base.endsWith(u'-'))
        base.chop(1);
    if (base.isEmpty())
        base = QStringLiteral("chart");
    return base + u'-' + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmm")) + u'.' + suffix;
}

} // namespace kf::chartexport
