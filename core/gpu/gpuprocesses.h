// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/gpu/nvidiasmi.h"
#include "core/util/result.h"

#include <QByteArrayView>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

// The GPU processes of a host as nvitop shows them, from ONE remote command per poll
// (gpuProcessScript(), run through Transport::exec, i.e. loginshell::line), parsed here
// (pure: bytes in, value out, errors inside).
//
// Wire format of the script's output: sections, each opened by a marker line
//   "\x1eKF<mark> <name> [<exit status>]"
// where <mark> is a random nonce of this poll (16 hex digits, given to the script in its
// environment, never on its command line) and every tool's output has its 0x1e bytes removed
// (tr -d) before it is printed: a process name or command line (a co-tenant's, anything it
// likes) cannot forge a marker, so it cannot claim, say, that the SSH user is root. Only the
// first marker of each name counts. Lines before the first marker (login banners) are ignored.
// Sections, in this order:
//   me    no body; the status is the SSH user's uid (`id -u`)
//   gpus  `nvidia-smi --query-gpu=index,uuid --format=csv,noheader`: "0, GPU-3b43..." (maps the
//         compute-apps uuids to indices without a running stream)
//   apps  `nvidia-smi --query-compute-apps=pid,process_name,used_memory,gpu_uuid
//         --format=csv,noheader,nounits` (parseComputeApps; "No running processes found")
//   pmon  `nvidia-smi pmon -c 1 -s um` (parsePmon below; absent on old drivers and vGPU:
//         then the status is not 0 and SM % is unknown, never 0)
//   ps    `ps -ww -o pid=,ruid=,user:32=,pcpu=,rss=,args= -p PIDS` for the pids of apps and pmon,
//         each line cut to 4096 bytes on the server (parsePsLines); missing when no pid
//   start "PID TICKS" per pid: field 22 of /proc/PID/stat, when it started (clock ticks since
//         boot); Terminate… compares it before it signals (processsignal.h)
//   host  the host's CPU and memory as nvitop's header shows them: /proc/stat's "cpu" line
//         (clock ticks: user nice system idle iowait irq softirq steal ...), /proc/meminfo's
//         MemTotal and MemAvailable lines, and "cpus N" (online CPUs); at most 8 lines
//   end   the script ran to its end (a truncated output lacks it: `complete` is false)
// Every section body is at most 4096 lines; the caller bounds the whole (maxOutputBytes).
//
// Wire format of `nvidia-smi pmon -c N -s um [-o DT]` (driver 580, tests/data/nvidia-smi/h200-driver580):
//   # gpu         pid   type     sm    mem    enc    dec    jpg    ofa     fb   ccpm    command
//   # Idx           #    C/G      %      %      %      %      %      %     MB     MB    name
//       0        486     C     98     23      -      -      -      -  21610      0    python3
// Two '#' header lines (the first names the columns; -o DT adds "Date Time" first, -s u lacks
// fb/ccpm), then one row per process per GPU and sample, whitespace separated; the command
// name is the rest of the line and may contain spaces. A GPU without a process prints one row
// of "-" (pid "-"): no process. "-" in a value column is no value. Columns are mapped by the
// header's names; rows before a header, with a pid or GPU that is not a whole number, or with
// fewer columns than the header are skipped and counted (a truncated last line).
namespace kf {

struct PmonRow
{
    int gpu = -1;
    qint64 pid = -1;
    QString type; // "C", "G", "C+G"
    double smPercent = noValue();
    double memPercent = noValue();
    double fbMiB = noValue(); // pmon says MB; nvidia-smi's MB are MiB
    QString command;
};

struct PmonResult
{
    QList<PmonRow> rows; // processes only (idle "-" rows are not processes)
    bool sawHeader = false;
    int idleRows = 0; // GPUs that had no process
    int badLines = 0;
    QStringList errors; // "line 3: ..." for the first 10 skipped lines
};

PmonResult parsePmon(QByteArrayView data);

struct PsRow
{
    qint64 pid = -1;
    qint64 uid = -1;
    QString user;
    double cpuPercent = noValue();
    double rssKiB = noValue();
    QString commandLine;
};

struct PsResult
{
    QList<PsRow> rows;
    int badLines = 0;
};

// Lines of `ps -o pid=,ruid=,user:32=,pcpu=,rss=,args=`: five whitespace-separated columns,
// then the command line (the rest of the line, its own spaces kept).
PsResult parsePsLines(QByteArrayView data);

// The host around the GPUs, from the poll's host section. The CPU's use is the busy share of
// the ticks between two polls (cpuPercentBetween), so one poll alone has none.
struct HostLoad
{
    double cpuTotalTicks = noValue(); // all ticks since boot (guest time is inside user)
    double cpuIdleTicks = noValue();  // idle + iowait
    int cpus = -1;
    double memTotalKiB = noValue();
    double memAvailableKiB = noValue();
    double cpuPercent = noValue(); // since the previous poll; set by the poller
};

// The host section's lines; a missing or malformed line leaves its values unset.
HostLoad parseHostLoad(QByteArrayView body);
// The busy share of the ticks from `before` to `after`, 0..100; no value when either lacks the
// ticks or the counters did not move forward (a reboot between the polls).
double cpuPercentBetween(const HostLoad& before, const HostLoad& after);

struct GpuProcessList
{
    QList<GpuProcess> processes; // by GPU index, then pid
    qint64 myUid = -1;           // the SSH user's uid; -1 unknown
    bool complete = false;       // the script's "end" marker arrived
    bool pmonAvailable = false;  // pmon ran (else SM % is unknown)
    QString appsError;           // nvidia-smi's words when the compute-apps query failed
    QString pmonError;           // why there is no SM % ("pmon is not supported ...")
    int badLines = 0;            // skipped lines, all sections
    int gpuCount = -1;           // GPUs the gpus section listed; -1 when it did not answer
    HostLoad host;
};

// The script; its $1 is the nvidia-smi to run, $KF_MARK (environment) the markers' nonce.
QString gpuProcessScript();
// A new nonce for one poll: 16 hex digits.
QByteArray newSectionMark();
// Joins apps, pmon and ps rows: one row per (GPU, pid). A GPU index comes from pmon, or the
// compute-apps uuid through the gpus section or `gpus` (the stream's latest samples). Only
// markers with `mark` open a section.
GpuProcessList parseGpuProcessOutput(QByteArrayView output, QByteArrayView mark, const QList<GpuSample>& gpus = {});

class Transport;
// One poll (the GUI's GpuMonitor and `kernelforge-cli gpu processes` alike): runs the script
// with a bounded output (8 MiB) and parses it. Fails when the command could not run or
// nvidia-smi could not list compute processes. Blocking: call it on a worker.
Result<GpuProcessList> listGpuProcesses(Transport& transport, const QString& nvidiaSmi = QStringLiteral("nvidia-smi"),
    const QMap<QString, QString>& env = {}, const QList<GpuSample>& gpus = {});

} // namespace kf
