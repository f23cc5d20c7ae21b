// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/progressparser.h"

#include <algorithm>
#include <cstring>

namespace kf {
namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// Reads an unsigned integer at pos; returns -1 when there is none (or it overflows).
qint64 readInt(QByteArrayView s, qsizetype& pos)
{
    const qsizetype begin = pos;
    qint64 v = 0;
    while (pos < s.size() && isDigit(s[pos])) {
        v = v * 10 + (s[pos] - '0');
        if (v > (qint64(1) << 40))
            return -1;
        ++pos;
    }
    return pos == begin ? -1 : v;
}

// "734" or "734.25" (digits and at most one '.', a digit first and last, at most 15 digits) as
// exactly the double toDouble() gives: the digits are an exact integer below 2^53, the power of
// ten is exact, and IEEE division rounds once, correctly, as toDouble() does. Anything else is
// std::nullopt and goes through toDouble(). Every progress line of our NINJA_STATUS has one.
std::optional<double> simpleDecimal(QByteArrayView s)
{
    static constexpr double kPow10[]
        = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15 };
    if (s.isEmpty() || !isDigit(s.front()) || !isDigit(s.back()))
        return std::nullopt;
    qint64 mantissa = 0;
    int digits = 0;
    int fraction = -1;
    for (const char c : s) {
        if (c == '.') {
            if (fraction >= 0)
                return std::nullopt;
            fraction = 0;
            continue;
        }
        if (!isDigit(c) || ++digits > 15)
            return std::nullopt;
        mantissa = mantissa * 10 + (c - '0');
        if (fraction >= 0)
            ++fraction;
    }
    return double(mantissa) / kPow10[std::max(fraction, 0)];
}

} // namespace

QByteArrayView normalizeLogLine(QByteArrayView line, QByteArray& scratch)
{
    QByteArrayView out = line;
    if (!line.isEmpty() && std::memchr(line.data(), '\x1b', size_t(line.size()))) {
        scratch.resize(0);
        scratch.reserve(line.size());
        // Strip CSI escapes (ESC [ ... final byte 0x40-0x7e) and lone ESC sequences.
        for (qsizetype i = 0; i < line.size(); ++i) {
            const char c = line[i];
            if (c == '\x1b') {
                if (i + 1 < line.size() && line[i + 1] == '[') {
                    i += 2;
                    while (i < line.size() && !(line[i] >= 0x40 && line[i] <= 0x7e))
                        ++i;
                } else {
                    ++i;
                }
                continue;
            }
            scratch.append(c);
        }
        out = scratch;
    }
    // Leading wrappers: spaces/tabs and the box-drawing bars uv and rich draw ("│", "┃", "|" + space).
    qsizetype b = 0;
    for (;;) {
        while (b < out.size() && (out[b] == ' ' || out[b] == '\t'))
            ++b;
        const QByteArrayView rest = out.sliced(b);
        if (rest.startsWith("\xe2\x94\x82 ") || rest.startsWith("\xe2\x94\x83 ")) { // │ ┃
            b += 4;
            continue;
        }
        if (rest.startsWith("| ")) {
            b += 2;
            continue;
        }
        break;
    }
    qsizetype e = out.size();
    while (e > b && (out[e - 1] == ' ' || out[e - 1] == '\t'))
        --e;
    return out.sliced(b, e - b);
}

QByteArray normalizeLogLine(QByteArrayView line)
{
    QByteArray scratch;
    const QByteArrayView v = normalizeLogLine(line, scratch);
    return QByteArray(v.data(), v.size());
}

std::optional<ProgressUpdate> parseProgressLine(QByteArrayView s)
{
    if (s.size() < 4 || s[0] != '[')
        return std::nullopt;
    qsizetype pos = 1;
    ProgressUpdate u;
    if (s.sliced(pos).startsWith("kf ")) {
        u.source = ProgressUpdate::Source::NinjaKf;
        pos += 3;
    } else if (s[pos] == ' ' || (isDigit(s[pos]) && s.indexOf('%') > 0 && s.indexOf('%') < s.indexOf(']'))) {
        // "[ 42%]" / "[100%]"
        while (pos < s.size() && s[pos] == ' ')
            ++pos;
        const qint64 pct = readInt(s, pos);
        if (pct < 0 || pct > 100 || pos + 1 >= s.size() || s[pos] != '%' || s[pos + 1] != ']')
            return std::nullopt;
        u.source = ProgressUpdate::Source::CMakePercent;
        u.percent = int(pct);
        pos += 2;
        u.description = QString::fromUtf8(s.sliced(pos)).trimmed();
        return u;
    }
    const qint64 done = readInt(s, pos);
    if (done < 0 || pos >= s.size() || s[pos] != '/')
        return std::nullopt;
    ++pos;
    const qint64 total = readInt(s, pos);
    if (total <= 0 || done > total || pos >= s.size())
        return std::nullopt;
    if (u.source == ProgressUpdate::Source::NinjaKf) {
        if (s[pos] != ' ')
            return std::nullopt;
        ++pos;
        const qint64 running = readInt(s, pos);
        if (running < 0 || pos >= s.size() || s[pos] != ' ')
            return std::nullopt;
        ++pos;
        const qsizetype numBegin = pos;
        while (pos < s.size() && (isDigit(s[pos]) || s[pos] == '.'))
            ++pos;
        const QByteArrayView number = s.sliced(numBegin, pos - numBegin);
        double elapsed = 0;
        if (const auto simple = simpleDecimal(number)) {
            elapsed = *simple;
        } else {
            bool ok = false;
            elapsed = number.toDouble(&ok);
            if (!ok)
                return std::nullopt;
        }
        u.running = int(running);
        u.elapsedS = elapsed;
    }
    if (pos >= s.size() || s[pos] != ']')
        return std::nullopt;
    ++pos;
    u.done = int(done);
    u.total = int(total);
    u.percent = int(done * 100 / total);
    u.description = QString::fromUtf8(s.sliced(pos)).trimmed();
    return u;
}

} // namespace kf
