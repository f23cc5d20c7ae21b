// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/fleet/fleethost.h"
#include "core/util/jobtracker.h"

#include <QDialog>

#include <memory>

class QLabel;

namespace kf {

class ChartWindowBar;
class TimeChart;
namespace fleet {
class PromClient;
}

// One host of the Prometheus fleet: its GPUs over the last 24 h (query_range at the scrape
// interval, coarser where a series would pass Prometheus' 11000 points), one line per GPU,
// its server's tokens/s, and a button for the live SSH stream (the host's own tabs). The
// charts show the last 5 min to 24 h of it, or all of it (ChartWindowBar).
class HostDetailDialog : public QDialog
{
    Q_OBJECT
public:
    HostDetailDialog(const fleet::FleetHost& host, std::shared_ptr<fleet::PromClient> client, double scrapeIntervalS,
        QWidget* parent = nullptr);
    ~HostDetailDialog() override;
    QList<TimeChart*> charts() const { return m_charts; }
    int chartsLoaded() const { return m_loaded; }
    ChartWindowBar* chartBar() const { return m_bar; }

Q_SIGNALS:
    void liveStreamRequested();
    void chartsReady(); // every chart answered (or failed, with its message)

private:
    void showWindow();

    fleet::FleetHost m_host;
    ChartWindowBar* m_bar = nullptr;
    qint64 m_nowMs = 0;
    QList<TimeChart*> m_charts;
    QList<QLabel*> m_errors;
    int m_loaded = 0;
    qint64 m_earliestMs = 0;
    JobTracker m_tracker { this };
};

} // namespace kf
