// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/fleet/fleetview.h"

#include "core/gpu/gpumonitor.h"
#include "core/gpu/gpumonitorhub.h"
#include "core/hosts/hostconnection.h"
#include "core/hosts/hostmanager.h"

#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QScrollArea>
#include <QVBoxLayout>

namespace kf {

namespace {
constexpr int kColumns = 4;

// A label that reports clicks (a tile).
class TileLabel : public QLabel
{
public:
    std::function<void()> onClick;
    using QLabel::QLabel;

protected:
    void mousePressEvent(QMouseEvent* e) override
    {
        if (e->button() == Qt::LeftButton && onClick)
            onClick();
        QLabel::mousePressEvent(e);
    }
};
} // namespace

FleetView::~FleetView()
{
    // A hub we own is deleted while this view is still whole: its monitors emit as they stop.
    if (m_hub->parent() == this)
        delete m_hub;
}

FleetView::FleetView(const AppContext& context, QWidget* parent)
    : QWidget(parent)
    , m_context(context)
    , m_hub(context.gpuMonitors ? context.gpuMonitors : new GpuMonitorHub(this))
{
    auto* outer = new QVBoxLayout(this);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    auto* box = new QWidget(scroll);
    m_grid = new QGridLayout(box);
    m_grid->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_grid->setSpacing(8);
    scroll->setWidget(box);
    outer->addWidget(scroll);
    connect(m_hub, &GpuMonitorHub::monitorAdded, this, [this](HostConnection* host, GpuMonitor* monitor) {
        connect(monitor, &GpuMonitor::samplesUpdated, this, [this, host] { updateTile(host); });
        connect(monitor, &GpuMonitor::alertRaised, this, [this, host] { updateTile(host); });
        connect(monitor, &GpuMonitor::alertCleared, this, [this, host] { updateTile(host); });
        updateTile(host);
    });
    if (context.hosts) {
        for (HostConnection* h : context.hosts->hosts())
            addHost(h);
        connect(context.hosts, &HostManager::hostAdded, this, &FleetView::addHost);
        connect(context.hosts, &HostManager::hostRemoved, this, [this](const QString&) {
            for (auto it = m_tiles.begin(); it != m_tiles.end();) {
                if (!it->host) {
                    delete it->label;
                    m_order.removeAll(it.key());
                    it = m_tiles.erase(it);
                } else {
                    ++it;
                }
            }
            relayout();
        });
    }
}

void FleetView::addHost(HostConnection* host)
{
    if (!host || m_tiles.contains(host))
        return;
    auto* label = new TileLabel(this);
    label->setObjectName(QStringLiteral("fleetTile"));
    label->setFrameShape(QFrame::StyledPanel);
    label->setMinimumSize(260, 120);
    label->setWordWrap(true);
    label->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    label->setMargin(8);
    label->setCursor(Qt::PointingHandCursor);
    label->onClick = [this, host] { Q_EMIT hostActivated(host); };
    m_tiles.insert(host, { host, label });
    m_order.append(host);
    connect(host, &HostConnection::stateChanged, this, [this, host] {
        m_hub->monitorFor(host);
        updateTile(host);
    });
    if (GpuMonitor* m = m_hub->monitorFor(host)) {
        // Created before we listened to monitorAdded (or by another view): follow it too.
        connect(m, &GpuMonitor::samplesUpdated, this, [this, host] { updateTile(host); });
        connect(m, &GpuMonitor::alertRaised, this, [this, host] { updateTile(host); });
        connect(m, &GpuMonitor::alertCleared, this, [this, host] { updateTile(host); });
    }
    relayout();
    updateTile(host);
}

void FleetView::relayout()
{
    int i = 0;
    for (HostConnection* h : std::as_const(m_order)) {
        if (auto it = m_tiles.constFind(h); it != m_tiles.cend())
            m_grid->addWidget(it->label, i / kColumns, i % kColumns), ++i;
    }
}

void FleetView::updateTile(HostConnection* host)
{
    auto it = m_tiles.find(host);
    if (it == m_tiles.end() || !it->host)
        return;
    GpuMonitor* monitor = m_hub->monitorFor(host);
    QString html = QStringLiteral("<b>%1</b> &nbsp;<span style='color:gray'>%2</span><br>")
                       .arg(host->profile().name.toHtmlEscaped(), toString(host->state()).toHtmlEscaped());
    QString border = QStringLiteral("palette(mid)");
    if (monitor && !monitor->latest().isEmpty()) {
        const auto& gpus = monitor->latest();
        double util = 0, used = 0, total = 0, hottest = -1;
        int utilCount = 0;
        for (const auto& g : gpus) {
            if (hasValue(g.utilGpu)) {
                util += g.utilGpu;
                ++utilCount;
            }
            if (hasValue(g.memUsedMiB) && hasValue(g.memTotalMiB)) {
                used += g.memUsedMiB;
                total += g.memTotalMiB;
            }
            if (hasValue(g.tempGpuC))
                hottest = qMax(hottest, g.tempGpuC);
        }
        html += tr("%1 × %2<br>").arg(gpus.size()).arg(gpus.first().name.toHtmlEscaped());
        html += tr("GPU util %1 % · memory %2 / %3 GiB<br>")
                    .arg(utilCount ? util / utilCount : 0, 0, 'f', 0)
                    .arg(used / 1024, 0, 'f', 0)
                    .arg(total / 1024, 0, 'f', 0);
        if (hottest >= 0)
            html += tr("hottest %1 °C<br>").arg(hottest, 0, 'f', 0);
    } else if (monitor && monitor->driverMissing()) {
        html += tr("No NVIDIA driver found on this host<br>");
    } else if (monitor) {
        html += tr("waiting for nvidia-smi…<br>");
    }
    if (monitor && !monitor->driverMissing()) { // no driver is said above, not as an alert
        const QList<Alert> alerts = monitor->activeAlerts();
        if (!alerts.isEmpty()) {
            bool critical = false;
            for (const Alert& a : alerts)
                critical |= a.critical;
            border = critical ? QStringLiteral("#d62728") : QStringLiteral("#c07000");
            html += QStringLiteral("<span style='color:%1'>%2</span>")
                        .arg(border,
                            tr("%n alert(s): ", nullptr, int(alerts.size())) + alerts.first().message.toHtmlEscaped());
        }
    }
    it->label->setText(html);
    it->label->setStyleSheet(
        QStringLiteral("QLabel#fleetTile { border: 2px solid %1; border-radius: 6px; }").arg(border));
}

QString FleetView::tileText(const QString& hostName) const
{
    for (const auto& t : m_tiles) {
        if (t.host && t.host->profile().name == hostName)
            return t.label->text();
    }
    return {};
}

} // namespace kf
