// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/buildprofile.h"
#include "tests/fuzz/yamlgen.h"

#include <cstdlib>

namespace {

using kf::fuzz::YamlField;
using F = YamlField;

// build-profiles.yaml (core/remotebuild/buildprofile.cpp): a list of profiles, env a map.
const std::vector<YamlField> kProfiles { { "profiles", F::Maps,
    { { "name", F::Text }, { "description", F::Text }, { "working_dir", F::Text }, { "command", F::Text },
        { "env", F::Map, { { "CUDA_HOME", F::Text }, { "MAX_JOBS", F::Int }, { "bad-name", F::Text } } },
        { "cmake_args", F::Texts }, { "max_jobs", F::Int }, { "nvcc_threads", F::Int },
        { "nvcc_threads_define", F::Text }, { "build_dir", F::Text }, { "kernel_tree", F::Bool }, { "ccache", F::Bool },
        { "memory_gate", F::Bool }, { "demo", F::Bool } } } };

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    (void)kf::parseBuildProfiles(QByteArray(reinterpret_cast<const char*>(data), qsizetype(size)));
    kf::fuzz::FuzzInput in(data, size);
    const auto parsed = kf::parseBuildProfiles(kf::fuzz::YamlGen(in).document(kProfiles));
    if (parsed)
        if (!kf::parseBuildProfiles(kf::serializeBuildProfiles(parsed.profiles)))
            abort(); // what was read is written back and reads again
    return 0;
}
