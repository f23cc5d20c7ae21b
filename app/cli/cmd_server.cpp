// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// kernelforge-cli server status|metrics|bench|launch|stop
#include "app/cli/cli.h"
#include "app/cli/flagtable.h"
#include "app/cli/serverbench.h"
#include "app/cli/serverlaunch.h"
#include "app/cli/sshoptions.h"

#include "core/hosts/destination.h"
#include "core/server/prometheustext.h"
#include "core/server/serverclient.h"
#include "core/server/servermetrics.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

namespace {

using namespace kf;

QJsonObject metricsJson(const ServerMetrics& m)
{
    QJsonObject o;
    o.insert(QStringLiteral("vocabulary"), m.vocabulary);
    o.insert(QStringLiteral("gen_throughput"), jsonValue(m.genThroughput));
    o.insert(QStringLiteral("throughput_from_rate"), m.throughputFromRate);
    o.insert(QStringLiteral("running"), jsonValue(m.running));
    o.insert(QStringLiteral("queued"), jsonValue(m.queued));
    o.insert(QStringLiteral("kv_usage"), jsonValue(m.kvUsage));
    o.insert(QStringLiteral("cache_hit_rate"), jsonValue(m.cacheHitRate));
    // A quantile in the +Inf bucket has no value: <name>_s is null and <name>_above_s holds
    // the largest finite bound it exceeds (null otherwise).
    auto quantile = [&](const char* key, const Quantile& q) {
        o.insert(QLatin1String(key) + QStringLiteral("_s"), jsonValue(q.estimate()));
        o.insert(QLatin1String(key) + QStringLiteral("_above_s"),
            q.above ? jsonValue(q.value) : QJsonValue(QJsonValue::Null));
    };
    quantile("ttft_p50", m.ttftP50);
    quantile("ttft_p95", m.ttftP95);
    quantile("itl_p50", m.itlP50);
    quantile("itl_p95", m.itlP95);
    o.insert(QStringLiteral("generation_tokens_total"), jsonValue(m.generationTokensTotal));
    o.insert(QStringLiteral("prompt_tokens_total"), jsonValue(m.promptTokensTotal));
    o.insert(QStringLiteral("tp_ranks_reporting"), m.tpRanksReporting);
    if (!m.note.isEmpty())
        o.insert(QStringLiteral("note"), m.note);
    return o;
}

QString fmt(double v, int precision, const QString& unit = {})
{
    return hasValue(v) ? QString::number(v, 'f', precision) + unit : QStringLiteral("-");
}

void printMetrics(QTextStream& s, const ServerMetrics& m)
{
    s << "throughput      " << fmt(m.genThroughput, 1, QStringLiteral(" tok/s"))
      << (m.throughputFromRate ? " (rate of generation_tokens_total)" : "") << '\n'
      << "running/queued  " << fmt(m.running, 0) << " / " << fmt(m.queued, 0) << '\n'
      << "KV cache used   " << fmt(m.kvUsage * 100, 1, QStringLiteral("%")) << '\n'
      << "cache hit rate  " << fmt(m.cacheHitRate * 100, 1, QStringLiteral("%")) << '\n'
      << "TTFT p50/p95    " << quantileText(m.ttftP50, 1) << " / " << quantileText(m.ttftP95, 1) << '\n'
      << "ITL p50/p95     " << quantileText(m.itlP50, 2) << " / " << quantileText(m.itlP95, 2) << '\n';
    if (!m.note.isEmpty())
        s << "note: " << m.note << '\n';
}

void usage(QTextStream& s)
{
    s << "Usage:\n"
      << "  kernelforge-cli server status [-p PORT] [-i KEY] [-J JUMP] [--known-hosts FILE] [--accept-new] user@host\n"
      << "                                [--port 30000] [--json]\n"
      << "  kernelforge-cli server status --local [--port 30000] [--json]\n"
      << "  kernelforge-cli server metrics --from-file FILE [--json]\n"
      << "  kernelforge-cli server bench ...  (serving benchmark: 'server bench --help')\n"
      << "  kernelforge-cli server launch ... (start a server detached: 'server launch --help')\n"
      << "  kernelforge-cli server stop ...   (stop a server KernelForge started: 'server stop --help')\n\n"
      << "status asks an SGLang (or vLLM) server on the host's loopback for /health, /server_info\n"
      << "(or /get_server_info), /model_info and /metrics; exit status 0 healthy, 3 starting or\n"
      << "unhealthy, 1 unreachable. metrics derives throughput, queue, KV-cache use, hit rate and\n"
      << "TTFT / inter-token latency p50/p95 from a saved /metrics page. A quantile above the\n"
      << "largest finite histogram bucket is shown as \"> 30 s\"; in --json its *_s value is null\n"
      << "and *_above_s holds that bound.\n"
      << "Connection failures exit with 255, like ssh.\n";
    s.flush();
}

int status(QStringList args)
{
    if (args.contains(QStringLiteral("--help")) || args.contains(QStringLiteral("-h"))) {
        usage(cli::out());
        return 0;
    }
    const QString me = QStringLiteral("server status");
    bool json = false;
    quint16 port = 30000;
    cli::FlagTable flags;
    flags.add("--json", &json).add("--port", [&port](const QString& v) -> Result<void> {
        const auto p = parsePort(v);
        if (!p)
            return Result<void>::failure(QStringLiteral("bad --port: %1").arg(v));
        port = *p;
        return {};
    });
    if (const auto taken = flags.take(args); !taken)
        return cli::usageError(me, taken.error());
    // Remote unless --local: the shared ssh options and the user@host destination, taken after
    // the flags above so that a flag's value is never read as the destination.
    const auto target = cli::takeTargetOptions(args);
    if (!target)
        return cli::usageError(me, target.error(), usage);
    if (!args.isEmpty())
        return cli::usageError(me, QStringLiteral("unknown option ") + args.first());
    auto opened = cli::openTarget(*target);
    if (!opened)
        return cli::connectionError(me, opened.error());
    const std::shared_ptr<Transport> transport = opened->transport;
    const QString host = opened->label;
    // The server listens on the host's loopback; over SSH this is a direct-tcpip tunnel.
    const ServerStatus s = pollServer(*transport, port);
    if (json) {
        QJsonObject o;
        o.insert(QStringLiteral("host"), host);
        o.insert(QStringLiteral("port"), port);
        o.insert(QStringLiteral("reachable"), s.reachable);
        o.insert(QStringLiteral("health"), s.healthStatus);
        o.insert(QStringLiteral("healthy"), s.healthy());
        if (!s.error.isEmpty())
            o.insert(QStringLiteral("error"), s.error);
        o.insert(QStringLiteral("model_path"), s.modelPath);
        o.insert(QStringLiteral("tp_size"), s.tpSize);
        o.insert(QStringLiteral("server_info_endpoint"), s.infoEndpoint);
        o.insert(QStringLiteral("has_metrics"), s.hasMetrics);
        o.insert(QStringLiteral("metrics"), metricsJson(s.metrics));
        cli::out() << QJsonDocument(o).toJson(QJsonDocument::Compact) << '\n';
    } else if (!s.reachable) {
        cli::out() << host << ':' << port << ": not reachable: " << s.error << '\n';
    } else {
        cli::out() << host << ':' << port << ": " << (s.healthy() ? "healthy" : "not ready") << " (HTTP "
                   << s.healthStatus << ")\n";
        if (!s.modelPath.isEmpty())
            cli::out() << "model           " << s.modelPath
                       << (s.tpSize ? QStringLiteral(" (tp %1)").arg(s.tpSize) : QString()) << '\n';
        printMetrics(cli::out(), s.metrics);
    }
    if (!s.reachable)
        return 1;
    return s.healthy() ? 0 : 3;
}

int metrics(QStringList args)
{
    if (args.contains(QStringLiteral("--help")) || args.contains(QStringLiteral("-h"))) {
        usage(cli::out());
        return 0;
    }
    const QString me = QStringLiteral("server metrics");
    bool json = false;
    QString file;
    cli::FlagTable flags;
    flags.add("--json", &json).add("--from-file", &file);
    if (const auto taken = flags.takeAll(args); !taken)
        return cli::usageError(me, taken.error());
    if (file.isEmpty())
        return cli::usageError(me, QStringLiteral("--from-file FILE is required"));
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) {
        cli::err() << "server metrics: cannot read " << file << ": " << f.errorString() << '\n';
        return 1;
    }
    const PromText text = parsePrometheusText(f.readAll());
    const ServerMetrics m = deriveServerMetrics(text);
    if (json) {
        QJsonObject o = metricsJson(m);
        o.insert(QStringLiteral("samples"), int(text.samples.size()));
        o.insert(QStringLiteral("bad_lines"), text.badLines);
        cli::out() << QJsonDocument(o).toJson(QJsonDocument::Compact) << '\n';
    } else {
        printMetrics(cli::out(), m);
    }
    cli::reportSkippedLines(QStringLiteral("server metrics"), text.badLines, text.errors);
    return m.vocabulary.isEmpty() ? 1 : 0;
}

int runServer(const QStringList& argsIn)
{
    QStringList args = argsIn;
    if (args.isEmpty() || args.first() == QLatin1String("--help") || args.first() == QLatin1String("-h")) {
        usage(args.isEmpty() ? cli::err() : cli::out());
        return args.isEmpty() ? 2 : 0;
    }
    const QString sub = args.takeFirst();
    if (sub == QLatin1String("status"))
        return status(args);
    if (sub == QLatin1String("metrics"))
        return metrics(args);
    if (sub == QLatin1String("bench"))
        return cli::runServerBench(args);
    if (sub == QLatin1String("launch"))
        return cli::runServerLaunch(args);
    if (sub == QLatin1String("stop"))
        return cli::runServerStop(args);
    cli::err() << "server: unknown subcommand " << sub << '\n';
    usage(cli::err());
    return 2;
}

const kf::cli::Registration reg { "server",
    "Check an SGLang server's health and metrics; benchmark it; launch and stop it", &runServer };

} // namespace
