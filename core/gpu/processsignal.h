// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/gpu/nvidiasmi.h"
#include "core/transport/transport.h"

#include <QString>

// Signalling a process on a host (the GPUs tab's Terminate…, `kernelforge-cli gpu kill`).
//
// Who may: kill(2) lets a user signal the processes whose real uid is theirs, and root any;
// mayUserSignal() says so (and why not) from the uids of the process list (gpuprocesses.h).
// The server decides in the end: a refused signal comes back as PermissionDenied.
//
// Wire format: signalScript() ($1 pid, $2 TERM | KILL | 0, $3 the start time the list saw or
// empty) prints one line
//   "\x1eKF signal <word>"   word: signalled | alive | gone | replaced | denied | failed
// "alive" answers signal 0 (the process exists and may be signalled); a zombie (state Z in
// /proc/PID/stat: exited, not yet reaped) is "gone"; "replaced": the pid now names a process
// with another start time (field 22 of /proc/PID/stat: the listed one ended and its pid was
// reused), and nothing was sent. Anything else is a failure whose text is the command's output.
namespace kf {

enum class SignalOutcome {
    Signalled,        // the signal was delivered (or, for signal 0: the process is alive)
    Gone,             // no such process (or a zombie)
    PermissionDenied, // it exists, and the SSH user may not signal it
    Failed,           // the command failed (connection lost, bad answer)
};

struct SignalResult
{
    SignalOutcome outcome = SignalOutcome::Failed;
    QString message; // for a person: "sent TERM to 4102", "no such process 4102", ...
};

// Empty when `uid` (the SSH user's) may signal `process`; else why not, for a person.
QString mayUserSignal(const GpuProcess& process, qint64 uid);

// "TERM" or "KILL" (any case, "SIG" prefix allowed); empty for anything else.
QString normalizedSignalName(const QString& name);

QString signalScript();
// The answer of signalScript() as a result (pure).
SignalResult parseSignalOutput(const ExecResult& result, qint64 pid, const QString& signal);

// Sends `signal` ("TERM", "KILL", or "0" to ask whether it is still there) to pid on the
// transport's host, only while the pid still has startTicks (GpuProcess::startTicks; -1: not
// known, not compared): a reused pid is Gone ("replaced"). Blocking: call it on a worker
// (transportPool()), never the GUI thread.
SignalResult signalProcess(Transport& transport, qint64 pid, const QString& signal, qint64 startTicks = -1);

} // namespace kf
