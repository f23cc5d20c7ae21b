// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/gpu/gpupane.h"

#include "core/gpu/gpumonitor.h"
#include "core/gpu/gpumonitorhub.h"
#include "core/hosts/hostconnection.h"
#include "ui/chart/timechart.h"
#include "ui/common/emptystate.h"
#include "ui/gpu/gpucard.h"
#include "ui/gpu/processmodel.h"

#include <QComboBox>
#include <QDateTime>
#include <QFile>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace kf {

namespace {
constexpr qint64 kWindows[] = { 5LL * 60 * 1000, 60LL * 60 * 1000, 24LL * 3600 * 1000 };
constexpr int kCardColumns = 4;
} // namespace

GpuPane::GpuPane(const AppContext& context, QWidget* parent)
    : HostPane(parent)
    , m_context(context)
    , m_hub(context.gpuMonitors ? context.gpuMonitors : new GpuMonitorHub(this))
    , m_stack(new QStackedWidget(this))
    , m_empty(new EmptyState(this))
    , m_status(new QLabel(this))
    , m_metric(new QComboBox(this))
    , m_window(new QComboBox(this))
    , m_export(new QPushButton(tr("Export CSV…"), this))
    , m_cardBox(new QWidget(this))
    , m_cardGrid(new QGridLayout(m_cardBox))
    , m_chart(new TimeChart(this))
    , m_processes(new ProcessModel(this))
    , m_processView(new QTableView(this))
    , m_alerts(new QListWidget(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);
    m_empty->setTitle(tr("GPUs"));
    m_empty->setText(tr("Select a connected host to watch its GPUs. KernelForge runs one long-lived nvidia-smi on it; "
                        "nothing is installed."));
    m_stack->addWidget(m_empty);

    auto* page = new QWidget(this);
    auto* pageLayout = new QVBoxLayout(page);
    auto* bar = new QHBoxLayout();
    m_status->setObjectName(QStringLiteral("gpuStatus"));
    bar->addWidget(m_status, 1);
    bar->addWidget(new QLabel(tr("Metric:"), page));
    for (const GpuField field : gpuChartFields())
        m_metric->addItem(gpuFieldLabel(field), int(field));
    bar->addWidget(m_metric);
    bar->addWidget(new QLabel(tr("Window:"), page));
    m_window->addItems({ tr("5 min"), tr("1 hour"), tr("24 hours") });
    bar->addWidget(m_window);
    bar->addWidget(m_export);
    pageLayout->addLayout(bar);

    auto* split = new QSplitter(Qt::Vertical, page);
    auto* scroll = new QScrollArea(split);
    scroll->setWidgetResizable(true);
    scroll->setWidget(m_cardBox);
    m_cardGrid->setContentsMargins(0, 0, 0, 0);
    m_cardGrid->setSpacing(6);
    split->addWidget(scroll);
    m_chart->setObjectName(QStringLiteral("gpuDetailChart"));
    split->addWidget(m_chart);
    auto* tabs = new QTabWidget(split);
    m_processView->setModel(m_processes);
    m_processView->horizontalHeader()->setSectionResizeMode(ProcessModel::Name, QHeaderView::Stretch);
    m_processView->verticalHeader()->hide();
    m_processView->setSelectionBehavior(QAbstractItemView::SelectRows);
    tabs->addTab(m_processView, tr("Processes"));
    m_alerts->setObjectName(QStringLiteral("gpuAlerts"));
    tabs->addTab(m_alerts, tr("Alerts"));
    split->addWidget(tabs);
    // Two rows of cards visible without scrolling; the chart gets the rest; lists stay short.
    scroll->setMinimumHeight(200);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setStretchFactor(2, 1);
    split->setSizes({ 390, 360, 150 });
    pageLayout->addWidget(split, 1);
    m_stack->addWidget(page);

    connect(m_metric, &QComboBox::currentIndexChanged, this, [this] { refreshChart(); });
    connect(m_window, &QComboBox::currentIndexChanged, this, [this] { refreshChart(); });
    connect(m_export, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export GPU history"), QStringLiteral("gpus.csv"), tr("CSV files (*.csv)"));
        if (path.isEmpty())
            return;
        if (const QString error = exportCsv(path); !error.isEmpty())
            addAlertLine(error, true, false);
    });
    m_chartTimer.setInterval(1000);
    connect(&m_chartTimer, &QTimer::timeout, this, [this] {
        if (isVisible())
            refreshChart();
    });
    connect(m_hub, &GpuMonitorHub::monitorAdded, this, [this](HostConnection* host, GpuMonitor* monitor) {
        if (host == m_host)
            attach(monitor);
    });
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

void GpuPane::setHost(HostConnection* host)
{
    if (m_monitor)
        m_monitor->disconnect(this);
    if (m_host)
        m_host->disconnect(this);
    m_monitor = nullptr;
    m_host = host;
    if (host) // while the connection is down the cards show the last samples, marked stale
        connect(host, &HostConnection::stateChanged, this, &GpuPane::markStale);
    qDeleteAll(m_cards);
    m_cards.clear();
    m_chart->clearSeries();
    m_processes->setProcesses({});
    m_alerts->clear();
    m_chartTimer.stop();
    if (!host) {
        m_stack->setCurrentWidget(m_empty);
        return;
    }
    m_stack->setCurrentIndex(1);
    if (GpuMonitor* monitor = m_hub->monitorFor(host))
        attach(monitor);
    else
        m_status->setText(tr("<b>%1</b>: waiting for the connection…").arg(host->profile().name.toHtmlEscaped()));
}

void GpuPane::attach(GpuMonitor* monitor)
{
    m_monitor = monitor;
    connect(monitor, &GpuMonitor::samplesUpdated, this, &GpuPane::onSamples);
    connect(monitor, &GpuMonitor::processesUpdated, this, &GpuPane::onProcesses);
    connect(monitor, &GpuMonitor::stateChanged, this, &GpuPane::updateStatus);
    connect(monitor, &GpuMonitor::alertRaised, this,
        [this](const Alert& a) { addAlertLine(a.message, a.critical, false); });
    connect(monitor, &GpuMonitor::alertCleared, this, [this](const Alert& a) { addAlertLine(a.message, false, true); });
    for (const Alert& a : monitor->activeAlerts())
        addAlertLine(a.message, a.critical, false);
    m_chartTimer.start();
    if (!monitor->latest().isEmpty())
        onSamples();
    onProcesses();
    updateStatus();
}

void GpuPane::updateStatus()
{
    if (!m_monitor || !m_host)
        return;
    QString state;
    switch (m_monitor->state()) {
    case GpuMonitor::State::Stopped: state = tr("stopped"); break;
    case GpuMonitor::State::Probing: state = tr("asking nvidia-smi which fields it knows…"); break;
    case GpuMonitor::State::Streaming: state = tr("streaming every %1 s").arg(1); break;
    case GpuMonitor::State::Restarting: state = tr("nvidia-smi stopped, retrying"); break;
    case GpuMonitor::State::Failed: state = tr("failed"); break;
    }
    if (m_host->state() != ConnectionState::Ready)
        state = tr("%1: %2; the cards show the last samples (stale)")
                    .arg(toString(m_host->state()), m_host->stateReason().toHtmlEscaped());
    const int n = int(m_monitor->latest().size());
    m_status->setText(tr("<b>%1</b>: %2 GPU(s), %3").arg(m_host->profile().name.toHtmlEscaped()).arg(n).arg(state));
}

void GpuPane::markStale()
{
    const bool stale = m_host && m_host->state() != ConnectionState::Ready;
    const QString why = m_host ? m_host->stateReason() : QString();
    for (GpuCard* card : std::as_const(m_cards))
        card->setStale(stale, why);
    updateStatus();
}

void GpuPane::onSamples()
{
    if (!m_monitor)
        return;
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
            connect(card, &GpuCard::clicked, this, [this](int index) {
                m_highlight = m_highlight == index ? -1 : index;
                refreshChart();
            });
            m_cards.insert(g.index, card);
            int i = 0;
            for (GpuCard* c : std::as_const(m_cards))
                m_cardGrid->addWidget(c, i / kCardColumns, i % kCardColumns), ++i;
        }
        card->setSample(g, alerting.contains(g.index));
        card->setStale(m_host && m_host->state() != ConnectionState::Ready, m_host ? m_host->stateReason() : QString());
        const qint64 now = m_monitor->latestTimeMs();
        card->setSparkline(m_monitor->history().series(g.index, GpuField::UtilGpu), now - kWindows[0], now);
    }
    for (auto it = m_cards.begin(); it != m_cards.end();) {
        if (!seen.contains(it.key())) {
            delete it.value();
            it = m_cards.erase(it);
        } else {
            ++it;
        }
    }
    updateStatus();
}

void GpuPane::onProcesses()
{
    if (m_monitor)
        m_processes->setProcesses(m_monitor->processes());
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
    while (m_alerts->count() > 500)
        delete m_alerts->takeItem(m_alerts->count() - 1);
}

qint64 GpuPane::windowMs() const
{
    return kWindows[qBound(0, m_window->currentIndex(), 2)];
}

void GpuPane::setWindowIndex(int index)
{
    m_window->setCurrentIndex(index);
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
    const qint64 to = m_monitor->latestTimeMs() ? m_monitor->latestTimeMs() : QDateTime::currentMSecsSinceEpoch();
    const qint64 from = to - windowMs();
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
    f.write(m_monitor->history().toCsv(to - windowMs(), to));
    if (!f.commit())
        return tr("Cannot write %1: %2").arg(path, f.errorString());
    return {};
}

} // namespace kf
