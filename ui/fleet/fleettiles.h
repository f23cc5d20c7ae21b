// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/fleet/fleethost.h"

#include <QWidget>

namespace kf {

// The fleet as tiles, drawn with QPainter (no child widget per tile: 256 hosts are 256
// rectangles, and a repaint draws only the tiles in the exposed area). Grouped: each group
// starts a new row under its name. A stale host is drawn greyed and hatched with its reason,
// its last values kept; never as zeros. Lives in a QScrollArea (its height follows the layout).
class FleetTiles : public QWidget
{
    Q_OBJECT
public:
    explicit FleetTiles(QWidget* parent = nullptr);

    // One update per refresh: the hosts and their arrangement (fleet::arrangeFleet).
    void setFleet(const QList<fleet::FleetHost>& hosts, const QList<fleet::FleetGroup>& groups);
    const QList<fleet::FleetHost>& hosts() const { return m_hosts; }
    int tileCount() const;
    // Host indexes in display order (for tests).
    QList<int> displayOrder() const;
    // Where host `index`'s tile is (widget coordinates; empty when not shown), for tests' clicks.
    QRect tileRect(int index) const;
    // The lines a tile shows, for tests and accessibility.
    static QStringList tileLines(const fleet::FleetHost& host);
    // "server healthy · 1240 tok/s · 3 running", "no server on port 30000", "server –" (not
    // polled yet), with the age of an old poll; Prometheus: "sglang · 1240 tok/s · 3 running",
    // "no server metrics".
    static QString serverLine(const fleet::FleetHost& host, qint64 nowMs);
    // "build 120/560 (21 %) · ETA 6 min"; unknown parts are "–".
    static QString buildLine(const fleet::FleetHost& host);
    // Where GPU `gpu`'s bar of host `index`'s tile is (empty when not shown).
    QRect gpuRect(int index, int gpu) const;
    // A GPU bar's tool tip: its index and name, what its colour means, and its values.
    static QString gpuToolTip(const fleet::FleetHost& host, int gpu);
    // A bar's colour for a utilisation in %: green idle, yellow half, red fully busy; grey unknown.
    static QColor utilColor(double util);
    // Time spent in the last paintEvent (ms), for the benchmark.
    double lastPaintMs() const { return m_lastPaintMs; }

    QSize sizeHint() const override;
    int heightForWidth(int width) const override;
    bool hasHeightForWidth() const override { return true; }

Q_SIGNALS:
    void hostClicked(int index);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Placed
    {
        QRect rect;
        int host = -1; // -1: a group header
        QString header;
    };
    void layoutTiles();
    QList<fleet::FleetHost> m_hosts;
    QList<fleet::FleetGroup> m_groups;
    QList<Placed> m_placed;
    int m_layoutWidth = -1;
    double m_lastPaintMs = 0;
};

} // namespace kf
