// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/gpu/gpuprocesses.h"

#include "core/transport/transport.h"
#include "core/util/bytelines.h"

#include <QHash>
#include <QRandomGenerator>
#include <QVarLengthArray>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace kf {

namespace {

constexpr int kMaxErrors = 10;

bool isBlank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

// Up to `max` whitespace-separated tokens; *rest is what follows the last one taken, trimmed.
using Tokens = QVarLengthArray<QByteArrayView, 16>;
void tokens(QByteArrayView line, int max, Tokens& out, QByteArrayView* rest = nullptr)
{
    out.clear();
    qsizetype i = 0;
    const qsizetype n = line.size();
    while (int(out.size()) < max) {
        while (i < n && isBlank(line[i]))
            ++i;
        if (i == n)
            break;
        const qsizetype start = i;
        while (i < n && !isBlank(line[i]))
            ++i;
        out.append(line.sliced(start, i - start));
    }
    if (rest) {
        while (i < n && isBlank(line[i]))
            ++i;
        qsizetype e = n;
        while (e > i && isBlank(line[e - 1]))
            --e;
        *rest = line.sliced(i, e - i);
    }
}

// A number, or no value for "-", "[N/A]" and garbage.
double number(QByteArrayView v)
{
    if (v.isEmpty() || v == "-" || v.front() == '[')
        return noValue();
    double out = 0;
    const auto res = std::from_chars(v.data(), v.data() + v.size(), out);
    if (res.ec != std::errc() || res.ptr != v.data() + v.size() || !std::isfinite(out))
        return noValue();
    return out;
}

// A whole number in [0, max]; -1 otherwise.
qint64 wholeNumber(QByteArrayView v, qint64 max)
{
    qint64 out = -1;
    if (v.isEmpty() || v.size() > 19)
        return -1;
    const auto res = std::from_chars(v.data(), v.data() + v.size(), out);
    if (res.ec != std::errc() || res.ptr != v.data() + v.size() || out < 0 || out > max)
        return -1;
    return out;
}

constexpr qint64 kMaxPid = 4294967295LL;

enum class PmonColumn : quint8 { Gpu, Pid, Type, Sm, Mem, Fb, Command, Other };

PmonColumn pmonColumn(QByteArrayView name)
{
    if (name == "gpu")
        return PmonColumn::Gpu;
    if (name == "pid")
        return PmonColumn::Pid;
    if (name == "type")
        return PmonColumn::Type;
    if (name == "sm")
        return PmonColumn::Sm;
    if (name == "mem")
        return PmonColumn::Mem;
    if (name == "fb")
        return PmonColumn::Fb;
    if (name == "command")
        return PmonColumn::Command;
    return PmonColumn::Other; // Date, Time, enc, dec, jpg, ofa, ccpm, ...
}

} // namespace

PmonResult parsePmon(QByteArrayView data)
{
    PmonResult result;
    QList<PmonColumn> layout; // the columns before "command"
    bool hasCommand = false;
    const auto skip = [&](int lineNo, const QString& why) {
        ++result.badLines;
        if (result.errors.size() < kMaxErrors)
            result.errors.append(QStringLiteral("line %1: %2").arg(lineNo).arg(why));
    };
    Tokens t;
    ByteLines lines(data);
    for (QByteArrayView line; lines.next(line);) {
        const int lineNo = lines.number();
        QByteArrayView rest;
        if (line.startsWith('#')) {
            tokens(line.sliced(1), 64, t);
            // The first header line names the columns; the second ("# Idx # C/G % ...") gives units.
            if (t.isEmpty() || !t.contains(QByteArrayView("pid")))
                continue;
            layout.clear();
            hasCommand = false;
            for (const QByteArrayView name : t) {
                const PmonColumn c = pmonColumn(name);
                if (c == PmonColumn::Command) {
                    hasCommand = true;
                    break;
                }
                layout.append(c);
            }
            result.sawHeader = layout.contains(PmonColumn::Gpu) && layout.contains(PmonColumn::Pid);
            if (!result.sawHeader)
                layout.clear();
            continue;
        }
        tokens(line, qMax(1, int(layout.size())), t, &rest);
        if (t.isEmpty())
            continue; // a blank line
        if (layout.isEmpty()) {
            skip(lineNo, QStringLiteral("not a pmon row (no header before it)"));
            continue;
        }
        if (t.size() < layout.size()) {
            skip(lineNo,
                QStringLiteral("%1 columns, the header has %2")
                    .arg(t.size())
                    .arg(layout.size() + (hasCommand ? 1 : 0)));
            continue;
        }
        PmonRow row;
        bool idle = false;
        for (qsizetype i = 0; i < layout.size(); ++i) {
            const QByteArrayView v = t[i];
            switch (layout[i]) {
            case PmonColumn::Gpu: row.gpu = int(wholeNumber(v, 4096)); break;
            case PmonColumn::Pid:
                if (v == "-")
                    idle = true;
                else
                    row.pid = wholeNumber(v, kMaxPid);
                break;
            case PmonColumn::Type: row.type = v == "-" ? QString() : QString::fromLatin1(firstBytes(v, 8)); break;
            case PmonColumn::Sm: row.smPercent = number(v); break;
            case PmonColumn::Mem: row.memPercent = number(v); break;
            case PmonColumn::Fb: row.fbMiB = number(v); break;
            case PmonColumn::Command:
            case PmonColumn::Other: break;
            }
        }
        if (row.gpu < 0) {
            skip(lineNo, QStringLiteral("the GPU index is not a whole number from 0 to 4096"));
            continue;
        }
        if (idle) {
            ++result.idleRows;
            continue;
        }
        if (row.pid < 0) {
            skip(lineNo, QStringLiteral("the pid is not a whole number"));
            continue;
        }
        if (hasCommand && rest != "-")
            row.command = QString::fromUtf8(firstBytes(rest, 4096));
        result.rows.append(std::move(row));
    }
    return result;
}

PsResult parsePsLines(QByteArrayView data)
{
    PsResult result;
    Tokens t;
    ByteLines lines(data);
    for (QByteArrayView line; lines.next(line);) {
        QByteArrayView rest;
        tokens(line, 5, t, &rest);
        if (t.isEmpty())
            continue;
        PsRow row;
        row.pid = t.size() == 5 ? wholeNumber(t[0], kMaxPid) : -1;
        row.uid = t.size() == 5 ? wholeNumber(t[1], kMaxPid) : -1;
        if (row.pid < 0 || row.uid < 0) {
            ++result.badLines; // "error: ..." from ps, a truncated line
            continue;
        }
        row.user = QString::fromUtf8(firstBytes(t[2], 64));
        row.cpuPercent = number(t[3]);
        row.rssKiB = number(t[4]);
        row.commandLine = QString::fromUtf8(firstBytes(rest, 4096));
        result.rows.append(std::move(row));
    }
    return result;
}

HostLoad parseHostLoad(QByteArrayView body)
{
    HostLoad h;
    Tokens t;
    ByteLines lines(body);
    constexpr qint64 kMaxTicks = qint64(1) << 62;
    for (QByteArrayView line; lines.next(line);) {
        tokens(line, 12, t);
        if (t.size() >= 5 && t[0] == "cpu") {
            // user nice system idle [iowait irq softirq steal]; guest and guest_nice are in user.
            double total = 0, idle = 0;
            bool ok = true;
            for (qsizetype i = 1; i < qMin<qsizetype>(t.size(), 9) && ok; ++i) {
                const qint64 v = wholeNumber(t[i], kMaxTicks);
                ok = v >= 0;
                total += double(v);
                if (i == 4 || i == 5)
                    idle += double(v);
            }
            if (ok) {
                h.cpuTotalTicks = total;
                h.cpuIdleTicks = idle;
            }
        } else if (t.size() == 3 && (t[0] == "MemTotal:" || t[0] == "MemAvailable:") && t[2] == "kB") {
            const qint64 v = wholeNumber(t[1], kMaxTicks);
            if (v >= 0)
                (t[0] == "MemTotal:" ? h.memTotalKiB : h.memAvailableKiB) = double(v);
        } else if (t.size() == 2 && t[0] == "cpus") {
            const qint64 v = wholeNumber(t[1], 1 << 20);
            if (v > 0)
                h.cpus = int(v);
        }
    }
    if (hasValue(h.memTotalKiB) && hasValue(h.memAvailableKiB) && h.memAvailableKiB > h.memTotalKiB)
        h.memAvailableKiB = noValue(); // not a reading of one machine
    return h;
}

double cpuPercentBetween(const HostLoad& before, const HostLoad& after)
{
    if (!hasValue(before.cpuTotalTicks) || !hasValue(after.cpuTotalTicks))
        return noValue();
    const double total = after.cpuTotalTicks - before.cpuTotalTicks;
    const double idle = after.cpuIdleTicks - before.cpuIdleTicks;
    if (total <= 0 || idle < 0 || idle > total)
        return noValue();
    return 100.0 * (total - idle) / total;
}

QString gpuProcessScript()
{
    // One poll, one command: every tool's output in its own section (gpuprocesses.h), its
    // 0x1e bytes removed so that only the script's own markers carry one. The pids for ps come
    // from both tables; a line is cut to 4096 bytes and a section to 4096 lines here, so a
    // process with a huge argv cannot blow the poll's output cap.
    return QStringLiteral(R"sh(smi=$1
mark=$KF_MARK; unset KF_MARK
rs=$(printf '\036')
section() { printf '%sKF%s %s %s\n' "$rs" "$mark" "$1" "$2"; }
body() { printf '%s\n' "$1" | tr -d '\036' | head -n 4096 | cut -c1-4096; }
section me "$(id -u 2>/dev/null)"
out=$("$smi" --query-gpu=index,uuid --format=csv,noheader 2>&1); st=$?
section gpus "$st"; body "$out"
apps=$("$smi" --query-compute-apps=pid,process_name,used_memory,gpu_uuid --format=csv,noheader,nounits 2>&1); st=$?
section apps "$st"; body "$apps"
pmon=$("$smi" pmon -c 1 -s um 2>&1); st=$?
section pmon "$st"; body "$pmon"
pids=$( { printf '%s\n' "$apps" | awk -F', *' '$1 ~ /^[0-9]+$/ { print $1 }'
  [ "$st" = 0 ] && printf '%s\n' "$pmon" | awk '$1 !~ /^#/ && $2 ~ /^[0-9]+$/ { print $2 }'; } | sort -un | head -n 1024 | tr '\n' ' ')
if [ -n "$pids" ]; then
  out=$(ps -ww -o pid=,ruid=,user:32=,pcpu=,rss=,args= -p "$(printf '%s' "$pids" | tr ' ' ',' | sed 's/,$//')" 2>&1); st=$?
  section ps "$st"; body "$out"
  section start 0
  for p in $pids; do
    line=
    { read -r line < "/proc/$p/stat"; } 2>/dev/null || continue
    set -- ${line##*) }
    [ $# -ge 20 ] && printf '%s %s\n' "$p" "${20}"
  done
fi
section host 0
{ head -n 1 /proc/stat; grep -E '^Mem(Total|Available):' /proc/meminfo; printf 'cpus %s\n' "$(getconf _NPROCESSORS_ONLN)"; } 2>/dev/null | tr -d '\036' | head -n 8 | cut -c1-512
section end 0
)sh");
}

QByteArray newSectionMark()
{
    return QByteArray::number(QRandomGenerator::system()->generate64(), 16).rightJustified(16, '0');
}

GpuProcessList parseGpuProcessOutput(QByteArrayView output, QByteArrayView mark, const QList<GpuSample>& gpus)
{
    GpuProcessList list;
    const QByteArray marker = "\x1eKF" + mark.toByteArray() + ' ';
    // Split into sections.
    struct Section
    {
        QByteArrayView body;
        int status = -1;
        bool present = false;
    };
    Section me, gpuSection, apps, pmon, ps, start, host;
    Section* current = nullptr;
    const char* bodyStart = nullptr;
    const auto close = [&](const char* end) {
        if (current && bodyStart)
            current->body = QByteArrayView(bodyStart, end - bodyStart);
        current = nullptr;
        bodyStart = nullptr;
    };
    Tokens t;
    ByteLines lines(output);
    for (QByteArrayView line; lines.next(line);) {
        if (mark.isEmpty() || !line.startsWith(marker))
            continue;
        close(line.data());
        tokens(line.sliced(marker.size()), 2, t);
        const QByteArrayView name = t.value(0);
        const qint64 status = t.size() > 1 ? wholeNumber(t[1], kMaxPid) : -1;
        Section* s = name == "me" ? &me
            : name == "gpus"      ? &gpuSection
            : name == "apps"      ? &apps
            : name == "pmon"      ? &pmon
            : name == "ps"        ? &ps
            : name == "start"     ? &start
            : name == "host"      ? &host
                                  : nullptr;
        if (name == "end") {
            list.complete = true;
            continue;
        }
        if (!s || s->present)
            continue; // the first of each name counts
        s->present = true;
        s->status = int(qMin<qint64>(status, 1 << 20));
        if (s == &me) {
            list.myUid = status;
            continue;
        }
        current = s;
        bodyStart = line.data() + line.size() + (line.data() + line.size() < output.data() + output.size() ? 1 : 0);
    }
    close(output.data() + output.size());

    // GPU index by uuid: the section's own table, then the stream's samples.
    QHash<QString, int> indexOf;
    for (const GpuSample& g : gpus)
        if (!g.text(GpuField::Uuid).isEmpty())
            indexOf.insert(g.text(GpuField::Uuid), g.index);
    if (gpuSection.present && gpuSection.status == 0) {
        list.gpuCount = 0;
        ByteLines lines(gpuSection.body);
        for (QByteArrayView line; lines.next(line);) {
            const qsizetype comma = line.indexOf(',');
            if (comma < 0)
                continue;
            const qint64 index = wholeNumber(line.first(comma).trimmed(), 4096);
            const QByteArrayView uuid = line.sliced(comma + 1).trimmed();
            if (index >= 0 && uuid.startsWith("GPU-")) {
                indexOf.insert(QString::fromLatin1(uuid), int(index));
                ++list.gpuCount;
            }
        }
    }

    // (GPU, pid) -> row.
    QHash<QPair<int, qint64>, qsizetype> rowOf;
    QList<GpuProcess>& rows = list.processes;
    if (apps.present) {
        ComputeAppsResult parsed = parseComputeApps(apps.body);
        list.badLines += parsed.badLines;
        if (apps.status != 0 || !parsed.fatal.isEmpty())
            list.appsError = !parsed.fatal.isEmpty()
                ? parsed.fatal
                : QString::fromUtf8(firstBytes(apps.body.trimmed(), 300)).section(u'\n', 0, 0);
        for (GpuProcess& p : parsed.processes) {
            p.gpuIndex = indexOf.value(p.gpuUuid, -1);
            const auto key = qMakePair(p.gpuIndex, p.pid);
            if (rowOf.contains(key))
                continue;
            rowOf.insert(key, rows.size());
            rows.append(std::move(p));
        }
    }
    if (pmon.present && pmon.status == 0) {
        const PmonResult parsed = parsePmon(pmon.body);
        list.pmonAvailable = parsed.sawHeader;
        list.badLines += parsed.badLines;
        if (!parsed.sawHeader)
            list.pmonError = QStringLiteral("nvidia-smi pmon printed no table");
        for (const PmonRow& r : parsed.rows) {
            auto key = qMakePair(r.gpu, r.pid);
            auto it = rowOf.constFind(key);
            if (it == rowOf.cend()) {
                // The apps row may lack its GPU (an unknown uuid): match it by pid alone.
                it = rowOf.constFind(qMakePair(-1, r.pid));
                if (it != rowOf.cend()) {
                    const qsizetype at = *it;
                    rowOf.erase(it);
                    rows[at].gpuIndex = r.gpu;
                    it = rowOf.insert(key, at);
                }
            }
            if (it == rowOf.cend()) {
                GpuProcess p;
                p.pid = r.pid;
                p.gpuIndex = r.gpu;
                p.name = r.command;
                p.usedMemoryMiB = r.fbMiB;
                it = rowOf.insert(key, rows.size());
                rows.append(std::move(p));
            }
            GpuProcess& p = rows[*it];
            p.type = r.type;
            // pmon -c 1 prints one sample; several (a -c N capture) keep the last.
            p.smPercent = r.smPercent;
            if (!hasValue(p.usedMemoryMiB))
                p.usedMemoryMiB = r.fbMiB;
            if (p.name.isEmpty())
                p.name = r.command;
        }
    } else if (pmon.present) {
        const QString said = QString::fromUtf8(firstBytes(pmon.body.trimmed(), 300)).section(u'\n', 0, 0);
        list.pmonError
            = said.isEmpty() ? QStringLiteral("nvidia-smi pmon exited with status %1").arg(pmon.status) : said;
    } else {
        list.pmonError = QStringLiteral("nvidia-smi pmon did not run");
    }
    if (ps.present) {
        const PsResult parsed = parsePsLines(ps.body);
        list.badLines += parsed.badLines;
        QHash<qint64, qsizetype> psOf;
        for (qsizetype i = 0; i < parsed.rows.size(); ++i)
            psOf.insert(parsed.rows[i].pid, i);
        for (GpuProcess& p : rows) {
            const auto it = psOf.constFind(p.pid);
            if (it == psOf.cend())
                continue;
            const PsRow& r = parsed.rows[*it];
            p.uid = r.uid;
            p.user = r.user;
            p.cpuPercent = r.cpuPercent;
            p.rssKiB = r.rssKiB;
            p.commandLine = r.commandLine;
        }
    }
    if (start.present) {
        QHash<qint64, qint64> ticksOf;
        ByteLines startLines(start.body);
        for (QByteArrayView line; startLines.next(line);) {
            tokens(line, 3, t);
            const qint64 pid = t.size() == 2 ? wholeNumber(t[0], kMaxPid) : -1;
            const qint64 ticks = t.size() == 2 ? wholeNumber(t[1], std::numeric_limits<qint64>::max()) : -1;
            if (pid >= 0 && ticks >= 0)
                ticksOf.insert(pid, ticks);
            else
                ++list.badLines;
        }
        for (GpuProcess& p : rows)
            p.startTicks = ticksOf.value(p.pid, -1);
    }
    if (host.present)
        list.host = parseHostLoad(host.body);
    std::sort(rows.begin(), rows.end(), [](const GpuProcess& a, const GpuProcess& b) {
        return a.gpuIndex != b.gpuIndex ? a.gpuIndex < b.gpuIndex : a.pid < b.pid;
    });
    return list;
}

Result<GpuProcessList> listGpuProcesses(
    Transport& transport, const QString& nvidiaSmi, const QMap<QString, QString>& env, const QList<GpuSample>& gpus)
{
    const QByteArray mark = newSectionMark();
    CommandSpec spec;
    spec.command = gpuProcessScript();
    spec.arguments = { nvidiaSmi };
    spec.env = env;
    spec.env.insert(QStringLiteral("KF_MARK"), QString::fromLatin1(mark)); // stdin, not the command line
    spec.maxOutputBytes = 8LL << 20; // 1024 processes with 4 KiB command lines fit
    const ExecResult r = transport.exec(spec, 20000);
    if (!r.error.isEmpty())
        return Result<GpuProcessList>::failure(QStringLiteral("cannot list GPU processes: %1").arg(r.error));
    GpuProcessList list = parseGpuProcessOutput(r.stdOut, mark, gpus);
    if (!list.appsError.isEmpty() && list.processes.isEmpty())
        return Result<GpuProcessList>::failure(
            QStringLiteral("nvidia-smi cannot list processes: %1").arg(list.appsError));
    if (!list.complete && list.processes.isEmpty()) {
        const QString said = QString::fromUtf8(QByteArray(r.stdErr).trimmed().right(300));
        return Result<GpuProcessList>::failure(QStringLiteral("the process list ended early (exit status %1)%2")
                                                   .arg(r.exitCode)
                                                   .arg(said.isEmpty() ? QString() : QStringLiteral(": ") + said));
    }
    return list;
}

} // namespace kf
