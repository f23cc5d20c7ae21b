// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/gpu/throttlereasons.h"
#include "core/util/novalue.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <array>
#include <iterator>

// The GPU fields KernelForge reads from nvidia-smi, one row each. A field is its row: the
// CSV parser, the --help-query-gpu probe, the dmon GPM parser, `gpu watch/parse --json`, the
// history behind the charts, the GPU card and the health check all read the rows, so adding a
// field is adding a row (and a test).
//
//   id      GpuField::<id>
//   kind    Number: a measured double, noValue() when nvidia-smi has none ([N/A] and friends);
//           Text: a string, empty when none; Index, Time, Mask: GpuSample::index, timeMs and
//           reasons (one row each); Derived: computed from other fields by GpuSample::value()
//   names   the nvidia-smi spellings, blank-separated: the first is what we ask for, then the
//           aliases --help-query-gpu lists and the renamed forms headers print. For a Dmon row
//           the first is the GPM metric id (`dmon --gpm-metrics 2,...`), then dmon's column name
//   unit    of a Number or Derived value (charts, the card, the history's CSV export)
//   json    its key in `gpu watch --json` and `gpu parse --json` ("": not exported)
//   chart   its place in the GPUs tab's metric menu and in the history's CSV export (0: not
//           charted); `label` names the chart
//   card    its piece of the card's details line ("": not shown): %1 is the value with its
//           unit, "–" without one; pieces are joined by " · ", one starting with '/' by " ".
//           Dmon rows' pieces make the card's GPM line
//   stream  GpuMonitor asks for it (after `timestamp`, which dates each block); false: read
//           on demand (the health check, core/gpu/gpuhealthprobe.h, asks for the health rows)
//   src     Query: a `nvidia-smi --query-gpu` field; Dmon: a GPM metric of `nvidia-smi dmon
//           --gpm-metrics` (Hopper and newer, core/gpu/gpmdmon.h), streamed beside the query
// clang-format off
#define KF_GPU_FIELDS(X) \
/*  id                   kind     names                                                         unit     json              chart label               card           stream src */ \
  X(Timestamp,           Time,    "timestamp",                                                  "",      "",               0,    "",                 "",            false, Query) \
  X(Index,               Index,   "index",                                                      "",      "index",          0,    "",                 "",            true,  Query) \
  X(Uuid,                Text,    "uuid gpu_uuid",                                              "",      "uuid",           0,    "",                 "",            true,  Query) \
  X(Name,                Text,    "name gpu_name",                                              "",      "name",           0,    "",                 "",            true,  Query) \
  X(BusId,               Text,    "pci.bus_id gpu_bus_id",                                      "",      "",               0,    "",                 "",            false, Query) \
  X(DriverVersion,       Text,    "driver_version",                                             "",      "",               0,    "",                 "",            false, Query) \
  X(Pstate,              Text,    "pstate",                                                     "",      "pstate",         0,    "",                 "",            true,  Query) \
  X(TempGpu,             Number,  "temperature.gpu",                                            "°C",    "temp_c",         3,    "Temperature",      "%1",          true,  Query) \
  X(TempMemory,          Number,  "temperature.memory",                                         "°C",    "",               0,    "",                 "",            true,  Query) \
  X(UtilGpu,             Number,  "utilization.gpu",                                            "%",     "util",           1,    "Utilization",      "",            true,  Query) \
  X(UtilMemory,          Number,  "utilization.memory",                                         "%",     "",               6,    "Memory bandwidth", "",            true,  Query) \
  X(MemTotal,            Number,  "memory.total",                                               "MiB",   "mem_total_mib",  0,    "",                 "",            true,  Query) \
  X(MemUsed,             Number,  "memory.used",                                                "MiB",   "mem_used_mib",   0,    "",                 "",            true,  Query) \
  X(MemFree,             Number,  "memory.free",                                                "MiB",   "",               0,    "",                 "",            false, Query) \
  X(PowerDraw,           Number,  "power.draw",                                                 "W",     "power_w",        4,    "Power",            "%1",          true,  Query) \
  X(PowerLimit,          Number,  "power.limit",                                                "W",     "power_limit_w",  0,    "",                 "/ %1",        true,  Query) \
  X(ClockSm,             Number,  "clocks.sm clocks.current.sm",                                "MHz",   "sm_clock_mhz",   5,    "SM clock",         "SM %1",       true,  Query) \
  X(ClockMem,            Number,  "clocks.mem clocks.current.memory",                           "MHz",   "",               0,    "",                 "",            true,  Query) \
  X(ClockMaxSm,          Number,  "clocks.max.sm",                                              "MHz",   "",               0,    "",                 "",            false, Query) \
  X(FanSpeed,            Number,  "fan.speed",                                                  "%",     "",               0,    "",                 "",            true,  Query) \
  X(EccUncorrected,      Number,  "ecc.errors.uncorrected.volatile.total",                      "",      "",               0,    "",                 "",            true,  Query) \
  X(EccCorrected,        Number,  "ecc.errors.corrected.volatile.total",                        "",      "",               0,    "",                 "",            false, Query) \
  X(EventReasons,        Mask,    "clocks_throttle_reasons.active clocks_event_reasons.active", "",      "reasons",        0,    "",                 "",            true,  Query) \
  X(ComputeMode,         Text,    "compute_mode",                                               "",      "",               0,    "",                 "",            false, Query) \
  X(MigMode,             Text,    "mig.mode.current",                                           "",      "",               0,    "",                 "",            true,  Query) \
  X(ComputeCap,          Text,    "compute_cap",                                                "",      "",               0,    "",                 "",            false, Query) \
  X(SmActive,            Number,  "2 smutil",                                                   "%",     "sm_active",      7,    "SM active",        "SM %1",       true,  Dmon)  \
  X(SmOccupancy,         Number,  "3 smocc",                                                    "%",     "sm_occupancy",   8,    "SM occupancy",     "occupancy %1", true, Dmon)  \
  X(TensorActive,        Number,  "5 mmaact",                                                   "%",     "tensor_active",  9,    "Tensor active",    "tensor %1",   true,  Dmon)  \
  X(DramActive,          Number,  "10 dram",                                                    "%",     "dram_active",    10,   "DRAM active",      "DRAM %1",     true,  Dmon)  \
  X(PcieTx,              Number,  "20 pcitx",                                                   "MiB/s", "pcie_tx_mib_s",  11,   "PCIe TX",          "PCIe TX %1",  true,  Dmon)  \
  X(PcieRx,              Number,  "21 pcirx",                                                   "MiB/s", "pcie_rx_mib_s",  12,   "PCIe RX",          "RX %1",       true,  Dmon)  \
  X(NvlinkTx,            Number,  "61 nvltx",                                                   "MiB/s", "nvlink_tx_mib_s", 13,  "NVLink TX",        "NVLink TX %1", true, Dmon)  \
  X(NvlinkRx,            Number,  "60 nvlrx",                                                   "MiB/s", "nvlink_rx_mib_s", 14,  "NVLink RX",        "RX %1",       true,  Dmon)  \
  X(EccMode,             Text,    "ecc.mode.current",                                           "",      "",               0,    "",                 "",            false, Query) \
  X(EccUncorrectedAll,   Number,  "ecc.errors.uncorrected.aggregate.total",                     "",      "",               0,    "",                 "",            false, Query) \
  X(EccCorrectedAll,     Number,  "ecc.errors.corrected.aggregate.total",                       "",      "",               0,    "",                 "",            false, Query) \
  X(RetiredSbe,          Number,  "retired_pages.single_bit_ecc.count retired_pages.sbe",       "",      "",               0,    "",                 "",            false, Query) \
  X(RetiredDbe,          Number,  "retired_pages.double_bit.count retired_pages.dbe",           "",      "",               0,    "",                 "",            false, Query) \
  X(RetiredPending,      Text,    "retired_pages.pending",                                      "",      "",               0,    "",                 "",            false, Query) \
  X(RemapCorrectable,    Number,  "remapped_rows.correctable remapped_rows.sbe",                "",      "",               0,    "",                 "",            false, Query) \
  X(RemapUncorrectable,  Number,  "remapped_rows.uncorrectable remapped_rows.dbe",              "",      "",               0,    "",                 "",            false, Query) \
  X(RemapPending,        Text,    "remapped_rows.pending",                                      "",      "",               0,    "",                 "",            false, Query) \
  X(RemapFailure,        Text,    "remapped_rows.failure",                                      "",      "",               0,    "",                 "",            false, Query) \
  X(PcieGen,             Number,  "pcie.link.gen.gpucurrent pcie.link.gen.current",             "",      "",               0,    "",                 "",            false, Query) \
  X(PcieGenMax,          Number,  "pcie.link.gen.max",                                          "",      "",               0,    "",                 "",            false, Query) \
  X(PcieWidth,           Number,  "pcie.link.width.current",                                    "",      "",               0,    "",                 "",            false, Query) \
  X(PcieWidthMax,        Number,  "pcie.link.width.max",                                        "",      "",               0,    "",                 "",            false, Query) \
  X(EventSwPowerUs,      Number,  "clocks_event_reasons_counters.sw_power_cap",                 "us",    "",               0,    "",                 "",            false, Query) \
  X(EventSwThermalUs,    Number,  "clocks_event_reasons_counters.sw_thermal_slowdown",          "us",    "",               0,    "",                 "",            false, Query) \
  X(EventHwThermalUs,    Number,  "clocks_event_reasons_counters.hw_thermal_slowdown",          "us",    "",               0,    "",                 "",            false, Query) \
  X(EventHwPowerBrakeUs, Number,  "clocks_event_reasons_counters.hw_power_brake_slowdown",      "us",    "",               0,    "",                 "",            false, Query) \
  X(EventSyncBoostUs,    Number,  "clocks_event_reasons_counters.sync_boost",                   "us",    "",               0,    "",                 "",            false, Query) \
  X(MemUsedPercent,      Derived, "",                                                           "%",     "",               2,    "Memory used",      "",            false, Query)
// clang-format on

namespace kf {

enum class GpuFieldKind : quint8 { Number, Text, Index, Time, Mask, Derived };
enum class GpuFieldSource : quint8 { Query, Dmon };

enum class GpuField : quint8 {
#define KF_GPU_FIELD_ID(id, ...) id,
    KF_GPU_FIELDS(KF_GPU_FIELD_ID)
#undef KF_GPU_FIELD_ID
        Unknown, // a column KernelForge does not read
};

struct GpuFieldInfo
{
    GpuFieldKind kind;
    const char* names;
    const char* unit;
    const char* json;
    int chart;
    const char* label;
    const char* card;
    bool stream;
    GpuFieldSource source;
};

inline constexpr GpuFieldInfo kGpuFields[] = {
#define KF_GPU_FIELD_INFO(id, kind, names, unit, json, chart, label, card, stream, src)                                \
    { GpuFieldKind::kind, names, unit, json, chart, label, card, stream, GpuFieldSource::src },
    KF_GPU_FIELDS(KF_GPU_FIELD_INFO)
#undef KF_GPU_FIELD_INFO
};
inline constexpr int kGpuFieldCount = int(std::size(kGpuFields));
static_assert(kGpuFieldCount == int(GpuField::Unknown));

// The row of a field; `field` must not be Unknown.
constexpr const GpuFieldInfo& gpuFieldInfo(GpuField field)
{
    return kGpuFields[int(field)];
}

namespace detail {
constexpr int countGpuFields(bool (*pick)(const GpuFieldInfo&))
{
    int n = 0;
    for (const auto& f : kGpuFields)
        n += pick(f) ? 1 : 0;
    return n;
}
// A Number field's place among the Number fields, a Text field's among the Text fields.
constexpr std::array<quint8, kGpuFieldCount> gpuFieldSlots()
{
    std::array<quint8, kGpuFieldCount> out {};
    int numbers = 0, texts = 0;
    for (int i = 0; i < kGpuFieldCount; ++i) {
        if (kGpuFields[i].kind == GpuFieldKind::Number)
            out[size_t(i)] = quint8(numbers++);
        else if (kGpuFields[i].kind == GpuFieldKind::Text)
            out[size_t(i)] = quint8(texts++);
    }
    return out;
}
// The chart places are 1..kGpuChartCount, each once.
constexpr bool gpuChartPlacesAreDense(int count)
{
    for (int place = 1; place <= count; ++place) {
        int seen = 0;
        for (const auto& f : kGpuFields)
            seen += f.chart == place ? 1 : 0;
        if (seen != 1)
            return false;
    }
    return true;
}
} // namespace detail

inline constexpr int kGpuNumberCount
    = detail::countGpuFields([](const GpuFieldInfo& f) { return f.kind == GpuFieldKind::Number; });
inline constexpr int kGpuTextCount
    = detail::countGpuFields([](const GpuFieldInfo& f) { return f.kind == GpuFieldKind::Text; });
inline constexpr int kGpuChartCount = detail::countGpuFields([](const GpuFieldInfo& f) { return f.chart > 0; });
inline constexpr auto kGpuFieldSlots = detail::gpuFieldSlots();
static_assert(detail::gpuChartPlacesAreDense(kGpuChartCount), "chart places must be 1..N, each once");

// The fields whose row `pick` accepts, in table order.
QList<GpuField> gpuFieldsWhere(bool (*pick)(const GpuFieldInfo&));
// The fields GpuMonitor streams through --query-gpu (stream Query rows, in table order; without
// the timestamp).
QList<GpuField> defaultGpuFields();
// The GPM metrics GpuMonitor streams through dmon (stream Dmon rows, in table order).
QList<GpuField> gpmGpuFields();
// The GPM metric id of a Dmon row (its first spelling), 0 for other rows.
int gpmMetricId(GpuField field);
// The charted fields, in chart order.
QList<GpuField> gpuChartFields();
QString gpuFieldLabel(GpuField field); // "Utilization"
QString gpuFieldUnit(GpuField field);  // "%", "°C", "W", "MHz", "MiB"; empty for none

// One GPU in one nvidia-smi sample.
struct GpuSample
{
    qint64 timeMs = 0;       // Time: the timestamp column as if UTC (server local time); 0 when not queried
    int index = -1;          // Index; -1 when not queried
    quint64 reasons = 0;     // Mask: clock event reasons (reasonWords())
    bool hasReasons = false; // false: not queried, or no value

    // A Number or Derived field; noValue() when there is none (and for other kinds).
    double value(GpuField field) const;
    void setValue(GpuField field, double v); // a Number field
    // A Text field; empty when there is none (and for other kinds).
    QString text(GpuField field) const;
    void setText(GpuField field, const QString& text); // a Text field
    // memory.used / memory.total; noValue() without both.
    double memFraction() const;

private:
    static constexpr std::array<double, kGpuNumberCount> noValues()
    {
        std::array<double, kGpuNumberCount> a {};
        for (double& v : a)
            v = noValue();
        return a;
    }
    std::array<double, kGpuNumberCount> m_numbers = noValues();
    std::array<QString, kGpuTextCount> m_texts;
};

// The sample as `gpu watch/parse --json` prints it: every row with a JSON key; no value is null.
QJsonObject toJson(const GpuSample& sample);
// The JSON keys in table order, a Mask's with "[]" ("index, uuid, ..., reasons[]").
QStringList gpuJsonKeys();

// Clock event (throttle) reason bits; throttlereasons.h names them (reasonWords, reasonPhrases).
constexpr quint64 kReasonIdle = 0x1;
constexpr quint64 kReasonSwPowerCap = 0x4;
constexpr quint64 kReasonHwSlowdown = 0x8;
constexpr quint64 kReasonSwThermal = 0x20;
constexpr quint64 kReasonHwThermal = 0x40;
constexpr quint64 kReasonHwPowerBrake = 0x80;

} // namespace kf

Q_DECLARE_METATYPE(kf::GpuSample)
