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
class QLabel;
class QListWidget;
class QPushButton;
class QStackedWidget;

namespace kf {

class ChartWindowBar;
class EmptyState;
class GpuCard;
class GpuCardGrid;
class GpuMonitorHub;
class ProcessPanel;
class TimeChart;

// The GPUs of one host: a card per GPU, a detail chart (metric and window selectable through
// the ChartWindowBar: 5 min to all; GPM's SM, tensor and DRAM activity and PCIe / NVLink
// traffic among them where the host streams GPM) fed from the monitor's SeriesBuffers
// decimated to the chart's width, the GPM line (what streams, or why not), the compute process
// table, the alert list, the health check's findings per GPU, and export (the chart's CSV and
// PNG, and every charted field as CSV). Cards whose last sample is old (disconnected,
// nvidia-smi stopped) are greyed and say how old; with no cards the area says why (not
// connected, no NVIDIA driver, nvidia-smi failing).
class GpuPane : public HostPane
{
    Q_OBJECT
public:
    GpuPane(const AppContext& context, HostConnection* host, QWidget* parent = nullptr);
    ~GpuPane() override;

    GpuMonitor* monitor() const { return m_monitor; }
    TimeChart* detailChart() const { return m_chart; }
    int cardCount() const { return int(m_cards.size()); }
    ProcessPanel* processPanel() const { return m_processPanel; }
    // What a click on card `index` does: selects it (highlight, chart, process filter), or
    // clears the selection when it was selected; -1 clears.
    void selectGpu(int index);
    int selectedGpu() const { return m_highlight; }
    // Window length in ms of the detail chart; 0: all of the history.
    qint64 windowMs() const;
    // By position in ChartWindowBar::windows().
    void setWindowIndex(int index);
    ChartWindowBar* chartBar() const { return m_chartBar; }
    void setMetric(GpuField field); // a charted field
    // Writes the history of the current window as CSV; returns an error text or empty.
    QString exportCsv(const QString& path) const;
    // Redraws the detail chart now (normally once a second while visible).
    void refreshChart();
    // The GPM line: what streams, or why GPM is not available.
    QString gpmStatusText() const;
    QListWidget* healthList() const { return m_health; }

private:
    void attach(GpuMonitor* monitor);
    void onSamples();
    void onProcesses();
    void onGpm();
    void onHealth();
    void addAlertLine(const QString& text, bool critical, bool cleared);
    void updateStatus();
    void markStale();
    // Milliseconds since the last block arrived; -1 without one.
    qint64 sampleAgeMs() const;
    bool isStale() const;

protected:
    void showEvent(QShowEvent* event) override;

private:
    AppContext m_context;
    GpuMonitorHub* m_hub;
    QPointer<GpuMonitor> m_monitor;
    QString m_monitorReason;       // why the monitor is in its state (nvidia-smi's words)
    qint64 m_lastArrivalMs = 0;    // this machine's clock when the last block arrived
    bool m_samplesPending = false; // blocks arrived while hidden: redraw the cards when shown
    QLabel* m_status;
    QStackedWidget* m_cardStack; // the cards, or m_noCards saying why there are none
    EmptyState* m_noCards;
    QWidget* m_cardScroll = nullptr;
    QComboBox* m_metric;
    ChartWindowBar* m_chartBar;
    GpuCardGrid* m_cardBox;
    QMap<int, GpuCard*> m_cards;
    TimeChart* m_chart;
    ProcessPanel* m_processPanel;
    QStackedWidget* m_alertStack; // m_noAlerts until the first alert, then m_alerts
    EmptyState* m_noAlerts;
    QListWidget* m_alerts;
    QLabel* m_gpmStatus;
    QListWidget* m_health;
    QTimer m_chartTimer;
    int m_highlight = -1;
};

} // namespace kf
