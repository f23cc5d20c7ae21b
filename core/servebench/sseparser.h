// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>

// Server-sent events (the WHATWG event-stream format) as inference servers stream them:
//   data: {"choices":[{"text":" the"}]}\n
//   \n
//   data: [DONE]\n
//   \n
// Lines end in "\n", "\r\n" or "\r". A line "data: V" (or "data:V") appends V to the event's
// data; further data lines are joined with "\n"; an empty line dispatches the event (nothing
// is dispatched for an event without data). Lines starting with ':' are comments (keep-alives);
// other fields (event:, id:, retry:) are ignored. Pure and linear; bounded: a line or an event's
// data longer than maxEventBytes is an error ("server-sent event exceeds N bytes").
namespace kf {

class SseParser
{
public:
    static constexpr qsizetype kDefaultMaxEventBytes = qsizetype(4) << 20;
    explicit SseParser(qsizetype maxEventBytes = kDefaultMaxEventBytes);

    // Appends the data of each event that `bytes` completes to *events. False once an error is set.
    bool feed(QByteArrayView bytes, QList<QByteArray>* events);
    // The stream ended: an event whose blank line never came is dispatched (servers that end
    // with "data: [DONE]\n" and close).
    void finish(QList<QByteArray>* events);
    const QString& error() const { return m_error; }

private:
    bool line(QByteArrayView line, QList<QByteArray>* events);

    qsizetype m_max;
    QByteArray m_line;      // the partial line
    QByteArray m_data;      // the event's data so far
    bool m_hasData = false; // a data line was seen (the data may be empty)
    bool m_afterCr = false; // the last byte was a '\r' ending a line: a '\n' next belongs to it
    QString m_error;
};

} // namespace kf
