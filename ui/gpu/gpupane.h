// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/gpu/gpuhistory.h"
#include "core/gpu/gpumonitor.h"
#include "ui/appcontext.h"
#include "ui/common/hostpane.h"

#include <QMap>
#include <QTimer>

class QComboBox;
class QGridLayout;
class QLabel;
class QListWidget;
class QPushButton;
class QStackedWidget;
class QTableView;

namespace kf {

class EmptyState;
class GpuCard;
class GpuMonitorHub;
class ProcessModel;
class TimeChart;

// The GPUs of the selected host: a card per GPU, a detail chart (metric and window
// selectable: 5 min, 1 h, 24 h) fed from the monitor's SeriesBuffers decimated to the
// chart's width, the compute process table, the alert list, and CSV export.
class GpuPane : public HostPane
{
    Q_OBJECT
public:
    explicit GpuPane(const AppContext& context, QWidget* parent = nullptr);
    ~GpuPane() override;
    void setHost(HostConnection* host) override;

    GpuMonitor* monitor() const { return m_monitor; }
    TimeChart* detailChart() const { return m_chart; }
    int cardCount() const { return int(m_cards.size()); }
    // Window length in ms of the detail chart.
    qint64 windowMs() const;
    void setWindowIndex(int index);
    void setMetric(GpuField field); // a charted field
    // Writes the history of the current window as CSV; returns an error text or empty.
    QString exportCsv(const QString& path) const;
    // Redraws the detail chart now (normally once a second while visible).
    void refreshChart();

private:
    void attach(GpuMonitor* monitor);
    void onSamples();
    void onProcesses();
    void addAlertLine(const QString& text, bool critical, bool cleared);
    void updateStatus();
    void markStale();

    AppContext m_context;
    GpuMonitorHub* m_hub;
    QPointer<HostConnection> m_host;
    QPointer<GpuMonitor> m_monitor;
    QStackedWidget* m_stack;
    EmptyState* m_empty;
    QLabel* m_status;
    QComboBox* m_metric;
    QComboBox* m_window;
    QPushButton* m_export;
    QWidget* m_cardBox;
    QGridLayout* m_cardGrid;
    QMap<int, GpuCard*> m_cards;
    TimeChart* m_chart;
    ProcessModel* m_processes;
    QTableView* m_processView;
    QListWidget* m_alerts;
    QTimer m_chartTimer;
    int m_highlight = -1;
};

} // namespace kf
