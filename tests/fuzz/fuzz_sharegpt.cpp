// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// A ShareGPT-format dataset file (the serving benchmark's --dataset sharegpt): the raw bytes,
// and a document of conversations built from them (turn counts, missing or odd-typed fields,
// long and multi-byte values, nesting), read and turned into a workload.
#include "core/servebench/workload.h"
#include "tests/fuzz/fuzzinput.h"

#include <cstdlib>

namespace {

using kf::fuzz::FuzzInput;

QByteArray text(FuzzInput& in)
{
    switch (in.below(6)) {
    case 0: return "\"\"";
    case 1: return in.number();
    case 2: return "null";
    case 3: return "{\"value\": \"x\"}";
    case 4: return '"' + QByteArray(in.below(3000), 'w').replace("ww", "w ") + '"';
    default: return '"' + in.raw(40).replace('"', '\'').replace('\\', '/').replace('\n', ' ') + " \xc3\xa9\"";
    }
}

QByteArray document(FuzzInput& in)
{
    QByteArray out = "[";
    const int n = in.below(20);
    for (int i = 0; i < n && !in.empty(); ++i) {
        out += i ? ",{" : "{";
        if (in.chance(90)) {
            out += "\"conversations\":";
            if (in.chance(10)) {
                out += text(in);
            } else {
                out += '[';
                const int turns = in.below(5);
                for (int t = 0; t < turns; ++t)
                    out += (t ? ",{" : "{") + in.pick({ "\"from\":\"human\",", "\"from\":\"gpt\",", "" })
                        + "\"value\":" + text(in) + '}';
                out += ']';
            }
        }
        out += '}';
    }
    return out + (in.chance(5) ? "" : "]");
}

void check(const kf::Result<QList<kf::SharePair>>& pairs, FuzzInput& in)
{
    if (!pairs)
        return;
    for (const kf::SharePair& p : pairs.value())
        if (p.prompt.isEmpty() || p.prompt.size() > (1 << 20) || p.promptWords < 0 || p.completionWords < 0)
            std::abort();
    kf::WorkloadSpec spec;
    spec.dataset = kf::Dataset::ShareGpt;
    spec.shareGpt = pairs.value();
    spec.outputTokens = in.chance(50) ? 0 : 1 + in.below(100);
    spec.wordsPerToken = 0.25 + in.below(8) * 0.25;
    spec.uniquePrefix = in.chance(30);
    const auto w = kf::makeWorkload(spec, 1 + in.below(8), 3);
    if (!w)
        return;
    for (const kf::WorkloadRequest& r : w.value())
        if (r.promptTokens < 4 || r.promptTokens > 1024 || r.outputTokens < 4 || r.promptTokens + r.outputTokens > 2048)
            std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    FuzzInput in(data, size);
    check(kf::parseShareGpt(QByteArrayView(reinterpret_cast<const char*>(data), qsizetype(size))), in);
    check(kf::parseShareGpt(document(in)), in);
    return 0;
}
