// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/util/loginshell.h"

namespace kf::loginshell {
namespace {

// Decodes every argument in place ("$@" becomes the decoded words; the x keeps trailing
// newlines that $(...) would strip), then evaluates the first as the script. Contains none
// of ' \ ! or a newline, so it is one plain single-quoted word for every login shell.
constexpr char kBootstrap[] = "for kf_a; do kf_v=$(printf \"$kf_a\"x); set -- \"$@\" \"${kf_v%x}\"; shift; done; "
                              "kf_s=$1; shift; eval \"$kf_s\"";

bool isPlain(char c)
{
    switch (c) {
    case '\'':
    case '"':
    case '\\':
    case '!':
    case '$':
    case '`':
    case '%': return false;
    default: return c >= 0x20 && c < 0x7f;
    }
}

} // namespace

QByteArray encode(const QByteArray& bytes)
{
    QByteArray out;
    out.reserve(bytes.size() + bytes.size() / 8 + 4);
    for (qsizetype i = 0; i < bytes.size(); ++i) {
        const char c = bytes.at(i);
        if (c == '%') {
            out += "%%";
        } else if (isPlain(c) && !(i == 0 && c == '-')) {
            out += c;
        } else {
            const auto u = static_cast<unsigned char>(c);
            out += '\\';
            out += char('0' + ((u >> 6) & 7));
            out += char('0' + ((u >> 3) & 7));
            out += char('0' + (u & 7));
        }
    }
    return out;
}

QByteArray line(const QString& script, const QList<QByteArray>& arguments)
{
    QByteArray out = QByteArrayLiteral("exec /bin/sh -c '") + kBootstrap + QByteArrayLiteral("' sh '")
        + encode(script.toUtf8()) + '\'';
    for (const QByteArray& a : arguments)
        out += QByteArrayLiteral(" '") + encode(a) + '\'';
    return out;
}

} // namespace kf::loginshell
