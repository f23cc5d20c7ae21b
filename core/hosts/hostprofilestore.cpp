// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/hosts/hostprofilestore.h"

#include "core/log/logging.h"
#include "core/store/paths.h"
#include "core/util/pathcheck.h"
#include "core/util/terminaltext.h"
#include "core/util/yamlnode.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QSet>

#include <yaml-cpp/yaml.h>

namespace kf {

namespace {

constexpr int kFormatVersion = 1;

std::string stdstr(const QString& s)
{
    return s.toStdString();
}

bool looksSecret(const QString& key)
{
    const QString k = key.toLower();
    for (const char* word : { "password", "passphrase", "secret", "token", "passwd" })
        if (k.contains(QLatin1String(word)))
            return true;
    return false;
}

} // namespace

Result<void> checkNoControlCharacters(const HostProfile& p)
{
    const std::pair<const char*, QStringList> fields[]
        = { { "name", { p.name } }, { "host", { p.host } }, { "user", { p.user } }, { "proxyJump", { p.proxyJump } },
              { "knownHostsFile", { p.knownHostsFile } }, { "identityFiles", p.identityFiles }, { "tags", p.tags } };
    for (const auto& [key, values] : fields)
        for (const QString& v : values)
            if (const QString c = firstControlCharacter(v); !c.isEmpty())
                return Result<void>::failure(QStringLiteral("host '%1': '%2' has the control character %3")
                                                 .arg(terminalSafe(p.name), QLatin1String(key), c));
    return {};
}

Result<HostProfilesFile> parseHostProfiles(const QByteArray& yaml, const QString& fileName)
{
    return readYamlAs<HostProfilesFile>(yaml, fileName, [](const YamlNode& root) {
        HostProfilesFile out;
        if (root.isAbsent())
            return out;
        if (!root.isMap())
            root.fail(QStringLiteral("expected a mapping with 'version' and 'hosts'"));
        for (const YamlNode::Entry& e : root.entries())
            if (e.key != QLatin1String("version") && e.key != QLatin1String("hosts"))
                out.warnings.append(e.keyNode.at(QStringLiteral("unknown key ignored")).message());
        if (root.integer("version", kFormatVersion, 0, 1 << 20) > kFormatVersion)
            out.warnings.append(root.field("version")
                                    .at(QStringLiteral("written by a newer KernelForge (format %1); unknown fields "
                                                       "are ignored")
                                            .arg(root.text("version")))
                                    .message());
        QSet<QString> names;
        for (const YamlNode& item : root.list("hosts")) {
            if (!item.isMap())
                item.fail(QStringLiteral("each host must be a mapping"));
            HostProfile p;
            for (const YamlNode::Entry& e : item.entries()) {
                const QByteArray key = e.key.toUtf8();
                if (e.key == QLatin1String("name")) {
                    p.name = e.value.scalar();
                } else if (e.key == QLatin1String("host")) {
                    p.host = e.value.scalar();
                } else if (e.key == QLatin1String("user")) {
                    p.user = e.value.scalar();
                } else if (e.key == QLatin1String("proxyJump")) {
                    p.proxyJump = e.value.scalar();
                } else if (e.key == QLatin1String("knownHostsFile")) {
                    p.knownHostsFile = e.value.scalar();
                } else if (e.key == QLatin1String("sshConfig")) {
                    p.sshConfigAlias = e.value.scalar();
                } else if (e.key == QLatin1String("identityFiles")) {
                    p.identityFiles = item.texts(key.constData(), true);
                } else if (e.key == QLatin1String("tags")) {
                    p.tags = item.texts(key.constData(), true);
                } else if (e.key == QLatin1String("port")) {
                    p.port = quint16(item.integer(key.constData(), p.port, 1, 65535));
                } else if (e.key == QLatin1String("local")) {
                    p.isLocal = item.boolean(key.constData(), false);
                } else if (looksSecret(e.key)) {
                    out.warnings.append(e.keyNode
                                            .at(QStringLiteral("ignored: secrets are never read from or written to "
                                                               "this file (use the system keychain)"))
                                            .message());
                } else {
                    out.warnings.append(e.keyNode.at(QStringLiteral("unknown key ignored")).message());
                }
            }
            if (p.name.isEmpty())
                item.fail("name", QStringLiteral("is required"));
            if (const auto clean = checkNoControlCharacters(p); !clean)
                item.fail(clean.error());
            if (p.host.isEmpty() && !p.isLocal)
                item.fail("host", QStringLiteral("is required (or local: true)"));
            if (names.contains(p.name))
                item.fail("name", QStringLiteral("duplicate host name '%1'").arg(p.name));
            names.insert(p.name);
            out.profiles.append(p);
        }
        return out;
    });
}

QByteArray serializeHostProfiles(const QList<HostProfile>& profiles)
{
    YAML::Emitter e;
    e << YAML::BeginMap;
    e << YAML::Key << "version" << YAML::Value << kFormatVersion;
    e << YAML::Key << "hosts" << YAML::Value << YAML::BeginSeq;
    for (const HostProfile& p : profiles) {
        if (p.isDemo)
            continue;
        e << YAML::BeginMap;
        e << YAML::Key << "name" << YAML::Value << stdstr(p.name);
        if (!p.sshConfigAlias.isEmpty())
            e << YAML::Key << "sshConfig" << YAML::Value << stdstr(p.sshConfigAlias);
        if (!p.host.isEmpty())
            e << YAML::Key << "host" << YAML::Value << stdstr(p.host);
        e << YAML::Key << "port" << YAML::Value << int(p.port);
        if (!p.user.isEmpty())
            e << YAML::Key << "user" << YAML::Value << stdstr(p.user);
        auto list = [&](const char* key, const QStringList& values) {
            if (values.isEmpty())
                return;
            e << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginSeq;
            for (const QString& v : values)
                e << stdstr(v);
            e << YAML::EndSeq;
        };
        list("identityFiles", p.identityFiles);
        if (!p.proxyJump.isEmpty())
            e << YAML::Key << "proxyJump" << YAML::Value << stdstr(p.proxyJump);
        list("tags", p.tags);
        if (!p.knownHostsFile.isEmpty())
            e << YAML::Key << "knownHostsFile" << YAML::Value << stdstr(p.knownHostsFile);
        if (p.isLocal)
            e << YAML::Key << "local" << YAML::Value << true;
        e << YAML::EndMap;
    }
    e << YAML::EndSeq << YAML::EndMap;
    return QByteArrayLiteral("# KernelForge host profiles. Passwords and passphrases are never stored here.\n")
        + QByteArray(e.c_str()) + '\n';
}

SshImport importSshHosts(const SshConfig& config, const SshLocalContext& local)
{
    SshImport out;
    for (const SshConfigNote& e : config.errors)
        out.problems.append(e.toString());
    for (const SshConfigNote& n : config.notes)
        out.problems.append(n.toString());
    for (const QString& alias : importableSshHosts(config)) {
        const auto r = resolveSshHost(config, alias, local);
        if (!r) {
            out.problems.append(alias + QStringLiteral(": ") + r.error());
            continue;
        }
        if (!r->proxyCommand.isEmpty())
            out.problems.append(
                alias + QStringLiteral(": ProxyCommand is not supported (use ProxyJump); imported without it"));
        out.profiles.append(r->toProfile());
    }
    return out;
}

HostProfileStore::HostProfileStore(QString path)
    : m_path(path.isEmpty() ? defaultPath() : std::move(path))
{ }

QString HostProfileStore::defaultPath()
{
    return paths::configDir() + QStringLiteral("/hosts.yaml");
}

Result<HostProfilesFile> HostProfileStore::load() const
{
    QFile f(m_path);
    if (!f.exists())
        return HostProfilesFile {};
    if (!f.open(QIODevice::ReadOnly))
        return Result<HostProfilesFile>::failure(QStringLiteral("cannot read %1: %2").arg(m_path, f.errorString()));
    auto r = parseHostProfiles(f.readAll(), m_path);
    if (r)
        for (const QString& w : r->warnings)
            log::app()->warn("{}", w.toStdString());
    return r;
}

Result<void> HostProfileStore::save(const QList<HostProfile>& profiles) const
{
    QSet<QString> names;
    for (const HostProfile& p : profiles) {
        if (p.isDemo)
            continue;
        if (p.name.trimmed().isEmpty())
            return Result<void>::failure(QStringLiteral("a host profile needs a name"));
        if (const auto clean = checkNoControlCharacters(p); !clean)
            return clean;
        if (names.contains(p.name))
            return Result<void>::failure(QStringLiteral("duplicate host name '%1'").arg(p.name));
        names.insert(p.name);
    }
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    QSaveFile f(m_path);
    if (!f.open(QIODevice::WriteOnly))
        return Result<void>::failure(QStringLiteral("cannot write %1: %2").arg(m_path, f.errorString()));
    // Set before the first byte: the temp file is what gets renamed over the original.
    f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    f.write(serializeHostProfiles(profiles));
    if (!f.commit())
        return Result<void>::failure(QStringLiteral("cannot write %1: %2").arg(m_path, f.errorString()));
    return {};
}

Result<void> HostProfileStore::upsert(const HostProfile& profile) const
{
    auto loaded = load();
    if (!loaded)
        return loaded.withoutValue();
    QList<HostProfile> list = loaded->profiles;
    auto it = std::find_if(list.begin(), list.end(), [&](const HostProfile& p) { return p.name == profile.name; });
    if (it != list.end())
        *it = profile;
    else
        list.append(profile);
    return save(list);
}

Result<void> HostProfileStore::remove(const QString& name) const
{
    auto loaded = load();
    if (!loaded)
        return loaded.withoutValue();
    QList<HostProfile> list = loaded->profiles;
    list.removeIf([&](const HostProfile& p) { return p.name == name; });
    return save(list);
}

Result<SshImport> HostProfileStore::importFromSshConfig(const QString& homeDir)
{
    const QString path = homeDir + QStringLiteral("/.ssh/config");
    if (!QFile::exists(path))
        return SshImport {};
    auto config = loadSshConfig(path, homeDir);
    if (!config)
        return config.withoutValue();
    SshLocalContext local = SshLocalContext::current();
    local.homeDir = homeDir;
    return importSshHosts(config.value(), local);
}

} // namespace kf
