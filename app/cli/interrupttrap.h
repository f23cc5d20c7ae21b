// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QObject>
#include <QString>
#include <QTimer>

#include <atomic>
#include <functional>

// SIGINT and SIGTERM while a command changes files on hosts (patch apply and rollback, fleet
// rollout, recipe apply): while an InterruptTrap lives, the first signal only sets stopFlag().
// The work finishes (or undoes) the file in flight, starts nothing more, the command prints
// its summary and exits kExitInterrupted (130, as a shell reports a SIGINT). A second signal
// has its default effect at once; a journal entry it leaves pending is settled by the file's
// content later (core/patch/journal.h). One trap at a time; the previous handlers come back
// when it goes.
namespace kf::cli {

constexpr int kExitInterrupted = 130;

class InterruptTrap
{
public:
    InterruptTrap();
    ~InterruptTrap();
    InterruptTrap(const InterruptTrap&) = delete;
    InterruptTrap& operator=(const InterruptTrap&) = delete;

    // For core's stop parameters (patch::ApplyOptions::stop, runRollback, runRollout).
    const std::atomic<bool>* stopFlag() const;
    bool interrupted() const;
    // "SIGINT", "SIGTERM" (empty before a signal).
    QString signalName() const;
    // For commands with an event loop: calls onInterrupt in context's thread once, soon after
    // the first signal (checked every 100 ms).
    void watch(QObject* context, std::function<void()> onInterrupt);

private:
    QTimer m_poll;
};

} // namespace kf::cli
