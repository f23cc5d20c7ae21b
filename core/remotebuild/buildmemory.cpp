// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/buildmemory.h"

#include "core/hosts/memoryview.h"
#include "core/util/bytelines.h"
#include "core/util/shellquote.h"

#include <algorithm>

namespace kf {
namespace {

double count(QByteArrayView v)
{
    bool ok = false;
    const qlonglong n = QByteArray(v.data(), v.size()).trimmed().toLongLong(&ok);
    return ok && n >= 0 ? double(n) : noValue();
}

} // namespace

QString buildMemoryScript(const QString& root, const QString& id)
{
    QString s = QStringLiteral("d=") + shellPath(root.isEmpty() ? kDefaultJobRoot : root) + QLatin1Char('/')
        + shellQuote(id) + QLatin1Char('\n');
    s += QString::fromUtf8(memoryViewFunction());
    s += QStringLiteral(R"SH(kf_memview "" "$d/cgroup"
sed -n 's/^cg_oom_kill=/start_oom_kill=/p' "$d/memview.start" 2>/dev/null | head -n 1
if [ -f "$d/memgate.state" ]; then printf 'gate_state='; head -c 1048576 "$d/memgate.state" | tr -d '\n'; echo; fi
)SH");
    return s;
}

namespace {

BuildMemoryPoll poll(const MemoryView& view, double startOom, const GateStatus& gate, qint64 timeMs)
{
    BuildMemoryPoll p;
    p.gate = gate;
    const double limit = view.limitKiB();
    const double available = view.availableKiB();
    if (!hasValue(limit) || !hasValue(available) || limit <= 0)
        return p;
    p.sample.timeMs = timeMs;
    p.sample.totalKb = qint64(limit);
    p.sample.availableKb = qint64(available);
    p.sample.source = view.limitSource();
    p.sample.cgroup = view.cgroupPath;
    if (hasValue(view.oomKills()) && hasValue(startOom))
        p.sample.oomKills = std::max<qint64>(0, qint64(view.oomKills() - startOom));
    return p;
}

} // namespace

BuildMemoryPoll parseBuildMemory(QByteArrayView text, qint64 timeMs)
{
    GateStatus gate;
    double startOom = noValue();
    ByteLines lines(text);
    for (QByteArrayView line; lines.next(line);) {
        if (line.startsWith("gate_state="))
            gate = memorygate::parseState(line.sliced(11));
        else if (line.startsWith("start_oom_kill="))
            startOom = count(line.sliced(15));
    }
    return poll(parseMemoryView(text), startOom, gate, timeMs);
}

BuildMemoryPoll endedBuildMemory(QByteArrayView start, QByteArrayView end, QByteArrayView gateState, qint64 timeMs)
{
    return poll(parseMemoryView(end), parseMemoryView(start).oomKills(), memorygate::parseState(gateState), timeMs);
}

} // namespace kf
