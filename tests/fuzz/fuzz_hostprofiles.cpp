// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/hosts/hostprofilestore.h"
#include "tests/fuzz/yamlgen.h"

#include <cstdlib>

namespace {

using kf::fuzz::YamlField;
using F = YamlField;

// hosts.yaml (core/hosts/hostprofilestore.cpp), secrets among the keys a person might write.
const std::vector<YamlField> kHosts { { "version", F::Int },
    { "hosts", F::Maps,
        { { "name", F::Text }, { "host", F::Text }, { "port", F::Int }, { "user", F::Text }, { "proxyJump", F::Text },
            { "knownHostsFile", F::Text }, { "sshConfig", F::Text }, { "identityFiles", F::Texts },
            { "tags", F::Texts }, { "local", F::Bool }, { "password", F::Text } } } };

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QString file = QStringLiteral("hosts.yaml");
    (void)kf::parseHostProfiles(QByteArray(reinterpret_cast<const char*>(data), qsizetype(size)), file);
    kf::fuzz::FuzzInput in(data, size);
    if (const auto r = kf::parseHostProfiles(kf::fuzz::YamlGen(in).document(kHosts), file))
        if (!kf::parseHostProfiles(kf::serializeHostProfiles(r->profiles), file))
            abort(); // what was read is written back and reads again
    return 0;
}
