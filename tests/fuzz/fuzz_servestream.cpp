// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// What an inference server streams back to the serving benchmark: HTTP/1.1 response framing
// (HttpStreamDecoder), server-sent events (SseParser) and each event's JSON for the three APIs
// (interpretStreamEvent through RequestRecorder), fed in random pieces.
#include "core/net/httpstreamdecoder.h"
#include "core/servebench/requestrecorder.h"
#include "core/servebench/sseparser.h"
#include "tests/fuzz/fuzzinput.h"

#include <cmath>
#include <cstdlib>

namespace {

using kf::fuzz::FuzzInput;

void run(const QByteArray& wire, FuzzInput& cuts)
{
    constexpr qint64 kMaxBody = 1 << 20;
    kf::HttpStreamDecoder decoder(kMaxBody);
    kf::SseParser sse(64 * 1024);
    kf::RequestRecorder recorders[]
        = { { kf::ServeApi::Completions, 1 }, { kf::ServeApi::ChatCompletions, 1 }, { kf::ServeApi::Generate, 1 } };
    for (auto& r : recorders)
        r.start(0);
    double t = 0;
    qsizetype pos = 0;
    bool failed = false;
    while (pos < wire.size() && !failed) {
        const qsizetype n = std::min<qsizetype>(wire.size() - pos, 1 + cuts.below(64));
        QByteArray body;
        failed = !decoder.feed(QByteArrayView(wire).sliced(pos, n), &body);
        pos += n;
        if (decoder.bodyBytes() > kMaxBody)
            std::abort();
        QList<QByteArray> events;
        if (!sse.feed(body, &events))
            break;
        for (const QByteArray& e : events) {
            if (e.size() > 64 * 1024)
                std::abort();
            t += 0.001;
            for (auto& r : recorders)
                (void)r.onEvent(e, t);
        }
    }
    decoder.closed();
    if (decoder.complete() && !decoder.error().isEmpty())
        std::abort(); // complete and failed at once
    for (auto& r : recorders) {
        const kf::RequestSample s = r.finish(t + 0.001);
        if (s.ok && (s.ttft < 0 || !std::isfinite(s.latency) || s.outputTokens < 0))
            std::abort();
        for (double g : s.itl)
            if (!std::isfinite(g) || g < 0)
                std::abort();
    }
}

QByteArray json(FuzzInput& in)
{
    const QByteArray n = QByteArray::number(in.below(5000));
    switch (in.below(9)) {
    case 0:
        return R"({"choices":[{"index":0,"text":")" + in.pick({ " the", "", "\\n", "\\u00e9" })
            + R"("}],"usage":null})";
    case 1: return R"({"choices":[],"usage":{"prompt_tokens":)" + n + R"(,"completion_tokens":)" + in.number() + "}}";
    case 2: return R"({"choices":[{"delta":{"content":")" + in.pick({ "a", "" }) + R"("}}]})";
    case 3: return R"({"choices":[{"delta":{"reasoning_content":"hm","content":null}}]})";
    case 4:
        return R"({"text":")" + in.raw(8).replace('"', '\'').replace('\\', '/')
            + R"(","meta_info":{"completion_tokens":)" + in.number() + R"(,"prompt_tokens":)" + n + "}}";
    case 5: return R"({"error":{"message":"boom"}})";
    case 6: return R"({"object":"error","message":"bad"})";
    case 7: return "[DONE]";
    default: return in.raw(20);
    }
}

// A response: status line, headers (chunked, a length, or neither), SSE events split over
// chunks with extensions, odd sizes and the line ends servers use.
QByteArray response(FuzzInput& in)
{
    QByteArray events;
    const int count = in.below(40);
    for (int i = 0; i < count; ++i) {
        if (in.chance(10))
            events += ": keep-alive" + kf::fuzz::lineEnd(in);
        events += in.pick({ "data: ", "data:", "event: x\ndata: " }) + json(in) + kf::fuzz::lineEnd(in)
            + kf::fuzz::lineEnd(in);
    }
    QByteArray out = in.pick({ "HTTP/1.1 200 OK", "HTTP/1.0 200 OK", "HTTP/1.1 503 Busy", "HTTP/1.1 2", "ICY 200 OK" });
    out += "\r\n";
    const int framing = in.below(3);
    if (framing == 0)
        out += in.pick({ "Transfer-Encoding: chunked\r\n", "transfer-encoding: gzip, chunked\r\n" });
    else if (framing == 1)
        out += "Content-Length: " + (in.chance(80) ? QByteArray::number(events.size()) : in.number()) + "\r\n";
    if (in.chance(10))
        out += in.raw(30) + "\r\n";
    out += in.pick({ "\r\n", "\n" });
    if (framing != 0)
        return out + events;
    qsizetype pos = 0;
    while (pos < events.size()) {
        const qsizetype n = std::min<qsizetype>(events.size() - pos, 1 + in.below(300));
        out += QByteArray::number(in.chance(5) ? n + 1 : n, 16);
        if (in.chance(10))
            out += ";ext=" + in.raw(4);
        out += "\r\n" + events.mid(pos, n) + in.pick({ "\r\n", "\n", "" });
        pos += n;
    }
    if (in.chance(90))
        out += in.pick({ "0\r\n\r\n", "0\r\nX-T: 1\r\n\r\n", "0\n\n" });
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray raw(reinterpret_cast<const char*>(data), qsizetype(size));
    FuzzInput cuts(data, size);
    run(raw, cuts);
    FuzzInput in(data, size);
    const QByteArray doc = response(in);
    run(doc, in);
    return 0;
}
