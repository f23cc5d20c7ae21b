// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QList>
#include <QPointer>
#include <QString>
#include <QWidget>

#include <utility>

class QComboBox;
class QMenu;
class QToolButton;

namespace kf {

class TimeChart;

// The one time-window selector and export button of a pane's charts: 5 min, 1 h, 6 h, 24 h
// or all (the chart's whole history), starting at Preferences::chartWindowSeconds; Export
// offers the CSV of the whole history of the charts' series and a PNG of them as drawn
// (ui/chart/chartexport.h). Panes draw their charts for windowMs() and redraw on
// windowChanged(); each chart's context menu exports that chart alone.
class ChartWindowBar : public QWidget
{
    Q_OBJECT
public:
    explicit ChartWindowBar(QWidget* parent = nullptr);

    // The windows offered, in order: label and length (0: all).
    static QList<std::pair<QString, qint64>> windows();
    // The shown window for data from firstMs to lastMs: [lastMs - windowMs, lastMs], or the
    // whole history for "all" (at least 10 s, so a young series is not one pixel wide).
    static std::pair<qint64, qint64> range(qint64 windowMs, qint64 firstMs, qint64 lastMs);

    // The chosen window in ms; 0: all.
    qint64 windowMs() const;
    std::pair<qint64, qint64> range(qint64 firstMs, qint64 lastMs) const { return range(windowMs(), firstMs, lastMs); }
    // By position in windows() (tests, panes restoring a choice).
    void setWindowIndex(int index);
    int windowIndex() const;

    // What Export saves: these charts' series (CSV) and `area` as drawn (PNG; null: the one
    // chart). `name` starts the suggested file names.
    void setCharts(const QList<TimeChart*>& charts, QWidget* area, const QString& name);
    // The Export button's menu, for a pane's own export (the GPU pane's every-field CSV).
    QMenu* exportMenu() const { return m_menu; }
    // Export without the menu (what its two entries do); the path written, empty if cancelled.
    QString exportCsv();
    QString exportPng();

Q_SIGNALS:
    void windowChanged(qint64 windowMs);

private:
    QComboBox* m_window;
    QToolButton* m_export;
    QMenu* m_menu;
    QList<QPointer<TimeChart>> m_charts;
    QPointer<QWidget> m_area;
    QString m_name;
};

} // namespace kf
