// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/fleet/promjson.h"

#include <QHash>

#include <charconv>
#include <cmath>

namespace kf::fleet::detail {

namespace {

constexpr int kMaxDepth = 32;

class Reader
{
public:
    explicit Reader(QByteArrayView text)
        : m_begin(text.data())
        , m_p(text.data())
        , m_end(text.data() + text.size())
    { }

    bool failed() const { return !m_error.isEmpty(); }
    const QString& error() const { return m_error; }
    qsizetype offset() const { return m_p - m_begin; }
    const char* position() const { return m_p; }
    void seek(const char* p) { m_p = p; }

    void fail(const QString& why)
    {
        if (m_error.isEmpty())
            m_error = QStringLiteral("%1 at byte %2").arg(why).arg(offset());
    }

    void ws()
    {
        while (m_p < m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t'))
            ++m_p;
    }
    char peek()
    {
        ws();
        return m_p < m_end ? *m_p : '\0';
    }
    bool take(char c)
    {
        if (peek() != c)
            return false;
        ++m_p;
        return true;
    }
    bool expect(char c)
    {
        if (take(c))
            return true;
        fail(m_p < m_end ? QStringLiteral("expected '%1'").arg(QLatin1Char(c)) : QStringLiteral("unexpected end"));
        return false;
    }

    // A string's raw bytes when it has no escape (a view into the input), else decoded.
    bool string(QByteArrayView* raw, QString* decoded, bool* escaped)
    {
        if (!expect('"'))
            return false;
        const char* start = m_p;
        while (m_p < m_end && *m_p != '"' && *m_p != '\\') {
            if (uchar(*m_p) < 0x20) {
                fail(QStringLiteral("control character in a string"));
                return false;
            }
            ++m_p;
        }
        if (m_p < m_end && *m_p == '"') {
            *raw = QByteArrayView(start, m_p - start);
            *escaped = false;
            ++m_p;
            return true;
        }
        QByteArray bytes(start, m_p - start);
        while (m_p < m_end && *m_p != '"') {
            const char c = *m_p++;
            if (uchar(c) < 0x20) {
                fail(QStringLiteral("control character in a string"));
                return false;
            }
            if (c != '\\') {
                bytes += c;
                continue;
            }
            if (m_p >= m_end)
                break;
            const char e = *m_p++;
            switch (e) {
            case '"': bytes += '"'; break;
            case '\\': bytes += '\\'; break;
            case '/': bytes += '/'; break;
            case 'b': bytes += '\b'; break;
            case 'f': bytes += '\f'; break;
            case 'n': bytes += '\n'; break;
            case 'r': bytes += '\r'; break;
            case 't': bytes += '\t'; break;
            case 'u': {
                uint cp = 0;
                if (!hex4(&cp))
                    return false;
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    uint lo = 0;
                    if (m_end - m_p >= 2 && m_p[0] == '\\' && m_p[1] == 'u') {
                        m_p += 2;
                        if (!hex4(&lo))
                            return false;
                    }
                    cp = (lo >= 0xDC00 && lo <= 0xDFFF) ? 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00) : 0xFFFD;
                } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                    cp = 0xFFFD;
                }
                const char32_t c32 = char32_t(cp);
                bytes += QString::fromUcs4(&c32, 1).toUtf8();
                break;
            }
            default: fail(QStringLiteral("bad escape \\%1").arg(QLatin1Char(e))); return false;
            }
        }
        if (m_p >= m_end) {
            fail(QStringLiteral("unterminated string"));
            return false;
        }
        ++m_p;
        *decoded = QString::fromUtf8(bytes);
        *escaped = true;
        return true;
    }

    bool string(QString* out)
    {
        QByteArrayView raw;
        bool escaped = false;
        if (!string(&raw, out, &escaped))
            return false;
        if (!escaped)
            *out = QString::fromUtf8(raw);
        return true;
    }

    // Label keys and values repeat thousands of times in one answer: one QString each.
    bool sharedString(QString* out)
    {
        QByteArrayView raw;
        bool escaped = false;
        if (!string(&raw, out, &escaped))
            return false;
        if (escaped)
            return true;
        if (raw.size() > 128) {
            *out = QString::fromUtf8(raw);
            return true;
        }
        auto it = m_shared.constFind(raw);
        if (it == m_shared.cend())
            it = m_shared.insert(raw, QString::fromUtf8(raw));
        *out = it.value();
        return true;
    }

    bool number(double* out)
    {
        ws();
        const char* start = m_p;
        if (m_p < m_end && *m_p == '-')
            ++m_p;
        while (m_p < m_end
            && ((*m_p >= '0' && *m_p <= '9') || *m_p == '.' || *m_p == 'e' || *m_p == 'E' || *m_p == '+'
                || *m_p == '-'))
            ++m_p;
        const auto r = std::from_chars(start, m_p, *out);
        if (r.ec != std::errc() || r.ptr != m_p || start == m_p) {
            m_p = start;
            fail(QStringLiteral("expected a number"));
            return false;
        }
        return true;
    }

    // Skips any value (bounded nesting).
    bool skip(int depth = 0)
    {
        if (depth > kMaxDepth) {
            fail(QStringLiteral("nested too deeply"));
            return false;
        }
        const char c = peek();
        if (c == '"') {
            QString ignored;
            QByteArrayView raw;
            bool escaped = false;
            return string(&raw, &ignored, &escaped);
        }
        if (c == '{' || c == '[') {
            ++m_p;
            const char close = c == '{' ? '}' : ']';
            if (take(close))
                return true;
            do {
                if (c == '{') {
                    QString key;
                    if (!string(&key) || !expect(':'))
                        return false;
                }
                if (!skip(depth + 1))
                    return false;
            } while (take(','));
            return expect(close);
        }
        for (const char* lit : { "true", "false", "null" }) {
            const qsizetype n = qsizetype(strlen(lit));
            if (m_end - m_p >= n && memcmp(m_p, lit, size_t(n)) == 0) {
                m_p += n;
                return true;
            }
        }
        double d = 0;
        return number(&d);
    }

    // Iterates an object's members: f(key) reads the value (or skips it).
    template <typename F> bool object(F&& f)
    {
        if (!expect('{'))
            return false;
        if (take('}'))
            return true;
        do {
            QString key;
            if (!string(&key) || !expect(':') || !f(key))
                return false;
        } while (take(','));
        return expect('}');
    }

    template <typename F> bool array(F&& f)
    {
        if (!expect('['))
            return false;
        if (take(']'))
            return true;
        int i = 0;
        do {
            if (!f(i++))
                return false;
        } while (take(','));
        return expect(']');
    }

private:
    bool hex4(uint* out)
    {
        if (m_end - m_p < 4) {
            fail(QStringLiteral("short \\u escape"));
            return false;
        }
        uint v = 0;
        for (int i = 0; i < 4; ++i) {
            const char h = *m_p++;
            v <<= 4;
            if (h >= '0' && h <= '9')
                v |= uint(h - '0');
            else if (h >= 'a' && h <= 'f')
                v |= uint(h - 'a' + 10);
            else if (h >= 'A' && h <= 'F')
                v |= uint(h - 'A' + 10);
            else {
                fail(QStringLiteral("bad \\u escape"));
                return false;
            }
        }
        *out = v;
        return true;
    }

    const char* m_begin;
    const char* m_p;
    const char* m_end;
    QString m_error;
    QHash<QByteArrayView, QString> m_shared;
};

// [T, "V"]
bool samplePair(Reader& r, double* t, double* v)
{
    if (!r.expect('[') || !r.number(t) || !r.expect(','))
        return false;
    QString text;
    if (!r.string(&text))
        return false;
    *v = parseSampleValue(text);
    return r.expect(']');
}

bool series(Reader& r, bool matrix, PromSeries* s)
{
    bool sawSample = false;
    const bool ok = r.object([&](const QString& key) {
        if (key == u"metric")
            return r.object([&](const QString& name) {
                QString value;
                if (r.peek() != '"') {
                    r.fail(QStringLiteral("label %1 is not a string").arg(name));
                    return false;
                }
                if (!r.sharedString(&value))
                    return false;
                s->metric.insert(name, value);
                return true;
            });
        if (!matrix && key == u"value") {
            sawSample = true;
            return samplePair(r, &s->timeS, &s->value);
        }
        if (matrix && key == u"values") {
            sawSample = true;
            return r.array([&](int) {
                double t = 0, y = 0;
                if (!samplePair(r, &t, &y))
                    return false;
                s->points.append(QPointF(std::round(t * 1000), y));
                return true;
            });
        }
        return r.skip();
    });
    if (ok && !sawSample) {
        r.fail(QStringLiteral("a series without %1").arg(matrix ? QStringLiteral("values") : QStringLiteral("value")));
        return false;
    }
    if (ok && matrix && !s->points.isEmpty()) {
        s->timeS = s->points.last().x() / 1000;
        s->value = s->points.last().y();
    }
    return ok;
}

} // namespace

Result<PromQueryResult> parseQueryJson(QByteArrayView body)
{
    Reader r(body);
    PromQueryResult out;
    QString status, errorType, error;
    const char* resultAt = nullptr;
    bool sawData = false;
    auto notAnswer = [&](const QString& why) {
        const QString start = QString::fromUtf8(body.first(qMin(body.size(), qsizetype(80)))).simplified();
        return Result<PromQueryResult>::failure(
            QStringLiteral("not a Prometheus API answer (%1): \"%2\"").arg(why, start));
    };
    if (r.peek() != '{')
        return notAnswer(QStringLiteral("not a JSON object"));
    const bool ok = r.object([&](const QString& key) {
        if (key == u"status")
            return r.string(&status);
        if (key == u"errorType")
            return r.string(&errorType);
        if (key == u"error")
            return r.string(&error);
        if (key == u"warnings")
            return r.array([&](int) {
                QString w;
                if (!r.string(&w))
                    return false;
                out.warnings << w;
                return true;
            });
        if (key == u"data") {
            sawData = true;
            if (r.peek() != '{')
                return r.skip();
            return r.object([&](const QString& dkey) {
                if (dkey == u"resultType")
                    return r.string(&out.resultType);
                if (dkey == u"result") {
                    // resultType may come after it: remember where it is and read it then.
                    resultAt = r.position();
                    return r.skip();
                }
                return r.skip();
            });
        }
        return r.skip();
    });
    if (!ok || (r.peek() != '\0'))
        return notAnswer(r.failed() ? r.error() : QStringLiteral("text after the JSON object"));
    if (status == u"error")
        return Result<PromQueryResult>::failure(QStringLiteral("Prometheus error (%1): %2").arg(errorType, error));
    if (status != u"success")
        return Result<PromQueryResult>::failure(
            QStringLiteral("not a Prometheus API answer: status \"%1\"").arg(status));
    if (!sawData)
        return Result<PromQueryResult>::failure(QStringLiteral("Prometheus answer without data"));
    const bool scalar = out.resultType == u"scalar" || out.resultType == u"string";
    const bool matrix = out.resultType == u"matrix";
    if (!scalar && !matrix && out.resultType != u"vector")
        return Result<PromQueryResult>::failure(QStringLiteral("unknown resultType \"%1\"").arg(out.resultType));
    if (!resultAt)
        return Result<PromQueryResult>::failure(QStringLiteral("%1 answer without result").arg(out.resultType));
    r.seek(resultAt);
    if (scalar) {
        PromSeries s;
        if (!samplePair(r, &s.timeS, &s.value))
            return Result<PromQueryResult>::failure(
                QStringLiteral("malformed %1 result: %2").arg(out.resultType, r.error()));
        out.series.append(s);
        return out;
    }
    if (r.peek() != '[')
        return Result<PromQueryResult>::failure(QStringLiteral("%1 result is not a list").arg(out.resultType));
    const bool read = r.array([&](int i) {
        PromSeries s;
        if (!series(r, matrix, &s)) {
            r.fail(QStringLiteral("in series %1").arg(i));
            return false;
        }
        out.series.append(std::move(s));
        return true;
    });
    if (!read)
        return Result<PromQueryResult>::failure(QStringLiteral("malformed sample: %1").arg(r.error()));
    return out;
}

} // namespace kf::fleet::detail
