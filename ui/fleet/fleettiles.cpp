// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/fleet/fleettiles.h"

#include "ui/common/plaintext.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace kf {

using fleet::FleetHost;

namespace {
constexpr int kTileW = 236;
constexpr int kTileH = 124;
constexpr int kGap = 8;
constexpr int kHeaderH = 26;

QString num(double v, int prec = 0)
{
    return hasValue(v) ? QString::number(v, 'f', prec) : QStringLiteral("–");
}

// GPU g's bar of n in a tile's inner rectangle: one slot per GPU along the bottom.
QRectF gpuSlot(const QRect& inner, int n, int g)
{
    const double bw = double(inner.width()) / n;
    return { inner.left() + g * bw + 1, double(inner.bottom() - 10), bw - 2, 10 };
}

QRect innerOf(const QRect& tile)
{
    return tile.adjusted(8, 6, -8, -6);
}
} // namespace

QColor FleetTiles::utilColor(double u)
{
    if (!hasValue(u))
        return QColor(160, 160, 160);
    return QColor::fromHsvF(0.33 * (1 - qBound(0.0, u, 100.0) / 100.0), 0.65, 0.85);
}

QString FleetTiles::gpuToolTip(const FleetHost& h, int gpu)
{
    if (gpu < 0 || gpu >= h.gpus.size())
        return {};
    const GpuSample& g = h.gpus.at(gpu);
    const int index = g.index >= 0 ? g.index : gpu;
    const double u = g.value(GpuField::UtilGpu);
    QStringList lines;
    lines << (g.text(GpuField::Name).isEmpty() ? tr("GPU %1").arg(index)
                                               : tr("GPU %1: %2").arg(index).arg(g.text(GpuField::Name)));
    lines << tr("utilisation %1 %").arg(num(u));
    lines << tr("memory %1 / %2 GiB · %3 °C · %4 W")
                 .arg(num(g.value(GpuField::MemUsed) / 1024, 1), num(g.value(GpuField::MemTotal) / 1024, 1),
                     num(g.value(GpuField::TempGpu)), num(g.value(GpuField::PowerDraw)));
    if (h.stale)
        lines << tr("Grey: the host is stale (%1); these are its last values.").arg(h.staleReason);
    else if (!hasValue(u))
        lines << tr("Grey: no utilisation reported.");
    else
        lines << tr("The bar's height and colour are the utilisation: green idle, yellow half, red fully busy "
                    "(busy, not an error; alerts are written on the tile).");
    return lines.join(QLatin1Char('\n'));
}

QRect FleetTiles::gpuRect(int index, int gpu) const
{
    const QRect tile = tileRect(index);
    if (tile.isEmpty() || index < 0 || index >= m_hosts.size() || gpu < 0 || gpu >= m_hosts.at(index).gpus.size())
        return {};
    return gpuSlot(innerOf(tile), int(m_hosts.at(index).gpus.size()), gpu).toAlignedRect();
}

bool FleetTiles::event(QEvent* event)
{
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    const auto* help = static_cast<QHelpEvent*>(event);
    for (const Placed& t : std::as_const(m_placed)) {
        if (t.host < 0 || !t.rect.contains(help->pos()))
            continue;
        for (int g = 0; g < m_hosts.at(t.host).gpus.size(); ++g) {
            const QRect r = gpuRect(t.host, g).adjusted(-1, -2, 1, 2); // the gaps between bars count
            if (r.contains(help->pos())) {
                QToolTip::showText(help->globalPos(), plainToolTip(gpuToolTip(m_hosts.at(t.host), g)), this, r);
                return true;
            }
        }
    }
    QToolTip::hideText();
    event->ignore();
    return true;
}

FleetTiles::FleetTiles(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("fleetTiles"));
    setMouseTracking(false);
    setAttribute(Qt::WA_OpaquePaintEvent, false);
    QSizePolicy p(QSizePolicy::Preferred, QSizePolicy::Preferred);
    p.setHeightForWidth(true);
    setSizePolicy(p);
}

void FleetTiles::setFleet(const QList<FleetHost>& hosts, const QList<fleet::FleetGroup>& groups)
{
    m_hosts = hosts;
    m_groups = groups;
    m_layoutWidth = -1;
    layoutTiles();
    updateGeometry();
    update();
}

int FleetTiles::tileCount() const
{
    int n = 0;
    for (const auto& g : m_groups)
        n += int(g.hosts.size());
    return n;
}

QList<int> FleetTiles::displayOrder() const
{
    QList<int> out;
    for (const auto& g : m_groups)
        out += g.hosts;
    return out;
}

QString FleetTiles::serverLine(const FleetHost& h, qint64 nowMs)
{
    // Prometheus: a server is its metrics.
    if (!h.viaSsh) {
        if (!h.serverKind.isEmpty())
            return tr("%1 · %2 tok/s · %3 running").arg(h.serverKind, num(h.serverTokensPerS), num(h.serverRunning));
        return tr("no server metrics");
    }
    // SSH: the host's servers as its ServerSession knows them, each by its port; a port where
    // nothing answers is said only when no server of the host does.
    QStringList serving, silent;
    qint64 servingOldest = 0, silentOldest = 0;
    const auto older = [](qint64& oldest, qint64 t) {
        if (t > 0 && (oldest == 0 || t < oldest))
            oldest = t;
    };
    for (const fleet::FleetServer& s : h.servers) {
        if (s.polledMs > 0 && s.reachable) {
            serving << (s.healthStatus == 200
                    ? tr(":%1 healthy · %2 tok/s · %3 running").arg(s.port).arg(num(s.tokensPerS), num(s.running))
                    : tr(":%1 starting (HTTP %2)").arg(s.port).arg(s.healthStatus));
            older(servingOldest, s.polledMs);
        } else if (s.jobRunning) {
            serving << tr(":%1 starting (no answer yet)").arg(s.port);
            older(servingOldest, s.polledMs);
        } else if (s.polledMs > 0) {
            silent << QString::number(s.port);
            older(silentOldest, s.polledMs);
        }
    }
    QString line;
    if (!serving.isEmpty())
        line = (serving.size() == 1 ? tr("server ") : tr("%1 servers ").arg(serving.size()))
            + serving.join(QStringLiteral(" | "));
    else if (!silent.isEmpty())
        line = tr("no server on port %1").arg(silent.join(QStringLiteral(", ")));
    else
        return tr("server –"); // nothing polled yet
    const qint64 oldest = serving.isEmpty() ? silentOldest : servingOldest;
    // Only the selected host's servers are polled: an old answer says how old it is.
    const qint64 ageS = oldest > 0 ? (nowMs - oldest) / 1000 : 0;
    if (ageS >= 60)
        line += ageS < 3600 ? tr(" (%1 min ago)").arg(ageS / 60) : tr(" (%1 h ago)").arg(ageS / 3600);
    return line;
}

QString FleetTiles::buildLine(const FleetHost& h)
{
    if (h.buildDone < 0 || h.buildTotal <= 0)
        return tr("build %1 running · steps –").arg(h.buildJob);
    QString eta = QStringLiteral("–");
    if (hasValue(h.buildEtaS)) {
        const qint64 s = qint64(h.buildEtaS);
        eta = s < 60 ? tr("%1 s").arg(s)
                     : (s < 3600 ? tr("%1 min").arg(s / 60) : tr("%1 h %2 min").arg(s / 3600).arg(s % 3600 / 60));
    }
    return tr("build %1/%2 (%3 %) · ETA %4")
        .arg(h.buildDone)
        .arg(h.buildTotal)
        .arg(100 * h.buildDone / h.buildTotal)
        .arg(eta);
}

QStringList FleetTiles::tileLines(const FleetHost& h)
{
    QStringList lines;
    QString title = h.name;
    if (!h.profileName.isEmpty() && h.profileName != h.name)
        title += QStringLiteral(" (%1)").arg(h.profileName);
    lines << title;
    if (h.gpus.isEmpty()) {
        lines << (!h.gpuNote.isEmpty() ? h.gpuNote
                : h.stale              ? QStringLiteral("no GPU data")
                                       : QStringLiteral("waiting for GPU samples…"));
    } else {
        double used = 0, total = 0;
        for (const GpuSample& g : h.gpus)
            if (hasValue(g.value(GpuField::MemUsed)) && hasValue(g.value(GpuField::MemTotal)))
                used += g.value(GpuField::MemUsed), total += g.value(GpuField::MemTotal);
        lines << QStringLiteral("%1 × %2").arg(h.gpus.size()).arg(h.gpus.first().text(GpuField::Name));
        lines << QStringLiteral("util %1 % · mem %2/%3 GiB · %4 °C")
                     .arg(num(h.meanUtil()), num(used / 1024), num(total / 1024), num(h.hottestC()));
    }
    lines << serverLine(h, QDateTime::currentMSecsSinceEpoch());
    if (!h.buildJob.isEmpty())
        lines << buildLine(h);
    if (h.stale)
        lines << QStringLiteral("stale: ") + h.staleReason;
    else if (!h.alerts.isEmpty())
        lines << QStringLiteral("%1 alert(s): %2").arg(h.alerts.size()).arg(h.alerts.first().message);
    return lines;
}

void FleetTiles::layoutTiles()
{
    const int w = qMax(width(), kTileW + 2 * kGap);
    if (w == m_layoutWidth)
        return;
    m_layoutWidth = w;
    m_placed.clear();
    const int columns = qMax(1, (w - kGap) / (kTileW + kGap));
    int y = kGap;
    const bool headers = m_groups.size() > 1 || (m_groups.size() == 1 && !m_groups.first().name.isEmpty());
    for (const auto& g : m_groups) {
        if (headers) {
            m_placed.append({ QRect(kGap, y, w - 2 * kGap, kHeaderH), -1,
                QStringLiteral("%1 · %2 host(s)").arg(g.name).arg(g.hosts.size()) });
            y += kHeaderH;
        }
        for (int i = 0; i < g.hosts.size(); ++i) {
            const int col = i % columns, row = i / columns;
            m_placed.append(
                { QRect(kGap + col * (kTileW + kGap), y + row * (kTileH + kGap), kTileW, kTileH), g.hosts.at(i), {} });
        }
        y += int((g.hosts.size() + columns - 1) / columns) * (kTileH + kGap) + kGap;
    }
    setMinimumHeight(y);
}

int FleetTiles::heightForWidth(int width) const
{
    const int columns = qMax(1, (width - kGap) / (kTileW + kGap));
    int y = kGap;
    for (const auto& g : m_groups)
        y += kHeaderH + int((g.hosts.size() + columns - 1) / columns) * (kTileH + kGap) + kGap;
    return y;
}

QSize FleetTiles::sizeHint() const
{
    const int w = 4 * (kTileW + kGap) + kGap;
    return { w, heightForWidth(w) };
}

void FleetTiles::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    layoutTiles();
}

void FleetTiles::paintEvent(QPaintEvent* event)
{
    QElapsedTimer timer;
    timer.start();
    QPainter p(this);
    const QPalette pal = palette();
    p.fillRect(event->rect(), pal.window());
    const QFont base = font();
    QFont bold = base;
    bold.setBold(true);
    QFont small = base;
    small.setPointSizeF(base.pointSizeF() * 0.9);
    const QFontMetrics fm(small);
    for (const Placed& t : std::as_const(m_placed)) {
        if (!t.rect.intersects(event->rect()))
            continue;
        if (t.host < 0) {
            p.setFont(bold);
            p.setPen(pal.color(QPalette::WindowText));
            p.drawText(t.rect.adjusted(2, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, t.header);
            p.setPen(pal.color(QPalette::Mid));
            p.drawLine(t.rect.bottomLeft() - QPoint(0, 3), t.rect.bottomRight() - QPoint(0, 3));
            continue;
        }
        const FleetHost& h = m_hosts.at(t.host);
        bool critical = false;
        for (const Alert& a : h.alerts)
            critical |= a.critical;
        QColor border = pal.color(QPalette::Mid);
        if (h.stale)
            border = QColor(128, 128, 128);
        else if (!h.alerts.isEmpty())
            border = critical ? QColor(0xd6, 0x27, 0x28) : QColor(0xc0, 0x70, 0x00);
        p.setPen(QPen(border, h.alerts.isEmpty() || h.stale ? 1 : 2));
        p.setBrush(h.stale ? QBrush(pal.color(QPalette::Window).darker(108)) : pal.base());
        p.drawRoundedRect(QRectF(t.rect).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
        if (h.stale) {
            p.setPen(Qt::NoPen);
            p.setBrush(QBrush(QColor(128, 128, 128, 60), Qt::BDiagPattern));
            p.drawRoundedRect(t.rect.adjusted(1, 1, -1, -1), 6, 6);
        }
        const QStringList lines = tileLines(h);
        const QRect inner = innerOf(t.rect);
        const QColor text = h.stale ? pal.color(QPalette::Disabled, QPalette::Text) : pal.color(QPalette::Text);
        p.setFont(bold);
        p.setPen(text);
        p.drawText(QRect(inner.left(), inner.top(), inner.width(), 18), Qt::AlignLeft | Qt::AlignVCenter,
            QFontMetrics(bold).elidedText(lines.first(), Qt::ElideRight, inner.width()));
        p.setFont(small);
        int y = inner.top() + 20;
        for (int i = 1; i < lines.size() && y + fm.height() <= inner.bottom() - 12; ++i) {
            const bool last = i == lines.size() - 1;
            QColor c = text;
            if (last && h.stale)
                c = QColor(110, 110, 110);
            else if (last && !h.alerts.isEmpty())
                c = border;
            p.setPen(c);
            p.drawText(QRect(inner.left(), y, inner.width(), fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                fm.elidedText(lines.at(i), Qt::ElideRight, inner.width()));
            y += fm.height();
        }
        // One bar per GPU: utilization as height and colour (grey when stale or unknown).
        if (!h.gpus.isEmpty()) {
            const int n = int(h.gpus.size());
            for (int g = 0; g < n; ++g) {
                const double u = h.gpus.at(g).value(GpuField::UtilGpu);
                const QRectF slot = gpuSlot(inner, n, g);
                p.fillRect(slot, pal.color(QPalette::Midlight));
                if (hasValue(u)) {
                    const double f = qBound(0.0, u / 100.0, 1.0);
                    p.fillRect(QRectF(slot.left(), slot.bottom() - slot.height() * f, slot.width(), slot.height() * f),
                        h.stale ? QColor(150, 150, 150) : utilColor(u));
                }
            }
        }
    }
    m_lastPaintMs = timer.nsecsElapsed() / 1e6;
}

QRect FleetTiles::tileRect(int index) const
{
    for (const Placed& t : m_placed)
        if (t.host == index)
            return t.rect;
    return {};
}

void FleetTiles::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    for (const Placed& t : std::as_const(m_placed))
        if (t.host >= 0 && t.rect.contains(event->position().toPoint())) {
            Q_EMIT hostClicked(t.host);
            return;
        }
}

} // namespace kf
