// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/knownhosts.h"

#include "core/hosts/sshconfig.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kf {
namespace {

// Splits on runs of spaces/tabs.
QList<QByteArray> fields(const QByteArray& line)
{
    QList<QByteArray> out;
    qsizetype i = 0;
    const qsizetype n = line.size();
    while (i < n) {
        while (i < n && (line[i] == ' ' || line[i] == '\t'))
            ++i;
        if (i >= n)
            break;
        qsizetype j = i;
        while (j < n && line[j] != ' ' && line[j] != '\t')
            ++j;
        out << line.mid(i, j - i);
        i = j;
    }
    return out;
}

bool strictBase64(const QByteArray& text, QByteArray* out)
{
    auto r = QByteArray::fromBase64Encoding(text, QByteArray::AbortOnBase64DecodingErrors);
    if (!r || r.decoded.isEmpty())
        return false;
    *out = r.decoded;
    return true;
}

QByteArray hmacSha1(const QByteArray& key, const QByteArray& data)
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (!HMAC(EVP_sha1(), key.constData(), int(key.size()), reinterpret_cast<const unsigned char*>(data.constData()),
            size_t(data.size()), md, &len))
        return {};
    return QByteArray(reinterpret_cast<const char*>(md), int(len));
}

} // namespace

QString keyTypeOfBlob(const QByteArray& blob)
{
    if (blob.size() < 4)
        return {};
    const quint32 len = (quint32(quint8(blob[0])) << 24) | (quint32(quint8(blob[1])) << 16)
        | (quint32(quint8(blob[2])) << 8) | quint32(quint8(blob[3]));
    if (len == 0 || len > 64 || qsizetype(len) > blob.size() - 4)
        return {};
    return QString::fromLatin1(blob.mid(4, qsizetype(len)));
}

KnownHostsFile parseKnownHosts(const QByteArray& text, const QString& path)
{
    KnownHostsFile file;
    file.path = path;
    const QList<QByteArray> lines = text.split('\n');
    for (qsizetype idx = 0; idx < lines.size(); ++idx) {
        const int lineNo = int(idx) + 1;
        QByteArray line = lines[idx];
        if (line.endsWith('\r'))
            line.chop(1);
        const QByteArray trimmed = line.trimmed();
        if (trimmed.isEmpty() || trimmed.startsWith('#'))
            continue;
        auto bad = [&](const QString& why) { file.errors.append({ lineNo, why }); };
        QList<QByteArray> f = fields(trimmed);
        KnownHostEntry e;
        e.line = lineNo;
        if (f.first().startsWith('@')) {
            if (f.first() == "@revoked")
                e.marker = KnownHostEntry::Marker::Revoked;
            else if (f.first() == "@cert-authority")
                e.marker = KnownHostEntry::Marker::CertAuthority;
            else {
                bad(QStringLiteral("unknown marker ") + QString::fromUtf8(f.first()));
                continue;
            }
            f.removeFirst();
        }
        if (f.size() < 3) {
            bad(QStringLiteral("expected hosts, key type and key"));
            continue;
        }
        const QByteArray hosts = f[0];
        if (hosts.startsWith("|1|")) {
            const QList<QByteArray> parts = hosts.split('|'); // "", "1", salt, hash
            if (parts.size() != 4 || !strictBase64(parts[2], &e.salt) || !strictBase64(parts[3], &e.hash)
                || e.hash.size() != 20) {
                bad(QStringLiteral("malformed hashed host name"));
                continue;
            }
            e.hashed = true;
        } else if (hosts.startsWith('|')) {
            bad(QStringLiteral("unsupported host name hash"));
            continue;
        } else {
            for (const QByteArray& p : hosts.split(','))
                if (!p.isEmpty())
                    e.patterns << QString::fromUtf8(p).toLower();
            if (e.patterns.isEmpty()) {
                bad(QStringLiteral("empty host pattern"));
                continue;
            }
        }
        e.keyType = QString::fromLatin1(f[1]);
        bool numeric = false;
        f[1].toInt(&numeric);
        if (numeric) {
            bad(QStringLiteral("SSH protocol 1 key (not supported)"));
            continue;
        }
        if (!strictBase64(f[2], &e.keyBlob)) {
            bad(QStringLiteral("key is not valid base64"));
            continue;
        }
        if (keyTypeOfBlob(e.keyBlob) != e.keyType) {
            bad(QStringLiteral("key type %1 does not match the key data").arg(e.keyType));
            continue;
        }
        if (f.size() > 3) {
            QList<QByteArray> rest = f.mid(3);
            e.comment = QString::fromUtf8(rest.join(' '));
        }
        file.entries << e;
    }
    return file;
}

KnownHostsFile readKnownHostsFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return KnownHostsFile { path, {}, {} };
    return parseKnownHosts(f.readAll(), path);
}

QString knownHostsName(const QString& host, quint16 port)
{
    const QString h = host.toLower();
    if (port == 22 || port == 0)
        return h;
    return QLatin1Char('[') + h + QStringLiteral("]:") + QString::number(port);
}

bool knownHostMatches(const KnownHostEntry& entry, const QString& host, quint16 port)
{
    const QString name = knownHostsName(host, port);
    if (entry.hashed)
        return hmacSha1(entry.salt, name.toUtf8()) == entry.hash;
    bool positive = false;
    for (const QString& p : entry.patterns) {
        const bool negated = p.startsWith(QLatin1Char('!'));
        const QStringView pat = negated ? QStringView(p).mid(1) : QStringView(p);
        if (sshPatternMatches(pat, name, Qt::CaseInsensitive)) {
            if (negated)
                return false; // a negated match excludes the host from this line
            positive = true;
        }
    }
    return positive;
}

HostKeyLookup lookupHostKey(
    const QList<KnownHostsFile>& files, const QString& host, quint16 port, const QByteArray& keyBlob)
{
    const QString type = keyTypeOfBlob(keyBlob);
    HostKeyLookup match, sameTypeMismatch, otherType;
    for (const KnownHostsFile& file : files) {
        for (const KnownHostEntry& e : file.entries) {
            if (!knownHostMatches(e, host, port))
                continue;
            if (e.marker == KnownHostEntry::Marker::Revoked) {
                if (e.keyBlob == keyBlob)
                    return { HostKeyLookup::Status::Revoked, file.path, e.line, e.keyType };
                continue;
            }
            if (e.marker == KnownHostEntry::Marker::CertAuthority)
                continue; // recognised; we do not accept host certificates
            if (e.keyBlob == keyBlob) {
                if (match.status == HostKeyLookup::Status::NotFound)
                    match = { HostKeyLookup::Status::Match, file.path, e.line, e.keyType };
            } else if (e.keyType == type) {
                if (sameTypeMismatch.status == HostKeyLookup::Status::NotFound)
                    sameTypeMismatch = { HostKeyLookup::Status::Mismatch, file.path, e.line, e.keyType };
            } else if (otherType.status == HostKeyLookup::Status::NotFound) {
                otherType = { HostKeyLookup::Status::Mismatch, file.path, e.line, e.keyType };
            }
        }
    }
    // As OpenSSH: a matching key wins over another entry of the same type (hosts may
    // legitimately have several lines); revocation was checked across all files above.
    if (match.status == HostKeyLookup::Status::Match)
        return match;
    if (sameTypeMismatch.status == HostKeyLookup::Status::Mismatch)
        return sameTypeMismatch;
    return otherType;
}

QStringList knownKeyTypes(const QList<KnownHostsFile>& files, const QString& host, quint16 port)
{
    QStringList types;
    for (const KnownHostsFile& file : files)
        for (const KnownHostEntry& e : file.entries)
            if (e.marker == KnownHostEntry::Marker::None && knownHostMatches(e, host, port)
                && !types.contains(e.keyType))
                types << e.keyType;
    return types;
}

QString sshFingerprint(const QByteArray& keyBlob)
{
    const QByteArray digest = QCryptographicHash::hash(keyBlob, QCryptographicHash::Sha256);
    return QStringLiteral("SHA256:") + QString::fromLatin1(digest.toBase64(QByteArray::OmitTrailingEquals));
}

QByteArray knownHostsLine(const QString& host, quint16 port, const QByteArray& keyBlob, bool hashed)
{
    const QByteArray name = knownHostsName(host, port).toUtf8();
    QByteArray hostField;
    if (hashed) {
        QByteArray salt(20, Qt::Uninitialized);
        QRandomGenerator::system()->generate(salt.begin(), salt.end());
        hostField = "|1|" + salt.toBase64() + '|' + hmacSha1(salt, name).toBase64();
    } else {
        hostField = name;
    }
    return hostField + ' ' + keyTypeOfBlob(keyBlob).toLatin1() + ' ' + keyBlob.toBase64() + '\n';
}

Result<void> appendKnownHostsLine(const QString& path, const QByteArray& line)
{
    const QFileInfo info(path);
    const QString dir = info.absolutePath();
    if (!QDir(dir).exists()) {
        if (::mkdir(QFile::encodeName(dir).constData(), 0700) != 0 && errno != EEXIST)
            return Result<void>::failure(
                QStringLiteral("cannot create %1: %2").arg(dir, QString::fromLocal8Bit(strerror(errno))));
    }
    const QByteArray p = QFile::encodeName(path);
    const int fd = ::open(p.constData(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        return Result<void>::failure(
            QStringLiteral("cannot open %1: %2").arg(path, QString::fromLocal8Bit(strerror(errno))));
    QByteArray data = line;
    if (!data.endsWith('\n'))
        data += '\n';
    // A file whose last line lacks its newline would glue our entry onto it.
    struct stat st
    { };
    if (::fstat(fd, &st) == 0 && st.st_size > 0) {
        char last = '\n';
        const int rfd = ::open(p.constData(), O_RDONLY | O_CLOEXEC);
        if (rfd >= 0) {
            if (::pread(rfd, &last, 1, st.st_size - 1) != 1)
                last = '\n';
            ::close(rfd);
        }
        if (last != '\n')
            data.prepend('\n');
    }
    // One write(2) on an O_APPEND descriptor: other appenders cannot interleave with it.
    const ssize_t n = ::write(fd, data.constData(), size_t(data.size()));
    const int writeErr = errno;
    ::fsync(fd);
    ::close(fd);
    if (n != data.size())
        return Result<void>::failure(
            QStringLiteral("cannot append to %1: %2").arg(path, QString::fromLocal8Bit(strerror(writeErr))));
    return {};
}

QList<KnownHostsFile> KnownHostsSetup::readAll() const
{
    QList<KnownHostsFile> out;
    for (const QString& f : userFiles + globalFiles)
        out.append(readKnownHostsFile(f));
    return out;
}

SshConfigSources sshConfigSources(const KnownHostsSources& sources)
{
    SshConfigSources out;
    out.homeDir = sources.homeDir;
    out.userConfig = sources.userConfig;
    out.systemConfig = sources.systemDir + QStringLiteral("/ssh_config");
    return out;
}

KnownHostsSetup knownHostsSetup(
    const QString& alias, const QString& profileKnownHostsFile, const KnownHostsSources& sources)
{
    const SshConfigSources configSources = sshConfigSources(sources);
    const QString home = configSources.home();
    KnownHostsSetup setup;
    bool userSet = false, globalSet = false;
    SshLocalContext local = SshLocalContext::current();
    local.homeDir = home;
    // One evaluation of the user's config then the system's: the first obtained value wins.
    if (const auto files = loadSshConfigs(configSources); !files) {
        setup.notes.append(files.error());
    } else if (const auto host = resolveSshHost(files.value(), alias, local); !host) {
        setup.notes.append(host.error());
    } else {
        userSet = host->knownHostsConfigured;
        setup.userFiles = host->userKnownHostsFiles;
        globalSet = host->globalKnownHostsConfigured;
        setup.globalFiles = host->globalKnownHostsFiles;
        if (host->hashKnownHosts)
            setup.hashNewEntries = *host->hashKnownHosts;
    }
    if (!profileKnownHostsFile.isEmpty()) {
        QString f = profileKnownHostsFile;
        if (f == QLatin1String("~") || f.startsWith(QLatin1String("~/")))
            f = home + f.mid(1);
        setup.userFiles = { f };
    } else if (!userSet) {
        setup.userFiles = { home + QStringLiteral("/.ssh/known_hosts"), home + QStringLiteral("/.ssh/known_hosts2") };
    }
    if (!globalSet)
        setup.globalFiles = { sources.systemDir + QStringLiteral("/ssh_known_hosts"),
            sources.systemDir + QStringLiteral("/ssh_known_hosts2") };
    return setup;
}

} // namespace kf
