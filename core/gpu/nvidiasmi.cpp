// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/gpu/nvidiasmi.h"

#include "core/util/bytelines.h"

#include <QVarLengthArray>

#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <optional>

namespace kf {

namespace {

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
        return noValue();
    double out = 0;
    const auto* first = v.data();
    if (*first == '+')
        ++first;
    const auto res = std::from_chars(first, v.data() + v.size(), out);
    if (res.ec != std::errc() || !std::isfinite(out)) // from_chars reads "inf" and "nan": no value
        return noValue();
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

// Calls visit() with each blank-separated spelling of `names`, in order, until it returns true.
template <typename Visit> bool anySpelling(const char* names, Visit visit)
{
    QByteArrayView rest(names);
    while (!rest.isEmpty()) {
        const qsizetype blank = rest.indexOf(' ');
        const QByteArrayView spelling = blank < 0 ? rest : rest.first(blank);
        if (!spelling.isEmpty() && visit(spelling))
            return true;
        rest = blank < 0 ? QByteArrayView() : rest.sliced(blank + 1);
    }
    return false;
}

// The field (row index) of `table` that one of its spellings names, in any case and with or
// without " [unit]"; `unknown` when none does. The one name lookup of both tables.
template <typename Field, typename Table, typename Names>
Field fieldNamed(QByteArrayView name, const Table& table, Names namesOf, Field unknown)
{
    name = withoutUnit(name);
    if (name.isEmpty())
        return unknown;
    int row = 0;
    for (const auto& entry : table) {
        if (anySpelling(namesOf(entry),
                [&](QByteArrayView spelling) { return name.compare(spelling, Qt::CaseInsensitive) == 0; }))
            return Field(row);
        ++row;
    }
    return unknown;
}

// The one reader of nvidia-smi CSV tables (--query-gpu, --query-compute-apps): skips a BOM and
// blank lines, trims CR and blanks, splits each line into columns and hands it to onRow, except
// a header line (headerLayout, anywhere: -lms repeats it, files get concatenated), whose layout
// goes to onHeader instead.
template <typename Field, typename OnHeader, typename OnRow>
void readCsvTable(QByteArrayView data, Field (*lookup)(QByteArrayView), Field unknown, OnHeader onHeader, OnRow onRow)
{
    data = withoutBom(data);
    Columns cols;
    qsizetype pos = 0;
    const qsizetype size = data.size();
    int lineNo = 0;
    while (pos < size) {
        const char* nl = static_cast<const char*>(std::memchr(data.data() + pos, '\n', size_t(size - pos)));
        const qsizetype end = nl ? nl - data.data() : size;
        const QByteArrayView line = trimmed(data.sliced(pos, end - pos));
        pos = end + 1;
        ++lineNo;
        if (line.isEmpty())
            continue;
        splitColumns(line, cols);
        if (auto fields = headerLayout(cols, lookup, unknown))
            onHeader(std::move(*fields));
        else
            onRow(lineNo, line, cols);
    }
}

// The compute-apps columns, in the order we ask for them (pid,process_name,used_memory,gpu_uuid).
enum class AppField : quint8 { Pid, Name, Memory, Uuid, Unknown };
constexpr const char* kAppFieldNames[] = { "pid", "process_name name", "used_gpu_memory used_memory", "gpu_uuid uuid" };
static_assert(std::size(kAppFieldNames) == size_t(AppField::Unknown));

AppField appFieldFromName(QByteArrayView name)
{
    // Other columns (timestamp, gpu_name, gpu_bus_id, gpu_serial, ...) are Unknown.
    return fieldNamed(
        name, kAppFieldNames, [](const char* names) { return names; }, AppField::Unknown);
}

// One --query-gpu row in the layout `columns`; false when its index is garbage (without an
// index column the row order within a block is the index; callers that stream give index).
bool readGpuRow(
    const Columns& cols, const QList<GpuField>& columns, std::array<StringCache, kGpuTextCount>& texts, GpuSample& s)
{
    for (qsizetype i = 0; i < cols.size(); ++i) {
        const GpuField field = columns[i];
        if (field == GpuField::Unknown)
            continue;
        const QByteArrayView v = cols[i];
        switch (gpuFieldInfo(field).kind) {
        case GpuFieldKind::Number: s.setValue(field, number(v)); break;
        case GpuFieldKind::Text:
            s.setText(field, isNoValue(v) ? QString() : texts[kGpuFieldSlots[size_t(field)]].get(v));
            break;
        case GpuFieldKind::Index: {
            const double d = number(v);
            if (!hasValue(d) || d < 0 || d > 4096 || d != std::floor(d))
                return false;
            s.index = int(d);
            break;
        }
        case GpuFieldKind::Time: s.timeMs = timestampMs(v); break;
        case GpuFieldKind::Mask: s.hasReasons = hexMask(v, &s.reasons); break;
        case GpuFieldKind::Derived: break; // computed, never a column
        }
    }
    return true;
}

} // namespace

QString gpuFieldQueryName(GpuField field)
{
    QString name;
    if (field != GpuField::Unknown)
        anySpelling(gpuFieldInfo(field).names, [&](QByteArrayView spelling) {
            name = QString::fromLatin1(spelling);
            return true;
        });
    return name;
}

GpuField gpuFieldFromName(QByteArrayView name)
{
    // Dmon rows are dmon's columns (gpmFieldFromColumn), never --query-gpu's.
    return fieldNamed(
        name, kGpuFields, [](const GpuFieldInfo& f) { return f.source == GpuFieldSource::Query ? f.names : ""; },
        GpuField::Unknown);
}

GpuFieldProbe probeGpuFields(QByteArrayView help, const QList<GpuField>& wanted)
{
    GpuFieldProbe probe;
    // Lines look like: "clocks_event_reasons.active" or "clocks_throttle_reasons.active"
    QList<QByteArray> known;
    ByteLines lines(help);
    for (QByteArrayView line; lines.next(line);) {
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
        // The first spelling this driver knows: older drivers only the old names, newer both.
        QString chosen;
        if (field != GpuField::Unknown)
            anySpelling(gpuFieldInfo(field).names, [&](QByteArrayView spelling) {
                if (!known.contains(spelling.toByteArray()))
                    return false;
                chosen = QString::fromLatin1(spelling);
                return true;
            });
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
    std::array<StringCache, kGpuTextCount> texts;
    result.samples.reserve(data.count('\n') + 1);
    readCsvTable(
        data, &gpuFieldFromName, GpuField::Unknown,
        [&](QList<GpuField> header) {
            result.columns = std::move(header);
            result.sawHeader = true;
        },
        [&](int lineNo, QByteArrayView line, const Columns& cols) {
            const auto skip = [&](const QString& why) {
                if (result.errors.size() < 10)
                    result.errors.append(QStringLiteral("line %1: %2").arg(lineNo).arg(why));
                ++result.badLines;
            };
            GpuSample s;
            if (cols.size() != result.columns.size()) {
                if (cols.size() <= 1 && result.messages.size() < 20)
                    result.messages.append(QString::fromUtf8(line));
                if (result.fatal.isEmpty())
                    result.fatal = fatalMessage(line);
                skip(QStringLiteral("%1 %2, the layout has %3")
                         .arg(cols.size())
                         .arg(cols.size() == 1 ? QStringLiteral("column") : QStringLiteral("columns"))
                         .arg(result.columns.size()));
            } else if (!readGpuRow(cols, result.columns, texts, s)) {
                skip(QStringLiteral("the GPU index is not a whole number from 0 to 4096"));
            } else {
                result.samples.append(std::move(s));
            }
        });
    return result;
}

ComputeAppsResult parseComputeApps(QByteArrayView data)
{
    ComputeAppsResult result;
    // Column positions: by default the order we ask for; a header defines its own (a column it
    // does not have is -1). Any header works: other tools ask for timestamp,gpu_name,...,pid.
    int pidCol = 0, nameCol = 1, memCol = 2, uuidCol = 3, count = 4;
    readCsvTable(
        data, &appFieldFromName, AppField::Unknown,
        [&](const QList<AppField>& fields) {
            count = int(fields.size());
            pidCol = int(fields.indexOf(AppField::Pid));
            nameCol = int(fields.indexOf(AppField::Name));
            memCol = int(fields.indexOf(AppField::Memory));
            uuidCol = int(fields.indexOf(AppField::Uuid));
        },
        [&](int, QByteArrayView line, const Columns& cols) {
            // A process name with commas: the extra columns belong to the name.
            const int extra = int(cols.size()) - count;
            if (extra < 0 || pidCol < 0 || (extra > 0 && nameCol < 0)) {
                if (cols.size() == 1 && result.fatal.isEmpty())
                    result.fatal = fatalMessage(line);
                if (cols.size() > 1 || line.indexOf("No running") < 0)
                    ++result.badLines;
                return;
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
                return;
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
        });
    return result;
}

void joinProcessesToGpus(QList<GpuProcess>& processes, const QList<GpuSample>& gpus)
{
    for (auto& p : processes) {
        p.gpuIndex = -1;
        for (const auto& g : gpus) {
            const QString uuid = g.text(GpuField::Uuid);
            if (!uuid.isEmpty() && uuid == p.gpuUuid) {
                p.gpuIndex = g.index;
                break;
            }
        }
    }
}

} // namespace kf
