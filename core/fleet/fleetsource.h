// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/fleet/fleethost.h"
#include "core/fleet/promclient.h"
#include "core/util/jobtracker.h"

#include <QObject>
#include <QTimer>

#include <memory>

namespace kf::fleet {

// What a refresh carries from one to the next: the scrape interval and target errors (from
// /api/v1/targets, asked on the first refresh and then once a minute) and the last hosts.
struct RefreshState
{
    double scrapeIntervalS = 0; // 0: not known yet
    QHash<QString, QString> targetErrors;
    qint64 targetsAtMs = 0;
    QList<FleetHost> previous;
    AlertRules rules;
};

// Blocking (a worker thread): runs fleetQueries() (a fixed number of queries for the whole
// fleet) and assembles the snapshot. Fails only when no family could be read at all; a
// family that fails is listed in FleetSnapshot::problems. Updates state for the next call.
Result<FleetSnapshot> refreshFleet(PromClient& client, RefreshState& state, qint64 nowMs);

// The fleet from a Prometheus server, refreshed on a timer (GUI thread object; the queries
// run on transportPool()). One refresh at a time: a slow server skips ticks, it never piles
// requests up.
class FleetSource : public QObject
{
    Q_OBJECT
public:
    FleetSource(std::shared_ptr<PromClient> client, QObject* parent = nullptr);
    ~FleetSource() override;

    void setInterval(int ms) { m_timer.setInterval(ms); }
    void setAlertRules(const AlertRules& rules) { m_rules = rules; }
    void start(); // refreshes now, then every interval
    void stop();
    void refreshNow();
    bool isRefreshing() const { return m_request.isPending(); }
    const FleetSnapshot& snapshot() const { return m_snapshot; }
    std::shared_ptr<PromClient> client() const { return m_client; }

Q_SIGNALS:
    void snapshotReady(const kf::fleet::FleetSnapshot& snapshot);
    void refreshFailed(const QString& error);

private:
    std::shared_ptr<PromClient> m_client;
    std::shared_ptr<RefreshState> m_state; // handed to one worker at a time
    AlertRules m_rules;
    FleetSnapshot m_snapshot;
    QTimer m_timer;
    JobTracker m_tracker { this };
    RequestHandle m_request;
};

} // namespace kf::fleet

Q_DECLARE_METATYPE(kf::fleet::FleetSnapshot)
