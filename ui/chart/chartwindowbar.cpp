// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/chart/chartwindowbar.h"

#include "ui/chart/chartexport.h"
#include "ui/chart/timechart.h"
#include "ui/common/preferences.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QToolButton>

#include <cstdlib>

namespace kf {

namespace {
constexpr qint64 kMinute = 60LL * 1000;
constexpr qint64 kHour = 60 * kMinute;
constexpr qint64 kMinAllMs = 10 * 1000; // "all" of a young history: not one pixel wide
} // namespace

QList<std::pair<QString, qint64>> ChartWindowBar::windows()
{
    return { { tr("5 min"), 5 * kMinute }, { tr("1 h"), kHour }, { tr("6 h"), 6 * kHour }, { tr("24 h"), 24 * kHour },
        { tr("All"), 0 } };
}

std::pair<qint64, qint64> ChartWindowBar::range(qint64 windowMs, qint64 firstMs, qint64 lastMs)
{
    if (windowMs > 0)
        return { lastMs - windowMs, lastMs };
    const qint64 from = firstMs > 0 && firstMs < lastMs ? firstMs : lastMs;
    return { qMin(from, lastMs - kMinAllMs), lastMs };
}

ChartWindowBar::ChartWindowBar(QWidget* parent)
    : QWidget(parent)
    , m_window(new QComboBox(this))
    , m_export(new QToolButton(this))
    , m_menu(new QMenu(this))
{
    setObjectName(QStringLiteral("chartWindowBar"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* label = new QLabel(tr("Window:"), this);
    layout->addWidget(label);
    m_window->setObjectName(QStringLiteral("chartWindow"));
    m_window->setToolTip(tr("How much of the history the charts show (Edit > Preferences sets the default)"));
    for (const auto& [text, ms] : windows())
        m_window->addItem(text, ms);
    label->setBuddy(m_window);
    // The window a chart opens with: the preference, or the offered one nearest to it.
    const qint64 preferred = qint64(Preferences::load().chartWindowSeconds) * 1000;
    int best = 0;
    for (int i = 0; i < m_window->count(); ++i) {
        const qint64 ms = m_window->itemData(i).toLongLong();
        if (std::llabs(ms - preferred) < std::llabs(m_window->itemData(best).toLongLong() - preferred))
            best = i;
    }
    m_window->setCurrentIndex(best);
    layout->addWidget(m_window);
    m_export->setObjectName(QStringLiteral("chartExport"));
    m_export->setText(tr("Export"));
    m_export->setToolTip(tr("Save the charts' data (CSV, the whole history) or an image of them (PNG)"));
    m_export->setPopupMode(QToolButton::InstantPopup);
    m_export->setMenu(m_menu);
    QAction* csv = m_menu->addAction(tr("Data as CSV (whole history)…"), this, [this] { exportCsv(); });
    csv->setObjectName(QStringLiteral("chartExportCsv"));
    QAction* png = m_menu->addAction(tr("Image as PNG (as shown)…"), this, [this] { exportPng(); });
    png->setObjectName(QStringLiteral("chartExportPng"));
    layout->addWidget(m_export);
    connect(m_window, &QComboBox::currentIndexChanged, this, [this] { Q_EMIT windowChanged(windowMs()); });
}

qint64 ChartWindowBar::windowMs() const
{
    return m_window->currentData().toLongLong();
}

void ChartWindowBar::setWindowIndex(int index)
{
    m_window->setCurrentIndex(qBound(0, index, m_window->count() - 1));
}

int ChartWindowBar::windowIndex() const
{
    return m_window->currentIndex();
}

void ChartWindowBar::setCharts(const QList<TimeChart*>& charts, QWidget* area, const QString& name)
{
    m_charts.clear();
    for (TimeChart* c : charts)
        m_charts.append(c);
    m_area = area;
    m_name = name;
}

QString ChartWindowBar::exportCsv()
{
    QList<TimeChart*> charts;
    for (const auto& c : std::as_const(m_charts))
        if (c)
            charts.append(c);
    return chartexport::exportCsv(
        this, chartexport::historyOf(charts), chartexport::suggestedName(m_name, QStringLiteral("csv")));
}

QString ChartWindowBar::exportPng()
{
    QWidget* what = m_area ? m_area.data() : (m_charts.isEmpty() ? nullptr : m_charts.first().data());
    return chartexport::exportPng(this, what, chartexport::suggestedName(m_name, QStringLiteral("png")));
}

} // namespace kf
