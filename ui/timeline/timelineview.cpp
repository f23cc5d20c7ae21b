// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/timeline/timelineview.h"

#include "core/timeline/eventstore.h"
#include "core/transport/transportpool.h"
#include "ui/chart/chartwindowbar.h"
#include "ui/chart/timechart.h"
#include "ui/common/verticalscrollarea.h"
#include "ui/timeline/timelinelanes.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <QtConcurrent>

#include <cmath>

namespace kf {
namespace {

constexpr int kPlotLeft = 96; // lane names and y labels fit left of it
constexpr qint64 kHour = 3600LL * 1000;

struct Loaded
{
    QList<timeline::Event> events;
    QList<timeline::MinuteRow> minutes;
    QList<timeline::ServerMinuteRow> serverMinutes;
    // What could not be read (the parts read are applied; a part not read keeps what the view
    // had: real points at their times, never a window blanked by a busy database).
    bool eventsRead = false, minutesRead = false, serversRead = false;
    QString error;
};

QString spanText(qint64 ms)
{
    if (ms >= 7 * 24 * kHour)
        return QObject::tr("%1 weeks").arg(double(ms) / double(7 * 24 * kHour), 0, 'f', 1);
    if (ms >= 24 * kHour)
        return QObject::tr("%1 days").arg(double(ms) / double(24 * kHour), 0, 'f', 1);
    if (ms >= kHour)
        return QObject::tr("%1 h").arg(double(ms) / double(kHour), 0, 'f', 1);
    return QObject::tr("%1 min").arg(ms / 60000);
}

QString paneTitle(const QString& pane)
{
    if (pane == QLatin1String("patches"))
        return QObject::tr("Patches");
    if (pane == QLatin1String("build"))
        return QObject::tr("Build");
    if (pane == QLatin1String("server"))
        return QObject::tr("Server");
    if (pane == QLatin1String("gpus"))
        return QObject::tr("GPUs");
    return QObject::tr("Overview");
}

} // namespace

TimelineView::TimelineView(QWidget* parent)
    : QWidget(parent)
    , m_lanes(new TimelineLanes(this))
    , m_range(new QLabel(this))
    , m_details(new QTextBrowser(this))
    , m_open(new QPushButton(this))
{
    setObjectName(QStringLiteral("TimelineView"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    auto* bar = new QHBoxLayout();
    // The windows every chart offers (ChartWindowBar: 5 min to 24 h; its "All" is the button
    // below), then the timeline's longer ones. Tool buttons: as wide as their text, so the bar
    // fits a 1024 px window.
    QList<std::pair<QString, qint64>> zooms;
    for (const auto& w : ChartWindowBar::windows())
        if (w.second > 0)
            zooms.append(w);
    zooms.append({ tr("1 week"), 7 * 24 * kHour });
    zooms.append({ tr("4 weeks"), 28 * 24 * kHour });
    for (const auto& [label, span] : std::as_const(zooms)) {
        auto* b = new QToolButton(this);
        b->setText(label);
        b->setObjectName(QStringLiteral("zoom:") + label);
        connect(b, &QToolButton::clicked, this, [this, span = span] { showLast(span); });
        bar->addWidget(b);
    }
    auto* zoomIn = new QToolButton(this);
    auto* zoomOut = new QToolButton(this);
    zoomIn->setText(QStringLiteral("+"));
    zoomOut->setText(QStringLiteral("\u2212"));
    zoomIn->setObjectName(QStringLiteral("zoomIn"));
    zoomOut->setObjectName(QStringLiteral("zoomOut"));
    zoomIn->setToolTip(tr("Zoom in (or the mouse wheel over the markers)"));
    zoomOut->setToolTip(tr("Zoom out"));
    connect(zoomIn, &QToolButton::clicked, this, [this] { zoom(0.5, (m_from + m_to) / 2); });
    connect(zoomOut, &QToolButton::clicked, this, [this] { zoom(2.0, (m_from + m_to) / 2); });
    bar->addWidget(zoomIn);
    bar->addWidget(zoomOut);
    auto* fit = new QToolButton(this);
    fit->setText(tr("All"));
    fit->setObjectName(QStringLiteral("zoomAll"));
    fit->setToolTip(tr("From the host's first event to now"));
    connect(fit, &QToolButton::clicked, this, &TimelineView::fitAll);
    bar->addWidget(fit);
    auto* now = new QToolButton(this);
    now->setText(tr("Now"));
    now->setObjectName(QStringLiteral("followNow"));
    now->setToolTip(tr("Follow the present"));
    connect(now, &QToolButton::clicked, this, [this] { showLast(m_to - m_from); });
    bar->addWidget(now);
    bar->addStretch(1);
    m_range->setObjectName(QStringLiteral("timelineRange"));
    // Wraps rather than widening the tab (its text is longer for weeks than for minutes).
    m_range->setWordWrap(true);
    m_range->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    bar->addWidget(m_range);
    layout->addLayout(bar);

    auto* split = new QSplitter(Qt::Vertical, this);
    // Lanes and charts are taller than a small window: they scroll (vertically, so the time axis
    // stays aligned); with room they stretch as before.
    auto* top = new QWidget;
    auto* stack = new QVBoxLayout(top);
    stack->setContentsMargins(0, 0, 0, 0);
    stack->setSpacing(2);
    stack->addWidget(m_lanes);
    for (int s = 0; s < timeline::kSeriesCount; ++s) {
        auto* chart = new TimeChart(top);
        chart->setObjectName(QStringLiteral("timelineChart%1").arg(s));
        chart->setTitle(timeline::seriesTitle(timeline::Series(s)));
        chart->setUnit(timeline::seriesUnit(timeline::Series(s)));
        if (timeline::Series(s) != timeline::Series::Tokens)
            chart->addSeries(QString(), TimeChart::paletteColor(s)); // the title names it
        // tok/s: a series per server, each named (refreshCharts).
        chart->setPlotLeft(kPlotLeft);
        chart->setEmptyText(tr("Not measured in this period"));
        chart->setMinimumHeight(90);
        if (timeline::Series(s) == timeline::Series::Memory)
            chart->setValueRange(0, 100);
        stack->addWidget(chart, 1);
        m_charts.append(chart);
    }
    m_lanes->alignWith(m_charts.first());
    split->addWidget(new VerticalScrollArea(top, split));

    auto* detailsBox = new QWidget(split);
    auto* detailsLayout = new QVBoxLayout(detailsBox);
    detailsLayout->setContentsMargins(0, 0, 0, 0);
    m_details->setObjectName(QStringLiteral("timelineDetails"));
    m_details->setOpenLinks(false);
    m_details->setPlaceholderText(tr("Click a marker to see what happened."));
    detailsLayout->addWidget(m_details, 1);
    m_open->setObjectName(QStringLiteral("openPane"));
    m_open->setVisible(false);
    connect(m_open, &QPushButton::clicked, this, [this] {
        if (m_selected >= 0 && m_selected < m_events.size())
            Q_EMIT openPane(timeline::paneFor(m_events[m_selected].kind, m_events[m_selected].details));
    });
    auto* openRow = new QHBoxLayout();
    openRow->addWidget(m_open);
    openRow->addStretch(1);
    detailsLayout->addLayout(openRow);
    split->addWidget(detailsBox);
    split->setSizes({ 620, 180 });
    layout->addWidget(split, 1);

    connect(m_lanes, &TimelineLanes::markerClicked, this, &TimelineView::selectEvent);
    connect(m_lanes, &TimelineLanes::zoomRequested, this, &TimelineView::zoom);
    connect(
        m_lanes, &TimelineLanes::panRequested, this, [this](qint64 delta) { setWindow(m_from + delta, m_to + delta); });

    m_reloadSoon.setSingleShot(true);
    m_reloadSoon.setInterval(150);
    connect(&m_reloadSoon, &QTimer::timeout, this, &TimelineView::reload);
    m_chartsSoon.setSingleShot(true);
    m_chartsSoon.setInterval(1000);
    connect(&m_chartsSoon, &QTimer::timeout, this, &TimelineView::refreshCharts);
    // Following the present: the window moves on, and events recorded meanwhile come in.
    m_follow.setInterval(10000);
    connect(&m_follow, &QTimer::timeout, this, [this] {
        if (m_following && !m_host.isEmpty())
            reload();
    });
    m_follow.start();
    showLast(kHour);
}

TimelineView::~TimelineView() = default;

void TimelineView::setRecorder(timeline::SeriesRecorder* recorder)
{
    if (m_recorder)
        m_recorder->disconnect(this);
    m_recorder = recorder;
    if (recorder)
        connect(recorder, &timeline::SeriesRecorder::updated, this, [this](const QString& host) {
            if (host == m_host && !m_chartsSoon.isActive())
                m_chartsSoon.start();
        });
    refreshCharts();
}

void TimelineView::setHost(const QString& host)
{
    if (host == m_host)
        return;
    m_host = host;
    m_requests.cancelAll(); // an answer for the previous host is not this host's
    m_events.clear();
    m_minutes.clear();
    m_selected = -1;
    m_lanes->setEvents({});
    showDetails();
    fitAll();
}

void TimelineView::setWindow(qint64 fromMs, qint64 toMs)
{
    m_fit.cancel(); // a host's first window never replaces one chosen since
    m_following = false;
    m_from = fromMs;
    m_to = qMax(fromMs + kMinSpanMs, toMs);
    applyWindow();
}

void TimelineView::showLast(qint64 spanMs)
{
    m_fit.cancel(); // a host's first window never replaces one chosen since
    m_following = true;
    m_to = QDateTime::currentMSecsSinceEpoch();
    m_from = m_to - qBound(kMinSpanMs, spanMs, kMaxSpanMs);
    applyWindow();
}

void TimelineView::fitAll()
{
    if (m_host.isEmpty()) {
        reload();
        return;
    }
    const QString host = m_host;
    m_fit = m_requests.track(QtConcurrent::run(transportPool(), [host] { return timeline::firstTime(host); }),
        [this](const Result<QDateTime>& first) {
            if (!first || !first->isValid()) {
                showLast(kHour);
                return;
            }
            const qint64 span = QDateTime::currentMSecsSinceEpoch() - first->toMSecsSinceEpoch();
            showLast(span + span / 20 + 60000); // a little room before the first marker
        });
}

void TimelineView::zoom(double factor, qint64 aroundMs)
{
    const qint64 span = m_to - m_from;
    const qint64 newSpan = qBound(kMinSpanMs, qint64(double(span) * factor), kMaxSpanMs);
    if (m_following) { // the right edge stays on the present
        showLast(newSpan);
        return;
    }
    const double at = span > 0 ? double(aroundMs - m_from) / double(span) : 0.5;
    const qint64 from = aroundMs - qint64(at * double(newSpan));
    setWindow(from, from + newSpan);
}

void TimelineView::applyWindow()
{
    showWindow();
    m_reloadSoon.start();
}

void TimelineView::showWindow()
{
    m_lanes->setTimeWindow(m_from, m_to);
    const QDateTime from = QDateTime::fromMSecsSinceEpoch(m_from), to = QDateTime::fromMSecsSinceEpoch(m_to);
    m_range->setText(
        tr("%1 \u2013 %2 (%3)%4")
            .arg(from.toString(QStringLiteral("yyyy-MM-dd HH:mm")),
                to.toString(from.date() == to.date() ? QStringLiteral("HH:mm") : QStringLiteral("yyyy-MM-dd HH:mm")),
                spanText(m_to - m_from), m_following ? tr(", following") : QString()));
    refreshCharts();
}

void TimelineView::reload()
{
    if (m_following) { // the window moves on to now, or what was just recorded lies beyond it
        const qint64 span = m_to - m_from;
        m_to = QDateTime::currentMSecsSinceEpoch();
        m_from = m_to - span;
        showWindow();
    }
    if (m_host.isEmpty()) {
        m_events.clear();
        m_lanes->setEvents({});
        refreshCharts();
        return;
    }
    const QString host = m_host;
    // A little beyond the window, so a marker at its edge is drawn whole.
    const qint64 margin = (m_to - m_from) / 50;
    const qint64 from = m_from - margin, to = m_to + margin;
    m_load.cancel(); // the newest window wins
    m_load = m_requests.track(
        QtConcurrent::run(transportPool(),
            [host, from, to] {
                Loaded out;
                timeline::Query q;
                q.host = host;
                q.since = QDateTime::fromMSecsSinceEpoch(from, Qt::UTC);
                q.until = QDateTime::fromMSecsSinceEpoch(to, Qt::UTC);
                auto read = [&out](auto result, auto& into, bool& ok) {
                    ok = result.ok();
                    if (ok)
                        into = result.value();
                    else if (out.error.isEmpty())
                        out.error = result.error();
                };
                read(timeline::events(q), out.events, out.eventsRead);
                read(timeline::loadMinutes(host, from, to), out.minutes, out.minutesRead);
                read(timeline::loadServerMinutes(host, from, to), out.serverMinutes, out.serversRead);
                return out;
            }),
        [this](const Loaded& loaded) {
            // Keep the selection on the same event when it is still there.
            const timeline::Event selected = m_selected >= 0 ? m_events.value(m_selected) : timeline::Event();
            if (loaded.eventsRead)
                m_events = loaded.events;
            if (loaded.minutesRead)
                m_minutes = loaded.minutes;
            if (loaded.serversRead)
                m_serverMinutes = loaded.serverMinutes;
            m_lanes->setEvents(m_events);
            m_selected = selected.kind.isEmpty() ? -1 : int(m_events.indexOf(selected));
            m_lanes->setSelected(m_selected);
            if (!loaded.error.isEmpty())
                m_details->setPlainText(tr("The history cannot be read: %1").arg(loaded.error));
            refreshCharts();
            Q_EMIT eventsLoaded(int(m_events.size()));
        });
}

QList<QPointF> TimelineView::seriesPoints(timeline::Series series, int columns) const
{
    const SeriesBuffer* live = m_recorder ? m_recorder->live(m_host, series) : nullptr;
    return timeline::mergedSeries(live, m_minutes, series, m_from, m_to, columns);
}

QList<timeline::LabelledSeries> TimelineView::serverSeries(int columns) const
{
    return timeline::serverTokenSeries(m_recorder, m_host, m_serverMinutes, m_minutes, m_from, m_to, columns);
}

QList<timeline::ReportSeries> TimelineView::reportSeries(int columns) const
{
    return timeline::reportSeries(m_recorder, m_host, m_minutes, m_serverMinutes, m_from, m_to, columns);
}

void TimelineView::refreshCharts()
{
    for (int s = 0; s < m_charts.size(); ++s) {
        TimeChart* chart = m_charts[s];
        chart->setTimeWindow(m_from, m_to);
        if (timeline::Series(s) != timeline::Series::Tokens) {
            chart->setSeriesData(0, seriesPoints(timeline::Series(s), chart->columns()));
            continue;
        }
        // One line per server, named by port and model: two servers are never one line.
        const QList<timeline::LabelledSeries> servers = serverSeries(chart->columns());
        bool same = chart->seriesCount() == servers.size();
        for (int i = 0; same && i < servers.size(); ++i)
            same = chart->seriesName(i) == servers[i].label;
        if (!same) {
            chart->clearSeries();
            for (int i = 0; i < servers.size(); ++i)
                chart->addSeries(servers[i].label, TimeChart::paletteColor(int(timeline::Series::Tokens) + i));
        }
        for (int i = 0; i < servers.size(); ++i)
            chart->setSeriesData(i, servers[i].points);
    }
    m_lanes->update();
}

void TimelineView::selectEvent(int index)
{
    m_selected = index >= 0 && index < m_events.size() ? index : -1;
    m_lanes->setSelected(m_selected);
    showDetails();
}

void TimelineView::showDetails()
{
    if (m_selected < 0) {
        m_details->clear();
        m_open->setVisible(false);
        return;
    }
    const timeline::Event& e = m_events[m_selected];
    const QString json = QString::fromUtf8(QJsonDocument(e.details).toJson(QJsonDocument::Indented));
    m_details->setHtml(
        QStringLiteral("<p><b>%1</b> &nbsp; <code>%2</code></p><p>%3</p><p style='color:gray'>%4%5</p><pre>%6</pre>")
            .arg(e.time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")).toHtmlEscaped(),
                e.kind.toHtmlEscaped(), e.summary.toHtmlEscaped(),
                e.actor.isEmpty() ? QString() : tr("By %1").arg(e.actor).toHtmlEscaped(),
                e.source == QLatin1String("events") ? QString() : tr(" \u00b7 from the %1 table").arg(e.source),
                json.toHtmlEscaped()));
    const QString pane = timeline::paneFor(e.kind, e.details);
    m_open->setText(tr("Open in %1").arg(paneTitle(pane)));
    m_open->setProperty("pane", pane);
    m_open->setVisible(true);
}

QString TimelineView::detailsText() const
{
    return m_details->toPlainText();
}

void TimelineView::wheelEvent(QWheelEvent* event)
{
    // Over the charts too: the time under the cursor stays where it is.
    const QRect plot = m_charts.first()->plotRect();
    const int x = int(event->position().x()) - (m_charts.first()->mapTo(this, plot.topLeft()).x());
    const qint64 at = m_from + qint64(double(x) * double(m_to - m_from) / qMax(1, plot.width()));
    const int steps = event->angleDelta().y() / 120;
    if (steps == 0) {
        QWidget::wheelEvent(event);
        return;
    }
    zoom(std::pow(0.8, steps), qBound(m_from, at, m_to));
    event->accept();
}

} // namespace kf
