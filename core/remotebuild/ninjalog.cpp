// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/ninjalog.h"

#include "core/util/bytelines.h"

#include <QHash>

#include <algorithm>

namespace kf {

qint64 NinjaLog::wallMs() const
{
    qint64 m = 0;
    for (const auto& e : lastRun)
        m = std::max(m, e.endMs);
    return m;
}

qint64 NinjaLog::totalEdgeMs() const
{
    qint64 s = 0;
    for (const auto& e : lastRun)
        s += e.durationMs();
    return s;
}

QList<NinjaLogEntry> NinjaLog::slowest(int n) const
{
    // An edge with several outputs appears once per output with the same times; keep one.
    QHash<QPair<qint64, qint64>, int> seen;
    QList<NinjaLogEntry> unique;
    for (const auto& e : lastRun) {
        const auto key = qMakePair(e.startMs, e.endMs);
        auto it = seen.find(key);
        if (it != seen.end()
            && unique[*it].output.section(QLatin1Char('/'), 0, -2) == e.output.section(QLatin1Char('/'), 0, -2))
            continue;
        seen.insert(key, int(unique.size()));
        unique.append(e);
    }
    std::stable_sort(
        unique.begin(), unique.end(), [](const auto& a, const auto& b) { return a.durationMs() > b.durationMs(); });
    if (unique.size() > n)
        unique.resize(n);
    return unique;
}

NinjaLog parseNinjaLog(QByteArrayView data)
{
    NinjaLog log;
    const qsizetype firstEnd = data.indexOf('\n');
    const QByteArrayView header = firstEnd < 0 ? data : data.first(firstEnd);
    if (!header.startsWith("# ninja log v")) {
        log.error = QStringLiteral("not a ninja log (no '# ninja log vN' header)");
        return log;
    }
    log.version = QByteArray(header.sliced(13).data(), header.size() - 13).trimmed().toInt();
    if (log.version < 5) {
        log.error = QStringLiteral("ninja log v%1 is too old (v5 or newer)").arg(log.version);
        return log;
    }
    if (firstEnd < 0)
        return log;
    qint64 lastEnd = -1;
    QList<NinjaLogEntry> run;
    ByteLines lines(data, firstEnd + 1);
    for (QByteArrayView line; lines.next(line);) {
        const bool terminated = lines.terminated();
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        // start, end, mtime, output, hash
        qsizetype fieldStart = 0;
        QByteArrayView fields[5];
        int nf = 0;
        for (qsizetype i = 0; i <= line.size() && nf < 5; ++i) {
            if (i == line.size() || line[i] == '\t') {
                fields[nf++] = line.sliced(fieldStart, i - fieldStart);
                fieldStart = i + 1;
            }
        }
        bool ok1 = false;
        bool ok2 = false;
        const qint64 s = QByteArray(fields[0].data(), fields[0].size()).toLongLong(&ok1);
        const qint64 e = nf > 1 ? QByteArray(fields[1].data(), fields[1].size()).toLongLong(&ok2) : 0;
        // The hash is the last field; without it (or with an unterminated hash) the line may be cut.
        if (nf < 5 || !ok1 || !ok2 || fields[3].isEmpty() || (!terminated && fields[4].size() < 16)) {
            ++log.truncatedLines;
            continue;
        }
        constexpr qint64 kMaxMs = qint64(1) << 32;
        if (s < 0 || e < s || e > kMaxMs) {
            ++log.badLines;
            continue;
        }
        if (e < lastEnd) {
            // End times went down: a new ninja invocation starts here.
            run.clear();
            ++log.runs;
        } else if (lastEnd < 0) {
            ++log.runs;
        }
        lastEnd = e;
        run.append({ s, e, QString::fromUtf8(fields[3].data(), fields[3].size()) });
    }
    log.lastRun = run;
    return log;
}

} // namespace kf
