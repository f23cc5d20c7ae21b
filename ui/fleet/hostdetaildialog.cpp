// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/fleet/hostdetaildialog.h"

#include "core/fleet/promclient.h"
#include "core/transport/transportpool.h"
#include "ui/chart/chartwindowbar.h"
#include "ui/chart/timechart.h"
#include "ui/common/plaintext.h"
#include "ui/fleet/fleettiles.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>

namespace kf {

using namespace fleet;

HostDetailDialog::~HostDetailDialog()
{
    m_tracker.cancelAll();
}

HostDetailDialog::HostDetailDialog(
    const FleetHost& host, std::shared_ptr<PromClient> client, double scrapeIntervalS, QWidget* parent)
    : QDialog(parent)
    , m_host(host)
{
    setObjectName(QStringLiteral("hostDetail"));
    setWindowTitle(tr("%1 — last 24 h from Prometheus").arg(host.name));
    resize(1100, 760);
    auto* outer = new QVBoxLayout(this);
    // The tile's lines are the exporters' labels: plain text.
    auto* summary = new QLabel(FleetTiles::tileLines(host).join(QStringLiteral(" · ")), this);
    summary->setTextFormat(Qt::PlainText);
    summary->setObjectName(QStringLiteral("hostDetailSummary"));
    summary->setWordWrap(true);
    m_bar = new ChartWindowBar(this);
    auto* top = new QHBoxLayout;
    top->addWidget(summary, 1);
    top->addWidget(m_bar, 0, Qt::AlignTop);
    outer->addLayout(top);
    if (const QString claim = nameOnlyMatchText(host); !claim.isEmpty()) {
        // Any exporter can call itself a saved host: said here, and asked before acting.
        auto* note = new QLabel(tr("%1 %2.").arg(host.name, claim), this);
        note->setObjectName(QStringLiteral("hostDetailNameOnly"));
        note->setTextFormat(Qt::PlainText);
        note->setWordWrap(true);
        outer->addWidget(note);
    }
    auto* chartBox = new QWidget(this);
    auto* grid = new QGridLayout(chartBox);
    grid->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(chartBox, 1);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const qint64 from = now - 24LL * 3600 * 1000;
    m_earliestMs = now;
    const double step = rangeStepSeconds(24 * 3600, scrapeIntervalS);
    const QList<ChartQuery> queries = hostChartQueries(host);
    for (int i = 0; i < queries.size(); ++i) {
        auto* box = new QVBoxLayout;
        auto* chart = new TimeChart(chartBox);
        chart->setObjectName(QStringLiteral("hostDetailChart"));
        chart->setTitle(queries.at(i).title);
        chart->setUnit(queries.at(i).unit);
        chart->setTimeWindow(m_bar->range(from, now).first, now);
        chart->setMinimumHeight(160);
        if (queries.at(i).unit == u"%")
            chart->setValueRange(0, 100);
        auto* error = new QLabel(chartBox);
        error->setTextFormat(Qt::PlainText);
        error->setWordWrap(true);
        error->hide();
        box->addWidget(chart, 1);
        box->addWidget(error);
        grid->addLayout(box, i / 2, i % 2);
        m_charts << chart;
        m_errors << error;
        const QString promql = queries.at(i).promql;
        m_tracker.track(QtConcurrent::run(transportPool(),
                            [client, promql, from, now, step] { return client->queryRange(promql, from, now, step); }),
            [this, chart, error, step, now](const Result<PromQueryResult>& r) {
                ++m_loaded;
                if (!r) {
                    error->setText(r.error());
                    error->show();
                } else {
                    QList<PromSeries> series = r->series;
                    std::sort(series.begin(), series.end(), [](const PromSeries& a, const PromSeries& b) {
                        const QString ka = a.metric.value(QStringLiteral("gpu")),
                                      kb = b.metric.value(QStringLiteral("gpu"));
                        return ka.size() != kb.size() ? ka.size() < kb.size() : ka < kb;
                    });
                    for (const PromSeries& s : std::as_const(series)) {
                        QString name = s.metric.value(QStringLiteral("gpu"));
                        name = name.isEmpty() ? s.metric.value(QStringLiteral("uuid")).left(12)
                                              : QStringLiteral("GPU ") + name;
                        if (name.isEmpty())
                            name = chart->seriesCount() ? QString::number(chart->seriesCount())
                                                        : QStringLiteral("server");
                        // Prometheus leaves out steps without data: a jump of more than two steps is a gap.
                        QList<QPointF> pts;
                        pts.reserve(s.points.size() + 16);
                        for (qsizetype k = 0; k < s.points.size(); ++k) {
                            if (k > 0 && s.points.at(k).x() - s.points.at(k - 1).x() > 2.5 * 1000 * step)
                                pts.append(QPointF(s.points.at(k - 1).x() + 1, noValue()));
                            pts.append(s.points.at(k));
                        }
                        chart->setSeriesData(chart->addSeries(name), pts);
                        if (!pts.isEmpty())
                            m_earliestMs = qMin(m_earliestMs, qint64(pts.first().x()));
                    }
                    if (series.isEmpty()) {
                        error->setText(tr("no data in the last 24 h"));
                        error->show();
                    }
                }
                if (m_loaded == m_charts.size()) {
                    showWindow();
                    Q_EMIT chartsReady();
                }
            });
    }
    m_nowMs = now;
    m_bar->setCharts(m_charts, chartBox, host.name);
    connect(m_bar, &ChartWindowBar::windowChanged, this, &HostDetailDialog::showWindow);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* live = buttons->addButton(tr("Live SSH stream"), QDialogButtonBox::ActionRole);
    live->setObjectName(QStringLiteral("hostDetailLive"));
    live->setToolTip(plainToolTip(host.profileName.isEmpty()
            ? tr("Adds a profile for %1 (%2) and connects; set its login in Hosts if needed").arg(host.name, host.key)
            : tr("Connects %1 and shows its GPUs tab (one nvidia-smi stream)").arg(host.profileName)));
    connect(live, &QPushButton::clicked, this, [this] {
        Q_EMIT liveStreamRequested();
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    outer->addWidget(buttons);
}

} // namespace kf

namespace kf {

void HostDetailDialog::showWindow()
{
    // The chosen last part of the 24 h asked for; "all" is what there is (less than 24 h of
    // history: not a line at the right edge).
    const qint64 earliest = m_earliestMs < m_nowMs ? m_earliestMs : m_nowMs - 24LL * 3600 * 1000;
    const qint64 from = m_bar->range(earliest, m_nowMs).first;
    for (TimeChart* c : std::as_const(m_charts))
        c->setTimeWindow(from, m_nowMs);
}

} // namespace kf
