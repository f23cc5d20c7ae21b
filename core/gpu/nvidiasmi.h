// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/gpu/gpufield.h"

#include <QByteArrayView>
#include <QList>
#include <QString>
#include <QStringList>

// Parsers for nvidia-smi's machine-readable CSV (never the human table, whose layout changes).
//
// Wire format of `nvidia-smi --query-gpu=F1,F2,... --format=csv[,noheader][,nounits] [-lms N]`:
//   - optional header line: the field names joined by ", ", each followed by " [unit]" unless
//     nounits was given: `index, utilization.gpu [%], memory.used [MiB], ...`. The header may
//     RENAME fields: clocks_throttle_reasons.active comes back as clocks_event_reasons.active
//     (driver 580), clocks.sm as clocks.current.sm, gpu_uuid as uuid. So when a header is
//     present, columns are mapped by header; otherwise by the requested field order.
//   - then one line per GPU per sample, values joined by ", ". With units the values carry
//     them ("143771 MiB", "79.19 W", "0 %", "345 MHz"). With -lms the block repeats; each
//     block starts again at the first GPU (and the header repeats only in csv-with-header).
//   - "no value" is any bracketed token ("[N/A]", "[Not Supported]", "[Unknown Error]",
//     "[GPU requires reset]"), or a bare "N/A" or "-". MIG mode makes utilization [N/A].
//   - clocks_event_reasons.active is a hex bitmask "0x0000000000000004" (see reasonWords()).
//   - timestamp is "YYYY/MM/DD HH:MM:SS.mmm" in the server's local time.
//   - errors arrive as plain lines on stdout, e.g. "Failed to initialize NVML: Driver/library
//     version mismatch", "No devices were found", "NVIDIA-SMI has failed because ...".
//   A line is accepted when it has exactly as many columns as the layout; anything else
//   (a truncated last line, garbage) is counted in badLines and skipped.
//   Headers come from any tool's field list: a line is a header when every column is a
//   field name (optionally " [unit]") and at least one is a field KernelForge knows; unknown
//   fields are ignored, any column count works (all 200+ fields of --help-query-gpu),
//   a header may repeat anywhere (concatenated files), lines may end in CRLF, a UTF-8 BOM
//   is skipped. MIG mode and vGPU guests report many values as bracketed tokens ([N/A],
//   [Insufficient Permissions], [Requested functionality has been deprecated]): no value.
//
// `nvidia-smi --query-compute-apps=pid,process_name,used_memory,gpu_uuid --format=csv`:
//   header "pid, process_name, used_gpu_memory [MiB], gpu_uuid" (used_memory is renamed),
//   rows "560, python3, 58352 MiB, GPU-3b43...". Any header is understood the same way as
//   for --query-gpu (exporters ask for timestamp,gpu_name,gpu_bus_id,gpu_serial,gpu_uuid,pid,
//   process_name,used_gpu_memory); a column the header lacks reads as no value. Rows join to GPUs by uuid. Inside
//   containers the pids are host pids; process_name may contain ", " (it is the last
//   column but one), so the uuid is taken from the end and the name is what remains.
namespace kf {

// Canonical query name (what we ask for), e.g. "clocks_throttle_reasons.active"; empty for a
// Derived field; a Dmon row's GPM metric id ("2").
QString gpuFieldQueryName(GpuField field);
// Every spelling the driver accepts or prints (aliases, renamed headers, " [unit]" suffix), in
// any case, of a Query row; Unknown for anything else.
GpuField gpuFieldFromName(QByteArrayView name);
// The subset of wanted fields that `nvidia-smi --help-query-gpu` lists (older drivers lack
// some, and asking for an unknown field makes nvidia-smi fail the whole query).
// When a field is known only under its newer name (clocks_event_reasons.active), the result
// keeps the field and queryNames gives the spelling to use.
struct GpuFieldProbe
{
    QList<GpuField> fields;
    QStringList queryNames; // parallel to fields: the names to put on the command line
    QStringList missing;    // wanted fields the driver does not know
    bool ok = false;        // false: not a --help-query-gpu output at all
};
GpuFieldProbe probeGpuFields(QByteArrayView helpQueryGpuOutput, const QList<GpuField>& wanted = defaultGpuFields());

struct GpuCsvResult
{
    QList<GpuSample> samples;
    QList<GpuField> columns; // the layout used (from the header when there was one)
    bool sawHeader = false;
    int badLines = 0;     // lines skipped: wrong column count, garbage
    QStringList errors;   // why, for the first 10 of them: "line 12: ..." (as PromText::errors)
    QStringList messages; // nvidia-smi's own text lines (errors), at most 20
    // A well-known fatal nvidia-smi message seen in the output (NVML mismatch, no driver).
    QString fatal;
};

// Parses complete lines; a trailing line without '\n' is parsed too (pass only complete
// lines when streaming). columns: the requested field order, used until a header is seen.
GpuCsvResult parseGpuCsv(QByteArrayView data, const QList<GpuField>& columns = {});

// One process on one GPU (a process on two GPUs is two rows). nvidia-smi's columns, then
// pmon's and the host's ps columns (core/gpu/gpuprocesses.h); no value where a tool did not say.
struct GpuProcess
{
    qint64 pid = -1;
    QString name;
    double usedMemoryMiB = noValue();
    QString gpuUuid;
    int gpuIndex = -1; // filled by joinProcessesToGpus
    QString type;      // pmon: "C" compute, "G" graphics, "C+G"
    double smPercent = noValue();
    // ps on the host; empty / no value when ps did not list the pid (another PID namespace).
    qint64 uid = -1; // real uid: who may signal it
    QString user;
    double cpuPercent = noValue(); // ps pcpu: CPU time over the process's lifetime
    double rssKiB = noValue();
    QString commandLine;
    // When it started (/proc/PID/stat field 22, clock ticks since boot); -1 unknown. A signal
    // is sent only to the pid that still has this start time (a pid can be reused).
    qint64 startTicks = -1;
};

struct ComputeAppsResult
{
    QList<GpuProcess> processes;
    int badLines = 0;
    QString fatal;
};

ComputeAppsResult parseComputeApps(QByteArrayView data);
// Sets gpuIndex from the samples' uuids; processes on GPUs not in samples keep -1.
void joinProcessesToGpus(QList<GpuProcess>& processes, const QList<GpuSample>& gpus);

} // namespace kf
