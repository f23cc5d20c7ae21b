// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/deploy/deployrecipe.h"
#include "tests/fuzz/yamlgen.h"

#include <cstdlib>

namespace {

using kf::fuzz::YamlField;
using F = YamlField;

// A deployment recipe's keys (core/deploy/deployrecipe.cpp), every section and list.
const std::vector<YamlField> kRecipe { { "kernelforge_recipe", F::Int }, { "name", F::Text },
    { "source", F::Map, { { "host", F::Text }, { "exported", F::Text } } },
    { "facts", F::Maps, { { "name", F::Text }, { "version", F::Text }, { "rule", F::Text } } },
    { "patches", F::Map,
        { { "set", F::Text }, { "root", F::Text },
            { "decisions", F::Maps,
                { { "patch", F::Text }, { "file", F::Text }, { "accepted", F::Bool },
                    { "rejected_hunks", F::Maps, { { "hunk", F::Int }, { "id", F::Text } } } } } } },
    { "build", F::Map,
        { { "name", F::Text }, { "working_dir", F::Text }, { "command", F::Text }, { "cmake_args", F::Texts },
            { "max_jobs", F::Int }, { "nvcc_threads", F::Int }, { "nvcc_threads_define", F::Text },
            { "build_dir", F::Text }, { "kernel_tree", F::Bool }, { "ccache", F::Bool }, { "memory_gate", F::Bool },
            { "env", F::Texts } } },
    { "verify", F::Map,
        { { "import", F::Text }, { "fa3", F::Text },
            { "libraries", F::Maps, { { "name", F::Text }, { "targets", F::Texts } } } } },
    { "server", F::Map,
        { { "name", F::Text }, { "python", F::Text }, { "model_path", F::Text }, { "tp", F::Int }, { "port", F::Int },
            { "enable_metrics", F::Bool }, { "extra_args", F::Texts }, { "demo", F::Bool } } } };

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QString file = QStringLiteral("fuzz.yaml");
    (void)kf::deploy::parseDeployRecipe(QByteArray(reinterpret_cast<const char*>(data), qsizetype(size)), file);
    kf::fuzz::FuzzInput in(data, size);
    if (const auto r = kf::deploy::parseDeployRecipe(kf::fuzz::YamlGen(in).document(kRecipe), file))
        if (!kf::deploy::parseDeployRecipe(kf::deploy::serializeDeployRecipe(*r), file))
            abort(); // what was read is written back and reads again
    return 0;
}
