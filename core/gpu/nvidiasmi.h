// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <cmath>
#include <limits>

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

enum class GpuField : quint8 {
    Unknown,
    Timestamp,
    Index,
    Uuid,
    Name,
    BusId,
    DriverVersion,
    Pstate,
    TempGpu,
    TempMemory,
    UtilGpu,
    UtilMemory,
    MemTotal,
    MemUsed,
    MemFree,
    PowerDraw,
    PowerLimit,
    ClockSm,
    ClockMem,
    ClockMaxSm,
    FanSpeed,
    EccUncorrected,
    EccCorrected,
    EventReasons,
    ComputeMode,
    MigMode,
    ComputeCap, // "9.0", "12.0" (drivers >= 510)
};

// Canonical query name (what we ask for), e.g. "clocks_throttle_reasons.active".
QString gpuFieldQueryName(GpuField field);
// Every spelling the driver accepts or prints (aliases, renamed headers, " [unit]" suffix).
GpuField gpuFieldFromName(QByteArrayView name);
// The fields a monitor asks for, in order.
QList<GpuField> defaultGpuFields();
// The subset of wanted fields that `nvidia-smi --help-query-gpu` lists (older drivers lack
// some, and asking for an unknown field makes nvidia-smi fail the whole query).
// When a field is known only under its newer name (clocks_event_reasons.active), the result
// keeps the field; gpuFieldQueryNameFor() then gives the spelling to use.
struct GpuFieldProbe
{
    QList<GpuField> fields;
    QStringList queryNames; // parallel to fields: the names to put on the command line
    QStringList missing;    // wanted fields the driver does not know
    bool ok = false;        // false: not a --help-query-gpu output at all
};
GpuFieldProbe probeGpuFields(QByteArrayView helpQueryGpuOutput, const QList<GpuField>& wanted = defaultGpuFields());

constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();
inline bool hasValue(double v)
{
    return !std::isnan(v);
}

struct GpuSample
{
    qint64 timeMs = 0; // timestamp column as if UTC (server local time); 0 when not queried
    int index = -1;
    QString uuid;
    QString name;
    QString busId;
    QString driverVersion;
    QString pstate; // "P0".."P12"; empty when unknown
    QString computeMode;
    QString migMode;              // "Enabled"/"Disabled"; empty when unknown
    QString computeCap;           // "9.0"; empty when unknown
    double utilGpu = kNoValue;    // %
    double utilMemory = kNoValue; // %
    double memTotalMiB = kNoValue;
    double memUsedMiB = kNoValue;
    double memFreeMiB = kNoValue;
    double tempGpuC = kNoValue;
    double tempMemoryC = kNoValue;
    double powerW = kNoValue;
    double powerLimitW = kNoValue;
    double smClockMHz = kNoValue;
    double memClockMHz = kNoValue;
    double maxSmClockMHz = kNoValue;
    double fanPercent = kNoValue;
    double eccUncorrected = kNoValue;
    double eccCorrected = kNoValue;
    quint64 reasons = 0;
    bool hasReasons = false;

    double memFraction() const
    {
        return (hasValue(memUsedMiB) && hasValue(memTotalMiB) && memTotalMiB > 0) ? memUsedMiB / memTotalMiB : kNoValue;
    }
};

struct GpuCsvResult
{
    QList<GpuSample> samples;
    QList<GpuField> columns; // the layout used (from the header when there was one)
    bool sawHeader = false;
    int badLines = 0;     // lines skipped: wrong column count, garbage
    QStringList messages; // nvidia-smi's own text lines (errors), at most 20
    // A well-known fatal nvidia-smi message seen in the output (NVML mismatch, no driver).
    QString fatal;
};

// Parses complete lines; a trailing line without '\n' is parsed too (pass only complete
// lines when streaming). columns: the requested field order, used until a header is seen.
GpuCsvResult parseGpuCsv(QByteArrayView data, const QList<GpuField>& columns = {});

// Clock event (throttle) reasons: 0x1 gpu_idle, 0x2 applications_clocks_setting,
// 0x4 sw_power_cap, 0x8 hw_slowdown, 0x10 sync_boost, 0x20 sw_thermal_slowdown,
// 0x40 hw_thermal_slowdown, 0x80 hw_power_brake_slowdown, 0x100 display_clock_setting.
// Unknown bits come out as one hex word each.
QStringList reasonWords(quint64 mask);
constexpr quint64 kReasonIdle = 0x1;
constexpr quint64 kReasonSwPowerCap = 0x4;
constexpr quint64 kReasonHwSlowdown = 0x8;
constexpr quint64 kReasonSwThermal = 0x20;
constexpr quint64 kReasonHwThermal = 0x40;
constexpr quint64 kReasonHwPowerBrake = 0x80;

struct GpuProcess
{
    qint64 pid = -1;
    QString name;
    double usedMemoryMiB = kNoValue;
    QString gpuUuid;
    int gpuIndex = -1; // filled by joinProcessesToGpus
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

Q_DECLARE_METATYPE(kf::GpuSample)
