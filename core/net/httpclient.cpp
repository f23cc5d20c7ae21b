// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/net/httpclient.h"

#include <QElapsedTimer>

#include <charconv>

namespace kf {

namespace {

// Next line from pos (without its "\r\n" or "\n"); false when no full line is there yet.
bool nextLine(QByteArrayView data, qsizetype* pos, QByteArrayView* line)
{
    const qsizetype nl = data.indexOf('\n', *pos);
    if (nl < 0)
        return false;
    qsizetype end = nl;
    if (end > *pos && data[end - 1] == '\r')
        --end;
    *line = data.sliced(*pos, end - *pos);
    *pos = nl + 1;
    return true;
}

QByteArrayView trimmedView(QByteArrayView v)
{
    while (!v.isEmpty() && (v.front() == ' ' || v.front() == '\t'))
        v = v.sliced(1);
    while (!v.isEmpty() && (v.back() == ' ' || v.back() == '\t'))
        v.chop(1);
    return v;
}

QString bodyTooLarge(qint64 size, qint64 limit, bool atLeast = false)
{
    return QStringLiteral("response body too large (%1%2 bytes, limit %3)")
        .arg(atLeast ? QStringLiteral("at least ") : QString())
        .arg(size)
        .arg(limit);
}

} // namespace

QByteArray HttpResponse::header(QByteArrayView name) const
{
    for (const auto& [k, v] : headers) {
        if (QByteArrayView(k).compare(name, Qt::CaseInsensitive) == 0)
            return v;
    }
    return {};
}

HttpParse parseHttpResponse(QByteArrayView data, bool closed, qint64 maxBody)
{
    HttpParse p;
    qsizetype pos = 0;
    QByteArrayView line;
    // Headers end within the first kHttpMaxHeaderBytes or never: an endless header stream stops here.
    const QByteArrayView head = data.first(qMin(data.size(), kHttpMaxHeaderBytes));
    auto headersTooLong = [&] {
        if (data.size() < kHttpMaxHeaderBytes)
            return false;
        p.error = QStringLiteral("response headers exceed %1 bytes").arg(kHttpMaxHeaderBytes);
        return true;
    };
    if (!nextLine(head, &pos, &line)) {
        if (headersTooLong())
            return p;
        if (closed)
            p.error = data.isEmpty() ? QStringLiteral("connection closed without a response")
                                     : QStringLiteral("truncated status line");
        return p;
    }
    // "HTTP/1.1 200 OK"
    if (!line.startsWith("HTTP/1.") || line.size() < 12 || line[8] != ' ') {
        p.error = QStringLiteral("not an HTTP response: %1")
                      .arg(QString::fromUtf8(line.first(qMin<qsizetype>(line.size(), 60))));
        return p;
    }
    int status = 0;
    const auto r = std::from_chars(line.data() + 9, line.data() + 12, status);
    if (r.ec != std::errc() || status < 100 || status > 999) {
        p.error = QStringLiteral("bad status line");
        return p;
    }
    p.response.status = status;
    p.response.reason = QString::fromUtf8(trimmedView(line.sliced(12)));
    bool headersDone = false;
    while (nextLine(head, &pos, &line)) {
        if (line.isEmpty()) {
            headersDone = true;
            break;
        }
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0) {
            p.error = QStringLiteral("bad header line");
            return p;
        }
        p.response.headers.append(
            { line.first(colon).toByteArray(), trimmedView(line.sliced(colon + 1)).toByteArray() });
    }
    if (!headersDone) {
        if (headersTooLong())
            return p;
        if (closed)
            p.error = QStringLiteral("connection closed inside the headers");
        return p;
    }
    const QByteArrayView rest = data.sliced(pos);
    if (p.response.header("Transfer-Encoding").toLower().contains("chunked")) {
        qsizetype cpos = 0;
        // Chunks are located first and copied once the last one is there: parsing is re-run
        // as data arrives, and copying every time would be quadratic.
        QList<std::pair<qsizetype, qsizetype>> chunks; // offset, size in rest
        qint64 bodySize = 0;
        while (true) {
            QByteArrayView sizeLine;
            if (!nextLine(rest, &cpos, &sizeLine)) {
                if (closed)
                    p.error = QStringLiteral("connection closed inside a chunked body");
                return p;
            }
            const qsizetype semi = sizeLine.indexOf(';');
            if (semi >= 0)
                sizeLine = sizeLine.first(semi);
            sizeLine = trimmedView(sizeLine);
            qint64 size = 0;
            const auto rr = std::from_chars(sizeLine.data(), sizeLine.data() + sizeLine.size(), size, 16);
            if (rr.ec != std::errc() || rr.ptr != sizeLine.data() + sizeLine.size() || size < 0) {
                p.error = QStringLiteral("bad chunk size");
                return p;
            }
            if (size == 0)
                break; // trailers, if any, do not matter to us
            if (size > maxBody - bodySize) {
                p.error = bodyTooLarge(bodySize + size, maxBody, true);
                return p;
            }
            if (rest.size() - cpos < size + 1) {
                if (closed)
                    p.error = QStringLiteral("connection closed inside a chunk");
                return p;
            }
            chunks.append({ cpos, qsizetype(size) });
            bodySize += size;
            cpos += size;
            QByteArrayView crlf;
            if (!nextLine(rest, &cpos, &crlf)) {
                if (closed)
                    p.error = QStringLiteral("connection closed inside a chunk");
                return p;
            }
        }
        p.response.body.reserve(qsizetype(bodySize));
        for (const auto& [offset, size] : chunks)
            p.response.body.append(rest.sliced(offset, size));
        p.complete = true;
        return p;
    }
    const QByteArray lengthText = p.response.header("Content-Length");
    if (!lengthText.isEmpty()) {
        bool ok = false;
        const qint64 length = lengthText.trimmed().toLongLong(&ok);
        if (!ok || length < 0) {
            p.error = QStringLiteral("bad Content-Length");
            return p;
        }
        if (length > maxBody) {
            p.error = bodyTooLarge(length, maxBody);
            return p;
        }
        if (rest.size() < length) {
            if (closed)
                p.error = QStringLiteral("connection closed after %1 of %2 body bytes").arg(rest.size()).arg(length);
            return p;
        }
        p.response.body = rest.first(length).toByteArray();
        p.complete = true;
        return p;
    }
    if (status == 204 || status == 304 || status < 200) {
        p.complete = true;
        return p;
    }
    if (rest.size() > maxBody) {
        p.error = bodyTooLarge(rest.size(), maxBody, true);
        return p;
    }
    p.complete = closed;
    if (closed)
        p.response.body = rest.toByteArray(); // not on every partial parse: that would be quadratic
    return p;
}

namespace {

Result<void> checkHeaders(const HttpHeaders& headers)
{
    auto bad = [](const QByteArray& b) { return b.contains('\r') || b.contains('\n') || b.contains('\0'); };
    for (const auto& [name, value] : headers) {
        // The value is never quoted: it may be a token.
        if (name.isEmpty() || bad(name) || bad(value) || name.contains(':'))
            return Result<void>::failure(
                QStringLiteral("invalid header %1: a control character or ':' in it").arg(QString::fromUtf8(name)));
    }
    return {};
}

} // namespace

Result<HttpResponse> httpGet(TunnelStream& stream, const QString& host, quint16 port, const QString& path,
    int timeoutMs, qint64 maxBodyBytes, const HttpHeaders& headers)
{
    QByteArray request = "GET " + path.toUtf8() + " HTTP/1.1\r\nHost: " + host.toUtf8() + ':' + QByteArray::number(port)
        + "\r\nUser-Agent: KernelForge\r\nAccept: */*\r\nConnection: close\r\n";
    if (const Result<void> valid = checkHeaders(headers); !valid) {
        stream.close();
        return valid;
    }
    for (const auto& [name, value] : headers)
        request += name + ": " + value + "\r\n";
    request += "\r\n";
    const Result<void> written = stream.write(request);
    if (!written)
        return written;
    QElapsedTimer timer;
    timer.start();
    QByteArray data;
    while (true) {
        const int left = int(timeoutMs - timer.elapsed());
        if (left <= 0) {
            stream.close();
            return Result<HttpResponse>::failure(
                QStringLiteral("timed out after %1 ms waiting for %2").arg(timeoutMs).arg(path));
        }
        auto chunk = stream.read(qMin(left, 1000));
        if (!chunk) {
            stream.close();
            return chunk.withoutValue();
        }
        data.append(chunk.value());
        const bool closed = stream.atEnd();
        HttpParse parsed = parseHttpResponse(data, closed, maxBodyBytes);
        if (!parsed.error.isEmpty()) {
            stream.close();
            return Result<HttpResponse>::failure(QStringLiteral("GET %1: %2").arg(path, parsed.error));
        }
        if (parsed.complete) {
            stream.close();
            return std::move(parsed.response);
        }
        if (closed) {
            stream.close();
            return Result<HttpResponse>::failure(QStringLiteral("GET %1: connection closed early").arg(path));
        }
    }
}

Result<HttpResponse> httpGet(Transport& transport, const QString& host, quint16 port, const QString& path,
    int timeoutMs, qint64 maxBodyBytes, const HttpHeaders& headers)
{
    if (const Result<void> valid = checkHeaders(headers); !valid)
        return valid;
    auto tunnel = transport.openTunnel(host, port);
    if (!tunnel)
        return Result<HttpResponse>::failure(QStringLiteral("cannot reach %1:%2 on %3: %4")
                                                 .arg(host)
                                                 .arg(port)
                                                 .arg(transport.describe(), tunnel.error()));
    return httpGet(*tunnel.value(), host, port, path, timeoutMs, maxBodyBytes, headers);
}

} // namespace kf
