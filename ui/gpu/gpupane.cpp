// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/gpu/gpupane.h"

#include "core/gpu/gpumonitor.h"
#include "core/gpu/gpumonitorhub.h"
#include "core/hosts/hostconnection.h"
#include "ui/chart/chartwindowbar.h"
#include "ui/chart/timechart.h"
#include "ui/common/emptystate.h"
#include "ui/common/exportfolder.h"
#include "ui/gpu/gpucard.h"
#include "ui/gpu/gpucardgrid.h"
#include "ui/gpu/processpanel.h"

#include <QComboBox>
#include <QDateTime>
#include <QFile>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace kf {

namespace {
constexpr qint64 kSparklineMs = 5LL * 60 * 1000;
// A block older than this is stale even while the stream claims to run (it stalled).
constexpr qint64 kStaleAfterMs = 10000;

// "12 s old", "2 min old", "3 h old".
QString ageText(qint64 ms)
{
    const qint64 s = qMax<qint64>(0, ms / 1000);
    if (s < 60)
        return GpuPane::tr("%1 s old").arg(s);
    if (s < 3600)
        return GpuPane::tr("%1 min old").arg(s / 60);
    return GpuPane::tr("%1 h old").arg(s / 3600);
}
const QString kSplitterKey = QStringLiteral("gpus/splitterSizes");

// The heights kept from the last drag (else `initial`), each raised to its part's minimum: a
// chart once crushed to a strip comes back readable.
QList<int> keptSplitterSizes(const QSplitter* split, const QList<int>& initial)
{
    const QVariantList kept = QSettings().value(kSplitterKey).toList();
    QList<int> sizes;
    for (int i = 0; i < split->count(); ++i) {
        const QWidget* part = split->widget(i);
        const int least = std::max(part->minimumHeight(), part->minimumSizeHint().height());
        const int size = kept.size() == split->count() ? kept[i].toInt() : initial.value(i);
        sizes << std::max(size, least);
    }
    return sizes;
}

} // namespace

GpuPane::GpuPane(const AppContext& context, HostConnection* host, QWidget* parent)
    : HostPane(host, parent)
    , m_context(context)
    , m_hub(context.gpuMonitors ? context.gpuMonitors : new GpuMonitorHub(this))
    , m_status(new QLabel(this))
    , m_cardStack(new QStackedWidget(this))
    , m_noCards(new EmptyState(this))
    , m_metric(new QComboBox(this))
    , m_chartBar(new ChartWindowBar(this))
    , m_cardBox(new GpuCardGrid(this))
    , m_chart(new TimeChart(this))
    , m_processPanel(new ProcessPanel(host, this))
    , m_alertStack(new QStackedWidget(this))
    , m_noAlerts(new EmptyState(this))
    , m_alerts(new QListWidget(this))
    , m_gpmStatus(new QLabel(this))
    , m_health(new QListWidget(this))
{
    auto* page = this;
    auto* pageLayout = new QVBoxLayout(page);
    auto* bar = new QHBoxLayout();
    m_status->setObjectName(QStringLiteral("gpuStatus"));
    m_status->setTextFormat(Qt::RichText); // the host's name in bold; the connection's words escaped
    // A long host name or "the cards show the last samples" wraps instead of widening the window.
    m_status->setWordWrap(true);
    bar->addWidget(m_status, 1);
    bar->addWidget(new QLabel(tr("Metric:"), page));
    for (const GpuField field : gpuChartFields())
        m_metric->addItem(gpuFieldLabel(field), int(field));
    bar->addWidget(m_metric);
    bar->addWidget(m_chartBar);
    pageLayout->addLayout(bar);
    m_gpmStatus->setObjectName(QStringLiteral("gpmStatus"));
    m_gpmStatus->setTextFormat(Qt::PlainText); // the probe quotes nvidia-smi
    m_gpmStatus->setWordWrap(true);
    m_gpmStatus->hide();
    pageLayout->addWidget(m_gpmStatus);

    auto* split = new QSplitter(Qt::Vertical, page);
    auto* scroll = new QScrollArea(m_cardStack);
    m_cardScroll = scroll;
    scroll->setWidgetResizable(true);
    scroll->setObjectName(QStringLiteral("gpuCardScroll"));
    // The grid reflows to fewer columns instead (GpuCardGrid).
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(m_cardBox);
    m_noCards->setObjectName(QStringLiteral("gpuNoCards"));
    m_cardStack->addWidget(m_noCards);
    m_cardStack->addWidget(scroll);
    split->addWidget(m_cardStack);
    m_chart->setObjectName(QStringLiteral("gpuDetailChart"));
    split->addWidget(m_chart);
    auto* tabs = new QTabWidget(split);
    tabs->addTab(m_processPanel, tr("Processes"));
    connect(m_processPanel, &ProcessPanel::showAllRequested, this, [this] { selectGpu(-1); });
    m_alerts->setObjectName(QStringLiteral("gpuAlerts"));
    m_noAlerts->setObjectName(QStringLiteral("gpuNoAlerts"));
    m_noAlerts->setTitle(tr("No alerts"));
    m_noAlerts->setText(tr("Nothing has crossed a limit on this host since it was opened. A GPU too hot, memory "
                           "nearly full, ECC errors, slowdowns, Xid errors or nvidia-smi failing are listed "
                           "here, newest first, and cleared when they end."));
    m_alertStack->setObjectName(QStringLiteral("gpuAlertStack"));
    m_alertStack->addWidget(m_noAlerts);
    m_alertStack->addWidget(m_alerts);
    tabs->addTab(m_alertStack, tr("Alerts"));
    m_health->setObjectName(QStringLiteral("gpuHealth"));
    auto* healthPage = new QWidget(tabs);
    auto* healthLayout = new QVBoxLayout(healthPage);
    healthLayout->setContentsMargins(0, 0, 0, 0);
    healthLayout->addWidget(m_health, 1);
    auto* checkNow = new QPushButton(tr("Check health now"), healthPage);
    checkNow->setObjectName(QStringLiteral("gpuCheckHealth"));
    checkNow->setToolTip(tr("Xid events, ECC, retired pages, remapped rows, PCIe link and replays, NVLink errors and "
                            "clock-event time, from nvidia-smi and the kernel log (also every 10 minutes)"));
    connect(checkNow, &QPushButton::clicked, this, [this] {
        if (m_monitor)
            m_monitor->checkHealth();
    });
    healthLayout->addWidget(checkNow, 0, Qt::AlignLeft);
    tabs->addTab(healthPage, tr("Health"));
    split->addWidget(tabs);
    // Every part keeps a height where it reads: two rows of cards without scrolling, a chart
    // whose axis labels and legend fit, a process list of several rows (nvitop shows many).
    // None can be dragged shut; the heights a person chose are kept, each at least that.
    split->setObjectName(QStringLiteral("gpuSplitter"));
    tabs->setObjectName(QStringLiteral("gpuLists"));
    scroll->setMinimumHeight(180);
    m_chart->setMinimumHeight(fontMetrics().height() * 8);
    tabs->setMinimumHeight(fontMetrics().height() * 11);
    for (int i = 0; i < split->count(); ++i)
        split->setCollapsible(i, false);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 2);
    split->setStretchFactor(2, 3);
    split->setSizes(keptSplitterSizes(split, { 250, 210, 400 }));
    connect(split, &QSplitter::splitterMoved, this, [split] {
        QVariantList sizes;
        for (const int size : split->sizes())
            sizes << size;
        QSettings().setValue(kSplitterKey, sizes);
    });
    pageLayout->addWidget(split, 1);

    connect(m_metric, &QComboBox::currentIndexChanged, this, [this] { refreshChart(); });
    connect(m_chartBar, &ChartWindowBar::windowChanged, this, [this] { refreshChart(); });
    m_chartBar->setCharts({ m_chart }, m_chart, QStringLiteral("gpu"));
    // The chart's CSV holds its field per GPU; this one every charted field, sample by sample.
    QAction* allFields = m_chartBar->exportMenu()->addAction(tr("Every GPU field as CSV (this window)…"), this, [this] {
        const QString path = exportfolder::askSavePath(
            this, tr("Export GPU history"), QStringLiteral("gpus.csv"), tr("CSV files (*.csv)"));
        if (path.isEmpty())
            return;
        if (const QString error = exportCsv(path); !error.isEmpty())
            addAlertLine(error, true, false);
    });
    allFields->setObjectName(QStringLiteral("gpuExportAllFields"));
    // The chart's whole history: every GPU's series of the charted field, as held.
    m_chart->setHistorySource([this] {
        QList<CsvSeries> out;
        if (!m_monitor)
            return out;
        const auto field = GpuField(m_metric->currentData().toInt());
        const auto& history = m_monitor->history();
        for (int g : history.gpus()) {
            const SeriesBuffer* s = history.series(g, field);
            out.append({ gpuFieldLabel(field), tr("GPU %1").arg(g), gpuFieldUnit(field),
                s ? s->history() : QList<QPointF>() });
        }
        return out;
    });
    // Once a second: the chart while visible, and the age of stale cards.
    m_chartTimer.setInterval(1000);
    connect(&m_chartTimer, &QTimer::timeout, this, [this] {
        if (!isVisible())
            return;
        refreshChart();
        markStale();
    });
    m_chartTimer.start();
    connect(m_hub, &GpuMonitorHub::monitorAdded, this, [this](HostConnection* added, GpuMonitor* monitor) {
        if (added == m_host)
            attach(monitor);
    });
    connect(host, &HostConnection::stateChanged, this, &GpuPane::markStale);
    if (GpuMonitor* monitor = m_hub->monitorFor(host))
        attach(monitor);
    else
        updateStatus();
}

GpuPane::~GpuPane()
{
    // Monitors emit while they stop; detach before this object is half destroyed, and
    // delete a hub we own while we are still whole.
    if (m_monitor)
        m_monitor->disconnect(this);
    m_hub->disconnect(this);
    if (m_hub->parent() == this)
        delete m_hub;
}

void GpuPane::attach(GpuMonitor* monitor)
{
    m_monitor = monitor;
    // A running stream's last block is about as old as its interval; a stopped one's is
    // dated by the sample itself (close enough for "stale, N min old").
    m_lastArrivalMs = monitor->latest().isEmpty()          ? 0
        : monitor->state() == GpuMonitor::State::Streaming ? QDateTime::currentMSecsSinceEpoch()
                                                           : monitor->latestTimeMs();
    connect(monitor, &GpuMonitor::samplesUpdated, this, [this] {
        m_lastArrivalMs = QDateTime::currentMSecsSinceEpoch();
        onSamples();
    });
    connect(monitor, &GpuMonitor::processesUpdated, this, &GpuPane::onProcesses);
    connect(monitor, &GpuMonitor::stateChanged, this, [this](GpuMonitor::State, const QString& reason) {
        m_monitorReason = reason;
        markStale();
    });
    connect(monitor, &GpuMonitor::alertRaised, this,
        [this](const Alert& a) { addAlertLine(a.message, a.critical, false); });
    connect(monitor, &GpuMonitor::alertCleared, this, [this](const Alert& a) { addAlertLine(a.message, false, true); });
    connect(monitor, &GpuMonitor::gpmChanged, this, &GpuPane::onGpm);
    connect(monitor, &GpuMonitor::healthUpdated, this, &GpuPane::onHealth);
    for (const Alert& a : monitor->activeAlerts())
        addAlertLine(a.message, a.critical, false);
    onSamples();
    onProcesses();
    onGpm();
    onHealth();
}

QString GpuPane::gpmStatusText() const
{
    return m_gpmStatus->text();
}

void GpuPane::onGpm()
{
    if (!m_monitor)
        return;
    const GpuMonitor::GpmStatus& gpm = m_monitor->gpm();
    m_gpmStatus->setText(gpm.text());
    m_gpmStatus->setVisible(gpm.phase != GpuMonitor::GpmStatus::Phase::Off);
}

void GpuPane::onHealth()
{
    if (!m_monitor)
        return;
    m_health->clear();
    if (!m_monitor->hasHealth()) {
        m_health->addItem(m_monitor->healthError().isEmpty()
                ? tr("No health check yet")
                : tr("Health check failed: %1").arg(m_monitor->healthError()));
        return;
    }
    const GpuHealthReport& report = m_monitor->health();
    static const QColor kColor[] = { QColor(0x2c, 0xa0, 0x2c), QColor(0xc0, 0x70, 0x00), QColor(0xd6, 0x27, 0x28) };
    auto* head = new QListWidgetItem(
        tr("%1  %2").arg(QDateTime::fromMSecsSinceEpoch(m_monitor->healthTimeMs()).toString(QStringLiteral("HH:mm:ss")),
            report.summary()));
    head->setForeground(kColor[int(report.verdict())]);
    m_health->addItem(head);
    for (const GpuHealth& g : report.gpus)
        for (const HealthFinding& f : g.findings) {
            auto* item
                = new QListWidgetItem(tr("GPU %1  %2  %3").arg(g.index).arg(healthLevelName(f.level), f.message));
            item->setForeground(kColor[int(f.level)]);
            m_health->addItem(item);
        }
    if (report.xidSource.isEmpty() && !report.gpus.isEmpty())
        m_health->addItem(tr("Xid events not read: the kernel log needs root or the adm/systemd-journal group"));
    for (const GpuHealth& g : report.gpus)
        if (GpuCard* card = m_cards.value(g.index))
            card->setHealth(&g);
}

void GpuPane::showEvent(QShowEvent* event)
{
    HostPane::showEvent(event);
    if (m_samplesPending)
        onSamples();
    markStale();
}

qint64 GpuPane::sampleAgeMs() const
{
    return m_lastArrivalMs > 0 ? QDateTime::currentMSecsSinceEpoch() - m_lastArrivalMs : -1;
}

bool GpuPane::isStale() const
{
    return !m_host || m_host->state() != ConnectionState::Ready || !m_monitor
        || m_monitor->state() != GpuMonitor::State::Streaming || sampleAgeMs() > kStaleAfterMs;
}

void GpuPane::updateStatus()
{
    if (!m_host)
        return;
    const QString name = QStringLiteral("<b>%1</b>").arg(m_host->profile().name.toHtmlEscaped());
    const bool connected = m_host->state() == ConnectionState::Ready;
    QString connection = toString(m_host->state());
    if (!m_host->stateReason().isEmpty())
        connection += QStringLiteral(": ") + m_host->stateReason();
    const int n = m_monitor ? int(m_monitor->latest().size()) : 0;
    // The status line, and what the card area says while there are no cards.
    QString status;
    QString title;
    QString text;
    if (!m_monitor) {
        status = tr("%1: %2").arg(name, connection.toHtmlEscaped());
        title = tr("Not connected");
        text = tr("Connect to %1 to watch its GPUs. KernelForge runs one long-lived nvidia-smi on it; nothing is "
                  "installed.")
                   .arg(m_host->profile().name);
    } else if (m_monitor->driverMissing()) {
        status = tr("%1: no NVIDIA driver (nvidia-smi not found)").arg(name);
        title = tr("No NVIDIA driver found on this host");
        text = tr("nvidia-smi is not installed on %1, or not on the PATH of its login shell, so there are no GPUs to "
                  "watch. KernelForge keeps checking (at least every 30 s).")
                   .arg(m_host->profile().destination());
    } else if (!connected) {
        status = n > 0 ? tr("%1: %2; the cards show the last samples (%3)")
                             .arg(name, connection.toHtmlEscaped(), ageText(sampleAgeMs()))
                       : tr("%1: %2").arg(name, connection.toHtmlEscaped());
        title = tr("Not connected");
        text = connection;
    } else {
        switch (m_monitor->state()) {
        case GpuMonitor::State::Stopped: status = tr("stopped"); break;
        case GpuMonitor::State::Probing: status = tr("asking nvidia-smi which fields it knows…"); break;
        case GpuMonitor::State::Streaming: status = tr("streaming every %1 s").arg(1); break;
        case GpuMonitor::State::Restarting: status = tr("nvidia-smi stopped, retrying"); break;
        case GpuMonitor::State::Failed: status = tr("failed"); break;
        }
        if (n > 0 && isStale())
            status += tr("; the cards show the last samples (%1)").arg(ageText(sampleAgeMs()));
        const bool failing
            = m_monitor->state() == GpuMonitor::State::Restarting || m_monitor->state() == GpuMonitor::State::Failed;
        title = failing ? tr("nvidia-smi is not answering") : tr("Waiting for the first sample…");
        text = failing ? m_monitorReason : QString();
        status = tr("%1: %n GPU(s), %2", nullptr, n).arg(name, status);
    }
    m_status->setText(status);
    m_noCards->setTitle(title);
    m_noCards->setText(text);
    m_cardStack->setCurrentWidget(m_cards.isEmpty() ? m_noCards : m_cardScroll);
}

void GpuPane::markStale()
{
    const bool stale = isStale();
    const QString age = stale && m_lastArrivalMs > 0 ? ageText(sampleAgeMs()) : QString();
    QString why = m_host && m_host->state() != ConnectionState::Ready ? toString(m_host->state())
            + (m_host->stateReason().isEmpty() ? QString() : QStringLiteral(": ") + m_host->stateReason())
                                                                      : m_monitorReason;
    for (GpuCard* card : std::as_const(m_cards))
        card->setStale(stale, age, why);
    updateStatus();
}

void GpuPane::onSamples()
{
    if (!m_monitor)
        return;
    if (!isVisible() && !m_cards.isEmpty()) { // drawn when shown (a hidden pane of one of many hosts)
        m_samplesPending = true;
        return;
    }
    m_samplesPending = false;
    const auto& gpus = m_monitor->latest();
    QSet<int> alerting;
    for (const Alert& a : m_monitor->activeAlerts())
        alerting.insert(a.gpu);
    // GPUs may appear or disappear between blocks (a GPU falls off the bus, MIG changes).
    QSet<int> seen;
    for (const auto& g : gpus) {
        seen.insert(g.index);
        GpuCard* card = m_cards.value(g.index);
        if (!card) {
            card = new GpuCard(g.index, m_cardBox);
            connect(card, &GpuCard::clicked, this, [this](int index) { selectGpu(m_highlight == index ? -1 : index); });
            card->setSelected(g.index == m_highlight);
            m_cards.insert(g.index, card);
            if (m_monitor->hasHealth())
                for (const GpuHealth& h : m_monitor->health().gpus)
                    if (h.index == g.index)
                        card->setHealth(&h);
            m_cardBox->setCards(m_cards.values());
        }
        card->setSample(g, alerting.contains(g.index));
        card->setGpm(
            g, m_monitor->gpm().phase == GpuMonitor::GpmStatus::Phase::Unavailable ? m_monitor->gpm().why : QString());
        const qint64 now = m_monitor->latestTimeMs();
        card->setSparkline(m_monitor->history().series(g.index, GpuField::UtilGpu), now - kSparklineMs, now);
    }
    bool removed = false;
    for (auto it = m_cards.begin(); it != m_cards.end();) {
        if (!seen.contains(it.key())) {
            delete it.value();
            it = m_cards.erase(it);
            removed = true;
        } else {
            ++it;
        }
    }
    if (removed)
        m_cardBox->setCards(m_cards.values());
    markStale();
}

void GpuPane::onProcesses()
{
    if (m_monitor)
        m_processPanel->setProcesses(m_monitor->processes(), m_monitor->processList());
}

void GpuPane::selectGpu(int index)
{
    m_highlight = index;
    for (GpuCard* card : std::as_const(m_cards))
        card->setSelected(card->index() == index);
    m_processPanel->setGpuFilter(index);
    refreshChart();
}

void GpuPane::addAlertLine(const QString& text, bool critical, bool cleared)
{
    auto* item = new QListWidgetItem(QStringLiteral("%1  %2%3")
                                         .arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")),
                                             cleared ? tr("cleared: ") : QString(), text));
    if (cleared)
        item->setForeground(QColor(0x2c, 0xa0, 0x2c));
    else if (critical)
        item->setForeground(QColor(0xd6, 0x27, 0x28));
    else
        item->setForeground(QColor(0xc0, 0x70, 0x00));
    m_alerts->insertItem(0, item);
    m_alertStack->setCurrentWidget(m_alerts);
    while (m_alerts->count() > 500)
        delete m_alerts->takeItem(m_alerts->count() - 1);
}

qint64 GpuPane::windowMs() const
{
    return m_chartBar->windowMs();
}

void GpuPane::setWindowIndex(int index)
{
    m_chartBar->setWindowIndex(index);
}

void GpuPane::setMetric(GpuField field)
{
    m_metric->setCurrentIndex(m_metric->findData(int(field)));
}

void GpuPane::refreshChart()
{
    if (!m_monitor)
        return;
    const auto field = GpuField(m_metric->currentData().toInt());
    const auto& history = m_monitor->history();
    const QList<int> gpus = history.gpus();
    if (m_chart->seriesCount() != gpus.size()) {
        m_chart->clearSeries();
        for (int g : gpus)
            m_chart->addSeries(tr("GPU %1").arg(g), TimeChart::paletteColor(g));
    }
    m_chart->setTitle(gpuFieldLabel(field));
    m_chart->setUnit(gpuFieldUnit(field));
    if (gpuFieldUnit(field) == QStringLiteral("%"))
        m_chart->setValueRange(0, 100);
    else
        m_chart->setAutoRange();
    const qint64 last = m_monitor->latestTimeMs() ? m_monitor->latestTimeMs() : QDateTime::currentMSecsSinceEpoch();
    qint64 first = 0;
    for (int g : gpus)
        if (const SeriesBuffer* s = history.series(g, field); s && !s->isEmpty())
            first = first ? qMin(first, s->firstTime()) : s->firstTime();
    const auto [from, to] = m_chartBar->range(first, last);
    m_chart->setTimeWindow(from, to);
    const int columns = m_chart->columns();
    for (int i = 0; i < gpus.size(); ++i) {
        const SeriesBuffer* s = history.series(gpus[i], field);
        m_chart->setSeriesData(i, s ? s->decimated(from, to, columns) : QList<QPointF>());
        m_chart->setSeriesVisible(i, m_highlight < 0 || m_highlight == gpus[i]);
    }
}

QString GpuPane::exportCsv(const QString& path) const
{
    if (!m_monitor)
        return tr("No GPU data to export");
    const qint64 to = QDateTime::currentMSecsSinceEpoch();
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return tr("Cannot write %1: %2").arg(path, f.errorString());
    f.write(m_monitor->history().toCsv(windowMs() > 0 ? to - windowMs() : 0, to));
    if (!f.commit())
        return tr("Cannot write %1: %2").arg(path, f.errorString());
    return {};
}

} // namespace kf
