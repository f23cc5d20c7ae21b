// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/hosts/sshconfig.h"

#include "core/hosts/destination.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QRegularExpression>
#include <QSet>

#include <pwd.h>
#include <unistd.h>

namespace kf {

QString SshConfigNote::place() const
{
    return line > 0 ? file + QLatin1Char(':') + QString::number(line) : file;
}

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

// match_pattern_list() of OpenSSH's match.c: a comma-separated list of patterns, each
// possibly negated with '!'. 1: a positive pattern matched and no negated one; -1: a negated
// pattern matched; 0: nothing matched. With lower, the patterns are lower-cased first (the
// string is the caller's to lower-case, as in match_hostname()).
int matchPatternList(const QString& string, const QString& list, bool lower)
{
    bool positive = false;
    for (QString pattern : list.split(QLatin1Char(','))) {
        const bool negated = pattern.startsWith(QLatin1Char('!'));
        if (negated)
            pattern.remove(0, 1);
        if (lower)
            pattern = pattern.toLower();
        if (sshPatternMatches(pattern, string)) {
            if (negated)
                return -1;
            positive = true;
        }
    }
    return positive ? 1 : 0;
}

bool isAddress(const QString& host)
{
    return !QHostAddress(host).isNull();
}

template <typename T> struct Setting
{
    T value;
    SshConfigNote where;
};

// One evaluation of the configuration for a destination, as OpenSSH's readconf.c does it:
// the files in order with one set of options where the first value obtained wins, then (when
// a `Match final` or CanonicalizeHostname asks for it) a second pass in which Host lines are
// matched against the final host name and `Match canonical`/`final` hold.
struct Resolver
{
    QString alias; // what the user typed (ssh's host_arg, %n, Match originalhost)
    QString host;  // what Host lines match: the alias, and the final host name in the final pass
    bool finalPass = false;
    bool wantFinal = false;
    const SshLocalContext* local = nullptr;
    QList<SshConfigNote>* notes = nullptr;
    std::optional<Setting<QString>> hostName, user, proxyJump, proxyCommand, canonicalize;
    std::optional<Setting<quint16>> port;
    std::optional<Setting<QStringList>> knownHosts, globalKnownHosts;
    std::optional<Setting<bool>> hashKnownHosts;
    QList<Setting<QString>> identityRaw; // as written, in order, without repeats

    void note(const SshConfigStatement& st, const QString& message)
    {
        const SshConfigNote n { st.file, st.line, message };
        if (!notes->contains(n))
            notes->append(n);
    }

    bool hostMatches(const QStringList& patterns) const
    {
        bool matched = false;
        for (const QString& pat : patterns) {
            if (pat.startsWith(QLatin1Char('!'))) {
                if (sshPatternMatches(QStringView(pat).mid(1), host))
                    return false;
            } else if (sshPatternMatches(pat, host)) {
                matched = true;
            }
        }
        return matched;
    }

    // The host name as Match host sees it at this point: HostName with %h (the alias)
    // expanded when one was set, else the alias; in the final pass the final host name.
    QString matchHost() const
    {
        if (finalPass || !hostName)
            return host;
        QString h = hostName->value;
        h.replace(QStringLiteral("%%"), QStringLiteral("\x01")).replace(QStringLiteral("%h"), alias);
        return h.replace(QLatin1Char('\x01'), QLatin1Char('%'));
    }

    // match_cfg_line(): 1 when every criterion holds, 0 when one does not, -1 on a malformed
    // line (which makes OpenSSH reject the whole configuration).
    int evaluateMatch(const SshConfigStatement& st)
    {
        const QStringList& a = st.args;
        int result = 1;
        int attributes = 0;
        for (qsizetype i = 0; i < a.size(); ++i) {
            QString attr = a[i].toLower();
            const bool negate = attr.startsWith(QLatin1Char('!'));
            if (negate)
                attr.remove(0, 1);
            if (attr == QLatin1String("all")) {
                if (attributes > 1 || i + 1 < a.size()) {
                    note(st, QStringLiteral("Match: 'all' cannot be combined with other Match attributes"));
                    return -1;
                }
                return result ? (negate ? 0 : 1) : 0;
            }
            ++attributes;
            if (attr == QLatin1String("canonical") || attr == QLatin1String("final")) {
                if (attr == QLatin1String("final"))
                    wantFinal = true;
                if (finalPass == negate)
                    result = 0;
                continue;
            }
            if (i + 1 >= a.size()) {
                note(st, QStringLiteral("Match: missing criteria for %1").arg(a[i]));
                return -1;
            }
            const QString& arg = a[++i];
            bool matched = false;
            if (attr == QLatin1String("host")) {
                matched = matchPatternList(matchHost().toLower(), arg, true) == 1;
            } else if (attr == QLatin1String("originalhost")) {
                matched = matchPatternList(alias.toLower(), arg, true) == 1;
            } else if (attr == QLatin1String("user")) {
                matched = matchPatternList(user ? user->value : local->user, arg, false) == 1;
            } else if (attr == QLatin1String("localuser")) {
                matched = matchPatternList(local->user, arg, false) == 1;
            } else if (attr == QLatin1String("exec")) {
                // ssh runs the command (unless an earlier criterion already failed); KernelForge
                // never runs a command from a configuration file, so the block does not apply.
                if (result == 1)
                    note(st,
                        QStringLiteral("\"Match exec\" is not run by KernelForge; this block is treated as not "
                                       "matching (ssh would run: %1)")
                            .arg(arg));
                result = 0;
                continue;
            } else {
                note(st, QStringLiteral("Match: unsupported attribute %1").arg(a[i - 1]));
                return -1;
            }
            if (matched == negate)
                result = 0;
        }
        if (attributes == 0) {
            note(st, QStringLiteral("Match: one or more attributes are required"));
            return -1;
        }
        return result;
    }

    void walk(const QList<SshConfigStatement>& statements, bool neverMatch)
    {
        // A file starts active unless it was included from a block that does not apply.
        bool active = !neverMatch;
        for (const SshConfigStatement& st : statements) {
            switch (st.kind) {
            case SshConfigStatement::Kind::Host: active = !neverMatch && hostMatches(st.args); break;
            case SshConfigStatement::Kind::Match: {
                // Evaluated even where it cannot apply, as ssh does: a `final` anywhere asks
                // for the final pass.
                const int v = evaluateMatch(st);
                active = !neverMatch && v == 1;
                break;
            }
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

    template <typename T> static void first(std::optional<Setting<T>>& slot, T value, const SshConfigStatement& st)
    {
        if (!slot)
            slot = Setting<T> { std::move(value), SshConfigNote { st.file, st.line, {} } };
    }

    void apply(const SshConfigStatement& st)
    {
        const QString& k = st.keyword;
        const QString& v = st.args.first();
        if (k == QLatin1String("hostname")) {
            first(hostName, v, st);
        } else if (k == QLatin1String("user")) {
            first(user, v, st);
        } else if (k == QLatin1String("port")) {
            first(port, quint16(v.toUInt()), st);
        } else if (k == QLatin1String("identityfile")) {
            const bool seen = std::any_of(
                identityRaw.cbegin(), identityRaw.cend(), [&v](const Setting<QString>& s) { return s.value == v; });
            if (!seen)
                identityRaw.append({ v, SshConfigNote { st.file, st.line, {} } });
        } else if (k == QLatin1String("proxyjump")) {
            // ProxyJump and ProxyCommand exclude each other; the first one seen wins.
            if (!proxyCommand)
                first(proxyJump, v, st);
        } else if (k == QLatin1String("proxycommand")) {
            if (!proxyJump)
                first(proxyCommand, v, st);
        } else if (k == QLatin1String("userknownhostsfile")) {
            first(knownHosts, st.args, st);
        } else if (k == QLatin1String("globalknownhostsfile")) {
            first(globalKnownHosts, st.args, st);
        } else if (k == QLatin1String("hashknownhosts")) {
            first(hashKnownHosts, v.compare(QLatin1String("yes"), Qt::CaseInsensitive) == 0, st);
        } else if (k == QLatin1String("canonicalizehostname")) {
            first(canonicalize, v.toLower(), st);
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
    p.sshConfigAlias = alias;
    p.host = hostName;
    p.port = port;
    p.user = user;
    p.identityFiles = identityFiles;
    p.proxyJump = proxyJump;
    p.knownHostsFile = userKnownHostsFiles.value(0);
    return p;
}

Result<SshHostConfig> resolveSshHost(const QList<SshConfig>& files, const QString& alias, const SshLocalContext& local,
    const SshCommandLine& commandLine)
{
    if (alias.isEmpty())
        return Result<SshHostConfig>::failure(QStringLiteral("empty host name"));
    SshHostConfig out;
    out.alias = alias;
    Resolver r;
    r.alias = alias;
    r.host = alias;
    r.local = &local;
    r.notes = &out.notes;
    // Values from the command line are obtained first, so they win (ssh.c sets them before
    // reading any file).
    const SshConfigNote cmd { QStringLiteral("command line"), 0, {} };
    if (!commandLine.user.isEmpty())
        r.user = Setting<QString> { commandLine.user, cmd };
    if (commandLine.port)
        r.port = Setting<quint16> { *commandLine.port, cmd };
    if (!commandLine.proxyJump.isEmpty())
        r.proxyJump = Setting<QString> { commandLine.proxyJump, cmd };
    for (const QString& k : commandLine.identityFiles)
        r.identityRaw.append({ k, cmd });
    for (const SshConfig& f : files)
        r.walk(f.statements, false);

    // HostName knows only %h (the alias) and %%; ssh then lower-cases a name (not an address).
    QString hostName = alias;
    if (r.hostName) {
        QString bad;
        const auto h = expandTokens(r.hostName->value, { { QLatin1Char('h'), alias } }, &bad, local.homeDir);
        if (!h)
            return Result<SshHostConfig>::failure(SshConfigNote { r.hostName->where.file, r.hostName->where.line,
                QStringLiteral("HostName %1: unknown token %2").arg(r.hostName->value, bad) }
                                                      .toString());
        hostName = *h;
        out.origins.insert(QStringLiteral("hostname"), r.hostName->where);
    }
    if (!isAddress(hostName))
        hostName = hostName.toLower();
    out.hostName = hostName;

    const bool canonicalize = r.canonicalize && r.canonicalize->value != QLatin1String("no");
    if (canonicalize)
        out.notes.append({ r.canonicalize->where.file, r.canonicalize->where.line,
            QStringLiteral("CanonicalizeHostname: KernelForge does not look names up in CanonicalDomains; the host "
                           "name is used as it is") });
    if (r.wantFinal || canonicalize) {
        // ssh.c: options.hostname is set to the final name before the files are read again,
        // so a HostName in the final pass changes nothing.
        if (!r.hostName)
            r.hostName = Setting<QString> { hostName, SshConfigNote { QStringLiteral("default"), 0, {} } };
        r.host = hostName;
        r.finalPass = true;
        for (const SshConfig& f : files)
            r.walk(f.statements, false);
    }

    if (r.user) {
        out.user = r.user->value;
        out.origins.insert(QStringLiteral("user"), r.user->where);
    }
    out.port = r.port ? r.port->value : 22;
    if (r.port)
        out.origins.insert(QStringLiteral("port"), r.port->where);
    if (r.proxyJump && r.proxyJump->value.compare(QLatin1String("none"), Qt::CaseInsensitive) != 0) {
        out.proxyJump = r.proxyJump->value;
        out.origins.insert(QStringLiteral("proxyjump"), r.proxyJump->where);
    }
    if (r.proxyCommand && r.proxyCommand->value.compare(QLatin1String("none"), Qt::CaseInsensitive) != 0) {
        out.proxyCommand = r.proxyCommand->value;
        out.notes.append({ r.proxyCommand->where.file, r.proxyCommand->where.line,
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
    for (const Setting<QString>& raw : std::as_const(r.identityRaw)) {
        out.identityFilesAsWritten.append(raw.value);
        QString bad;
        const auto v = expandTokens(raw.value, tokens, &bad, local.homeDir);
        if (!v)
            return Result<SshHostConfig>::failure(SshConfigNote { raw.where.file, raw.where.line,
                QStringLiteral("IdentityFile %1: unknown token %2").arg(raw.value, bad) }
                                                      .toString());
        if (v->compare(QLatin1String("none"), Qt::CaseInsensitive) != 0 && !out.identityFiles.contains(*v)) {
            out.identityFiles.append(*v);
            out.identityOrigins.append(raw.where);
        }
    }
    // UserKnownHostsFile and GlobalKnownHostsFile: lists of files, "none" for no file.
    auto fileList = [&](const std::optional<Setting<QStringList>>& raws, const char* keyword,
                        QStringList* files) -> Result<void> {
        if (!raws)
            return {};
        out.origins.insert(QString::fromLatin1(keyword).toLower(), raws->where);
        for (const QString& raw : raws->value) {
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
    if (r.hashKnownHosts)
        out.hashKnownHosts = r.hashKnownHosts->value;
    return out;
}

Result<SshHostConfig> resolveSshHost(
    const SshConfig& config, const QString& alias, const SshLocalContext& local, const SshCommandLine& commandLine)
{
    return resolveSshHost(QList<SshConfig> { config }, alias, local, commandLine);
}

QString SshConfigSources::home() const
{
    return homeDir.isEmpty() ? QDir::homePath() : homeDir;
}

Result<QList<SshConfig>> loadSshConfigs(const SshConfigSources& sources)
{
    QList<SshConfig> files;
    const QString home = sources.home();
    if (sources.explicitFile) {
        if (sources.userConfig.compare(QLatin1String("none"), Qt::CaseInsensitive) == 0)
            return files;
        auto config = loadSshConfig(sources.userConfig, home);
        if (!config)
            return config.withoutValue();
        files.append(config.value());
        return files;
    }
    const QString user = sources.userConfig.isEmpty() ? home + QStringLiteral("/.ssh/config") : sources.userConfig;
    for (const QString& path : { user, sources.systemConfig }) {
        if (path.isEmpty() || !QFileInfo(path).isFile())
            continue;
        auto config = loadSshConfig(path, home);
        if (!config)
            return config.withoutValue();
        files.append(config.value());
    }
    return files;
}

Result<QString> resolveJumpHops(const QString& proxyJump, const QList<SshConfig>& files, const SshLocalContext& local,
    QStringList* identityFiles, QList<SshConfigNote>* notes)
{
    if (proxyJump.isEmpty() || proxyJump.compare(QLatin1String("none"), Qt::CaseInsensitive) == 0)
        return QString();
    QStringList hops;
    for (const QString& spec : proxyJump.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        QString text = spec.trimmed();
        if (text.startsWith(QLatin1String("ssh://")))
            text = text.mid(6);
        const auto d = parseDestination(text);
        if (!d)
            return Result<QString>::failure(QStringLiteral("ProxyJump %1: %2").arg(spec, d.error()));
        SshCommandLine cmd;
        cmd.user = d->user;
        cmd.port = d->port;
        const auto hop = resolveSshHost(files, d->host, local, cmd);
        if (!hop)
            return Result<QString>::failure(QStringLiteral("ProxyJump %1: %2").arg(spec, hop.error()));
        if (!hop->proxyJump.isEmpty())
            notes->append({ hop->origins.value(QStringLiteral("proxyjump")).file,
                hop->origins.value(QStringLiteral("proxyjump")).line,
                QStringLiteral("the jump host %1 has a ProxyJump of its own (%2); KernelForge goes to it directly")
                    .arg(d->host, hop->proxyJump) });
        for (const QString& k : hop->identityFiles)
            if (!identityFiles->contains(k))
                identityFiles->append(k);
        Destination out;
        out.user = hop->user;
        out.host = hop->hostName;
        out.port = hop->port;
        hops.append(formatDestination(out));
    }
    return hops.join(QLatin1Char(','));
}

Result<FollowedProfile> followSshConfig(
    const HostProfile& profile, const QList<SshConfig>& files, const SshLocalContext& local)
{
    FollowedProfile out;
    out.profile = profile;
    if (profile.sshConfigAlias.isEmpty() || profile.isLocal || profile.isDemo)
        return out;
    const auto resolved = resolveSshHost(files, profile.sshConfigAlias, local);
    if (!resolved)
        return Result<FollowedProfile>::failure(
            QStringLiteral("%1 (from your ssh configuration): %2").arg(profile.sshConfigAlias, resolved.error()));
    out.config = resolved.value();
    out.notes = out.config.notes;
    HostProfile& p = out.profile;
    p.host = out.config.hostName;
    p.user = out.config.user;
    p.port = out.config.port;
    p.identityFiles = out.config.identityFiles;
    const auto hops = resolveJumpHops(out.config.proxyJump, files, local, &p.identityFiles, &out.notes);
    if (!hops)
        return hops.withoutValue();
    p.proxyJump = hops.value();
    p.knownHostsFile = out.config.userKnownHostsFiles.value(0);
    return out;
}

Result<FollowedProfile> followSshConfig(const HostProfile& profile, const SshConfigSources& sources)
{
    if (profile.sshConfigAlias.isEmpty() || profile.isLocal || profile.isDemo)
        return FollowedProfile { profile, {}, {} };
    const auto files = loadSshConfigs(sources);
    if (!files)
        return files.withoutValue();
    SshLocalContext local = SshLocalContext::current();
    local.homeDir = sources.home();
    return followSshConfig(profile, files.value(), local);
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
