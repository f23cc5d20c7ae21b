// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/timeseries/seriescsv.h"
#include "core/util/result.h"

#include <QList>
#include <QString>

class QWidget;

namespace kf {

class TimeChart;

// Export of what charts show, the one way every chart does it (a chart's context menu, a
// ChartWindowBar's Export button): CSV of the whole history of the charts' series
// (core/timeseries/seriescsv.h) and PNG of the charts as drawn. The path comes from a file
// dialog (Qt's own, not the platform's, object name "chartExportDialog", so tests drive it);
// where the file went is said in the main window's status bar, or in a message box when the
// charts are not in a main window (a dialog).
namespace chartexport {

Result<void> writeCsv(const QString& path, const QList<CsvSeries>& series);
// `what` as it is drawn now (a chart, or the widget holding several).
Result<void> writePng(const QString& path, QWidget* what);

// Asks where to save (suggested: a file name), writes, and says where it went or why not.
// Returns the path written; empty when cancelled or failed.
QString exportCsv(QWidget* parent, const QList<CsvSeries>& series, const QString& suggested);
QString exportPng(QWidget* parent, QWidget* what, const QString& suggested);
// The whole history of these charts' series, in order (TimeChart::history()).
QList<CsvSeries> historyOf(const QList<TimeChart*>& charts);

// "gpu-utilization-20261202-1108.csv": a file name from a title and the time now.
QString suggestedName(const QString& title, const QString& suffix);

} // namespace chartexport
} // namespace kf
