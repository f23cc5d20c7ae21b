// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// kernelforge-cli server bench [run|list|show|compare|reference]: the serving benchmark
// (core/servebench). cmd_server.cpp dispatches "server bench" here; it registers nothing itself.
#include "app/cli/serverbench.h"

#include "app/cli/cli.h"
#include "app/cli/flagtable.h"
#include "app/cli/sshoptions.h"

#include "core/gpu/throttlereasons.h"
#include "core/servebench/benchcompare.h"
#include "core/servebench/benchstore.h"
#include "core/servebench/referenceresults.h"
#include "core/servebench/servebench.h"
#include "core/store/database.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSocketNotifier>

#include <cmath>
#include <csignal>
#include <fcntl.h>
#include <unistd.h>

namespace kf::cli {
namespace {

constexpr int kExitCancelled = 130;
constexpr int kExitSomeFailed = 3;

void usage(QTextStream& s)
{
    s << "Usage:\n"
      << "  kernelforge-cli server bench ([ssh options] user@host | --local) [--port 30000]\n"
      << "        [--api openai|openai-chat|sglang] [--concurrency 1,4,16,64] [--requests N]\n"
      << "        [--input-len 1024] [--output-len 128] [--request-rate R] [--burstiness B]\n"
      << "        [--rates R1,R2,... [--max-concurrency N]]\n"
      << "        [--ramp-up linear|exponential --ramp-up-start-rps A --ramp-up-end-rps E]\n"
      << "        [--dataset random|sharegpt|shared-prefix] [--dataset-path FILE]\n"
      << "        [--random-range-ratio R --range-ratio-meaning sglang|vllm] [--unique-prefix]\n"
      << "        [--prefix-groups G] [--prompts-per-group P] [--prefix-len L] [--question-len L]\n"
      << "        [--goodput 'ttft:MS tpot:MS e2el:MS'] [--goodput-target PERCENT]\n"
      << "        [--search concurrency|rate [--search-max N]] [--stop-on-saturation]\n"
      << "        [--model NAME] [--precision P] [--seed N] [--request-timeout SECONDS] [--no-warmup]\n"
      << "        [--no-store] [--json]\n"
      << "  kernelforge-cli server bench --replay RUN ([ssh options] user@host | --local) [--port P]\n"
      << "        [--no-store] [--json]\n"
      << "  kernelforge-cli server bench list [--host HOST] [--limit N] [--json]\n"
      << "  kernelforge-cli server bench show RUN [--json]\n"
      << "  kernelforge-cli server bench compare RUN1 RUN2 [--json]\n"
      << "  kernelforge-cli server bench reference [--edit] [--json]\n\n"
      << "Sends streaming requests (--input-len tokens in, --output-len tokens out, ignore_eos) to\n"
      << "the inference server on the host's loopback through the SSH connection, one level per\n"
      << "concurrency (or per --rates request rate), and measures on this machine, as SGLang's\n"
      << "bench_serving and vLLM's bench serve do: TTFT, TPOT, inter-token latency and end-to-end\n"
      << "latency (mean, p50, p90, p99), request, output and total token throughput, failures with\n"
      << "their reasons; with --goodput the requests meeting every SLO (vLLM's definition). Each level\n"
      << "also gets a steady-state window (no ramp, no drain), saturation checks (achieved vs offered\n"
      << "rate, the server's queue, TTFT rising), the server's own generation_tokens_total against\n"
      << "what was streamed, GPU energy per output token, throughput per GPU and per user. GPU power,\n"
      << "clocks and throttle reasons and the server's /metrics are sampled meanwhile; the run is\n"
      << "stored with its context (server arguments, build, verification, driver, KernelForge).\n"
      << "--request-rate / --rates: arrivals per second, gamma-distributed gaps of --burstiness\n"
      << "(1: Poisson; vLLM's meaning); default all at once (closed loop up to the concurrency).\n"
      << "--random-range-ratio needs --range-ratio-meaning: sglang draws from [L x R, L], vllm from\n"
      << "[L x (1 - R), L x (1 + R)]. --unique-prefix: no prompt shares a prefix with another (a 0 %\n"
      << "cache-hit baseline); shared-prefix: groups of prompts sharing a system prompt (cache hits).\n"
      << "--search: the highest concurrency or rate whose level keeps --goodput-target % (default 90)\n"
      << "of its requests within the SLOs. --replay RUN: RUN's workload against this target.\n"
      << "Ctrl-C cancels: every request is closed (the server aborts it) and the levels done so far are\n"
      << "stored. reference: published results shown next to yours when the workload matches; --edit\n"
      << "makes your own editable copy.\n"
      << "Exit status: 0 done, 3 done with failed requests, 1 the run failed, 130 cancelled,\n"
      << "255 connection failures, 2 usage.\n";
    s.flush();
}

QString ms(double seconds, int precision = 1)
{
    return std::isfinite(seconds) ? QString::number(seconds * 1000.0, 'f', precision) : QStringLiteral("-");
}

QString num(double v, int precision = 1)
{
    return std::isfinite(v) ? QString::number(v, 'f', precision) : QStringLiteral("-");
}

// The lines KernelForge adds below the bench_serving table, one block per level.
void printAnalysis(QTextStream& s, const BenchRun& run, const LevelResult& l)
{
    const LevelAnalysis& a = l.analysis;
    const LevelStats& st = l.stats;
    const int gpus = run.facts.gpuCount;
    s << levelLabel(l.plan()) << ":\n";
    if (run.params.slo.any())
        s << "  goodput      " << num(a.goodput.requestGoodput, 2) << " req/s, " << num(a.goodput.outputGoodput)
          << " output tok/s, " << num(a.goodput.totalGoodput) << " total tok/s: " << a.goodput.good << " of "
          << a.goodput.requests << " requests (" << num(a.goodput.fraction * 100, 1) << " %) met "
          << sloText(run.params.slo) << '\n';
    s << "  per GPU      " << num(perGpu(st.outputThroughput, gpus)) << " output, "
      << num(perGpu(st.totalThroughput, gpus)) << " total tok/s ("
      << (gpus > 0 ? QString::number(gpus) : QStringLiteral("?")) << " GPUs); per user " << num(perUserOutput(st))
      << " output tok/s (1 / TPOT p50)\n";
    if (a.steady.valid())
        s << "  steady       " << num(a.steady.startS, 1) << "-" << num(a.steady.endS, 1) << " s, " << a.steady.requests
          << " requests sent: " << num(a.steady.outputThroughput) << " output tok/s, "
          << num(a.steady.requestThroughput, 2) << " req/s, TTFT p50/p99 " << ms(a.steady.ttft.p50) << '/'
          << ms(a.steady.ttft.p99) << " ms\n";
    else
        s << "  steady       " << a.steady.note << '\n';
    s << "  saturation   "
      << (a.saturation.saturated() ? QStringLiteral("SATURATED: ") + a.saturation.summary() : QStringLiteral("no"))
      << '\n';
    for (const SaturationCheck& c : a.saturation.checks)
        if (!c.fired)
            s << "               " << c.key << ": " << c.detail << '\n';
    s << "  server       " << a.agreement.detail << '\n';
    if (a.otherRunning > 0 || a.otherQueued > 0)
        s << "  OTHER LOAD   " << num(a.otherRunning, 0) << " requests running and " << num(a.otherQueued, 0)
          << " waiting on the server just before this level\n";
    if (hasValue(a.cacheHitRate))
        s << "  prefix cache " << num(a.cacheHitRate * 100, 1) << " % of prompt tokens hit (/metrics)\n";
    if (hasValue(a.energy.joules))
        s << "  energy       " << num(a.energy.joules, 0) << " J, " << num(a.energy.joulesPerOutputToken, 3)
          << " J per output token (mean " << num(a.energy.meanPowerW, 0) << " W over " << a.energy.gpus << " GPUs, "
          << a.energy.samples << " samples)\n";
    if (hasValue(a.gpu.smClockMeanMhz) || a.gpu.hasReasons)
        s << "  GPU clocks   SM " << num(a.gpu.smClockMeanMhz, 0) << " MHz (min " << num(a.gpu.smClockMinMhz, 0)
          << "), memory " << num(a.gpu.memClockMeanMhz, 0) << " MHz; throttle reasons: "
          << (a.gpu.hasReasons && a.gpu.reasons ? reasonPhrases(a.gpu.reasons).join(QStringLiteral(", "))
                                                : QStringLiteral("none"))
          << '\n';
}

void printRun(QTextStream& s, const BenchRun& run, const ReferenceTable* refs)
{
    s << "serving benchmark" << (run.id ? QStringLiteral(" run %1").arg(run.id) : QString()) << " on " << run.host
      << " port " << run.params.serverPort << ": " << run.status
      << (run.error.isEmpty() ? QString() : QStringLiteral(": ") + run.error) << '\n'
      << "server    " << serverSummary(run.facts) << '\n'
      << "workload  " << workloadSummary(run) << '\n';
    if (run.params.replayOf)
        s << "replay    of run " << run.params.replayOf << '\n';
    for (const QString& line : contextLines(run.context))
        s << "context   " << line << '\n';
    if (!run.note.isEmpty())
        s << "note      " << run.note << '\n';
    if (run.levels.isEmpty())
        return;
    bool inEstimated = false;
    bool outEstimated = false;
    s << "  level           reqs    ok  fail   req/s  out tok/s  tot tok/s   TTFT ms p50/p90/p99   TPOT ms p50/p99"
         "   ITL ms p50/p99   E2E s p50/p99  GPU util  power W  SM/tensor/DRAM\n";
    for (const LevelResult& l : run.levels) {
        const LevelStats& st = l.stats;
        const LevelSideData side = levelSideData(run, l);
        inEstimated = inEstimated || st.inputTokensEstimated;
        outEstimated = outEstimated || st.outputTokensEstimated;
        s << "  " << levelLabel(l.plan()).leftJustified(14) << QString::number(st.requests).rightJustified(6)
          << QString::number(st.completed).rightJustified(6) << QString::number(st.failed).rightJustified(6)
          << num(st.requestThroughput, 2).rightJustified(8) << num(st.outputThroughput).rightJustified(11)
          << num(st.totalThroughput).rightJustified(11)
          << QStringLiteral("%1/%2/%3").arg(ms(st.ttft.p50), ms(st.ttft.p90), ms(st.ttft.p99)).rightJustified(22)
          << QStringLiteral("%1/%2").arg(ms(st.tpot.p50, 2), ms(st.tpot.p99, 2)).rightJustified(18)
          << QStringLiteral("%1/%2").arg(ms(st.itl.p50, 2), ms(st.itl.p99, 2)).rightJustified(17)
          << QStringLiteral("%1/%2").arg(num(st.e2e.p50, 2), num(st.e2e.p99, 2)).rightJustified(16)
          << (std::isfinite(side.gpuUtilPercent) ? num(side.gpuUtilPercent, 0) + QLatin1Char('%') : QStringLiteral("-"))
                 .rightJustified(10)
          << num(side.gpuPowerW, 0).rightJustified(9)
          << (std::isfinite(side.smActivePercent)
                     ? QStringLiteral("%1/%2/%3%")
                           .arg(num(side.smActivePercent, 0), num(side.tensorActivePercent, 0),
                               num(side.dramActivePercent, 0))
                     : QStringLiteral("-"))
                 .rightJustified(16)
          << (l.cancelled ? "  (cancelled)" : "") << '\n';
    }
    for (const LevelResult& l : run.levels) {
        if (l.stats.failureReasons.isEmpty())
            continue;
        QStringList reasons;
        for (auto it = l.stats.failureReasons.cbegin(); it != l.stats.failureReasons.cend(); ++it)
            reasons << QStringLiteral("%1 (%2)").arg(it.key()).arg(it.value());
        s << "failed at " << levelLabel(l.plan()) << ": " << reasons.join(QStringLiteral("; ")) << '\n';
    }
    s << "tokens    "
      << (inEstimated || outEstimated
                 ? QStringLiteral("%1 counted by the server; %2 estimated (the server reported no usage: prompts as "
                                  "their word count, output as text events)")
                       .arg(inEstimated ? (outEstimated ? QStringLiteral("none") : QStringLiteral("output"))
                                        : QStringLiteral("input"),
                           inEstimated && outEstimated ? QStringLiteral("input and output")
                               : inEstimated           ? QStringLiteral("input")
                                                       : QStringLiteral("output"))
                 : QStringLiteral("counted by the server (usage / meta_info)"))
      << '\n';
    if (run.gpu.isEmpty())
        s << "GPUs      no samples" << (run.gpuNote.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(run.gpuNote))
          << '\n';
    else if (!run.gpmNote.isEmpty())
        s << "GPM       none in the samples: " << run.gpmNote << '\n';
    for (const LevelResult& l : run.levels)
        printAnalysis(s, run, l);
    if (refs) {
        for (const LevelResult& l : run.levels) {
            for (const ReferenceMatch& m : matchReferences(*refs, run, l.stats)) {
                const ReferenceResult& r = m.reference;
                s << "reference at concurrency " << l.concurrency << ": " << r.model << ", " << r.gpus << " x " << r.gpu
                  << ", " << r.precision << ", " << r.server << ": " << num(r.tokensPerS) << ' '
                  << (r.totalThroughput ? "total" : "output") << " tok/s (" << num(r.tokensPerSPerGpu())
                  << " per GPU); yours " << num(m.ours) << " (" << num(m.oursPerGpu) << " per GPU), x"
                  << num(m.ratio, 2) << "\n    source: " << r.source << '\n';
            }
        }
    }
}

QJsonObject runJson(const BenchRun& run, const ReferenceTable* refs, bool withRequests = false)
{
    QJsonArray levels;
    for (const LevelResult& l : run.levels) {
        QJsonObject o = toJson(l.stats);
        const LevelSideData side = levelSideData(run, l);
        o.insert(QStringLiteral("label"), levelLabel(l.plan()));
        o.insert(QStringLiteral("max_concurrency"), l.concurrency);
        o.insert(QStringLiteral("offered_rate"), l.requestRate);
        o.insert(QStringLiteral("started"),
            QDateTime::fromMSecsSinceEpoch(l.startedMs, Qt::UTC).toString(Qt::ISODateWithMs));
        o.insert(QStringLiteral("cancelled"), l.cancelled);
        o.insert(QStringLiteral("not_sent"), l.notSent);
        o.insert(QStringLiteral("gpu_util_percent"), jsonValue(side.gpuUtilPercent));
        o.insert(QStringLiteral("gpu_power_w"), jsonValue(side.gpuPowerW));
        o.insert(QStringLiteral("gpm_sm_active_percent"), jsonValue(side.smActivePercent));
        o.insert(QStringLiteral("gpm_tensor_active_percent"), jsonValue(side.tensorActivePercent));
        o.insert(QStringLiteral("gpm_dram_active_percent"), jsonValue(side.dramActivePercent));
        o.insert(QStringLiteral("server_running_mean"), jsonValue(side.serverRunning));
        o.insert(QStringLiteral("output_throughput_per_gpu"),
            jsonValue(perGpu(l.stats.outputThroughput, run.facts.gpuCount)));
        o.insert(
            QStringLiteral("total_throughput_per_gpu"), jsonValue(perGpu(l.stats.totalThroughput, run.facts.gpuCount)));
        o.insert(QStringLiteral("output_throughput_per_user"), jsonValue(perUserOutput(l.stats)));
        o.insert(QStringLiteral("analysis"), toJson(l.analysis));
        o.insert(QStringLiteral("metrics_before"), toJson(l.before));
        o.insert(QStringLiteral("metrics_after"), toJson(l.after));
        if (refs) {
            QJsonArray matches;
            for (const ReferenceMatch& m : matchReferences(*refs, run, l.stats))
                matches.append(QJsonObject { { QStringLiteral("model"), m.reference.model },
                    { QStringLiteral("gpu"), m.reference.gpu }, { QStringLiteral("gpus"), m.reference.gpus },
                    { QStringLiteral("precision"), m.reference.precision },
                    { QStringLiteral("server"), m.reference.server },
                    { QStringLiteral("throughput"),
                        m.reference.totalThroughput ? QStringLiteral("total") : QStringLiteral("output") },
                    { QStringLiteral("tok_s"), m.reference.tokensPerS },
                    { QStringLiteral("tok_s_per_gpu"), m.reference.tokensPerSPerGpu() },
                    { QStringLiteral("ours_tok_s"), m.ours }, { QStringLiteral("ours_tok_s_per_gpu"), m.oursPerGpu },
                    { QStringLiteral("ratio"), m.ratio }, { QStringLiteral("source"), m.reference.source } });
            o.insert(QStringLiteral("references"), matches);
        }
        if (withRequests) {
            QJsonArray reqs;
            for (const RequestSample& r : l.samples)
                reqs.append(QJsonObject { { QStringLiteral("ok"), r.ok }, { QStringLiteral("error"), r.error },
                    { QStringLiteral("start_s"), r.start }, { QStringLiteral("scheduled_s"), r.scheduled },
                    { QStringLiteral("ttft_s"), jsonValue(r.ok ? r.ttft : NAN) },
                    { QStringLiteral("e2e_s"), jsonValue(r.latency) },
                    { QStringLiteral("tpot_s"), jsonValue(r.ok && r.tpot() >= 0 ? r.tpot() : NAN) },
                    { QStringLiteral("prompt_tokens"), r.promptTokens },
                    { QStringLiteral("output_tokens"), r.outputTokens },
                    { QStringLiteral("tokens_reported"), r.outputTokensReported && r.promptTokensReported },
                    { QStringLiteral("meets_slo"),
                        run.params.slo.any() ? QJsonValue(meetsSlo(r, run.params.slo)) : QJsonValue() },
                    { QStringLiteral("itl_count"), int(r.itl.size()) } });
            o.insert(QStringLiteral("requests_detail"), reqs);
        }
        levels.append(o);
    }
    return QJsonObject { { QStringLiteral("id"), run.id }, { QStringLiteral("host"), run.host },
        { QStringLiteral("status"), run.status }, { QStringLiteral("error"), run.error },
        { QStringLiteral("note"), run.note }, { QStringLiteral("started"), run.started.toString(Qt::ISODateWithMs) },
        { QStringLiteral("ended"), run.ended.toString(Qt::ISODateWithMs) },
        { QStringLiteral("params"), toJson(run.params) }, { QStringLiteral("server"), toJson(run.facts) },
        { QStringLiteral("context"), toJson(run.context) }, { QStringLiteral("prompt_words"), run.promptWords },
        { QStringLiteral("prompt_calibrated"), run.promptCalibrated }, { QStringLiteral("levels"), levels },
        { QStringLiteral("gpu_samples"), int(run.gpu.size()) }, { QStringLiteral("gpu_note"), run.gpuNote },
        { QStringLiteral("gpm_note"), run.gpmNote }, { QStringLiteral("metrics_samples"), int(run.metrics.size()) },
        { QStringLiteral("save_error"), run.saveError } };
}

int fd[2] = { -1, -1 };
void onSignal(int)
{
    const char c = 1;
    (void)::write(fd[1], &c, 1);
}

const QString kMe = QStringLiteral("server bench");

// A number from the command line: finite, >= minimum.
std::function<Result<void>(const QString&)> realFlag(const char* name, double* value, double minimum, const char* what)
{
    return [flag = QString::fromLatin1(name), value, minimum, what](const QString& v) {
        bool ok = false;
        const double d = v.toDouble(&ok);
        if (!ok || !std::isfinite(d) || d < minimum)
            return Result<void>::failure(QStringLiteral("%1 needs %2: %3").arg(flag, QString::fromLatin1(what), v));
        *value = d;
        return Result<void>();
    };
}

int runBench(QStringList args)
{
    if (args.contains(QStringLiteral("--help")) || args.contains(QStringLiteral("-h"))) {
        usage(out());
        return 0;
    }
    BenchParams p;
    bool json = false;
    bool noStore = false;
    bool noWarmup = false;
    int port = 0;
    int seed = -1;
    qint64 replay = 0;
    QString rangeMeaning;
    double goodputTarget = noValue();
    bool outputGiven = false;
    FlagTable common;
    common.add("--json", &json)
        .add("--no-store", &noStore)
        .add("--port", &port, 1, 65535, "a port from 1 to 65535")
        .add("--replay", &replay, 1, "a run id (see 'server bench list')");
    // Our own options first, so their values are never taken for the destination.
    FlagTable flags;
    flags.add("--no-warmup", &noWarmup)
        .add("--api", &p.api, &serveApiFromName, "openai, openai-chat, sglang")
        .add("--concurrency",
            [&](const QString& v) -> Result<void> {
                const auto levels = parseConcurrencies(v);
                if (!levels)
                    return Result<void>::failure(QStringLiteral("--concurrency: ") + levels.error());
                p.concurrencies = levels.value();
                return {};
            })
        .add("--rates",
            [&](const QString& v) -> Result<void> {
                const auto rates = parseRates(v);
                if (!rates)
                    return Result<void>::failure(QStringLiteral("--rates: ") + rates.error());
                p.rates = rates.value();
                return {};
            })
        .add("--max-concurrency", &p.maxConcurrency, 1, 100000, "a whole number from 1 to 100000")
        .add("--requests", &p.requests, 1, 10000000, "a whole number from 1 to 10000000")
        .add("--input-len", &p.inputTokens, 1, 10000000, "a whole number from 1 to 10000000")
        .add("--output-len",
            [&](const QString& v) {
                bool ok = false;
                p.outputTokens = v.toInt(&ok);
                outputGiven = true;
                if (!ok || p.outputTokens < 1 || p.outputTokens > 10000000)
                    return Result<void>::failure(
                        QStringLiteral("--output-len needs a whole number from 1 to 10000000: %1").arg(v));
                return Result<void>();
            })
        .add("--seed", &seed, 0, "a whole number >= 0")
        .add("--request-timeout", &p.requestTimeoutS, 1, 86400, "seconds from 1 to 86400")
        .add("--request-rate", realFlag("--request-rate", &p.requestRate, 0, "requests per second (0: all at once)"))
        .add("--burstiness",
            [&](const QString& v) {
                if (v == QLatin1String("inf")) {
                    p.burstiness = std::numeric_limits<double>::infinity();
                    return Result<void>();
                }
                bool ok = false;
                p.burstiness = v.toDouble(&ok);
                if (!ok || !(p.burstiness > 0) || !std::isfinite(p.burstiness))
                    return Result<void>::failure(
                        QStringLiteral("--burstiness needs a number > 0 (1: Poisson) or inf: %1").arg(v));
                return Result<void>();
            })
        .add("--ramp-up", &p.rampUp, &rampUpFromName, "linear, exponential")
        .add("--ramp-up-start-rps", realFlag("--ramp-up-start-rps", &p.rampStartRps, 0, "requests per second"))
        .add("--ramp-up-end-rps", realFlag("--ramp-up-end-rps", &p.rampEndRps, 0, "requests per second"))
        .add("--dataset", &p.dataset, &datasetFromName, "random, sharegpt, shared-prefix")
        .addPath("--dataset-path", &p.datasetPath)
        .add("--random-range-ratio", realFlag("--random-range-ratio", &p.rangeRatio, 0, "a ratio >= 0"))
        .add("--range-ratio-meaning", &rangeMeaning)
        .add("--prefix-groups", &p.prefixGroups, 1, 100000, "a whole number from 1 to 100000")
        .add("--prompts-per-group", &p.prefixPerGroup, 1, 100000, "a whole number from 1 to 100000")
        .add("--prefix-len", &p.prefixTokens, 1, 10000000, "a whole number from 1 to 10000000")
        .add("--question-len", &p.questionTokens, 1, 10000000, "a whole number from 1 to 10000000")
        .add("--unique-prefix", &p.uniquePrefix)
        .add("--goodput",
            [&](const QString& v) -> Result<void> {
                const auto slo = parseSlo(v);
                if (!slo)
                    return Result<void>::failure(QStringLiteral("--goodput: ") + slo.error());
                p.slo = slo.value();
                return {};
            })
        .add("--goodput-target", realFlag("--goodput-target", &goodputTarget, 0, "a percentage above 0, at most 100"))
        .add("--search", &p.search, &searchKindFromName, "concurrency, rate")
        .add("--search-max", &p.searchMax, 1, 100000, "a whole number from 1 to 100000")
        .add("--stop-on-saturation", &p.stopOnSaturation)
        .add("--model", &p.model)
        .add("--precision", &p.precision);
    if (const auto taken = common.take(args); !taken)
        return usageError(kMe, taken.error());
    if (replay == 0) {
        if (const auto taken = flags.take(args); !taken)
            return usageError(kMe, taken.error());
    }
    const auto targetOptions = takeTargetOptions(args);
    if (!targetOptions)
        return usageError(kMe, targetOptions.error(), usage);
    if (!args.isEmpty())
        return usageError(kMe,
            QStringLiteral("unknown option %1%2")
                .arg(args.first(),
                    replay ? QStringLiteral(" (a replay takes its workload from run %1; give only the target, --port, "
                                            "--json, --no-store)")
                                 .arg(replay)
                           : QString()),
            usage);
    const TargetOptions target = *targetOptions;
    if (replay) {
        auto stored = benchstore::load(replay, false);
        if (!stored) {
            err() << "server bench: " << stored.error() << '\n';
            return 1;
        }
        p = stored->params;
        p.replayOf = replay;
    } else {
        if (seed >= 0)
            p.seed = quint32(seed);
        p.warmup = !noWarmup;
        if (p.rangeRatio >= 0) {
            const auto meaning = rangeMeaningFromName(rangeMeaning);
            if (!meaning)
                return usageError(kMe,
                    QStringLiteral("--random-range-ratio needs --range-ratio-meaning sglang or vllm: the tools read "
                                   "the same ratio differently (sglang [L x R, L], vllm [L x (1 - R), L x (1 + R)])"));
            p.rangeMeaning = *meaning;
        } else if (!rangeMeaning.isEmpty()) {
            return usageError(kMe, QStringLiteral("--range-ratio-meaning goes with --random-range-ratio"));
        }
        if (hasValue(goodputTarget)) {
            if (!(goodputTarget > 0 && goodputTarget <= 100))
                return usageError(kMe, QStringLiteral("--goodput-target needs a percentage above 0, at most 100"));
            p.goodputTarget = goodputTarget / 100.0;
        }
        if (p.dataset == Dataset::ShareGpt && !outputGiven)
            p.outputTokens = 0; // each conversation's reply length
        if (p.dataset == Dataset::SharedPrefix && p.requests > 0)
            return usageError(
                kMe, QStringLiteral("shared-prefix sends groups x prompts per group: --requests does not apply"));
        if (const QString e = p.error(); !e.isEmpty())
            return usageError(kMe, e);
    }
    if (port > 0)
        p.serverPort = quint16(port);
    const bool store = !noStore;
    auto opened = openTarget(target);
    if (!opened) {
        err() << "server bench: " << opened.error() << '\n';
        return kExitConnection;
    }
    ServeBench bench(opened->transport, opened->transport->describe()); // the history's host key
    bench.setStoreResults(store);
    const bool tty = ::isatty(STDERR_FILENO) != 0;
    QObject::connect(&bench, &ServeBench::stateChanged, &bench, [&](ServeBench::State, const QString& what) {
        if (tty)
            terminalControl("\r\033[K");
        err() << "server bench: " << what << '\n' << Qt::flush;
    });
    QObject::connect(&bench, &ServeBench::progress, &bench, [&](int, int done, int total) {
        if (!tty)
            return;
        terminalControl("\r\033[K");
        err() << "  " << done << '/' << total << " requests done" << Qt::flush;
    });
    QObject::connect(&bench, &ServeBench::levelFinished, &bench, [&](int, const LevelResult& l) {
        if (tty)
            terminalControl("\r\033[K");
        err() << "server bench: " << levelLabel(l.plan()) << ": " << l.stats.completed << " ok, " << l.stats.failed
              << " failed, " << num(l.stats.outputThroughput) << " output tok/s in " << num(l.stats.durationS, 1)
              << " s" << (l.analysis.saturation.saturated() ? QStringLiteral(", SATURATED") : QString())
              << (l.analysis.agreement.checked && !l.analysis.agreement.agrees ? QStringLiteral(", server MISMATCH")
                                                                               : QString())
              << '\n'
              << Qt::flush;
    });
    QObject::connect(&bench, &ServeBench::finished, &bench, [](const BenchRun&) { QCoreApplication::exit(0); });
    // Ctrl-C and TERM cancel cleanly: every request is closed before the command ends.
    bool signalled = false;
    if (::pipe2(fd, O_CLOEXEC | O_NONBLOCK) != 0) {
        err() << "server bench: cannot set up signal handling\n";
        return 1;
    }
    QSocketNotifier notifier(fd[0], QSocketNotifier::Read);
    QObject::connect(&notifier, &QSocketNotifier::activated, &bench, [&] {
        char c = 0;
        while (::read(fd[0], &c, 1) == 1) { }
        signalled = true;
        bench.cancel();
    });
    struct sigaction sa
    { };
    sa.sa_handler = onSignal;
    ::sigemptyset(&sa.sa_mask);
    struct sigaction oldInt
    { };
    struct sigaction oldTerm
    { };
    ::sigaction(SIGINT, &sa, &oldInt);
    ::sigaction(SIGTERM, &sa, &oldTerm);
    bench.start(p);
    const int loop = bench.state() == ServeBench::State::Finished ? 0 : QCoreApplication::exec();
    ::sigaction(SIGINT, &oldInt, nullptr);
    ::sigaction(SIGTERM, &oldTerm, nullptr);
    if (connectionGivenUp() || loop == kExitConnection) {
        bench.cancel();
        return kExitConnection;
    }
    const BenchRun& run = bench.run();
    auto refs = loadReferenceTable();
    if (!refs)
        err() << "server bench: " << refs.error() << '\n';
    if (json)
        out() << QJsonDocument(runJson(run, refs ? &refs.value() : nullptr)).toJson(QJsonDocument::Compact) << '\n';
    else
        printRun(out(), run, refs ? &refs.value() : nullptr);
    if (!run.saveError.isEmpty())
        err() << "server bench: the run was not stored: " << run.saveError << '\n';
    else if (run.id && !json)
        out() << "stored as run " << run.id << " in " << store::databasePath() << '\n';
    if (run.status == QLatin1String("cancelled") || signalled)
        return kExitCancelled;
    if (run.status != QLatin1String("completed"))
        return 1;
    for (const LevelResult& l : run.levels)
        if (l.stats.failed > 0)
            return kExitSomeFailed;
    return 0;
}

Result<qint64> runId(const QString& text)
{
    bool ok = false;
    const qint64 id = text.toLongLong(&ok);
    if (!ok || id <= 0)
        return Result<qint64>::failure(QStringLiteral("not a run id: %1 (see 'server bench list')").arg(text));
    return id;
}

int list(QStringList args)
{
    const QString me = kMe + QStringLiteral(" list");
    bool json = false;
    QString host;
    int limit = 50;
    FlagTable flags;
    flags.add("--json", &json)
        .add("--host", &host)
        .add("--limit", &limit, 1, 100000, "a whole number from 1 to 100000");
    if (const auto taken = flags.takeAll(args); !taken)
        return usageError(me, taken.error());
    auto runs = benchstore::list(host, limit);
    if (!runs) {
        err() << "server bench list: " << runs.error() << '\n';
        return 1;
    }
    if (json) {
        QJsonArray arr;
        for (const BenchRun& r : runs.value())
            arr.append(runJson(r, nullptr));
        out() << QJsonDocument(arr).toJson(QJsonDocument::Compact) << '\n';
        return 0;
    }
    out() << "   id  started (UTC)     host              status     api          in/out  concurrency      "
             "best out tok/s  model\n";
    for (const BenchRun& r : runs.value()) {
        QStringList conc;
        double best = noValue();
        for (const LevelResult& l : r.levels) {
            conc << (l.requestRate > 0 ? QString::number(l.requestRate, 'g', 4) + QStringLiteral("/s")
                                       : QString::number(l.concurrency));
            if (std::isfinite(l.stats.outputThroughput) && !(best >= l.stats.outputThroughput))
                best = l.stats.outputThroughput;
        }
        out() << QString::number(r.id).rightJustified(5) << "  "
              << r.started.toString(QStringLiteral("yyyy-MM-dd HH:mm")) << "  " << r.host.left(16).leftJustified(16)
              << "  " << r.status.leftJustified(9) << "  " << serveApiName(r.params.api).leftJustified(11) << "  "
              << QStringLiteral("%1/%2").arg(r.params.inputTokens).arg(r.params.outputTokens).rightJustified(7) << "  "
              << conc.join(u',').leftJustified(15) << "  " << num(best).rightJustified(14) << "  " << r.facts.model
              << '\n';
    }
    return 0;
}

int show(QStringList args)
{
    const QString me = kMe + QStringLiteral(" show");
    bool json = false;
    FlagTable flags;
    flags.add("--json", &json);
    if (const auto taken = flags.take(args); !taken)
        return usageError(me, taken.error());
    if (args.size() > 1 || args.value(0).startsWith(QLatin1Char('-')))
        return usageError(me, QStringLiteral("unknown option ") + args.last());
    const QString idText = args.value(0);
    const auto id = runId(idText);
    if (!id)
        return usageError(me, id.error());
    auto run = benchstore::load(id.value(), true);
    if (!run) {
        err() << "server bench show: " << run.error() << '\n';
        return 1;
    }
    auto refs = loadReferenceTable();
    if (json)
        out()
            << QJsonDocument(runJson(run.value(), refs ? &refs.value() : nullptr, true)).toJson(QJsonDocument::Compact)
            << '\n';
    else
        printRun(out(), run.value(), refs ? &refs.value() : nullptr);
    return 0;
}

int compare(QStringList args)
{
    const QString me = kMe + QStringLiteral(" compare");
    bool json = false;
    FlagTable flags;
    flags.add("--json", &json);
    if (const auto taken = flags.take(args); !taken)
        return usageError(me, taken.error());
    for (const QString& a : std::as_const(args))
        if (a.startsWith(QLatin1Char('-')))
            return usageError(me, QStringLiteral("unknown option ") + a);
    const QStringList ids = args;
    if (ids.size() != 2)
        return usageError(me, QStringLiteral("give two run ids (see 'server bench list')"));
    QList<BenchRun> runs;
    for (const QString& t : ids) {
        const auto id = runId(t);
        if (!id)
            return usageError(me, id.error());
        auto run = benchstore::load(id.value(), false);
        if (!run) {
            err() << "server bench compare: " << run.error() << '\n';
            return 1;
        }
        runs.append(run.value());
    }
    const RunComparison c = compareRuns(runs.at(0), runs.at(1));
    const BenchRun& a = runs.at(0);
    const BenchRun& b = runs.at(1);
    auto inputs = [&](const LevelComparison& l, std::optional<MetricInput>& ia, std::optional<MetricInput>& ib) {
        if (l.a)
            ia.emplace(MetricInput { *l.a, a.facts.gpuCount });
        if (l.b)
            ib.emplace(MetricInput { *l.b, b.facts.gpuCount });
    };
    if (json) {
        QJsonArray levels;
        for (const LevelComparison& l : c.levels) {
            std::optional<MetricInput> ia;
            std::optional<MetricInput> ib;
            inputs(l, ia, ib);
            QJsonObject metrics;
            for (const BenchMetric& m : benchMetrics()) {
                const MetricComparison mc = compareMetric(m, ia ? &*ia : nullptr, ib ? &*ib : nullptr);
                metrics.insert(QLatin1String(m.key),
                    QJsonObject { { QStringLiteral("a"), jsonValue(mc.a) }, { QStringLiteral("b"), jsonValue(mc.b) },
                        { QStringLiteral("change"), jsonValue(mc.change) },
                        { QStringLiteral("same_within"), jsonValue(mc.band) },
                        { QStringLiteral("verdict"), verdictName(mc.verdict) },
                        { QStringLiteral("higher_is_better"), m.higherIsBetter } });
            }
            levels.append(QJsonObject { { QStringLiteral("level"), levelLabel(l.plan) },
                { QStringLiteral("concurrency"), l.plan.concurrency }, { QStringLiteral("rate"), l.plan.rate },
                { QStringLiteral("in_a"), l.a.has_value() }, { QStringLiteral("in_b"), l.b.has_value() },
                { QStringLiteral("metrics"), metrics } });
        }
        out() << QJsonDocument(
            QJsonObject { { QStringLiteral("a"), a.id }, { QStringLiteral("b"), b.id },
                { QStringLiteral("differences"), QJsonArray::fromStringList(c.differences) },
                { QStringLiteral("context_differences"), QJsonArray::fromStringList(c.contextDifferences) },
                { QStringLiteral("levels"), levels } })
                     .toJson(QJsonDocument::Compact)
              << '\n';
        return 0;
    }
    out() << "A: run " << a.id << ", " << a.started.toString(QStringLiteral("yyyy-MM-dd HH:mm")) << " UTC, " << a.host
          << ", " << serverSummary(a.facts) << '\n'
          << "B: run " << b.id << ", " << b.started.toString(QStringLiteral("yyyy-MM-dd HH:mm")) << " UTC, " << b.host
          << ", " << serverSummary(b.facts) << '\n';
    if (c.differences.isEmpty())
        out() << "same workload: " << workloadSummary(a) << '\n';
    else
        out() << "NOT the same workload: " << c.differences.join(QStringLiteral("; ")) << '\n';
    out() << (c.contextDifferences.isEmpty()
            ? QStringLiteral("same context (host, build, driver, server arguments)")
            : QStringLiteral("ran differently: ") + c.contextDifferences.join(QStringLiteral("; ")))
          << '\n';
    for (const LevelComparison& l : c.levels) {
        out() << '\n' << levelLabel(l.plan) << (l.a ? "" : " (only in B)") << (l.b ? "" : " (only in A)") << '\n';
        out() << "  " << QStringLiteral("metric").leftJustified(36) << QStringLiteral("A").rightJustified(12)
              << QStringLiteral("B").rightJustified(12) << "   change\n";
        std::optional<MetricInput> ia;
        std::optional<MetricInput> ib;
        inputs(l, ia, ib);
        for (const BenchMetric& m : benchMetrics()) {
            const MetricComparison mc = compareMetric(m, ia ? &*ia : nullptr, ib ? &*ib : nullptr);
            if (!std::isfinite(mc.a) && !std::isfinite(mc.b))
                continue;
            QString verdict;
            if (mc.verdict == Verdict::Same)
                verdict = QStringLiteral(" (same: within the runs' spread)");
            else if (mc.verdict == Verdict::Better)
                verdict = QStringLiteral(" (B better)");
            else if (mc.verdict == Verdict::Worse)
                verdict = QStringLiteral(" (B worse)");
            const QString label = QString::fromLatin1(m.label)
                + (QByteArrayView(m.unit).isEmpty() ? QString() : QStringLiteral(" ") + QString::fromLatin1(m.unit));
            out() << "  " << label.leftJustified(36) << num(mc.a, 2).rightJustified(12)
                  << num(mc.b, 2).rightJustified(12) << "   "
                  << (std::isfinite(mc.change) ? QStringLiteral("%1%2%")
                                                     .arg(mc.change >= 0 ? QStringLiteral("+") : QString())
                                                     .arg(mc.change * 100, 0, 'f', 1)
                                               : QStringLiteral("-"))
                  << verdict << '\n';
        }
    }
    return 0;
}

int reference(QStringList args)
{
    const QString me = kMe + QStringLiteral(" reference");
    bool json = false;
    bool edit = false;
    FlagTable flags;
    flags.add("--json", &json).add("--edit", &edit);
    if (const auto taken = flags.takeAll(args); !taken)
        return usageError(me, taken.error());
    if (edit) {
        auto path = ensureUserReferenceCopy();
        if (!path) {
            err() << "server bench reference: " << path.error() << '\n';
            return 1;
        }
        out() << path.value() << '\n';
        return 0;
    }
    auto table = loadReferenceTable();
    if (!table) {
        err() << "server bench reference: " << table.error() << '\n';
        return 1;
    }
    if (json) {
        QJsonArray rows;
        for (const ReferenceResult& r : table->rows)
            rows.append(QJsonObject { { QStringLiteral("model"), r.model }, { QStringLiteral("gpu"), r.gpu },
                { QStringLiteral("gpus"), r.gpus }, { QStringLiteral("precision"), r.precision },
                { QStringLiteral("server"), r.server }, { QStringLiteral("input_len"), r.inputLen },
                { QStringLiteral("output_len"), r.outputLen }, { QStringLiteral("concurrency"), r.concurrency },
                { QStringLiteral("throughput"),
                    r.totalThroughput ? QStringLiteral("total") : QStringLiteral("output") },
                { QStringLiteral("tok_s"), r.tokensPerS }, { QStringLiteral("tok_s_per_gpu"), r.tokensPerSPerGpu() },
                { QStringLiteral("source"), r.source }, { QStringLiteral("note"), r.note } });
        out() << QJsonDocument(
            QJsonObject { { QStringLiteral("origin"), table->origin }, { QStringLiteral("results"), rows } })
                     .toJson(QJsonDocument::Compact)
              << '\n';
        return 0;
    }
    out() << "reference results from " << table->origin << "\n"
          << "tok/s: the whole server's aggregate (per GPU: divided by its GPUs), output tokens only unless marked "
             "total\n";
    for (const ReferenceResult& r : table->rows)
        out() << "  " << r.model << ", " << r.gpus << " x " << r.gpu << ", " << r.precision << ", " << r.server
              << ", in/out " << r.inputLen << '/' << r.outputLen << ", concurrency " << r.concurrency << ": "
              << num(r.tokensPerS) << (r.totalThroughput ? " total" : " output") << " tok/s, "
              << num(r.tokensPerSPerGpu()) << " per GPU\n    " << r.source << '\n';
    return 0;
}

} // namespace

int runServerBench(const QStringList& argsIn)
{
    QStringList args = argsIn;
    const QString first = args.value(0);
    if (first == QLatin1String("--help") || first == QLatin1String("-h")) {
        usage(out());
        return 0;
    }
    if (first == QLatin1String("list"))
        return list(args.mid(1));
    if (first == QLatin1String("show"))
        return show(args.mid(1));
    if (first == QLatin1String("compare"))
        return compare(args.mid(1));
    if (first == QLatin1String("reference"))
        return reference(args.mid(1));
    if (first == QLatin1String("run"))
        args.removeFirst();
    return runBench(args);
}

} // namespace kf::cli
