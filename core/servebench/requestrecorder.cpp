// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/servebench/requestrecorder.h"

namespace kf {

namespace {
// The inter-token gaps one request may record: far beyond any real output (a /generate event
// reports the running total, and a server that claims 2^31 tokens would otherwise make us
// append that many gaps). Past it the request fails with why.
constexpr qsizetype kMaxGaps = qsizetype(1) << 20;
} // namespace

RequestRecorder::RequestRecorder(ServeApi api, int promptTokensEstimate)
    : m_api(api)
{
    m_sample.promptTokens = promptTokensEstimate;
}

void RequestRecorder::start(double t)
{
    m_sample.start = t;
    m_recent = t;
}

bool RequestRecorder::onEvent(QByteArrayView data, double t)
{
    const StreamChunk c = interpretStreamEvent(m_api, data);
    if (!c.error.isEmpty()) {
        m_error = c.error;
        return false;
    }
    m_lastEvent = t;
    if (c.done) {
        m_done = true;
        return true;
    }
    if (c.completionTokens >= 0)
        m_reportedOutput = c.completionTokens;
    if (c.promptTokens >= 0)
        m_reportedPrompt = c.promptTokens;
    if (!c.hasText)
        return true;
    ++m_sample.textEvents;
    if (m_sample.ttft < 0) {
        m_sample.ttft = t - m_sample.start;
    } else if (m_api == ServeApi::Generate && c.completionTokens >= 0) {
        const int fresh = c.completionTokens - m_lastOutputTokens;
        if (fresh <= 0)
            return true; // no new token: skipped, the previous time stays
        if (fresh > kMaxGaps - m_sample.itl.size()) {
            m_error = QStringLiteral("the server reported %1 completion tokens, more than the %2 a request may have")
                          .arg(c.completionTokens)
                          .arg(kMaxGaps);
            return false;
        }
        const double each = (t - m_recent) / double(fresh);
        for (int k = 0; k < fresh; ++k)
            m_sample.itl.append(each);
    } else {
        if (m_sample.itl.size() >= kMaxGaps) {
            m_error = QStringLiteral("the server sent more than %1 tokens for one request").arg(kMaxGaps);
            return false;
        }
        m_sample.itl.append(t - m_recent);
    }
    m_recent = t;
    if (c.completionTokens >= 0)
        m_lastOutputTokens = c.completionTokens;
    return true;
}

RequestSample RequestRecorder::finish(double t, const QString& error)
{
    RequestSample s = m_sample;
    s.latency = (m_lastEvent >= 0 ? m_lastEvent : t) - s.start;
    s.error = error.isEmpty() ? m_error : error;
    if (s.error.isEmpty() && s.ttft < 0)
        s.error = QStringLiteral("no tokens in the response");
    s.ok = s.error.isEmpty();
    s.outputTokensReported = m_reportedOutput >= 0;
    s.outputTokens = s.outputTokensReported ? m_reportedOutput : s.textEvents;
    s.promptTokensReported = m_reportedPrompt >= 0;
    if (s.promptTokensReported)
        s.promptTokens = m_reportedPrompt;
    return s;
}

} // namespace kf
