// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/servebench/sseparser.h"

namespace kf {

SseParser::SseParser(qsizetype maxEventBytes)
    : m_max(maxEventBytes)
{ }

bool SseParser::line(QByteArrayView text, QList<QByteArray>* events)
{
    if (text.isEmpty()) {
        if (m_hasData)
            events->append(std::exchange(m_data, {}));
        m_hasData = false;
        return true;
    }
    if (text.front() == ':')
        return true;
    QByteArrayView field = text;
    QByteArrayView value;
    if (const qsizetype colon = text.indexOf(':'); colon >= 0) {
        field = text.first(colon);
        value = text.sliced(colon + 1);
        if (value.startsWith(' '))
            value = value.sliced(1);
    }
    if (field != "data")
        return true;
    if (m_data.size() + value.size() + 1 > m_max) {
        m_error = QStringLiteral("server-sent event exceeds %1 bytes").arg(m_max);
        return false;
    }
    if (m_hasData)
        m_data.append('\n');
    m_data.append(value);
    m_hasData = true;
    return true;
}

bool SseParser::feed(QByteArrayView bytes, QList<QByteArray>* events)
{
    if (!m_error.isEmpty())
        return false;
    qsizetype i = 0;
    const qsizetype n = bytes.size();
    if (m_afterCr && i < n && bytes.at(0) == '\n')
        ++i;
    m_afterCr = false;
    while (i < n) {
        // The next line end: '\n' or '\r'.
        qsizetype end = i;
        while (end < n && bytes.at(end) != '\n' && bytes.at(end) != '\r')
            ++end;
        if (end == n) {
            if (m_line.size() + (n - i) > m_max) {
                m_error = QStringLiteral("server-sent event exceeds %1 bytes").arg(m_max);
                return false;
            }
            m_line.append(bytes.sliced(i));
            break;
        }
        bool ok = true;
        if (m_line.isEmpty()) {
            ok = line(bytes.sliced(i, end - i), events);
        } else {
            if (m_line.size() + (end - i) > m_max) {
                m_error = QStringLiteral("server-sent event exceeds %1 bytes").arg(m_max);
                return false;
            }
            m_line.append(bytes.sliced(i, end - i));
            ok = line(m_line, events);
            m_line.clear();
        }
        if (!ok)
            return false;
        if (bytes.at(end) == '\r') {
            if (end + 1 < n) {
                if (bytes.at(end + 1) == '\n')
                    ++end;
            } else {
                m_afterCr = true;
            }
        }
        i = end + 1;
    }
    return true;
}

void SseParser::finish(QList<QByteArray>* events)
{
    if (!m_error.isEmpty())
        return;
    if (!m_line.isEmpty()) {
        if (!line(m_line, events))
            return;
        m_line.clear();
    }
    (void)line({}, events);
}

} // namespace kf
