// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/gpu/nvidiasmi.h"

#include <QVarLengthArray>

#include <charconv>
#include <cstring>
#include <optional>

namespace kf {

namespace {

struct FieldName
{
    GpuField field;
    const char* name;
};

// First spelling of each field is the one we put on the command line; the others are the
// aliases --help-query-gpu lists and the renamed forms headers print.
constexpr FieldName kFieldNames[] = {
    { GpuField::Timestamp, "timestamp" },
    { GpuField::Index, "index" },
    { GpuField::Uuid, "uuid" },
    { GpuField::Uuid, "gpu_uuid" },
    { GpuField::Name, "name" },
    { GpuField::Name, "gpu_name" },
    { GpuField::BusId, "pci.bus_id" },
    { GpuField::BusId, "gpu_bus_id" },
    { GpuField::DriverVersion, "driver_version" },
    { GpuField::Pstate, "pstate" },
    { GpuField::TempGpu, "temperature.gpu" },
    { GpuField::TempMemory, "temperature.memory" },
    { GpuField::UtilGpu, "utilization.gpu" },
    { GpuField::UtilMemory, "utilization.memory" },
    { GpuField::MemTotal, "memory.total" },
    { GpuField::MemUsed, "memory.used" },
    { GpuField::MemFree, "memory.free" },
    { GpuField::PowerDraw, "power.draw" },
    { GpuField::PowerLimit, "power.limit" },
    { GpuField::ClockSm, "clocks.sm" },
    { GpuField::ClockSm, "clocks.current.sm" },
    { GpuField::ClockMem, "clocks.mem" },
    { GpuField::ClockMem, "clocks.current.memory" },
    { GpuField::ClockMaxSm, "clocks.max.sm" },
    { GpuField::FanSpeed, "fan.speed" },
    { GpuField::EccUncorrected, "ecc.errors.uncorrected.volatile.total" },
    { GpuField::EccCorrected, "ecc.errors.corrected.volatile.total" },
    { GpuField::EventReasons, "clocks_throttle_reasons.active" },
    { GpuField::EventReasons, "clocks_event_reasons.active" },
    { GpuField::ComputeMode, "compute_mode" },
    { GpuField::MigMode, "mig.mode.current" },
    { GpuField::ComputeCap, "compute_cap" },
};

QByteArrayView trimmed(QByteArrayView v)
{
    qsizetype b = 0;
    qsizetype e = v.size();
    while (b < e && (v[b] == ' ' || v[b] == '\t' || v[b] == '\r'))
        ++b;
    while (e > b && (v[e - 1] == ' ' || v[e - 1] == '\t' || v[e - 1] == '\r'))
        --e;
    return v.sliced(b, e - b);
}

bool isNoValue(QByteArrayView v)
{
    return v.isEmpty() || (v.front() == '[' && v.back() == ']') || v == "N/A" || v == "-";
}

// Leading number, ignoring a unit suffix ("79.19 W", "0 %"); NaN for no value or garbage.
double number(QByteArrayView v)
{
    if (isNoValue(v))
        return kNoValue;
    double out = 0;
    const auto* first = v.data();
    if (*first == '+')
        ++first;
    const auto res = std::from_chars(first, v.data() + v.size(), out);
    if (res.ec != std::errc())
        return kNoValue;
    return out;
}

bool hexMask(QByteArrayView v, quint64* out)
{
    if (isNoValue(v))
        return false;
    if (v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X'))
        v = v.sliced(2);
    const auto res = std::from_chars(v.data(), v.data() + v.size(), *out, 16);
    return res.ec == std::errc() && res.ptr == v.data() + v.size();
}

int digits(const char* p, int n)
{
    int r = 0;
    for (int i = 0; i < n; ++i) {
        if (p[i] < '0' || p[i] > '9')
            return -1;
        r = r * 10 + (p[i] - '0');
    }
    return r;
}

// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm): no QDateTime per row.
qint64 daysFromCivil(int y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const int era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = unsigned(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return qint64(era) * 146097 + qint64(doe) - 719468;
}

// "2026/11/29 15:24:25.581" -> ms; 0 when malformed.
qint64 timestampMs(QByteArrayView v)
{
    if (v.size() < 19)
        return 0;
    const char* p = v.data();
    const int y = digits(p, 4), mo = digits(p + 5, 2), d = digits(p + 8, 2);
    const int h = digits(p + 11, 2), mi = digits(p + 14, 2), s = digits(p + 17, 2);
    if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || mi < 0 || s < 0)
        return 0;
    int ms = 0;
    if (v.size() >= 23 && p[19] == '.')
        ms = qMax(0, digits(p + 20, 3));
    return ((daysFromCivil(y, unsigned(mo), unsigned(d)) * 24 + h) * 60 + mi) * 60000LL + s * 1000LL + ms;
}

// The columns of one line: split on ',' and trimmed. Any number of columns (a --query-gpu of
// every field --help-query-gpu lists has 200+).
using Columns = QVarLengthArray<QByteArrayView, 64>;

void splitColumns(QByteArrayView line, Columns& cols)
{
    cols.clear();
    qsizetype start = 0;
    const char* d = line.data();
    const qsizetype size = line.size();
    for (qsizetype i = 0; i <= size; ++i) {
        if (i == size || d[i] == ',') {
            cols.append(trimmed(line.sliced(start, i - start)));
            start = i + 1;
        }
    }
}

// A header column: a field name ([A-Za-z_][A-Za-z0-9_.]*), optionally followed by " [unit]".
// Values never look like that together with a known name in the same line: numbers start
// with a digit, names and messages contain blanks, uuids and bus ids contain '-' or ':'.
bool isFieldNameShaped(QByteArrayView c)
{
    qsizetype i = 0;
    const auto letter = [](char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_'; };
    if (c.isEmpty() || !letter(c[0]))
        return false;
    while (i < c.size() && (letter(c[i]) || (c[i] >= '0' && c[i] <= '9') || c[i] == '.'))
        ++i;
    if (i == c.size())
        return true;
    // " [unit]"
    while (i < c.size() && c[i] == ' ')
        ++i;
    return i < c.size() && c[i] == '[' && c.back() == ']' && c.indexOf(',') < 0;
}

// The one header detector for every nvidia-smi CSV table (--query-gpu, --query-compute-apps):
// a line is a header when every column is name-shaped and at least one names a field of the
// table (lookup != unknown). Columns the table does not know map to `unknown` and are ignored,
// so any field list, any column count, any order, with or without units, is understood.
template <typename Field>
std::optional<QList<Field>> headerLayout(const Columns& cols, Field (*lookup)(QByteArrayView), Field unknown)
{
    // Cheap reject first: ordinary rows start with a digit (index, timestamp, pid).
    if (cols.isEmpty() || !isFieldNameShaped(cols[0]))
        return std::nullopt;
    QList<Field> fields;
    fields.reserve(cols.size());
    bool anyKnown = false;
    for (const QByteArrayView c : cols) {
        if (!isFieldNameShaped(c))
            return std::nullopt;
        const Field f = lookup(c);
        anyKnown |= f != unknown;
        fields.append(f);
    }
    if (!anyKnown)
        return std::nullopt;
    return fields;
}

// "name [unit]" -> "name"
QByteArrayView withoutUnit(QByteArrayView name)
{
    name = trimmed(name);
    const qsizetype bracket = name.indexOf('[');
    if (bracket > 0)
        name = trimmed(name.first(bracket));
    return name;
}

// A UTF-8 byte order mark, which Windows tools put before a saved CSV.
QByteArrayView withoutBom(QByteArrayView data)
{
    return data.startsWith("\xEF\xBB\xBF") ? data.sliced(3) : data;
}

// Rows repeat the same uuid/name/pstate strings every sample: reuse the QString (implicit
// sharing) instead of allocating one per row. A handful of entries per column suffice.
class StringCache
{
public:
    QString get(QByteArrayView bytes)
    {
        for (auto& e : m_entries) {
            if (e.bytes.size() == bytes.size()
                && std::memcmp(e.bytes.constData(), bytes.data(), size_t(bytes.size())) == 0)
                return e.text;
        }
        QString text = QString::fromUtf8(bytes);
        if (m_entries.size() >= 32)
            m_entries.removeFirst();
        m_entries.append({ bytes.toByteArray(), text });
        return text;
    }

private:
    struct Entry
    {
        QByteArray bytes;
        QString text;
    };
    QList<Entry> m_entries;
};

QString fatalMessage(QByteArrayView line)
{
    static const char* const kFatal[] = {
        "Failed to initialize NVML",
        "NVIDIA-SMI has failed",
        "No devices were found",
        "couldn't communicate with the NVIDIA driver",
        "nvidia-smi: command not found",
        "nvidia-smi: not found",
        "Unable to determine the device handle",
    };
    for (const char* f : kFatal) {
        if (line.indexOf(QByteArrayView(f)) >= 0)
            return QString::fromUtf8(line);
    }
    return {};
}

enum class AppField : quint8 { Unknown, Pid, Name, Memory, Uuid };

AppField appFieldFromName(QByteArrayView name)
{
    name = withoutUnit(name);
    if (name == "pid")
        return AppField::Pid;
    if (name == "process_name" || name == "name")
        return AppField::Name;
    if (name == "used_gpu_memory" || name == "used_memory")
        return AppField::Memory;
    if (name == "gpu_uuid" || name == "uuid")
        return AppField::Uuid;
    return AppField::Unknown; // timestamp, gpu_name, gpu_bus_id, gpu_serial, ...
}

} // namespace

QString gpuFieldQueryName(GpuField field)
{
    for (const auto& f : kFieldNames) {
        if (f.field == field)
            return QString::fromLatin1(f.name);
    }
    return {};
}

GpuField gpuFieldFromName(QByteArrayView name)
{
    name = withoutUnit(name);
    for (const auto& f : kFieldNames) {
        if (name.compare(QByteArrayView(f.name), Qt::CaseInsensitive) == 0)
            return f.field;
    }
    return GpuField::Unknown;
}

QList<GpuField> defaultGpuFields()
{
    return { GpuField::Index, GpuField::Uuid, GpuField::Name, GpuField::Pstate, GpuField::TempGpu, GpuField::TempMemory,
        GpuField::UtilGpu, GpuField::UtilMemory, GpuField::MemTotal, GpuField::MemUsed, GpuField::PowerDraw,
        GpuField::PowerLimit, GpuField::ClockSm, GpuField::ClockMem, GpuField::FanSpeed, GpuField::EccUncorrected,
        GpuField::EventReasons, GpuField::MigMode };
}

GpuFieldProbe probeGpuFields(QByteArrayView help, const QList<GpuField>& wanted)
{
    GpuFieldProbe probe;
    // Lines look like: "clocks_event_reasons.active" or "clocks_throttle_reasons.active"
    QList<QByteArray> known;
    qsizetype pos = 0;
    while (pos < help.size()) {
        qsizetype end = help.indexOf('\n', pos);
        if (end < 0)
            end = help.size();
        const QByteArrayView line = help.sliced(pos, end - pos);
        pos = end + 1;
        if (line.isEmpty() || line.front() != '"')
            continue;
        qsizetype q = 0;
        while (true) {
            const qsizetype open = line.indexOf('"', q);
            if (open < 0)
                break;
            const qsizetype close = line.indexOf('"', open + 1);
            if (close < 0)
                break;
            known.append(line.sliced(open + 1, close - open - 1).toByteArray());
            q = close + 1;
        }
    }
    probe.ok = known.contains(QByteArrayLiteral("index")) || known.contains(QByteArrayLiteral("uuid"));
    for (GpuField field : wanted) {
        QString chosen;
        for (const auto& f : kFieldNames) {
            if (f.field == field && known.contains(QByteArray(f.name))) {
                chosen = QString::fromLatin1(f.name);
                break;
            }
        }
        if (chosen.isEmpty()) {
            probe.missing.append(gpuFieldQueryName(field));
            continue;
        }
        probe.fields.append(field);
        probe.queryNames.append(chosen);
    }
    return probe;
}

GpuCsvResult parseGpuCsv(QByteArrayView data, const QList<GpuField>& requested)
{
    GpuCsvResult result;
    result.columns = requested;
    StringCache uuidCache, nameCache, busCache, driverCache, pstateCache, modeCache, migCache, ccCache;
    Columns cols;
    data = withoutBom(data);
    qsizetype pos = 0;
    const qsizetype size = data.size();
    result.samples.reserve(data.count('\n') + 1);
    while (pos < size) {
        const char* nl = static_cast<const char*>(std::memchr(data.data() + pos, '\n', size_t(size - pos)));
        const qsizetype end = nl ? nl - data.data() : size;
        const QByteArrayView line = trimmed(data.sliced(pos, end - pos));
        pos = end + 1;
        if (line.isEmpty())
            continue;
        splitColumns(line, cols);
        const int n = int(cols.size());
        // A header (first line, or repeated by -lms / concatenated files) re-defines the layout.
        if (auto fields = headerLayout(cols, &gpuFieldFromName, GpuField::Unknown)) {
            result.columns = *fields;
            result.sawHeader = true;
            continue;
        }
        if (n != result.columns.size()) {
            if (n <= 1 && result.messages.size() < 20)
                result.messages.append(QString::fromUtf8(line));
            if (result.fatal.isEmpty())
                result.fatal = fatalMessage(line);
            ++result.badLines;
            continue;
        }
        GpuSample s;
        bool sane = true;
        for (int i = 0; i < n; ++i) {
            const QByteArrayView v = cols[i];
            switch (result.columns[i]) {
            case GpuField::Unknown: break;
            case GpuField::Timestamp: s.timeMs = timestampMs(v); break;
            case GpuField::Index: {
                const double d = number(v);
                if (!hasValue(d) || d < 0 || d > 4096 || d != std::floor(d))
                    sane = false;
                else
                    s.index = int(d);
                break;
            }
            case GpuField::Uuid: s.uuid = isNoValue(v) ? QString() : uuidCache.get(v); break;
            case GpuField::Name: s.name = isNoValue(v) ? QString() : nameCache.get(v); break;
            case GpuField::BusId: s.busId = isNoValue(v) ? QString() : busCache.get(v); break;
            case GpuField::DriverVersion: s.driverVersion = isNoValue(v) ? QString() : driverCache.get(v); break;
            case GpuField::Pstate: s.pstate = isNoValue(v) ? QString() : pstateCache.get(v); break;
            case GpuField::ComputeMode: s.computeMode = isNoValue(v) ? QString() : modeCache.get(v); break;
            case GpuField::MigMode: s.migMode = isNoValue(v) ? QString() : migCache.get(v); break;
            case GpuField::ComputeCap: s.computeCap = isNoValue(v) ? QString() : ccCache.get(v); break;
            case GpuField::TempGpu: s.tempGpuC = number(v); break;
            case GpuField::TempMemory: s.tempMemoryC = number(v); break;
            case GpuField::UtilGpu: s.utilGpu = number(v); break;
            case GpuField::UtilMemory: s.utilMemory = number(v); break;
            case GpuField::MemTotal: s.memTotalMiB = number(v); break;
            case GpuField::MemUsed: s.memUsedMiB = number(v); break;
            case GpuField::MemFree: s.memFreeMiB = number(v); break;
            case GpuField::PowerDraw: s.powerW = number(v); break;
            case GpuField::PowerLimit: s.powerLimitW = number(v); break;
            case GpuField::ClockSm: s.smClockMHz = number(v); break;
            case GpuField::ClockMem: s.memClockMHz = number(v); break;
            case GpuField::ClockMaxSm: s.maxSmClockMHz = number(v); break;
            case GpuField::FanSpeed: s.fanPercent = number(v); break;
            case GpuField::EccUncorrected: s.eccUncorrected = number(v); break;
            case GpuField::EccCorrected: s.eccCorrected = number(v); break;
            case GpuField::EventReasons: s.hasReasons = hexMask(v, &s.reasons); break;
            }
        }
        // Without an index column the row order within a block is the index; callers that
        // stream give index, so a row whose index is garbage is dropped as a bad line.
        if (!sane) {
            ++result.badLines;
            continue;
        }
        result.samples.append(std::move(s));
    }
    return result;
}

QStringList reasonWords(quint64 mask)
{
    static const std::pair<quint64, const char*> kWords[] = {
        { 0x1, "gpu_idle" },
        { 0x2, "applications_clocks_setting" },
        { 0x4, "sw_power_cap" },
        { 0x8, "hw_slowdown" },
        { 0x10, "sync_boost" },
        { 0x20, "sw_thermal_slowdown" },
        { 0x40, "hw_thermal_slowdown" },
        { 0x80, "hw_power_brake_slowdown" },
        { 0x100, "display_clock_setting" },
    };
    QStringList words;
    quint64 known = 0;
    for (const auto& [bit, word] : kWords) {
        known |= bit;
        if (mask & bit)
            words.append(QString::fromLatin1(word));
    }
    for (int b = 0; b < 64; ++b) {
        const quint64 bit = quint64(1) << b;
        if ((mask & bit) && !(known & bit))
            words.append(QStringLiteral("0x") + QString::number(bit, 16));
    }
    return words;
}

ComputeAppsResult parseComputeApps(QByteArrayView data)
{
    ComputeAppsResult result;
    // Column positions: by default the order we ask for; a header defines its own (a column it
    // does not have is -1). Any header works: other tools ask for timestamp,gpu_name,...,pid.
    int pidCol = 0, nameCol = 1, memCol = 2, uuidCol = 3, count = 4;
    Columns cols;
    data = withoutBom(data);
    qsizetype pos = 0;
    while (pos < data.size()) {
        qsizetype end = data.indexOf('\n', pos);
        if (end < 0)
            end = data.size();
        const QByteArrayView line = trimmed(data.sliced(pos, end - pos));
        pos = end + 1;
        if (line.isEmpty())
            continue;
        splitColumns(line, cols);
        if (auto fields = headerLayout(cols, &appFieldFromName, AppField::Unknown)) {
            count = int(fields->size());
            pidCol = int(fields->indexOf(AppField::Pid));
            nameCol = int(fields->indexOf(AppField::Name));
            memCol = int(fields->indexOf(AppField::Memory));
            uuidCol = int(fields->indexOf(AppField::Uuid));
            continue;
        }
        // A process name with commas: the extra columns belong to the name.
        const int extra = int(cols.size()) - count;
        if (extra < 0 || pidCol < 0 || (extra > 0 && nameCol < 0)) {
            if (cols.size() == 1 && result.fatal.isEmpty())
                result.fatal = fatalMessage(line);
            if (cols.size() > 1 || line.indexOf("No running") < 0)
                ++result.badLines;
            continue;
        }
        // Column c of the layout in this line; absent columns read as empty.
        auto col = [&](int c) -> QByteArrayView {
            if (c < 0)
                return {};
            return cols[nameCol >= 0 && c > nameCol ? c + extra : c];
        };
        GpuProcess p;
        const double pid = number(col(pidCol));
        if (!hasValue(pid) || pid < 0 || pid > 4294967295.0 || pid != std::floor(pid)) {
            ++result.badLines;
            continue;
        }
        p.pid = qint64(pid);
        if (nameCol >= 0) {
            const QByteArrayView first = cols[nameCol];
            const QByteArrayView last = cols[nameCol + extra];
            p.name = QString::fromUtf8(QByteArrayView(first.data(), last.data() + last.size() - first.data()));
        }
        p.usedMemoryMiB = number(col(memCol));
        p.gpuUuid = QString::fromUtf8(col(uuidCol));
        result.processes.append(p);
    }
    return result;
}

void joinProcessesToGpus(QList<GpuProcess>& processes, const QList<GpuSample>& gpus)
{
    for (auto& p : processes) {
        p.gpuIndex = -1;
        for (const auto& g : gpus) {
            if (!g.uuid.isEmpty() && g.uuid == p.gpuUuid) {
                p.gpuIndex = g.index;
                break;
            }
        }
    }
}

} // namespace kf
