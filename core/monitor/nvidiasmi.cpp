// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/monitor/nvidiasmi.h"

#include <array>
#include <charconv>
#include <cstring>

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

// Splits on ',' and trims; returns the count (up to max; more columns return max + 1).
template <size_t N> int splitColumns(QByteArrayView line, std::array<QByteArrayView, N>& cols)
{
    int n = 0;
    qsizetype start = 0;
    const char* d = line.data();
    const qsizetype size = line.size();
    for (qsizetype i = 0; i <= size; ++i) {
        if (i == size || d[i] == ',') {
            if (n == int(N))
                return n + 1;
            cols[size_t(n++)] = trimmed(line.sliced(start, i - start));
            start = i + 1;
        }
    }
    return n;
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

constexpr int kMaxColumns = 64;

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
    name = trimmed(name);
    const qsizetype bracket = name.indexOf('[');
    if (bracket > 0)
        name = trimmed(name.first(bracket));
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
    StringCache uuidCache, nameCache, busCache, driverCache, pstateCache, modeCache, migCache;
    std::array<QByteArrayView, kMaxColumns> cols;
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
        const int n = splitColumns(line, cols);
        if (n != result.columns.size() || n > kMaxColumns) {
            // A header (every column a known field name) re-defines the layout.
            bool header = n >= 1 && n <= kMaxColumns;
            QList<GpuField> fields;
            for (int i = 0; header && i < n; ++i) {
                const GpuField f = gpuFieldFromName(cols[size_t(i)]);
                header = f != GpuField::Unknown;
                fields.append(f);
            }
            if (header) {
                result.columns = fields;
                result.sawHeader = true;
                continue;
            }
            if (n <= 1 && result.messages.size() < 20)
                result.messages.append(QString::fromUtf8(line));
            if (result.fatal.isEmpty())
                result.fatal = fatalMessage(line);
            ++result.badLines;
            continue;
        }
        // Field names start with a letter; index and timestamp values with a digit, so the
        // header check costs nothing on ordinary rows.
        const char c0 = cols[0].isEmpty() ? '\0' : cols[0].front();
        const bool maybeHeader = ((c0 >= 'a' && c0 <= 'z') || (c0 >= 'A' && c0 <= 'Z'));
        if (maybeHeader && gpuFieldFromName(cols[0]) != GpuField::Unknown
            && gpuFieldFromName(cols[size_t(n - 1)]) != GpuField::Unknown) {
            // A repeated header with the same column count.
            bool header = true;
            QList<GpuField> fields;
            for (int i = 0; header && i < n; ++i) {
                const GpuField f = gpuFieldFromName(cols[size_t(i)]);
                header = f != GpuField::Unknown;
                fields.append(f);
            }
            if (header) {
                result.columns = fields;
                result.sawHeader = true;
                continue;
            }
        }
        GpuSample s;
        bool sane = true;
        for (int i = 0; i < n; ++i) {
            const QByteArrayView v = cols[size_t(i)];
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
    // Column positions: default is the order we ask for; a header may reorder.
    int pidCol = 0, nameCol = 1, memCol = 2, uuidCol = 3, count = 4;
    qsizetype pos = 0;
    while (pos < data.size()) {
        qsizetype end = data.indexOf('\n', pos);
        if (end < 0)
            end = data.size();
        const QByteArrayView line = trimmed(data.sliced(pos, end - pos));
        pos = end + 1;
        if (line.isEmpty())
            continue;
        QList<QByteArrayView> cols;
        qsizetype start = 0;
        for (qsizetype i = 0; i <= line.size(); ++i) {
            if (i == line.size() || line[i] == ',') {
                cols.append(trimmed(line.sliced(start, i - start)));
                start = i + 1;
            }
        }
        if (cols.size() >= 2 && cols[0] == "pid") {
            count = int(cols.size());
            for (int i = 0; i < cols.size(); ++i) {
                QByteArrayView h = cols[i];
                const qsizetype b = h.indexOf('[');
                if (b > 0)
                    h = trimmed(h.first(b));
                if (h == "pid")
                    pidCol = i;
                else if (h == "process_name" || h == "name")
                    nameCol = i;
                else if (h == "used_gpu_memory" || h == "used_memory")
                    memCol = i;
                else if (h == "gpu_uuid" || h == "uuid")
                    uuidCol = i;
            }
            continue;
        }
        if (cols.size() < count) {
            if (cols.size() == 1 && result.fatal.isEmpty())
                result.fatal = fatalMessage(line);
            if (cols.size() > 1 || line.indexOf("No running") < 0)
                ++result.badLines;
            continue;
        }
        // A process name with commas: extra columns belong to the name.
        const int extra = int(cols.size()) - count;
        auto col = [&](int c) { return cols[c > nameCol ? c + extra : c]; };
        GpuProcess p;
        const double pid = number(col(pidCol));
        if (!hasValue(pid) || pid < 0) {
            ++result.badLines;
            continue;
        }
        p.pid = qint64(pid);
        QByteArrayView name = cols[nameCol];
        if (extra > 0)
            name = QByteArrayView(cols[nameCol].data(),
                cols[nameCol + extra].data() + cols[nameCol + extra].size() - cols[nameCol].data());
        p.name = QString::fromUtf8(name);
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
