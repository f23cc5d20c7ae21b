// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/servebench/referenceresults.h"
#include "tests/fuzz/yamlgen.h"

namespace {

using kf::fuzz::YamlField;
using F = YamlField;

// The benchmark reference table (core/servebench/referenceresults.cpp).
const std::vector<YamlField> kTable { { "results", F::Maps,
    { { "model", F::Text }, { "gpu", F::Text }, { "gpus", F::Int }, { "precision", F::Text }, { "server", F::Text },
        { "input_len", F::Int }, { "output_len", F::Int }, { "concurrency", F::Int }, { "tok_s", F::Text },
        { "throughput", F::Text }, { "source", F::Text }, { "note", F::Text } } } };

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QString file = QStringLiteral("reference.yaml");
    (void)kf::parseReferenceTable(QByteArray(reinterpret_cast<const char*>(data), qsizetype(size)), file);
    kf::fuzz::FuzzInput in(data, size);
    (void)kf::parseReferenceTable(kf::fuzz::YamlGen(in).document(kTable), file);
    return 0;
}
