// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/remotebuild/buildchart.h"

#include "ui/chart/chartwindowbar.h"
#include "ui/chart/timechart.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace kf {

namespace {

constexpr double kKbPerGb = 1048576.0;

enum StepSeries { Steps, Projection };

} // namespace

BuildChart::BuildChart(QWidget* parent)
    : QWidget(parent)
    , m_bar(new ChartWindowBar(this))
    , m_emptyTick(new QTimer(this))
    , m_stepsChart(new TimeChart(this))
    , m_memChart(new TimeChart(this))
{
    m_stepsChart->setObjectName(QStringLiteral("buildStepsChart"));
    m_stepsChart->setTitle(tr("Build progress"));
    m_stepsChart->setUnit(tr("steps"));
    m_stepsChart->addSeries(tr("steps done"), TimeChart::paletteColor(0));
    // The projection in a lighter shade of the same colour: it continues the line.
    m_stepsChart->addSeries(tr("ETA projection"), TimeChart::paletteColor(0).lighter(160));
    m_memChart->setObjectName(QStringLiteral("buildMemoryChart"));
    m_memChart->setTitle(tr("Memory the build may use"));
    m_memChart->setUnit(tr("GB"));
    m_memChart->addSeries(tr("available"), TimeChart::paletteColor(2));
    // The projection is drawn, not measured: the CSV has the steps done only.
    m_stepsChart->setHistorySource([this] {
        return QList<CsvSeries> { { m_stepsChart->title(), m_stepsChart->seriesName(Steps), m_stepsChart->unit(),
            m_steps } };
    });
    m_bar->setCharts({ m_stepsChart, m_memChart }, this, QStringLiteral("build"));
    connect(m_bar, &ChartWindowBar::windowChanged, this, &BuildChart::refresh);
    m_emptyTick->setObjectName(QStringLiteral("buildChartEmptyTick"));
    m_emptyTick->setInterval(1000);
    connect(m_emptyTick, &QTimer::timeout, this, &BuildChart::refresh);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto* barRow = new QHBoxLayout();
    barRow->addStretch(1);
    barRow->addWidget(m_bar);
    layout->addLayout(barRow);
    layout->addWidget(m_stepsChart, 3);
    layout->addWidget(m_memChart, 2);
    refresh();
}

void BuildChart::clear()
{
    m_steps.clear();
    m_memory.clear();
    m_startMs = -1;
    m_stepsOriginMs = -1;
    m_lastPointMs = -1;
    m_endMs = -1;
    m_projectedEndMs = -1;
    m_total = 0;
    m_memTotalGb = 0;
    m_memChart->setTitle(tr("Memory the build may use"));
    refresh();
}

int BuildChart::progressPoints() const
{
    return int(m_steps.size());
}

void BuildChart::addProgress(const BuildProgress& p)
{
    if (p.done < 0 || p.total <= 0)
        return;
    // Progress carries the job's clock (seconds since its start on the server) and that start on
    // this machine's clock, so memory samples (this machine's clock) line up with it.
    if (m_stepsOriginMs < 0) {
        m_stepsOriginMs = p.startedMs >= 0 ? p.startedMs : now() - qint64(p.elapsedS * 1000);
        m_startMs = m_startMs < 0 ? m_stepsOriginMs : std::min(m_startMs, m_stepsOriginMs);
    }
    const qint64 t = m_stepsOriginMs + qint64(p.elapsedS * 1000);
    // Ninja can print several status lines per second: one point per second keeps it small.
    if (m_steps.size() > 1 && t - m_lastPointMs < 1000 && p.done != p.total) {
        m_steps.last() = QPointF(double(t), p.done);
    } else {
        m_steps.append(QPointF(double(t), p.done));
        m_lastPointMs = t;
    }
    m_total = std::max(m_total, p.total);
    m_endMs = std::max(m_endMs, t);
    m_projectedEndMs = p.etaS > 0 && p.done < p.total ? double(t) + p.etaS * 1000 : -1;
    refresh();
}

void BuildChart::addMemory(const MemorySample& m)
{
    if (m.totalKb <= 0)
        return;
    if (m_startMs < 0)
        m_startMs = m.timeMs;
    m_memory.append(QPointF(double(m.timeMs), double(m.availableKb) / kKbPerGb));
    // The limit the build meets: the axis ends there, not at the server's RAM.
    m_memTotalGb = double(m.totalKb) / kKbPerGb;
    if (m_dangerKb < 0)
        m_dangerKb = m.totalKb / 10;
    m_memChart->setTitle(tr("Memory the build may use: %1").arg(m.source));
    m_endMs = std::max(m_endMs, m.timeMs);
    refresh();
}

void BuildChart::setDangerKb(qint64 kb)
{
    m_dangerKb = kb;
    refresh();
}

void BuildChart::setClock(std::function<qint64()> clock)
{
    m_clock = std::move(clock);
    refresh();
}

qint64 BuildChart::now() const
{
    return m_clock ? m_clock() : QDateTime::currentMSecsSinceEpoch();
}

void BuildChart::refresh()
{
    m_stepsChart->setSeriesData(Steps, m_steps);
    QList<QPointF> projection;
    if (m_projectedEndMs > 0 && !m_steps.isEmpty())
        projection = { m_steps.last(), QPointF(m_projectedEndMs, m_total) };
    m_stepsChart->setSeriesData(Projection, projection);
    m_stepsChart->setValueRange(0, std::max(1, m_total));
    m_memChart->setSeriesData(0, m_memory);
    m_memChart->setValueRange(0, m_memTotalGb > 0 ? m_memTotalGb : 1);
    m_memChart->clearThresholds();
    if (m_dangerKb > 0 && m_memTotalGb > 0)
        m_memChart->addThreshold(double(m_dangerKb) / kKbPerGb, TimeChart::paletteColor(3), tr("danger"));
    // One time window for both, from the start (or the chosen length back from the last
    // sample; nothing comes before the start) to the later of now and the projected end, with
    // a little room on the right; at least 10 s so a fresh build is not one pixel wide.
    const bool empty = m_startMs < 0;
    if (empty != m_emptyTick->isActive())
        empty ? m_emptyTick->start() : m_emptyTick->stop();
    const qint64 start = empty ? now() : m_startMs;
    const qint64 from = m_bar->windowMs() > 0 && m_endMs > 0 ? std::max(start, m_endMs - m_bar->windowMs()) : start;
    const qint64 to = std::max({ m_endMs, qint64(m_projectedEndMs), from + 10000 });
    const qint64 window = to + (to - from) / 20;
    m_stepsChart->setTimeWindow(from, window);
    m_memChart->setTimeWindow(from, window);
}

} // namespace kf
