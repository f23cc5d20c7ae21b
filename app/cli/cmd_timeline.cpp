// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// kernelforge-cli timeline: a host's deployment timeline from this machine's history
// (core/timeline), as text, JSON lines or a self-contained HTML report.
#include "app/cli/cli.h"
#include "app/cli/flagtable.h"
#include "app/cli/sshoptions.h"

#include "core/timeline/eventstore.h"
#include "core/timeline/hostkey.h"
#include "core/timeline/report.h"
#include "core/timeline/timespec.h"

#include <QFile>
#include <QJsonDocument>
#include <QSaveFile>

namespace {

using namespace kf;

void usage(QTextStream& s)
{
    s << "Usage: kernelforge-cli timeline ([-p PORT] [user@]host | --local) [--since T] [--until T]\n"
      << "                                [--kind KIND]... [--json | --html FILE]\n\n"
      << "What KernelForge did and saw on a host, oldest first: patch plans, applies and rollbacks,\n"
      << "builds, verifications, server launches, health changes and stops, serving benchmarks,\n"
      << "tool version changes, lost and restored connections, recipe steps. Read from this\n"
      << "machine's history; nothing connects to the host (-p and user@ name it as the history does).\n\n"
      << "  --since T, --until T  a duration back from now (30m, 2h, 7d, 2w) or a date and time\n"
      << "                        (2026-12-01, \"2026-12-01 14:30\", 2026-12-01T14:30:00Z)\n"
      << "  --kind KIND           only this kind (patch.applied, build.finished, server.healthy, ...;\n"
      << "                        repeatable)\n"
      << "  --json                one JSON object per line: time, host, kind, actor, summary, details, source\n"
      << "  --html FILE           a self-contained report (inline SVG of the events over the measured GPU\n"
      << "                        power, temperature, memory and tok/s, the events as a table and as JSON)\n"
      << "Exit status: 0; 1 when the history cannot be read or the report written; 2 on bad usage.\n";
    s.flush();
}

int runTimeline(const QStringList& argsIn)
{
    QStringList args = argsIn;
    if (args.contains(QStringLiteral("--help")) || args.contains(QStringLiteral("-h"))) {
        usage(cli::out());
        return 0;
    }
    const QString me = QStringLiteral("kernelforge-cli timeline");
    bool json = false;
    bool local = false;
    QString since, until, html;
    timeline::Query query;
    // Our own options first, so their values are never taken for the destination.
    cli::FlagTable flags;
    flags.add("--json", &json)
        .add("--local", &local)
        .add("--since", &since)
        .add("--until", &until)
        .add("--html", &html)
        .add("--kind", &query.kinds);
    if (const auto taken = flags.take(args); !taken)
        return cli::usageError(me, taken.error());
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (const auto& [text, target] : { std::pair { since, &query.since }, std::pair { until, &query.until } }) {
        if (text.isEmpty())
            continue;
        const auto t = timeline::parseTimeSpec(text, now);
        if (!t)
            return cli::usageError(me, t.error());
        *target = t.value();
    }
    if (local) {
        query.host = QStringLiteral("local");
    } else {
        const auto taken = cli::takeSshOptions(args);
        if (!taken || taken->hasRemotePath)
            return cli::usageError(me, !taken ? taken.error() : QStringLiteral("a destination takes no :PATH"), usage);
        query.host = timeline::hostKey(taken->profile());
    }
    if (!args.isEmpty())
        return cli::usageError(me, QStringLiteral("unexpected arguments: ") + args.join(QLatin1Char(' ')));
    const auto events = timeline::events(query);
    if (!events) {
        cli::err() << "kernelforge-cli timeline: " << events.error() << '\n';
        return 1;
    }
    if (!html.isEmpty()) {
        timeline::ReportInput in;
        in.host = query.host;
        in.events = events.value();
        in.generated = now;
        in.toMs = (query.until.isValid() ? query.until : now).toMSecsSinceEpoch();
        in.fromMs = query.since.isValid() ? query.since.toMSecsSinceEpoch()
            : in.events.isEmpty()         ? in.toMs - 3600 * 1000
                                          : in.events.first().time.toMSecsSinceEpoch() - 60000;
        const auto minutes = timeline::loadMinutes(query.host, in.fromMs, in.toMs);
        const auto servers = timeline::loadServerMinutes(query.host, in.fromMs, in.toMs);
        if (!minutes || !servers) {
            cli::err() << "kernelforge-cli timeline: " << (minutes ? servers.error() : minutes.error()) << '\n';
            return 1;
        }
        in.series = timeline::reportSeries(nullptr, query.host, *minutes, *servers, in.fromMs, in.toMs);
        QSaveFile f(html);
        if (!f.open(QIODevice::WriteOnly) || f.write(timeline::htmlReport(in)) < 0 || !f.commit()) {
            cli::err() << "kernelforge-cli timeline: cannot write " << html << ": " << f.errorString() << '\n';
            return 1;
        }
        cli::err() << "kernelforge-cli timeline: " << in.events.size() << " events of " << query.host << " written to "
                   << html << '\n';
        return 0;
    }
    QTextStream& o = cli::out();
    if (!json && events->isEmpty())
        cli::err() << "kernelforge-cli timeline: nothing recorded for " << query.host << '\n';
    for (const timeline::Event& e : events.value()) {
        if (json)
            o << QString::fromUtf8(QJsonDocument(e.toJson()).toJson(QJsonDocument::Compact)) << '\n';
        else
            o << e.time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) << "  "
              << e.kind.leftJustified(20) << e.summary
              << (e.actor.isEmpty() ? QString() : QStringLiteral("  [%1]").arg(e.actor)) << '\n';
    }
    o.flush();
    return 0;
}

const cli::Registration reg { "timeline",
    "A host's deployment timeline: what KernelForge did and saw there, as text, JSON or an HTML report", &runTimeline };

} // namespace
