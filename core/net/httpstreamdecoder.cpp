// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/net/httpstreamdecoder.h"

#include "core/util/bytelines.h"

namespace kf {
namespace {

constexpr qsizetype kMaxChunkLine = 1024;

QByteArrayView chompCr(QByteArrayView line)
{
    return line.endsWith('\r') ? line.chopped(1) : line;
}

} // namespace

HttpStreamDecoder::HttpStreamDecoder(qint64 maxBodyBytes)
    : m_maxBody(maxBodyBytes)
{ }

bool HttpStreamDecoder::fail(QString message)
{
    if (m_error.isEmpty())
        m_error = std::move(message);
    m_state = State::Failed;
    m_pending.clear();
    return false;
}

QByteArray HttpStreamDecoder::header(QByteArrayView name) const
{
    for (const auto& [n, v] : m_headers)
        if (QByteArrayView(n).compare(name, Qt::CaseInsensitive) == 0)
            return v;
    return {};
}

bool HttpStreamDecoder::checkStatusLine(QByteArrayView statusLine)
{
    // "HTTP/1.1 200 OK"
    if (!statusLine.startsWith("HTTP/1.") || statusLine.size() < 12 || statusLine.at(8) != ' ')
        return fail(QStringLiteral("not an HTTP/1.x status line: %1")
                        .arg(QString::fromLatin1(firstBytes(statusLine, 80).toByteArray())));
    return true;
}

bool HttpStreamDecoder::parseHead(QByteArrayView head)
{
    ByteLines lines(head);
    QByteArrayView raw;
    const QByteArrayView statusLine = lines.next(raw) ? chompCr(raw) : QByteArrayView();
    if (!checkStatusLine(statusLine))
        return false;
    bool ok = false;
    m_status = statusLine.sliced(9, 3).toInt(&ok);
    if (!ok || m_status < 100 || m_status > 999)
        return fail(QStringLiteral("bad HTTP status code in: %1")
                        .arg(QString::fromLatin1(firstBytes(statusLine, 80).toByteArray())));
    m_reason = QString::fromLatin1(statusLine.sliced(12).trimmed().toByteArray());
    while (lines.next(raw)) {
        const QByteArrayView line = chompCr(raw);
        if (line.isEmpty())
            continue;
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            return fail(QStringLiteral("malformed HTTP header line: %1")
                            .arg(QString::fromLatin1(firstBytes(line, 80).toByteArray())));
        m_headers.append({ line.first(colon).trimmed().toByteArray(), line.sliced(colon + 1).trimmed().toByteArray() });
    }
    if (m_status == 204 || m_status == 304 || (m_status >= 100 && m_status < 200)) {
        m_state = State::Done;
        return true;
    }
    if (header("Transfer-Encoding").toLower().contains("chunked")) {
        m_state = State::ChunkSize;
        return true;
    }
    if (const QByteArray cl = header("Content-Length"); !cl.isEmpty()) {
        bool ok = false;
        const qint64 length = cl.toLongLong(&ok);
        if (!ok || length < 0)
            return fail(QStringLiteral("bad Content-Length: %1").arg(QString::fromLatin1(cl.left(40))));
        if (length > m_maxBody)
            return fail(QStringLiteral("response body too large (%1 bytes, limit %2)").arg(length).arg(m_maxBody));
        m_remaining = length;
        m_state = length == 0 ? State::Done : State::Length;
        return true;
    }
    m_state = State::UntilClose;
    return true;
}

bool HttpStreamDecoder::appendBody(QByteArrayView data, QByteArray* body)
{
    if (m_bodyBytes + data.size() > m_maxBody)
        return fail(QStringLiteral("response body too large (at least %1 bytes, limit %2)")
                        .arg(m_bodyBytes + data.size())
                        .arg(m_maxBody));
    m_bodyBytes += data.size();
    if (body)
        body->append(data);
    return true;
}

bool HttpStreamDecoder::feed(QByteArrayView data, QByteArray* body)
{
    if (m_state == State::Failed)
        return false;
    if (m_state == State::Done)
        return true; // bytes past the end (a server that keeps talking) are not ours
    QByteArray headRest;
    if (m_state == State::Head) {
        m_pending.append(data);
        const qsizetype size = m_pending.size();
        qsizetype end = -1;
        qsizetype headLen = 0;
        for (qsizetype k = qMax<qsizetype>(0, m_scanned - 3); k < size; ++k) {
            if (m_pending.at(k) != '\n')
                continue;
            if (k + 1 < size && m_pending.at(k + 1) == '\n') {
                end = k + 2;
                headLen = k;
                break;
            }
            if (k + 2 < size && m_pending.at(k + 1) == '\r' && m_pending.at(k + 2) == '\n') {
                end = k + 3;
                headLen = k;
                break;
            }
        }
        if (end < 0) {
            // Not HTTP at all (an SSH banner on the port): said as soon as the first line is there.
            if (!m_statusChecked) {
                const qsizetype nl = m_pending.indexOf('\n', m_scanned);
                if (nl >= 0) {
                    m_statusChecked = true;
                    if (!checkStatusLine(chompCr(QByteArrayView(m_pending).first(nl))))
                        return false;
                }
            }
            m_scanned = size;
            if (size > kHttpMaxHeaderBytes)
                return fail(QStringLiteral("response headers exceed %1 bytes").arg(kHttpMaxHeaderBytes));
            return true;
        }
        if (headLen > kHttpMaxHeaderBytes)
            return fail(QStringLiteral("response headers exceed %1 bytes").arg(kHttpMaxHeaderBytes));
        if (!parseHead(QByteArrayView(m_pending).first(headLen)))
            return false;
        headRest = m_pending.mid(end);
        m_pending.clear();
        data = headRest;
    }
    qsizetype i = 0;
    const qsizetype n = data.size();
    while (i < n) {
        switch (m_state) {
        case State::Length:
        case State::ChunkData: {
            const qsizetype take = qsizetype(qMin<qint64>(m_remaining, n - i));
            if (!appendBody(data.sliced(i, take), body))
                return false;
            i += take;
            m_remaining -= take;
            if (m_remaining == 0)
                m_state = m_state == State::Length ? State::Done : State::ChunkDataEnd;
            break;
        }
        case State::UntilClose:
            if (!appendBody(data.sliced(i), body))
                return false;
            i = n;
            break;
        case State::ChunkDataEnd:
        case State::ChunkSize:
        case State::Trailers: {
            const qsizetype nl = data.indexOf('\n', i);
            const qsizetype limit = m_state == State::Trailers ? kHttpMaxHeaderBytes : kMaxChunkLine;
            if (nl < 0) {
                m_pending.append(data.sliced(i));
                i = n;
                if (m_pending.size() > limit)
                    return fail(QStringLiteral("chunked body: a line exceeds %1 bytes").arg(limit));
                break;
            }
            m_pending.append(data.sliced(i, nl - i));
            i = nl + 1;
            if (m_pending.size() > limit)
                return fail(QStringLiteral("chunked body: a line exceeds %1 bytes").arg(limit));
            const QByteArray lineBytes = std::exchange(m_pending, {});
            const QByteArrayView line = chompCr(lineBytes);
            if (m_state == State::ChunkDataEnd) {
                if (!line.isEmpty())
                    return fail(QStringLiteral("chunked body: chunk data not followed by CRLF"));
                m_state = State::ChunkSize;
            } else if (m_state == State::ChunkSize) {
                QByteArrayView sizeText = line;
                if (const qsizetype semi = sizeText.indexOf(';'); semi >= 0)
                    sizeText = sizeText.first(semi);
                sizeText = sizeText.trimmed();
                bool ok = false;
                const qint64 size = sizeText.size() <= 15 ? sizeText.toLongLong(&ok, 16) : -1;
                if (!ok || size < 0)
                    return fail(QStringLiteral("chunked body: bad chunk size line: %1")
                                    .arg(QString::fromLatin1(firstBytes(line, 40).toByteArray())));
                if (size == 0) {
                    m_state = State::Trailers;
                } else if (size > m_maxBody - m_bodyBytes) { // said before the chunk arrives
                    return fail(QStringLiteral("response body too large (at least %1 bytes, limit %2)")
                                    .arg(m_bodyBytes + size)
                                    .arg(m_maxBody));
                } else {
                    m_remaining = size;
                    m_state = State::ChunkData;
                }
            } else if (line.isEmpty()) {
                m_state = State::Done;
            }
            break;
        }
        case State::Done: return true;
        case State::Head:
        case State::Failed: return false;
        }
    }
    return true;
}

void HttpStreamDecoder::closed()
{
    switch (m_state) {
    case State::UntilClose:
    case State::Trailers: m_state = State::Done; break; // the last chunk came: trailers do not matter
    case State::Done:
    case State::Failed: break;
    case State::Head: fail(QStringLiteral("connection closed before the response headers ended")); break;
    case State::Length:
        fail(QStringLiteral("connection closed %1 bytes before the end of the response body").arg(m_remaining));
        break;
    default: fail(QStringLiteral("connection closed in the middle of a chunked response body")); break;
    }
}

} // namespace kf
