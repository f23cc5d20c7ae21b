// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/server/prometheustext.h"

#include "core/util/bytelines.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace kf {

namespace {

bool isNameStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}
bool isNameChar(char c)
{
    return isNameStart(c) || (c >= '0' && c <= '9');
}

struct Cursor
{
    QByteArrayView s;
    qsizetype i = 0;
    bool atEnd() const { return i >= s.size(); }
    char peek() const { return atEnd() ? '\0' : s[i]; }
    void skipSpace()
    {
        while (!atEnd() && (s[i] == ' ' || s[i] == '\t'))
            ++i;
    }
    QByteArrayView name()
    {
        const qsizetype b = i;
        if (atEnd() || !isNameStart(s[i]))
            return {};
        while (!atEnd() && isNameChar(s[i]))
            ++i;
        return s.sliced(b, i - b);
    }
    QByteArrayView token()
    {
        const qsizetype b = i;
        while (!atEnd() && s[i] != ' ' && s[i] != '\t')
            ++i;
        return s.sliced(b, i - b);
    }
};

bool parseFloat(QByteArrayView t, double* out)
{
    if (t.isEmpty())
        return false;
    if (t == "NaN" || t == "nan") {
        *out = std::numeric_limits<double>::quiet_NaN();
        return true;
    }
    if (t == "+Inf" || t == "Inf" || t == "+inf" || t == "inf") {
        *out = std::numeric_limits<double>::infinity();
        return true;
    }
    if (t == "-Inf" || t == "-inf") {
        *out = -std::numeric_limits<double>::infinity();
        return true;
    }
    const char* b = t.data();
    if (*b == '+')
        ++b;
    const auto r = std::from_chars(b, t.data() + t.size(), *out);
    return r.ec == std::errc() && r.ptr == t.data() + t.size();
}

QString unescape(QByteArrayView v, bool quotes)
{
    QByteArray out;
    out.reserve(v.size());
    for (qsizetype i = 0; i < v.size(); ++i) {
        if (v[i] == '\\' && i + 1 < v.size()) {
            const char n = v[++i];
            if (n == 'n')
                out.append('\n');
            else if (n == '\\')
                out.append('\\');
            else if (n == '"' && quotes)
                out.append('"');
            else {
                out.append('\\');
                out.append(n);
            }
        } else {
            out.append(v[i]);
        }
    }
    return QString::fromUtf8(out);
}

// Parses one sample line; returns an error text or empty on success.
QString parseSample(QByteArrayView line, PromSample* s)
{
    Cursor c { line };
    const QByteArrayView name = c.name();
    if (name.isEmpty())
        return QStringLiteral("expected a metric name");
    s->name = QString::fromUtf8(name);
    c.skipSpace();
    if (c.peek() == '{') {
        ++c.i;
        while (true) {
            c.skipSpace();
            if (c.peek() == '}') {
                ++c.i;
                break;
            }
            const QByteArrayView key = c.name();
            if (key.isEmpty())
                return QStringLiteral("expected a label name");
            c.skipSpace();
            if (c.peek() != '=')
                return QStringLiteral("expected '=' after label %1").arg(QString::fromUtf8(key));
            ++c.i;
            c.skipSpace();
            if (c.peek() != '"')
                return QStringLiteral("expected '\"' for label %1").arg(QString::fromUtf8(key));
            ++c.i;
            const qsizetype b = c.i;
            bool closed = false;
            while (!c.atEnd()) {
                if (line[c.i] == '\\') {
                    c.i += 2;
                    continue;
                }
                if (line[c.i] == '"') {
                    closed = true;
                    break;
                }
                ++c.i;
            }
            if (!closed || c.i > line.size())
                return QStringLiteral("unterminated label value");
            s->labels.append({ QString::fromUtf8(key), unescape(line.sliced(b, c.i - b), true) });
            ++c.i;
            c.skipSpace();
            if (c.peek() == ',') {
                ++c.i;
                continue;
            }
            if (c.peek() == '}') {
                ++c.i;
                break;
            }
            return QStringLiteral("expected ',' or '}' in labels");
        }
    }
    c.skipSpace();
    const QByteArrayView valueText = c.token();
    if (!parseFloat(valueText, &s->value))
        return QStringLiteral("bad value '%1'").arg(QString::fromUtf8(valueText));
    c.skipSpace();
    if (!c.atEnd()) {
        const QByteArrayView ts = c.token();
        qint64 t = 0;
        const auto r = std::from_chars(ts.data(), ts.data() + ts.size(), t);
        if (r.ec != std::errc() || r.ptr != ts.data() + ts.size())
            return QStringLiteral("bad timestamp '%1'").arg(QString::fromUtf8(ts));
        s->timestampMs = t;
        c.skipSpace();
        if (!c.atEnd())
            return QStringLiteral("trailing text");
    }
    return {};
}

} // namespace

bool PromText::has(QStringView name) const
{
    return std::any_of(samples.cbegin(), samples.cend(), [&](const PromSample& s) { return s.name == name; });
}

QList<const PromSample*> PromText::find(QStringView name) const
{
    QList<const PromSample*> out;
    for (const auto& s : samples) {
        if (s.name == name)
            out.append(&s);
    }
    return out;
}

double PromText::sum(QStringView name) const
{
    double total = noValue();
    for (const auto& s : samples) {
        if (s.name == name)
            total = (hasValue(total) ? total : 0.0) + s.value;
    }
    return total;
}

PromText parsePrometheusText(QByteArrayView data)
{
    PromText text;
    ByteLines lines(data);
    for (QByteArrayView line; lines.next(line);) {
        const int lineNo = lines.number();
        while (!line.isEmpty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
            line.chop(1);
        while (!line.isEmpty() && (line.front() == ' ' || line.front() == '\t'))
            line = line.sliced(1);
        if (line.isEmpty())
            continue;
        if (line.front() == '#') {
            Cursor c { line, 1 };
            c.skipSpace();
            const QByteArrayView kw = c.token();
            if (kw != "HELP" && kw != "TYPE")
                continue; // a plain comment
            c.skipSpace();
            const QByteArrayView family = c.name();
            if (family.isEmpty())
                continue;
            c.skipSpace();
            const QByteArrayView rest = line.sliced(c.i);
            if (kw == "HELP")
                text.help.insert(QString::fromUtf8(family), unescape(rest, false));
            else
                text.types.insert(QString::fromUtf8(family), QString::fromUtf8(rest).trimmed());
            continue;
        }
        PromSample s;
        const QString error = parseSample(line, &s);
        if (!error.isEmpty()) {
            ++text.badLines;
            if (text.errors.size() < 10)
                text.errors.append(QStringLiteral("line %1: %2").arg(lineNo).arg(error));
            continue;
        }
        text.samples.append(std::move(s));
    }
    return text;
}

Histogram histogramFrom(const PromText& text, QStringView name)
{
    Histogram h;
    const QString bucket = name + QStringLiteral("_bucket");
    const QString sum = name + QStringLiteral("_sum");
    const QString count = name + QStringLiteral("_count");
    // Every bucket sample first, then one sort and one merge of equal bounds (label sets of
    // several ranks or models repeat each bound): never a search per sample.
    QList<HistogramBucket> all;
    for (const auto& s : text.samples) {
        if (s.name == bucket) {
            double le = 0;
            if (!parseFloat(s.label(u"le").toUtf8(), &le) || !hasValue(le))
                continue;
            all.append({ le, s.value });
        } else if (s.name == sum) {
            h.sum += s.value;
        } else if (s.name == count) {
            h.count += s.value;
        }
    }
    std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.upperBound < b.upperBound; });
    for (const HistogramBucket& b : std::as_const(all)) {
        if (!h.buckets.isEmpty() && h.buckets.last().upperBound == b.upperBound)
            h.buckets.last().count += b.count;
        else
            h.buckets.append(b);
    }
    if (!h.buckets.isEmpty() && h.count == 0)
        h.count = h.buckets.last().count;
    return h;
}

Histogram histogramDelta(const Histogram& later, const Histogram& earlier)
{
    if (earlier.buckets.size() != later.buckets.size() || later.count < earlier.count)
        return later;
    Histogram d;
    d.sum = later.sum - earlier.sum;
    d.count = later.count - earlier.count;
    for (qsizetype i = 0; i < later.buckets.size(); ++i) {
        if (later.buckets[i].upperBound != earlier.buckets[i].upperBound
            || later.buckets[i].count < earlier.buckets[i].count)
            return later;
        d.buckets.append({ later.buckets[i].upperBound, later.buckets[i].count - earlier.buckets[i].count });
    }
    return d;
}

namespace {

// The rank lies in the +Inf bucket `inf`: only "above the largest finite bound" is known
// (nothing when no bucket below it is finite: only -Inf, or none at all).
Quantile aboveLargestFiniteBound(const Histogram& h, qsizetype inf)
{
    Quantile out;
    for (qsizetype i = inf - 1; i >= 0; --i) {
        if (std::isfinite(h.buckets[i].upperBound)) {
            out.value = h.buckets[i].upperBound;
            out.above = true;
            break;
        }
    }
    return out;
}

} // namespace

Quantile histogramQuantile(const Histogram& h, double q)
{
    Quantile out;
    if (h.buckets.isEmpty() || !(q >= 0 && q <= 1))
        return out;
    const double total = h.buckets.last().count;
    if (!(total > 0))
        return out;
    const double rank = q * total;
    double prevBound = 0;
    double prevCount = 0;
    for (qsizetype i = 0; i < h.buckets.size(); ++i) {
        const auto& b = h.buckets[i];
        if (b.count >= rank) {
            if (std::isinf(b.upperBound) && b.upperBound > 0)
                return aboveLargestFiniteBound(h, i);
            const double inBucket = b.count - prevCount;
            if (inBucket <= 0) {
                out.value = b.upperBound;
                return out;
            }
            // The lowest bucket starts at 0 unless its bound is negative.
            const double lower = (i == 0 && b.upperBound <= 0) ? b.upperBound : prevBound;
            out.value = lower + (b.upperBound - lower) * ((rank - prevCount) / inBucket);
            return out;
        }
        prevBound = b.upperBound;
        prevCount = b.count;
    }
    // Counts that go down (not cumulative): the last bound, flagged when it is +Inf.
    const double last = h.buckets.last().upperBound;
    if (std::isinf(last) && last > 0)
        return aboveLargestFiniteBound(h, h.buckets.size() - 1);
    out.value = last;
    return out;
}

} // namespace kf
