// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <optional>

// The three streaming generation APIs a serving benchmark drives, what we send and how each
// server-sent event's data is read. Requests follow SGLang's python/sglang/bench_serving.py:
// greedy sampling, a fixed output length (ignore_eos), streaming on.
//
//   openai       POST /v1/completions       {"model","prompt","temperature":0,"max_tokens":L,
//                                            "ignore_eos":true,"stream":true,
//                                            "stream_options":{"include_usage":true}}
//     events: {"choices":[{"text":" the",...}],"usage":null|{...}}; with include_usage a last
//     event has "choices":[] and "usage":{"prompt_tokens":P,"completion_tokens":C}.
//   openai-chat  POST /v1/chat/completions  the same with "messages":[{"role":"user","content":...}]
//     events: {"choices":[{"delta":{"content":" the"}}]} (or "reasoning_content" while a
//     reasoning model thinks: it counts as output, as in vLLM's benchmark).
//   sglang       POST /generate             {"text","sampling_params":{"temperature":0,
//                                            "max_new_tokens":L,"ignore_eos":true},"stream":true}
//     events: {"text":"<all text so far>","meta_info":{"prompt_tokens":P,"completion_tokens":C,...}}
// Every stream ends with the event "[DONE]". An event {"error":{"message":M}} (SGLang) or
// {"object":"error","message":M} (OpenAI-compatible servers) reports a failure.
namespace kf {

enum class ServeApi { Completions, ChatCompletions, Generate };

QString serveApiName(ServeApi api); // "openai", "openai-chat", "sglang"
std::optional<ServeApi> serveApiFromName(const QString& name);
QByteArray serveApiPath(ServeApi api);
QByteArray serveRequestBody(ServeApi api, const QString& model, QByteArrayView prompt, int outputTokens);

// What one event says.
struct StreamChunk
{
    bool done = false;         // "[DONE]"
    bool hasText = false;      // carries generated text (a token, or several)
    int completionTokens = -1; // the server's own count so far (usage / meta_info); -1: not said
    int promptTokens = -1;
    QString error; // a server error, or a malformed event
};
StreamChunk interpretStreamEvent(ServeApi api, QByteArrayView data);

} // namespace kf
