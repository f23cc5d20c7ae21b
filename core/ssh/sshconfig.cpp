// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/sshconfig.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>

#include <pwd.h>
#include <unistd.h>

namespace kf {

QString SshConfigNote::toString() const
{
    return file + QLatin1Char(':') + QString::number(line) + QStringLiteral(": ") + message;
}

namespace {

bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}

// OpenSSH keywords whose value is the raw rest of the line (a command), not split into words.
bool takesRawRest(const QString& keyword)
{
    return keyword == QLatin1String("proxycommand") || keyword == QLatin1String("localcommand")
        || keyword == QLatin1String("remotecommand") || keyword == QLatin1String("knownhostscommand");
}

// Keywords KernelForge reads that take exactly one argument.
bool takesOneArg(const QString& keyword)
{
    static const QSet<QString> one = { QStringLiteral("hostname"), QStringLiteral("user"), QStringLiteral("port"),
        QStringLiteral("identityfile"), QStringLiteral("proxyjump") };
    return one.contains(keyword);
}

// argv_split() of OpenSSH's misc.c with terminate_on_comment: words, quotes, \-escapes.
// Returns false on an unterminated quote.
bool splitArgs(const QByteArray& s, QStringList* out)
{
    qsizetype i = 0;
    const qsizetype n = s.size();
    while (i < n) {
        if (isBlank(s[i])) {
            ++i;
            continue;
        }
        if (s[i] == '#')
            break;
        QByteArray arg;
        char quote = 0;
        for (; i < n; ++i) {
            const char c = s[i];
            if (c == '\\' && i + 1 < n
                && (s[i + 1] == '\'' || s[i + 1] == '"' || s[i + 1] == '\\' || (quote == 0 && s[i + 1] == ' '))) {
                ++i;
                arg += s[i];
            } else if (quote == 0 && isBlank(c)) {
                break;
            } else if (quote == 0 && (c == '"' || c == '\'')) {
                quote = c;
            } else if (quote != 0 && c == quote) {
                quote = 0;
            } else {
                arg += c;
            }
        }
        if (quote != 0)
            return false;
        out->append(QString::fromUtf8(arg));
    }
    return true;
}

struct Parser
{
    const SshConfigIncludeReader* reader = nullptr;
    SshConfig* result = nullptr;
    // OpenSSH gives up on the whole configuration at the first Include nested deeper than 16
    // levels; so does this parser (no further Include is followed), which keeps a file that
    // includes itself several times linear instead of 3^16 reads.
    bool tooDeep = false;
    int filesRead = 0;
    static constexpr int kMaxIncludedFiles = 4096;
    QStringList chain; // the files being read, outermost first

    void error(const QString& file, int line, const QString& message)
    {
        result->errors.append({ file, line, message });
    }
    void note(const QString& file, int line, const QString& message) { result->notes.append({ file, line, message }); }

    QList<SshConfigStatement> parse(const QByteArray& text, const QString& file, int depth)
    {
        QList<SshConfigStatement> out;
        int lineNo = 0;
        for (QByteArray line : text.split('\n')) {
            ++lineNo;
            // Trailing blanks (and \r of CRLF files, and form feeds) never matter.
            while (!line.isEmpty() && (isBlank(line.back()) || line.back() == '\r' || line.back() == '\f'))
                line.chop(1);
            qsizetype i = 0;
            while (i < line.size() && isBlank(line[i]))
                ++i;
            if (i == line.size() || line[i] == '#')
                continue;
            const qsizetype kwStart = i;
            while (i < line.size() && !isBlank(line[i]) && line[i] != '=' && line[i] != '"')
                ++i;
            const QString keyword = QString::fromUtf8(line.mid(kwStart, i - kwStart)).toLower();
            // "Key Value", "Key=Value", "Key = Value": one '=' may separate keyword and value.
            bool sawEquals = false;
            while (i < line.size() && (isBlank(line[i]) || (!sawEquals && line[i] == '='))) {
                if (line[i] == '=')
                    sawEquals = true;
                ++i;
            }
            const QByteArray rest = line.mid(i);
            if (keyword.isEmpty()) {
                error(file, lineNo, QStringLiteral("a line must start with a keyword"));
                continue;
            }
            if (rest.isEmpty()) {
                error(file, lineNo, QStringLiteral("no argument after keyword \"%1\"").arg(keyword));
                continue;
            }
            SshConfigStatement st;
            st.keyword = keyword;
            st.file = file;
            st.line = lineNo;
            if (takesRawRest(keyword)) {
                st.args = QStringList { QString::fromUtf8(rest) };
            } else if (!splitArgs(rest, &st.args)) {
                error(file, lineNo, QStringLiteral("unterminated quote"));
                continue;
            }
            if (st.args.isEmpty()) { // only a comment after the keyword
                error(file, lineNo, QStringLiteral("no argument after keyword \"%1\"").arg(keyword));
                continue;
            }
            if (takesOneArg(keyword) && st.args.size() > 1) {
                error(
                    file, lineNo, QStringLiteral("keyword %1 has extra arguments at the end of the line").arg(keyword));
                continue;
            }
            if (keyword == QLatin1String("port")) {
                bool ok = false;
                const uint port = st.args.first().toUInt(&ok);
                if (!ok || port == 0 || port > 65535) {
                    error(file, lineNo, QStringLiteral("bad port '%1'").arg(st.args.first()));
                    continue;
                }
            }
            if (keyword == QLatin1String("host")) {
                st.kind = SshConfigStatement::Kind::Host;
            } else if (keyword == QLatin1String("match")) {
                st.kind = SshConfigStatement::Kind::Match;
                if (!(st.args.size() == 1 && st.args.first().compare(QLatin1String("all"), Qt::CaseInsensitive) == 0))
                    note(file, lineNo,
                        QStringLiteral(
                            "\"Match %1\" is not evaluated by KernelForge; the options of this block are ignored")
                            .arg(st.args.join(QLatin1Char(' '))));
            } else if (keyword == QLatin1String("include")) {
                st.kind = SshConfigStatement::Kind::Include;
                include(&st, depth);
            }
            out.append(std::move(st));
        }
        return out;
    }

    void include(SshConfigStatement* st, int depth)
    {
        if (!reader) {
            note(st->file, st->line, QStringLiteral("Include not followed (no file access in this context)"));
            return;
        }
        if (tooDeep)
            return;
        if (depth + 1 > reader->maxDepth) {
            tooDeep = true;
            QString why;
            if (const qsizetype first = chain.indexOf(st->file); first >= 0 && first + 1 < chain.size())
                why = QStringLiteral("; %1 includes itself").arg(st->file);
            error(st->file, st->line,
                QStringLiteral("Include nested too deeply (more than %1 levels, as in OpenSSH)%2; no further Include "
                               "was read")
                    .arg(reader->maxDepth)
                    .arg(why));
            return;
        }
        for (const QString& arg : std::as_const(st->args)) {
            QString pattern = arg;
            if (pattern == QLatin1String("~") || pattern.startsWith(QLatin1String("~/")))
                pattern = reader->homeDir + pattern.mid(1);
            else if (!pattern.startsWith(QLatin1Char('/')))
                pattern = reader->homeDir + QStringLiteral("/.ssh/") + pattern;
            const QStringList files = reader->glob ? reader->glob(pattern) : QStringList { pattern };
            for (const QString& path : files) {
                if (tooDeep)
                    return;
                if (++filesRead > kMaxIncludedFiles) {
                    tooDeep = true;
                    error(st->file, st->line,
                        QStringLiteral("Include: more than %1 included files; no further Include was read")
                            .arg(kMaxIncludedFiles));
                    return;
                }
                const std::optional<QByteArray> text = reader->read ? reader->read(path) : std::nullopt;
                if (!text) {
                    // ssh skips what it cannot open too, but a named file that vanished is worth a note.
                    note(st->file, st->line, QStringLiteral("cannot read included file ") + path);
                    continue;
                }
                chain.append(path);
                st->children.append(parse(*text, path, depth + 1));
                chain.removeLast();
            }
        }
    }
};

struct Resolver
{
    QString alias;
    SshHostConfig* out = nullptr;
    std::optional<QString> hostName, user, proxyJump, proxyCommand;
    std::optional<quint16> port;
    std::optional<QStringList> knownHosts, globalKnownHosts;
    std::optional<bool> hashKnownHosts;
    QList<QPair<QString, SshConfigNote>> identityRaw; // value, where it came from

    bool hostMatches(const QStringList& patterns) const
    {
        bool matched = false;
        for (const QString& pat : patterns) {
            if (pat.startsWith(QLatin1Char('!'))) {
                if (sshPatternMatches(QStringView(pat).mid(1), alias))
                    return false;
            } else if (sshPatternMatches(pat, alias)) {
                matched = true;
            }
        }
        return matched;
    }

    void walk(const QList<SshConfigStatement>& statements, bool neverMatch)
    {
        // A file starts active unless it was included from a block that does not apply.
        bool active = !neverMatch;
        for (const SshConfigStatement& st : statements) {
            switch (st.kind) {
            case SshConfigStatement::Kind::Host: active = !neverMatch && hostMatches(st.args); break;
            case SshConfigStatement::Kind::Match:
                active = false;
                if (neverMatch)
                    break;
                if (st.args.size() == 1 && st.args.first().compare(QLatin1String("all"), Qt::CaseInsensitive) == 0)
                    active = true;
                else
                    out->notes.append({ st.file, st.line,
                        QStringLiteral("\"Match %1\" is not evaluated; its options were ignored")
                            .arg(st.args.join(QLatin1Char(' '))) });
                break;
            case SshConfigStatement::Kind::Include:
                walk(st.children, neverMatch || !active);
                break; // `active` is what it was before the Include, as in ssh
            case SshConfigStatement::Kind::Option:
                if (active)
                    apply(st);
                break;
            }
        }
    }

    void apply(const SshConfigStatement& st)
    {
        const QString& k = st.keyword;
        const QString& v = st.args.first();
        if (k == QLatin1String("hostname")) {
            if (!hostName)
                hostName = v;
        } else if (k == QLatin1String("user")) {
            if (!user)
                user = v;
        } else if (k == QLatin1String("port")) {
            if (!port)
                port = quint16(v.toUInt());
        } else if (k == QLatin1String("identityfile")) {
            identityRaw.append({ v, SshConfigNote { st.file, st.line, {} } });
        } else if (k == QLatin1String("proxyjump")) {
            // ProxyJump and ProxyCommand exclude each other; the first one seen wins.
            if (!proxyJump && !proxyCommand)
                proxyJump = v;
        } else if (k == QLatin1String("proxycommand")) {
            if (!proxyJump && !proxyCommand)
                proxyCommand = v;
        } else if (k == QLatin1String("userknownhostsfile")) {
            if (!knownHosts)
                knownHosts = st.args;
        } else if (k == QLatin1String("globalknownhostsfile")) {
            if (!globalKnownHosts)
                globalKnownHosts = st.args;
        } else if (k == QLatin1String("hashknownhosts")) {
            if (!hashKnownHosts)
                hashKnownHosts = v.compare(QLatin1String("yes"), Qt::CaseInsensitive) == 0;
        }
    }
};

// Expands ~ and %-tokens; nullopt with *bad set to the offending token on an unknown one.
std::optional<QString> expandTokens(
    const QString& value, const QMap<QChar, QString>& tokens, QString* bad, const QString& home)
{
    QString in = value;
    if (in == QLatin1String("~") || in.startsWith(QLatin1String("~/")))
        in = home + in.mid(1);
    QString out;
    out.reserve(in.size());
    for (qsizetype i = 0; i < in.size(); ++i) {
        if (in[i] != QLatin1Char('%')) {
            out += in[i];
            continue;
        }
        if (i + 1 >= in.size()) {
            *bad = QStringLiteral("%");
            return std::nullopt;
        }
        const QChar t = in[++i];
        if (t == QLatin1Char('%')) {
            out += QLatin1Char('%');
            continue;
        }
        const auto it = tokens.constFind(t);
        if (it == tokens.constEnd()) {
            *bad = QLatin1Char('%') + t;
            return std::nullopt;
        }
        out += *it;
    }
    return out;
}

} // namespace

SshConfig parseSshConfig(const QByteArray& text, const QString& fileName, const SshConfigIncludeReader* includes)
{
    SshConfig config;
    Parser parser { includes, &config };
    parser.chain.append(fileName);
    config.statements = parser.parse(text, fileName, 0);
    return config;
}

SshConfigIncludeReader fileSystemIncludeReader(const QString& homeDir)
{
    SshConfigIncludeReader r;
    r.homeDir = homeDir;
    r.glob = [](const QString& pattern) {
        // Globs may appear in the file name part (ssh allows them anywhere; in practice
        // "config.d/*" is what people write). Folder globs are expanded level by level.
        QStringList current { QString() };
        const QStringList parts = pattern.split(QLatin1Char('/'));
        for (qsizetype i = 0; i < parts.size(); ++i) {
            const QString& part = parts[i];
            QStringList next;
            for (const QString& base : std::as_const(current)) {
                const QString prefix = (i == 0) ? QString() : base + QLatin1Char('/');
                if (part.isEmpty() && i == 0) {
                    next.append(QString());
                    continue;
                }
                if (!part.contains(QLatin1Char('*')) && !part.contains(QLatin1Char('?'))
                    && !part.contains(QLatin1Char('['))) {
                    next.append(prefix + part);
                    continue;
                }
                QDir dir(base.isEmpty() ? QStringLiteral("/") : base);
                const QStringList names = dir.entryList({ part }, QDir::AllEntries | QDir::NoDotAndDotDot, QDir::Name);
                for (const QString& name : names)
                    next.append(prefix + name);
            }
            current = next;
        }
        QStringList existing;
        for (const QString& p : std::as_const(current))
            if (QFileInfo(p).isFile())
                existing.append(p);
        existing.sort();
        return existing;
    };
    r.read = [](const QString& path) -> std::optional<QByteArray> {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return std::nullopt;
        return f.readAll();
    };
    return r;
}

Result<SshConfig> loadSshConfig(const QString& path, const QString& homeDir)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Result<SshConfig>::failure(QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
    const SshConfigIncludeReader reader = fileSystemIncludeReader(homeDir);
    return parseSshConfig(f.readAll(), path, &reader);
}

SshLocalContext SshLocalContext::current()
{
    SshLocalContext c;
    c.uid = ::getuid();
    if (const passwd* pw = ::getpwuid(c.uid)) {
        c.user = QString::fromLocal8Bit(pw->pw_name);
        c.homeDir = QString::fromLocal8Bit(pw->pw_dir);
    }
    if (c.user.isEmpty())
        c.user = qEnvironmentVariable("USER");
    // ssh uses the passwd entry; $HOME wins here so tests and sandboxes can redirect it.
    if (qEnvironmentVariableIsSet("HOME"))
        c.homeDir = qEnvironmentVariable("HOME");
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) == 0)
        c.hostName = QString::fromLocal8Bit(name);
    return c;
}

HostProfile SshHostConfig::toProfile() const
{
    HostProfile p;
    p.name = alias;
    p.host = hostName;
    p.port = port;
    p.user = user;
    p.identityFiles = identityFiles;
    p.proxyJump = proxyJump;
    p.knownHostsFile = userKnownHostsFiles.value(0);
    return p;
}

Result<SshHostConfig> resolveSshHost(const SshConfig& config, const QString& alias, const SshLocalContext& local)
{
    if (alias.isEmpty())
        return Result<SshHostConfig>::failure(QStringLiteral("empty host name"));
    SshHostConfig out;
    out.alias = alias;
    Resolver r;
    r.alias = alias;
    r.out = &out;
    r.walk(config.statements, false);

    // HostName knows only %h (the alias) and %%; ssh then lower-cases the result.
    out.hostName = alias;
    if (r.hostName) {
        QString bad;
        const auto h = expandTokens(*r.hostName, { { QLatin1Char('h'), alias } }, &bad, local.homeDir);
        if (!h)
            return Result<SshHostConfig>::failure(
                QStringLiteral("HostName %1: unknown token %2").arg(*r.hostName, bad));
        out.hostName = *h;
    }
    out.hostName = out.hostName.toLower();
    out.user = r.user.value_or(QString());
    out.port = r.port.value_or(22);
    if (r.proxyJump && r.proxyJump->compare(QLatin1String("none"), Qt::CaseInsensitive) != 0)
        out.proxyJump = *r.proxyJump;
    if (r.proxyCommand && r.proxyCommand->compare(QLatin1String("none"), Qt::CaseInsensitive) != 0) {
        out.proxyCommand = *r.proxyCommand;
        out.notes.append({ {}, 0,
            QStringLiteral("ProxyCommand is not supported by KernelForge (use ProxyJump): ") + out.proxyCommand });
    }

    const QString remoteUser = out.user.isEmpty() ? local.user : out.user;
    const QString portText = QString::number(out.port);
    const QString shortHost = local.hostName.section(QLatin1Char('.'), 0, 0);
    // %C as ssh computes it: SHA1 over %l%h%p%r%j, in hex.
    const QString connHash = QString::fromLatin1(QCryptographicHash::hash(
        (local.hostName + out.hostName + portText + remoteUser + out.proxyJump).toUtf8(), QCryptographicHash::Sha1)
                                                     .toHex());
    const QMap<QChar, QString> tokens {
        { QLatin1Char('C'), connHash },
        { QLatin1Char('d'), local.homeDir },
        { QLatin1Char('h'), out.hostName },
        { QLatin1Char('i'), QString::number(local.uid) },
        { QLatin1Char('j'), out.proxyJump },
        { QLatin1Char('L'), shortHost },
        { QLatin1Char('l'), local.hostName },
        { QLatin1Char('n'), alias },
        { QLatin1Char('p'), portText },
        { QLatin1Char('r'), remoteUser },
        { QLatin1Char('u'), local.user },
    };
    for (const auto& [raw, where] : std::as_const(r.identityRaw)) {
        QString bad;
        const auto v = expandTokens(raw, tokens, &bad, local.homeDir);
        if (!v)
            return Result<SshHostConfig>::failure(SshConfigNote {
                where.file, where.line, QStringLiteral("IdentityFile %1: unknown token %2").arg(raw, bad) }
                                                      .toString());
        if (v->compare(QLatin1String("none"), Qt::CaseInsensitive) != 0 && !out.identityFiles.contains(*v))
            out.identityFiles.append(*v);
    }
    // UserKnownHostsFile and GlobalKnownHostsFile: lists of files, "none" for no file.
    auto fileList
        = [&](const std::optional<QStringList>& raws, const char* keyword, QStringList* files) -> Result<void> {
        for (const QString& raw : raws.value_or(QStringList())) {
            QString bad;
            const auto v = expandTokens(raw, tokens, &bad, local.homeDir);
            if (!v)
                return Result<void>::failure(
                    QStringLiteral("%1 %2: unknown token %3").arg(QString::fromLatin1(keyword), raw, bad));
            if (v->compare(QLatin1String("none"), Qt::CaseInsensitive) != 0)
                files->append(*v);
        }
        return {};
    };
    if (const Result<void> s = fileList(r.knownHosts, "UserKnownHostsFile", &out.userKnownHostsFiles); !s)
        return s;
    if (const Result<void> s = fileList(r.globalKnownHosts, "GlobalKnownHostsFile", &out.globalKnownHostsFiles); !s)
        return s;
    out.knownHostsConfigured = r.knownHosts.has_value();
    out.globalKnownHostsConfigured = r.globalKnownHosts.has_value();
    out.hashKnownHosts = r.hashKnownHosts;
    return out;
}

namespace {
void collectAliases(const QList<SshConfigStatement>& statements, QStringList* out)
{
    static const QRegularExpression wild(QStringLiteral("[*?!]"));
    for (const SshConfigStatement& st : statements) {
        if (st.kind == SshConfigStatement::Kind::Include) {
            collectAliases(st.children, out);
        } else if (st.kind == SshConfigStatement::Kind::Host) {
            for (const QString& pat : st.args)
                if (!pat.contains(wild) && !out->contains(pat))
                    out->append(pat);
        }
    }
}
} // namespace

QStringList importableSshHosts(const SshConfig& config)
{
    QStringList out;
    collectAliases(config.statements, &out);
    return out;
}

bool sshPatternMatches(QStringView pattern, QStringView name, Qt::CaseSensitivity cs)
{
    // Linear in practice: the classic "remember the last star" loop, not the exponential
    // recursion of the naive glob.
    const auto same = [cs](QChar a, QChar b) { return cs == Qt::CaseSensitive ? a == b : a.toLower() == b.toLower(); };
    qsizetype p = 0, s = 0, starP = -1, starS = 0;
    while (s < name.size()) {
        if (p < pattern.size() && (pattern[p] == QLatin1Char('?') || same(pattern[p], name[s]))) {
            ++p;
            ++s;
        } else if (p < pattern.size() && pattern[p] == QLatin1Char('*')) {
            starP = p++;
            starS = s;
        } else if (starP >= 0) {
            p = starP + 1;
            s = ++starS;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == QLatin1Char('*'))
        ++p;
    return p == pattern.size();
}

} // namespace kf
