// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/net/httpclient.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>

#include <utility>

// An HTTP/1.1 response read as it arrives, for streamed bodies (server-sent events): bytes go
// in as the socket delivers them, the body comes out without its framing as soon as each
// piece is complete. Pure: no I/O, no clock.
//
// The one HTTP response reader: httpGet and parseHttpResponse (core/net/httpclient.h) use it too.
// Wire format:
//   "HTTP/1.x <code> <reason>\r\n", header lines "Name: value\r\n", an empty line; then the
//   body delimited by Content-Length, by "Transfer-Encoding: chunked" (hex size line with an
//   optional ";ext", that many bytes, CRLF; a 0-size chunk and optional trailer lines end it),
//   or by the peer closing the connection. Bare "\n" line ends are accepted too.
// Bounds: the status line and headers together at most kHttpMaxHeaderBytes, a chunk-size line
// at most 1 KiB, the body at most maxBodyBytes (counted without framing). Past a bound, or on
// malformed framing, error() says what and nothing more is decoded.
// Work is linear in the input: every byte is looked at a bounded number of times.
namespace kf {

class HttpStreamDecoder
{
public:
    explicit HttpStreamDecoder(qint64 maxBodyBytes = kHttpMaxBodyBytes);

    // Appends the body bytes that `data` completes to *body. False once an error is set.
    bool feed(QByteArrayView data, QByteArray* body);
    // The peer closed: ends a body delimited by the close; anything else unfinished is an error.
    void closed();

    bool headersDone() const { return m_state != State::Head; }
    int status() const { return m_status; }
    const QString& reason() const { return m_reason; }
    QByteArray header(QByteArrayView name) const; // case-insensitive; empty when absent
    const QList<std::pair<QByteArray, QByteArray>>& headers() const { return m_headers; } // names as sent
    // The whole body arrived (Content-Length reached, last chunk read, or closed()).
    bool complete() const { return m_state == State::Done; }
    const QString& error() const { return m_error; }
    qint64 bodyBytes() const { return m_bodyBytes; }

private:
    enum class State { Head, Length, ChunkSize, ChunkData, ChunkDataEnd, Trailers, UntilClose, Done, Failed };
    bool fail(QString message);
    bool checkStatusLine(QByteArrayView statusLine);
    bool parseHead(QByteArrayView head);
    bool appendBody(QByteArrayView data, QByteArray* body);
    // Takes one line (without its end) from m_pending starting at *pos; false when incomplete.
    bool takeLine(qsizetype* pos, QByteArrayView* line);

    qint64 m_maxBody;
    State m_state = State::Head;
    QByteArray m_pending;         // bytes not yet consumed (the head, or a partial size/trailer line)
    qsizetype m_scanned = 0;      // m_pending[0, m_scanned) holds no head terminator
    bool m_statusChecked = false; // the status line was looked at before the head ended
    int m_status = 0;
    QString m_reason;
    QList<std::pair<QByteArray, QByteArray>> m_headers;
    qint64 m_remaining = 0; // of Content-Length, or of the current chunk
    qint64 m_bodyBytes = 0;
    QString m_error;
};

} // namespace kf
