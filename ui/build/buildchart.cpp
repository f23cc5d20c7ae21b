// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/build/buildchart.h"

#include <QChart>
#include <QDateTime>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

namespace kf {

BuildChart::BuildChart(QWidget* parent)
    : QChartView(parent)
    , m_steps(new QLineSeries)
    , m_projection(new QLineSeries)
    , m_memory(new QLineSeries)
    , m_danger(new QLineSeries)
    , m_time(new QValueAxis)
    , m_stepAxis(new QValueAxis)
    , m_memAxis(new QValueAxis)
{
    auto* chart = new QChart;
    chart->setMargins(QMargins(4, 4, 4, 4));
    m_steps->setName(tr("steps done"));
    m_projection->setName(tr("ETA projection"));
    // A lighter blue than the steps so the two differ in the legend too.
    QPen dashed(QColor(0x8f, 0xb8, 0xf0));
    dashed.setStyle(Qt::DashLine);
    dashed.setWidth(2);
    m_projection->setPen(dashed);
    m_steps->setPen(QPen(QColor(0x2a, 0x7a, 0xe2), 2));
    m_memory->setName(tr("server MemAvailable (GB)"));
    m_memory->setPen(QPen(QColor(0x3b, 0xa5, 0x5c), 2));
    m_danger->setName(tr("memory danger line"));
    QPen red(QColor(0xd9, 0x3f, 0x3f));
    red.setStyle(Qt::DotLine);
    red.setWidth(2);
    m_danger->setPen(red);
    for (QLineSeries* s : { m_steps, m_projection, m_memory, m_danger })
        chart->addSeries(s);
    m_time->setTitleText(tr("minutes"));
    m_time->setLabelFormat(QStringLiteral("%.0f"));
    m_stepAxis->setTitleText(tr("steps"));
    m_stepAxis->setLabelFormat(QStringLiteral("%d"));
    m_memAxis->setTitleText(tr("GB available"));
    m_memAxis->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(m_time, Qt::AlignBottom);
    chart->addAxis(m_stepAxis, Qt::AlignLeft);
    chart->addAxis(m_memAxis, Qt::AlignRight);
    for (QLineSeries* s : { m_steps, m_projection }) {
        s->attachAxis(m_time);
        s->attachAxis(m_stepAxis);
    }
    for (QLineSeries* s : { m_memory, m_danger }) {
        s->attachAxis(m_time);
        s->attachAxis(m_memAxis);
    }
    chart->legend()->setAlignment(Qt::AlignBottom);
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(220);
    updateAxes();
}

void BuildChart::clear()
{
    for (QLineSeries* s : { m_steps, m_projection, m_memory, m_danger })
        s->clear();
    m_memStartMs = -1;
    m_lastElapsedS = 0;
    m_lastPointS = -1;
    m_maxTimeMin = 1;
    m_total = 1;
    updateAxes();
}

int BuildChart::progressPoints() const
{
    return int(m_steps->count());
}

void BuildChart::addProgress(const BuildProgress& p)
{
    if (p.done < 0 || p.total <= 0)
        return;
    const double tMin = p.elapsedS / 60.0;
    // Ninja can print several status lines per second: one point per ~second keeps the series small.
    if (m_steps->count() > 1 && p.elapsedS - m_lastPointS < 1.0 && p.done != p.total) {
        m_steps->replace(m_steps->count() - 1, QPointF(tMin, p.done));
    } else {
        m_steps->append(tMin, p.done);
        m_lastPointS = p.elapsedS;
    }
    m_lastElapsedS = p.elapsedS;
    m_total = std::max(m_total, p.total);
    m_maxTimeMin = std::max(m_maxTimeMin, tMin);
    m_projection->clear();
    if (p.etaS > 0 && p.done < p.total) {
        const double endMin = tMin + p.etaS / 60.0;
        m_projection->append(tMin, p.done);
        m_projection->append(endMin, p.total);
        m_maxTimeMin = std::max(m_maxTimeMin, endMin);
    }
    updateAxes();
}

void BuildChart::addMemory(const MemorySample& m)
{
    if (m_memStartMs < 0)
        m_memStartMs = m.timeMs - qint64(m_lastElapsedS * 1000);
    const double tMin = double(m.timeMs - m_memStartMs) / 60000.0;
    const double gb = double(m.availableKb) / 1048576.0;
    m_memory->append(tMin, gb);
    m_memMaxGb = std::max(m_memMaxGb, double(m.totalKb) / 1048576.0);
    if (m_dangerKb < 0)
        m_dangerKb = m.totalKb / 10;
    m_maxTimeMin = std::max(m_maxTimeMin, tMin);
    updateAxes();
}

void BuildChart::setDangerKb(qint64 kb)
{
    m_dangerKb = kb;
    updateAxes();
}

void BuildChart::updateAxes()
{
    const double right = m_maxTimeMin * 1.05;
    m_time->setRange(0, right);
    // Short builds (tests, small projects) need decimals; multi-hour ones do not.
    m_time->setLabelFormat(right < 10 ? QStringLiteral("%.1f") : QStringLiteral("%.0f"));
    m_stepAxis->setRange(0, m_total);
    m_memAxis->setRange(0, m_memMaxGb);
    m_danger->clear();
    if (m_dangerKb > 0) {
        const double gb = double(m_dangerKb) / 1048576.0;
        m_danger->append(0, gb);
        m_danger->append(right, gb);
    }
}

} // namespace kf
