// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/fleet/fleethost.h"
#include "core/fleet/promclient.h"
#include "tests/fuzz/fuzzinput.h"

#include <cstdlib>

namespace {

using kf::fuzz::FuzzInput;
using namespace kf::fleet;

// Every host is whole: one Xid slot per GPU, and a stale host raises nothing.
void check(const FleetSnapshot& s)
{
    for (const FleetHost& h : s.hosts) {
        if (h.gpus.size() != h.xid.size() || (h.stale && !h.alerts.isEmpty()) || h.key.isNull())
            std::abort();
        (void)h.meanUtil();
        (void)h.throttling();
    }
    (void)arrangeFleet(s.hosts, QStringLiteral("job"), FleetSort::Hottest, FleetFilter::All, kf::AlertRules());
}

QByteArray label(FuzzInput& in)
{
    return in.pick(
        { "__name__", "instance", "gpu", "UUID", "uuid", "modelName", "Hostname", "nodename", "job", "tp_rank" });
}

QByteArray value(FuzzInput& in)
{
    switch (in.below(5)) {
    case 0:
        return in.pick({ "DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_FB_FREE", "DCGM_FI_DEV_XID_ERRORS",
            "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", "nvidia_smi_memory_used_bytes", "node_uname_info",
            "sglang:gen_throughput", "up" });
    case 1: return in.pick({ "10.0.0.1:9400", "10.0.0.1:9100", "[fe80::1]:9400", "gpu1", "10.0.0.2:9400", ":", "" });
    case 2: return in.number();
    default: return in.raw(8).replace('"', '\'').replace('\\', '/');
    }
}

// A query answer: vector or matrix of series with labels from the fleet's vocabulary.
QByteArray answer(FuzzInput& in)
{
    const bool matrix = in.chance(30);
    QByteArray out = R"({"status":")" + in.pick({ "success", "success", "error" }) + R"(","data":{"resultType":")"
        + (matrix ? QByteArray("matrix") : in.pick({ "vector", "vector", "scalar" })) + R"(","result":[)";
    const int n = in.below(12);
    for (int i = 0; i < n && !in.empty(); ++i) {
        out += i ? ",{\"metric\":{" : "{\"metric\":{";
        const int labels = in.below(6);
        for (int l = 0; l < labels; ++l)
            out += (l ? ",\"" : "\"") + label(in) + "\":\"" + value(in) + '"';
        out += "},";
        auto pair = [&]() -> QByteArray { return '[' + in.number() + ".5,\"" + in.real() + "\"]"; };
        if (matrix) {
            out += "\"values\":[";
            const int p = in.below(5);
            for (int k = 0; k < p; ++k)
                out += (k ? "," : "") + pair();
            out += "]}";
        } else {
            out += "\"value\":" + pair() + '}';
        }
    }
    return out + "]}}";
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArrayView raw(reinterpret_cast<const char*>(data), qsizetype(size));
    (void)parseQueryResponse(raw);
    (void)parseTargetsResponse(raw);
    (void)parseSeriesResponse(raw);
    (void)parseDurationSeconds(QString::fromUtf8(raw.first(qMin(raw.size(), qsizetype(64)))));
    FuzzInput in(data, size);
    QHash<QString, PromQueryResult> answers;
    for (const FleetQuery& q : fleetQueries()) {
        const auto r = parseQueryResponse(answer(in));
        if (r)
            answers.insert(q.family, r.value());
    }
    AssembleOptions o;
    o.nowMs = 1700000000000;
    const FleetSnapshot first = assembleFleet(answers, o);
    check(first);
    o.previous = &first.hosts;
    answers.remove(QStringLiteral("gpu"));
    check(assembleFleet(answers, o));
    return 0;
}
