// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/gpu/processpanel.h"

#include "core/hosts/hostconnection.h"
#include "core/transport/transportpool.h"
#include "ui/common/plaintext.h"
#include "ui/gpu/processmodel.h"
#include "ui/gpu/usagebar.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <cmath>

namespace kf {

ProcessPanel::ProcessPanel(HostConnection* host, QWidget* parent)
    : QWidget(parent)
    , m_host(host)
    , m_model(new ProcessModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTableView(this))
    , m_filterLabel(new QLabel(this))
    , m_showAll(new QPushButton(tr("Show all GPUs"), this))
    , m_terminate(new QPushButton(tr("Terminate…"), this))
    , m_result(new QLabel(this))
    , m_hostCpu(new UsageBar(this))
    , m_hostMemory(new UsageBar(this))
{
    // The text names the process' command line: the host's words, shown as plain text.
    m_confirm = [this](const QString& title, const QString& text) { return askPlain(this, title, text); };
    setObjectName(QStringLiteral("gpuProcesses"));
    m_view->setObjectName(QStringLiteral("gpuProcessView"));
    m_filterLabel->setObjectName(QStringLiteral("gpuProcessFilter"));
    m_showAll->setObjectName(QStringLiteral("gpuProcessShowAll"));
    m_terminate->setObjectName(QStringLiteral("gpuProcessTerminate"));
    m_result->setObjectName(QStringLiteral("gpuProcessResult"));
    m_result->setTextFormat(Qt::PlainText);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_result->setWordWrap(true);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ProcessModel::SortRole);
    m_proxy->setFilterRole(ProcessModel::GpuRole);
    m_proxy->setFilterKeyColumn(ProcessModel::Gpu);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(ProcessModel::Gpu, Qt::AscendingOrder);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(ProcessModel::Command, QHeaderView::Stretch);
    m_view->verticalHeader()->hide();
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideMiddle);

    m_hostCpu->setObjectName(QStringLiteral("hostCpuBar"));
    m_hostMemory->setObjectName(QStringLiteral("hostMemoryBar"));
    for (UsageBar* b : { m_hostCpu, m_hostMemory }) {
        b->setRange(0, 1000);
        b->setVisible(false);
    }

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* hostLine = new QHBoxLayout();
    hostLine->addWidget(m_hostCpu, 1);
    hostLine->addWidget(m_hostMemory, 1);
    layout->addLayout(hostLine);
    auto* bar = new QHBoxLayout();
    bar->addWidget(m_filterLabel);
    bar->addWidget(m_showAll);
    bar->addWidget(m_result, 1);
    bar->addWidget(m_terminate);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);

    connect(m_showAll, &QPushButton::clicked, this, [this] {
        setGpuFilter(-1);
        Q_EMIT showAllRequested();
    });
    connect(m_terminate, &QPushButton::clicked, this, &ProcessPanel::terminateSelected);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ProcessPanel::updateActions);
    connect(m_model, &QAbstractItemModel::modelReset, this, &ProcessPanel::updateActions);
    setGpuFilter(-1);
}

void ProcessPanel::setProcesses(const QList<GpuProcess>& processes, const GpuProcessList& poll)
{
    // Keep the selected process selected across the poll (by GPU and pid).
    const GpuProcess* selected = selectedProcess();
    const auto keep = selected ? qMakePair(selected->gpuIndex, selected->pid) : qMakePair(-2, qint64(-2));
    m_myUid = poll.myUid;
    showHostLoad(poll.host);
    m_model->setProcesses(processes, poll.pmonAvailable || processes.isEmpty(), poll.pmonError);
    if (keep.first != -2 && !selectedProcess()) {
        for (int r = 0; r < m_proxy->rowCount(); ++r) {
            const QModelIndex i = m_proxy->index(r, 0);
            if (i.data(ProcessModel::GpuRole).toInt() == keep.first
                && i.data(ProcessModel::PidRole).toLongLong() == keep.second) {
                m_view->selectionModel()->select(i, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
                break;
            }
        }
    }
    updateActions();
}

void ProcessPanel::showHostLoad(const HostLoad& host)
{
    // The CPU bar waits for a second poll (a share between two); the memory bar needs both values.
    m_hostCpu->setVisible(hasValue(host.cpuPercent));
    if (hasValue(host.cpuPercent)) {
        m_hostCpu->setValue(int(std::lround(host.cpuPercent * 10)));
        const QString busy = QString::number(host.cpuPercent, 'f', 1);
        m_hostCpu->setFormat(host.cpus > 1 ? tr("Host CPU %1 % of %2 CPUs").arg(busy).arg(host.cpus)
                : host.cpus == 1           ? tr("Host CPU %1 % of 1 CPU").arg(busy)
                                           : tr("Host CPU %1 %").arg(busy));
    }
    const bool memory = hasValue(host.memTotalKiB) && hasValue(host.memAvailableKiB) && host.memTotalKiB > 0;
    m_hostMemory->setVisible(memory);
    if (memory) {
        const double used = host.memTotalKiB - host.memAvailableKiB;
        constexpr double kGiB = 1024.0 * 1024.0;
        m_hostMemory->setValue(int(std::lround(1000.0 * used / host.memTotalKiB)));
        m_hostMemory->setFormat(
            tr("Host memory %1 of %2 GiB in use").arg(used / kGiB, 0, 'f', 1).arg(host.memTotalKiB / kGiB, 0, 'f', 1));
    }
    m_hostCpu->setToolTip(tr("The host's CPUs, busy share since the previous poll (/proc/stat)"));
    m_hostMemory->setToolTip(tr("The host's memory in use: MemTotal − MemAvailable (/proc/meminfo)"));
}

void ProcessPanel::setGpuFilter(int gpu)
{
    m_gpuFilter = gpu;
    m_proxy->setFilterRegularExpression(
        gpu < 0 ? QRegularExpression() : QRegularExpression(QStringLiteral("^%1$").arg(gpu)));
    m_filterLabel->setText(gpu < 0 ? tr("All GPUs") : tr("<b>GPU %1</b> only").arg(gpu));
    m_showAll->setVisible(gpu >= 0);
    updateActions();
}

const GpuProcess* ProcessPanel::selectedProcess() const
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return nullptr;
    return m_model->process(m_proxy->mapToSource(rows.first()).row());
}

QString ProcessPanel::describe(const GpuProcess& p)
{
    QString command = p.commandLine.isEmpty() ? p.name : p.commandLine;
    if (command.size() > 300)
        command = command.left(300) + u'…';
    return tr("PID %1 (user %2): %3")
        .arg(p.pid)
        .arg(p.user.isEmpty() ? tr("unknown") : p.user, command.isEmpty() ? tr("command unknown") : command);
}

void ProcessPanel::updateActions()
{
    const GpuProcess* p = selectedProcess();
    QString why;
    if (!p)
        why = tr("Select a process to terminate it");
    else if (m_busy)
        why = tr("A signal is on its way");
    else
        why = mayUserSignal(*p, m_myUid);
    m_terminate->setEnabled(why.isEmpty());
    m_terminate->setToolTip(
        plainToolTip(why.isEmpty() ? tr("Send TERM to %1, then offer KILL if it stays").arg(describe(*p)) : why));
    if (p && !m_busy && !why.isEmpty())
        showResult(tr("Cannot signal PID %1: %2").arg(p->pid).arg(why), false);
}

void ProcessPanel::showResult(const QString& text, bool error)
{
    m_result->setText(text);
    m_result->setStyleSheet(error ? QStringLiteral("color: #d62728;") : QString());
}

void ProcessPanel::terminateSelected()
{
    const GpuProcess* selected = selectedProcess();
    if (!selected || m_busy)
        return;
    const GpuProcess p = *selected;
    if (const QString why = mayUserSignal(p, m_myUid); !why.isEmpty()) {
        showResult(tr("Cannot signal PID %1: %2").arg(p.pid).arg(why), true);
        return;
    }
    const QString host = m_host ? m_host->profile().name : QString();
    if (!m_confirm(tr("Terminate process"),
            tr("Send TERM to this process on %1?\n\n%2\n\nIf it is still running after %3 s, you will be asked "
               "whether to KILL it.")
                .arg(host, describe(p))
                .arg(m_graceMs / 1000)))
        return;
    sendSignal(p, QStringLiteral("TERM"));
}

void ProcessPanel::sendSignal(const GpuProcess& p, const QString& signal)
{
    std::shared_ptr<Transport> transport = m_host ? m_host->transport() : nullptr;
    if (!transport) {
        showResult(tr("Cannot signal PID %1: not connected").arg(p.pid), true);
        return;
    }
    m_busy = true;
    updateActions();
    showResult(tr("Sending %1 to PID %2…").arg(signal).arg(p.pid), false);
    const qint64 pid = p.pid;
    const qint64 start = p.startTicks;
    m_requests.track(QtConcurrent::run(transportPool(),
                         [transport, pid, signal, start] { return signalProcess(*transport, pid, signal, start); }),
        [this, p, signal](const SignalResult& r) {
            m_busy = false;
            const bool ok = r.outcome == SignalOutcome::Signalled || r.outcome == SignalOutcome::Gone;
            showResult(r.message, !ok);
            updateActions();
            Q_EMIT signalFinished(r.outcome, r.message);
            if (r.outcome == SignalOutcome::Signalled && signal == QLatin1String("TERM"))
                QTimer::singleShot(m_graceMs, this, [this, p] { checkAfterGrace(p); });
        });
}

void ProcessPanel::checkAfterGrace(const GpuProcess& p)
{
    std::shared_ptr<Transport> transport = m_host ? m_host->transport() : nullptr;
    if (!transport)
        return;
    const qint64 pid = p.pid;
    const qint64 start = p.startTicks;
    m_requests.track(
        QtConcurrent::run(transportPool(),
            [transport, pid, start] { return signalProcess(*transport, pid, QStringLiteral("0"), start); }),
        [this, p](const SignalResult& r) {
            if (r.outcome == SignalOutcome::Gone) {
                showResult(tr("PID %1 ended after TERM").arg(p.pid), false);
                Q_EMIT signalFinished(r.outcome, m_result->text());
                return;
            }
            if (r.outcome != SignalOutcome::Signalled) {
                showResult(r.message, true);
                return;
            }
            if (!m_confirm(tr("Kill process"),
                    tr("The process is still running %1 s after TERM:\n\n%2\n\nSend KILL (it cannot clean up)?")
                        .arg(m_graceMs / 1000)
                        .arg(describe(p)))) {
                showResult(tr("PID %1 is still running after TERM; not killed").arg(p.pid), false);
                return;
            }
            sendSignal(p, QStringLiteral("KILL"));
        });
}

} // namespace kf
