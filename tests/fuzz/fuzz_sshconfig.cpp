// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/hosts/hostprofilestore.h"
#include "core/hosts/sshconfig.h"
#include "tests/fuzz/fuzzinput.h"

#include <QMap>

namespace {

using kf::fuzz::FuzzInput;

const char* const kFiles[] = { "config", "a.conf", "b.conf", "conf.d/x", "conf.d/y" };

QByteArray argument(FuzzInput& in, const QByteArray& keyword)
{
    if (keyword == "Include")
        return in.pick({ "config", "a.conf", "b.conf", "conf.d/*", "~/.ssh/a.conf", "/h/.ssh/b.conf", "missing",
            "conf.d/?", "\"a.conf\"", "*" });
    if (keyword == "Host")
        return in.pick({ "*", "a", "b*", "!c", "gpu?", "\"a b\"", "!*", "gpu1" });
    if (keyword == "Match")
        return in.pick({ "all", "host a", "exec true", "user bob", "canonical", "final all" });
    if (keyword == "Port")
        return in.number();
    if (keyword == "IdentityFile" || keyword == "UserKnownHostsFile")
        return in.pick({ "~/.ssh/id_%h_%r", "%d/%u/%i", "%l%L%n%p", "%%", "%", "%x", "none", "'~/k 1'", "~" });
    if (keyword == "HostName")
        return in.pick({ "%h.example.com", "10.0.0.1", "%%", "%z", "h" });
    if (keyword == "ProxyJump")
        return in.pick({ "none", "bastion", "u@b:2222,c", "" });
    return in.raw(8).replace('\n', ' ');
}

// A config file: statements from the keywords the parser knows (Include pointing at the
// other files, at itself, at globs), with '=' or blanks, quotes and comments.
QByteArray file(FuzzInput& in)
{
    QByteArray out;
    const int lines = in.below(12);
    for (int l = 0; l < lines; ++l) {
        const QByteArray keyword = in.pick({ "Include", "Include", "Host", "Match", "HostName", "User", "Port",
            "IdentityFile", "ProxyJump", "UserKnownHostsFile", "ProxyCommand", "Compression", "include", "#" });
        out += in.chance(10) ? "  " : "";
        out += keyword;
        out += in.pick({ " ", "=", " = ", "\t" });
        const int args = 1 + in.below(3);
        for (int a = 0; a < args; ++a) {
            if (a)
                out += " ";
            out += argument(in, keyword);
        }
        if (in.chance(5))
            out += " # comment";
        out += kf::fuzz::lineEnd(in);
    }
    return out;
}

void parseAll(const QByteArray& text, const QMap<QString, QByteArray>& files)
{
    kf::SshConfigIncludeReader reader;
    reader.homeDir = QStringLiteral("/h");
    reader.glob = [&files](const QString& pattern) {
        QStringList out;
        for (auto it = files.begin(); it != files.end(); ++it)
            if (kf::sshPatternMatches(pattern, it.key()))
                out << it.key();
        return out;
    };
    reader.read = [&files](const QString& path) -> std::optional<QByteArray> {
        const auto it = files.find(path);
        if (it == files.end())
            return std::nullopt;
        return *it;
    };
    const kf::SshConfig config = kf::parseSshConfig(text, QStringLiteral("/h/.ssh/config"), &reader);
    (void)kf::parseSshConfig(text, QStringLiteral("fuzz_config"));
    kf::SshLocalContext local;
    local.user = QStringLiteral("u");
    local.homeDir = QStringLiteral("/h");
    local.hostName = QStringLiteral("l.example.com");
    for (const QString& alias :
        kf::importableSshHosts(config) + QStringList { QStringLiteral("gpu1"), QStringLiteral("c") })
        (void)kf::resolveSshHost(config, alias, local);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    (void)kf::parseHostProfiles(bytes, QStringLiteral("hosts.yaml"));
    parseAll(bytes, {});
    FuzzInput in(data, size);
    QMap<QString, QByteArray> files;
    for (const char* name : kFiles) {
        if (in.chance(70))
            files.insert(QStringLiteral("/h/.ssh/") + QLatin1String(name), file(in));
    }
    parseAll(files.value(QStringLiteral("/h/.ssh/config"), file(in)), files);
    return 0;
}
