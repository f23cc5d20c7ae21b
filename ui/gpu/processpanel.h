// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/gpu/gpuprocesses.h"
#include "core/gpu/processsignal.h"
#include "core/util/jobtracker.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>

#include <functional>

class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace kf {

class HostConnection;
class ProcessModel;
class UsageBar;

// The GPUs tab's process table, nvitop-like: GPU, PID, user, GPU memory, SM %, CPU %, host
// RSS, command line; sortable by any column (numbers sort as numbers), filtered to the
// selected card's GPU (setGpuFilter; "Show all GPUs" clears it).
// Terminate…: for a process the SSH user may signal (mayUserSignal; the button says why not
// otherwise) a confirmation naming PID, user and command, then TERM through the host's
// Transport on a worker; if the process is still there after graceMs, a second confirmation
// offers KILL. Each step's result (signalled, gone, permission denied, no such process) is
// shown in the line above the table. Above it all, nvitop's host line: the host's CPU (busy
// share since the previous poll, of N CPUs) and memory (used of total) as two bars.
class ProcessPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ProcessPanel(HostConnection* host, QWidget* parent = nullptr);

    void setProcesses(const QList<GpuProcess>& processes, const GpuProcessList& poll);
    // -1: every GPU.
    void setGpuFilter(int gpu);
    int gpuFilter() const { return m_gpuFilter; }
    QTableView* view() const { return m_view; }
    // The host line's bars (hidden while the poll did not say).
    UsageBar* hostCpuBar() const { return m_hostCpu; }
    UsageBar* hostMemoryBar() const { return m_hostMemory; }
    // The process of the selected row, if any.
    const GpuProcess* selectedProcess() const;
    // Asks, then sends TERM to the selected process (then KILL, asked again, if it stays).
    void terminateSelected();
    // Seconds TERM gets before KILL is offered (5 s).
    void setGraceMs(int ms) { m_graceMs = ms; }
    // The question box; tests and the CLI-less paths replace it. Returns true for yes.
    using Confirm = std::function<bool(const QString& title, const QString& text)>;
    void setConfirm(Confirm confirm) { m_confirm = std::move(confirm); }

Q_SIGNALS:
    // "Show all GPUs" was clicked (the pane clears its card selection).
    void showAllRequested();
    // A signal step ended (the text is what the status line shows).
    void signalFinished(kf::SignalOutcome outcome, const QString& message);

private:
    void updateActions();
    void sendSignal(const GpuProcess& process, const QString& signal);
    void checkAfterGrace(const GpuProcess& process);
    void showResult(const QString& text, bool error);
    void showHostLoad(const HostLoad& host);
    static QString describe(const GpuProcess& process);

    QPointer<HostConnection> m_host;
    ProcessModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QLabel* m_filterLabel;
    QPushButton* m_showAll;
    QPushButton* m_terminate;
    QLabel* m_result;
    UsageBar* m_hostCpu;
    UsageBar* m_hostMemory;
    int m_gpuFilter = -1;
    qint64 m_myUid = -1;
    int m_graceMs = 5000;
    bool m_busy = false;
    Confirm m_confirm;
    JobTracker m_requests { this };
};

} // namespace kf
