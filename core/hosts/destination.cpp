// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/hosts/destination.h"

#include "core/util/pathcheck.h"
#include "core/util/terminaltext.h"

#include <QList>

namespace kf {

namespace {

// OpenSSH's colon() (misc.c): the index of the ':' that ends the host part, or -1. Brackets
// start at the beginning or right after an '@' and hide the ':'s of an IPv6 address.
qsizetype remoteColon(QStringView s)
{
    if (s.startsWith(u':'))
        return -1;
    bool bracket = s.startsWith(u'[');
    for (qsizetype i = 0; i < s.size(); ++i) {
        const QChar c = s[i];
        const QChar next = i + 1 < s.size() ? s[i + 1] : QChar();
        if (c == u'@' && next == u'[')
            bracket = true;
        if (c == u']' && bracket && next == u':')
            return i + 1;
        if (c == u':' && !bracket)
            return i;
        if (c == u'/')
            return -1;
    }
    return -1;
}

bool hasSpace(QStringView s)
{
    return std::any_of(s.begin(), s.end(), [](QChar c) { return c.isSpace(); });
}

} // namespace

std::optional<quint16> parsePort(QStringView text)
{
    if (text.isEmpty() || text.size() > 5
        || !std::all_of(text.begin(), text.end(), [](QChar c) { return c >= u'0' && c <= u'9'; }))
        return std::nullopt;
    const uint port = text.toUInt();
    if (port == 0 || port > 65535)
        return std::nullopt;
    return quint16(port);
}

bool hasRemoteColon(QStringView text)
{
    return remoteColon(text) >= 0;
}

Result<Destination> parseDestination(QStringView text, DestinationForm form)
{
    using R = Result<Destination>;
    // A newline in a remote path would end a shell word on the server (mv, rm); no part of a
    // destination has a use for a control character.
    if (const QString c = firstControlCharacter(text.toString()); !c.isEmpty())
        return R::failure(QStringLiteral("refusing a destination with the control character %1 in it").arg(c));
    const QString shown = text.toString();
    auto bad
        = [&](const QString& why) { return R::failure(QStringLiteral("bad destination '%1': %2").arg(shown, why)); };
    if (text.isEmpty())
        return R::failure(QStringLiteral("missing destination [user@]host"));

    Destination d;
    QStringView userHost = text; // [user@]host, then its host part
    QStringView tail;            // what follows the host part's ':' (port or path)
    bool hasTail = false;
    if (form == DestinationForm::Path) {
        if (const qsizetype colon = remoteColon(text); colon >= 0) {
            userHost = text.left(colon);
            tail = text.mid(colon + 1);
            hasTail = true;
        }
    } else if (text.startsWith(u"ssh://")) {
        userHost = text.mid(6);
        if (userHost.endsWith(u'/'))
            userHost.chop(1);
    }
    if (const qsizetype at = userHost.lastIndexOf(u'@'); at >= 0) {
        d.user = userHost.left(at).toString();
        userHost = userHost.mid(at + 1);
        if (d.user.isEmpty())
            return bad(QStringLiteral("empty user name before '@'"));
        if (hasSpace(d.user))
            return bad(QStringLiteral("whitespace in the user name"));
        if (d.user.contains(QLatin1Char('/')))
            return bad(QStringLiteral("'/' in the user name"));
        if (d.user.startsWith(QLatin1Char('-')))
            return bad(QStringLiteral("the user name starts with '-'"));
    }
    QStringView host = userHost;
    if (userHost.startsWith(u'[')) {
        const qsizetype close = userHost.indexOf(u']');
        if (close < 0)
            return bad(QStringLiteral("missing ']' after the IPv6 address"));
        host = userHost.mid(1, close - 1);
        const QStringView after = userHost.mid(close + 1);
        if (form == DestinationForm::Port && after.startsWith(u':')) {
            tail = after.mid(1);
            hasTail = true;
        } else if (!after.isEmpty()) {
            return bad(QStringLiteral("unexpected '%1' after ']'").arg(after));
        }
    } else if (form == DestinationForm::Port) {
        if (const qsizetype colon = userHost.indexOf(u':'); colon >= 0) {
            host = userHost.left(colon);
            tail = userHost.mid(colon + 1);
            hasTail = true;
            if (tail.contains(u':'))
                return bad(QStringLiteral("an IPv6 address needs brackets: [%1]").arg(userHost));
        }
    }
    if (host.isEmpty())
        return bad(QStringLiteral("missing host name"));
    if (hasSpace(host))
        return bad(QStringLiteral("whitespace in the host name"));
    for (const char16_t c : { u'/', u'[', u']' })
        if (host.contains(QChar(c)))
            return bad(QStringLiteral("'%1' in the host name").arg(QChar(c)));
    // As OpenSSH's ssh: no name it passes on may read as an option.
    if (host.startsWith(u'-'))
        return bad(QStringLiteral("the host name starts with '-'"));
    d.host = host.toString();
    if (form == DestinationForm::Path) {
        if (hasTail)
            d.path = tail.toString();
    } else if (hasTail) {
        if (tail.isEmpty())
            return bad(QStringLiteral("missing port after ':'"));
        d.port = parsePort(tail);
        if (!d.port)
            return bad(QStringLiteral("invalid port %1 (1-65535)").arg(tail));
    }
    return d;
}

QString formatDestination(const Destination& d)
{
    QString s = d.user.isEmpty() ? QString() : d.user + QLatin1Char('@');
    s += d.host.contains(QLatin1Char(':')) ? QLatin1Char('[') + d.host + QLatin1Char(']') : d.host;
    if (d.port)
        s += QLatin1Char(':') + QString::number(*d.port);
    return s;
}

Result<void> checkHostName(QStringView text)
{
    auto refuse = [&](const QString& why) {
        return Result<void>::failure(
            QStringLiteral("'%1' is not a host name or address: %2").arg(terminalSafe(text.left(300)), why));
    };
    // ASCII letters and digits, and the given punctuation.
    auto allowed = [](QChar c, QStringView punctuation) {
        const char16_t u = c.unicode();
        return (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9')
            || punctuation.contains(c);
    };
    if (text.isEmpty())
        return refuse(QStringLiteral("it is empty"));
    if (const QString c = firstControlCharacter(text.toString()); !c.isEmpty())
        return refuse(QStringLiteral("it has the control character %1").arg(c));
    if (text.size() > 253)
        return refuse(QStringLiteral("it is longer than 253 characters"));
    if (text.startsWith(u'-') || text.startsWith(u'.'))
        return refuse(QStringLiteral("it starts with '%1'").arg(text.front()));
    if (!text.contains(u':')) {
        for (const QChar c : text)
            if (!allowed(c, u"._-"))
                return refuse(QStringLiteral("'%1' is not a letter, digit, '-', '_' or '.'").arg(c));
        return {};
    }
    // IPv6, with an optional zone: fe80::1%eth0
    const qsizetype zone = text.indexOf(u'%');
    for (const QChar c : zone < 0 ? text : text.left(zone))
        if (!(allowed(c, u":.") && (c.isDigit() || QStringView(u"abcdefABCDEF:.").contains(c))))
            return refuse(QStringLiteral("'%1' in an IPv6 address").arg(c));
    if (zone >= 0) {
        if (zone + 1 == text.size())
            return refuse(QStringLiteral("an empty zone after '%'"));
        for (const QChar c : text.mid(zone + 1))
            if (!allowed(c, u"._-"))
                return refuse(QStringLiteral("'%1' in the IPv6 zone").arg(c));
    }
    return {};
}

Result<void> checkProxyJump(QStringView text)
{
    const QStringView jumps = text.trimmed();
    if (jumps.compare(u"none", Qt::CaseInsensitive) == 0)
        return {};
    for (const QStringView hop : jumps.split(u',')) {
        const auto d = parseDestination(hop);
        if (!d)
            return Result<void>::failure(QStringLiteral("ProxyJump: %1").arg(d.error()));
        if (const auto host = checkHostName(d->host); !host)
            return Result<void>::failure(QStringLiteral("ProxyJump: %1").arg(host.error()));
        for (const QChar c : d->user)
            if (c.unicode() >= 0x80 || !(c.isLetterOrNumber() || QStringView(u"._-@").contains(c)))
                return Result<void>::failure(
                    QStringLiteral("ProxyJump: the user name '%1' has '%2' (letters, digits, '.', '_', '-', '@')")
                        .arg(terminalSafe(d->user), QString(c)));
    }
    return {};
}

} // namespace kf
