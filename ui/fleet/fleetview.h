// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/fleet/fleethost.h"
#include "ui/appcontext.h"

#include <QHash>
#include <QPointer>
#include <QTimer>
#include <QWidget>

#include <functional>
#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;

namespace kf {

class FleetTiles;
class GpuMonitor;
class GpuMonitorHub;
class HostConnection;
namespace fleet {
class FleetSource;
class PromClient;
} // namespace fleet

// Every host as a tile, from one of two sources:
//  - SSH streams: the hosts of the session, each with its one nvidia-smi stream (the shared
//    GpuMonitorHub, so no stream of its own); right for a few servers, needs nothing installed.
//  - Prometheus: the whole fleet from a Prometheus server (dcgm-exporter or the nvidia-smi
//    exporter, node_exporter, SGLang/vLLM metrics), a fixed number of queries per refresh.
// Either way the tiles are one FleetHost list, grouped (tag or a target label), sorted and
// filtered (hottest, busiest, throttling, Xid, memory full, stale), updated once per refresh
// and painted (FleetTiles). A stale host shows its last values greyed with the reason.
// Clicking a tile: SSH source, show that host; Prometheus source, its drill-down (24 h charts
// from query_range, server metrics, a button for the live SSH stream).
class FleetView : public QWidget
{
    Q_OBJECT
public:
    explicit FleetView(const AppContext& context, QWidget* parent = nullptr);
    ~FleetView() override;

    enum class Source { SshStreams, Prometheus };
    Source source() const { return m_source; }
    void showSshStreams();
    // Refreshes from this server every intervalMs (the Prometheus dialog calls it too).
    void showPrometheus(std::shared_ptr<fleet::PromClient> client, int intervalMs = 5000);
    fleet::FleetSource* prometheusSource() const { return m_prometheus.get(); }
    // Group by "" / "tag" / a label; sort and filter by name ("hottest", "stale", ...).
    void setArrangement(const QString& groupBy, fleet::FleetSort sort, fleet::FleetFilter filter);

    int tileCount() const;
    // The tile's text (lines joined), for tests and accessibility; empty when not shown.
    QString tileText(const QString& hostName) const;
    FleetTiles* tiles() const { return m_tiles; }
    const QList<fleet::FleetHost>& fleetHosts() const;
    // Model updates so far (one per Prometheus refresh; SSH updates are coalesced).
    int updates() const { return m_updates; }
    // Replaces the Yes/Cancel question (tests): a host that matches a saved profile by name
    // only is acted on (rollout, live stream) only after a yes.
    using Confirm = std::function<bool(const QString& title, const QString& text)>;
    void setConfirm(Confirm confirm) { m_confirm = std::move(confirm); }

Q_SIGNALS:
    void hostActivated(kf::HostConnection* host);

private:
    void followHost(HostConnection* host);
    void scheduleSshUpdate();
    void updateFromSsh();
    void setHosts(QList<fleet::FleetHost> hosts, const QString& status);
    void rearrange();
    void onTileClicked(int index);
    void openPrometheusDialog();
    void openRollout();
    void openLiveStream(const fleet::FleetHost& host);
    QList<HostProfile> knownProfiles() const;
    bool confirmNameOnly(const QList<const fleet::FleetHost*>& hosts);

    AppContext m_context;
    GpuMonitorHub* m_hub;
    Source m_source = Source::SshStreams;
    std::unique_ptr<fleet::FleetSource> m_prometheus;
    QList<fleet::FleetHost> m_hosts;
    QHash<HostConnection*, QPointer<HostConnection>> m_followed;
    QTimer m_sshCoalesce;
    int m_updates = 0;
    QComboBox* m_sourceBox;
    QComboBox* m_groupBox;
    QComboBox* m_sortBox;
    QComboBox* m_filterBox;
    QLineEdit* m_search;
    QLabel* m_status;
    FleetTiles* m_tiles;
    Confirm m_confirm;
};

} // namespace kf
