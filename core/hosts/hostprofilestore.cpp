// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/hosts/hostprofilestore.h"

#include "core/log/logging.h"
#include "core/store/paths.h"
#include "core/util/pathcheck.h"
#include "core/util/terminaltext.h"
#include "core/util/yamlkeys.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QSet>

#include <yaml-cpp/yaml.h>

namespace kf {

namespace {

constexpr int kFormatVersion = 1;

QString qstr(const std::string& s)
{
    return QString::fromStdString(s);
}
std::string stdstr(const QString& s)
{
    return s.toStdString();
}

// "file:LINE: message" with the 1-based line of a node (yaml-cpp counts from 0).
QString at(const QString& file, const YAML::Node& node, const QString& message)
{
    const int line = node.Mark().line >= 0 ? node.Mark().line + 1 : 0;
    return file + QLatin1Char(':') + QString::number(line) + QStringLiteral(": ") + message;
}

bool looksSecret(const QString& key)
{
    const QString k = key.toLower();
    for (const char* word : { "password", "passphrase", "secret", "token", "passwd" })
        if (k.contains(QLatin1String(word)))
            return true;
    return false;
}

std::optional<QString> scalar(const YAML::Node& node)
{
    if (!node.IsScalar())
        return std::nullopt;
    return qstr(node.Scalar());
}

// A list of strings written either as a YAML sequence or a single scalar.
std::optional<QStringList> stringList(const YAML::Node& node)
{
    QStringList out;
    if (node.IsNull())
        return out;
    if (node.IsScalar())
        return QStringList { qstr(node.Scalar()) };
    if (!node.IsSequence())
        return std::nullopt;
    for (const YAML::Node& item : node) {
        if (!item.IsScalar())
            return std::nullopt;
        out.append(qstr(item.Scalar()));
    }
    return out;
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
    using R = Result<HostProfilesFile>;
    HostProfilesFile out;
    YAML::Node root;
    try {
        root = YAML::Load(yaml.toStdString());
    } catch (const YAML::Exception& e) {
        return R::failure(
            fileName + QLatin1Char(':') + QString::number(e.mark.line + 1) + QStringLiteral(": ") + qstr(e.msg));
    }
    if (!root || root.IsNull())
        return out;
    if (const auto duplicate = findDuplicateYamlKey(root))
        return R::failure(fileName + QLatin1Char(':') + QString::number(duplicate->line) + QStringLiteral(": ")
            + duplicate->message());
    try {
        if (!root.IsMap())
            return R::failure(at(fileName, root, QStringLiteral("expected a mapping with 'version' and 'hosts'")));
        for (const auto& kv : root) {
            const QString key = qstr(kv.first.as<std::string>());
            if (key != QLatin1String("version") && key != QLatin1String("hosts"))
                out.warnings.append(at(fileName, kv.first, QStringLiteral("unknown key '%1' ignored").arg(key)));
        }
        if (const YAML::Node v = root["version"]; v) {
            bool ok = false;
            const int version = scalar(v).value_or(QString()).toInt(&ok);
            if (!ok)
                return R::failure(at(fileName, v, QStringLiteral("'version' must be a number")));
            if (version > kFormatVersion)
                out.warnings.append(at(fileName, v,
                    QStringLiteral("written by a newer KernelForge (format %1); unknown fields are ignored")
                        .arg(version)));
        }
        const YAML::Node hosts = root["hosts"];
        if (!hosts || hosts.IsNull())
            return out;
        if (!hosts.IsSequence())
            return R::failure(at(fileName, hosts, QStringLiteral("'hosts' must be a list")));

        QSet<QString> names;
        for (const YAML::Node& item : hosts) {
            if (!item.IsMap())
                return R::failure(at(fileName, item, QStringLiteral("each host must be a mapping")));
            HostProfile p;
            for (const auto& kv : item) {
                const QString key = qstr(kv.first.as<std::string>());
                const YAML::Node& value = kv.second;
                auto needScalar = [&](QString* target) -> Result<void> {
                    const auto s = scalar(value);
                    if (!s)
                        return Result<void>::failure(
                            at(fileName, value, QStringLiteral("'%1' must be a single value").arg(key)));
                    *target = *s;
                    return {};
                };
                auto needList = [&](QStringList* target) -> Result<void> {
                    const auto l = stringList(value);
                    if (!l)
                        return Result<void>::failure(
                            at(fileName, value, QStringLiteral("'%1' must be a list of strings").arg(key)));
                    *target = *l;
                    return {};
                };
                Result<void> s;
                if (key == QLatin1String("name")) {
                    s = needScalar(&p.name);
                } else if (key == QLatin1String("host")) {
                    s = needScalar(&p.host);
                } else if (key == QLatin1String("user")) {
                    s = needScalar(&p.user);
                } else if (key == QLatin1String("proxyJump")) {
                    s = needScalar(&p.proxyJump);
                } else if (key == QLatin1String("knownHostsFile")) {
                    s = needScalar(&p.knownHostsFile);
                } else if (key == QLatin1String("sshConfig")) {
                    s = needScalar(&p.sshConfigAlias);
                } else if (key == QLatin1String("identityFiles")) {
                    s = needList(&p.identityFiles);
                } else if (key == QLatin1String("tags")) {
                    s = needList(&p.tags);
                } else if (key == QLatin1String("port")) {
                    QString text;
                    s = needScalar(&text);
                    bool ok = false;
                    const uint port = text.toUInt(&ok);
                    if (s && (!ok || port == 0 || port > 65535))
                        s = Result<void>::failure(at(fileName, value, QStringLiteral("bad port '%1'").arg(text)));
                    p.port = quint16(port);
                } else if (key == QLatin1String("local")) {
                    QString text;
                    s = needScalar(&text);
                    if (s && text != QLatin1String("true") && text != QLatin1String("false"))
                        s = Result<void>::failure(at(fileName, value, QStringLiteral("'local' must be true or false")));
                    p.isLocal = text == QLatin1String("true");
                } else if (looksSecret(key)) {
                    out.warnings.append(at(fileName, kv.first,
                        QStringLiteral("'%1' ignored: secrets are never read from or written to this "
                                       "file (use the system keychain)")
                            .arg(key)));
                } else {
                    out.warnings.append(at(fileName, kv.first, QStringLiteral("unknown key '%1' ignored").arg(key)));
                }
                if (!s)
                    return R::failure(s.error());
            }
            if (p.name.isEmpty())
                return R::failure(at(fileName, item, QStringLiteral("a host needs a 'name'")));
            if (const auto clean = checkNoControlCharacters(p); !clean)
                return R::failure(at(fileName, item, clean.error()));
            if (p.host.isEmpty() && !p.isLocal)
                return R::failure(at(fileName, item, QStringLiteral("host '%1' needs a 'host'").arg(p.name)));
            if (names.contains(p.name))
                return R::failure(at(fileName, item, QStringLiteral("duplicate host name '%1'").arg(p.name)));
            names.insert(p.name);
            out.profiles.append(p);
        }
    } catch (const YAML::Exception& e) {
        return R::failure(
            fileName + QLatin1Char(':') + QString::number(e.mark.line + 1) + QStringLiteral(": ") + qstr(e.msg));
    }
    return out;
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
