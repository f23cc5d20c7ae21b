// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "ui/appcontext.h"

#include <QHash>
#include <QPointer>
#include <QWidget>

class QGridLayout;
class QLabel;

namespace kf {

class GpuMonitor;
class GpuMonitorHub;
class HostConnection;

// Every host of the session as a tile: connection state, GPU count, mean utilization and
// memory, hottest GPU, active alerts. Built on the shared GpuMonitorHub, so it adds no
// nvidia-smi streams of its own. Clicking a tile asks to show that host.
class FleetView : public QWidget
{
    Q_OBJECT
public:
    explicit FleetView(const AppContext& context, QWidget* parent = nullptr);
    ~FleetView() override;
    int tileCount() const { return int(m_tiles.size()); }
    // The tile's text, for tests and accessibility.
    QString tileText(const QString& hostName) const;

Q_SIGNALS:
    void hostActivated(kf::HostConnection* host);

private:
    void addHost(HostConnection* host);
    void updateTile(HostConnection* host);
    void relayout();

    struct Tile
    {
        QPointer<HostConnection> host;
        QLabel* label = nullptr;
    };
    AppContext m_context;
    GpuMonitorHub* m_hub;
    QGridLayout* m_grid;
    QHash<HostConnection*, Tile> m_tiles;
    QList<HostConnection*> m_order;
};

} // namespace kf
