// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/servebench/serveapi.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace kf {

QString serveApiName(ServeApi api)
{
    switch (api) {
    case ServeApi::Completions: return QStringLiteral("openai");
    case ServeApi::ChatCompletions: return QStringLiteral("openai-chat");
    case ServeApi::Generate: return QStringLiteral("sglang");
    }
    return {};
}

std::optional<ServeApi> serveApiFromName(const QString& name)
{
    for (ServeApi api : { ServeApi::Completions, ServeApi::ChatCompletions, ServeApi::Generate })
        if (serveApiName(api) == name)
            return api;
    return std::nullopt;
}

QByteArray serveApiPath(ServeApi api)
{
    switch (api) {
    case ServeApi::Completions: return QByteArrayLiteral("/v1/completions");
    case ServeApi::ChatCompletions: return QByteArrayLiteral("/v1/chat/completions");
    case ServeApi::Generate: return QByteArrayLiteral("/generate");
    }
    return {};
}

QByteArray serveRequestBody(ServeApi api, const QString& model, QByteArrayView prompt, int outputTokens)
{
    const QString text = QString::fromUtf8(prompt);
    QJsonObject o;
    if (api == ServeApi::Generate) {
        o.insert(QStringLiteral("text"), text);
        o.insert(QStringLiteral("sampling_params"),
            QJsonObject { { QStringLiteral("temperature"), 0.0 }, { QStringLiteral("max_new_tokens"), outputTokens },
                { QStringLiteral("ignore_eos"), true } });
        o.insert(QStringLiteral("stream"), true);
        return QJsonDocument(o).toJson(QJsonDocument::Compact);
    }
    o.insert(QStringLiteral("model"), model);
    if (api == ServeApi::Completions)
        o.insert(QStringLiteral("prompt"), text);
    else
        o.insert(QStringLiteral("messages"),
            QJsonArray { QJsonObject {
                { QStringLiteral("role"), QStringLiteral("user") }, { QStringLiteral("content"), text } } });
    o.insert(QStringLiteral("temperature"), 0.0);
    o.insert(QStringLiteral("max_tokens"), outputTokens);
    o.insert(QStringLiteral("ignore_eos"), true);
    o.insert(QStringLiteral("stream"), true);
    o.insert(QStringLiteral("stream_options"), QJsonObject { { QStringLiteral("include_usage"), true } });
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

namespace {

int count(const QJsonValue& v)
{
    return v.isDouble() && v.toDouble() >= 0 && v.toDouble() < 2e9 ? int(v.toDouble()) : -1;
}

QString nonEmpty(const QJsonValue& v)
{
    return v.isString() ? v.toString() : QString();
}

} // namespace

StreamChunk interpretStreamEvent(ServeApi api, QByteArrayView data)
{
    StreamChunk c;
    const QByteArrayView trimmed = data.trimmed();
    if (trimmed == "[DONE]") {
        c.done = true;
        return c;
    }
    QJsonParseError pe {};
    const QJsonDocument doc = QJsonDocument::fromJson(trimmed.toByteArray(), &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        c.error = QStringLiteral("malformed stream event (%1): %2")
                      .arg(pe.error != QJsonParseError::NoError ? pe.errorString() : QStringLiteral("not an object"),
                          QString::fromUtf8(trimmed.first(qMin<qsizetype>(120, trimmed.size())).toByteArray()));
        return c;
    }
    const QJsonObject o = doc.object();
    if (const QJsonValue e = o.value(QLatin1String("error")); !e.isUndefined() && !e.isNull()) {
        const QString m = e.isObject() ? nonEmpty(e.toObject().value(QLatin1String("message"))) : nonEmpty(e);
        c.error = QStringLiteral("server error: %1").arg(m.isEmpty() ? QStringLiteral("(no message)") : m.left(300));
        return c;
    }
    if (o.value(QLatin1String("object")).toString() == QLatin1String("error")) {
        c.error = QStringLiteral("server error: %1").arg(nonEmpty(o.value(QLatin1String("message"))).left(300));
        return c;
    }
    if (api == ServeApi::Generate) {
        c.hasText = !nonEmpty(o.value(QLatin1String("text"))).isEmpty();
        const QJsonObject meta = o.value(QLatin1String("meta_info")).toObject();
        c.completionTokens = count(meta.value(QLatin1String("completion_tokens")));
        c.promptTokens = count(meta.value(QLatin1String("prompt_tokens")));
        return c;
    }
    const QJsonArray choices = o.value(QLatin1String("choices")).toArray();
    if (!choices.isEmpty()) {
        const QJsonObject first = choices.first().toObject();
        if (api == ServeApi::Completions) {
            c.hasText = !nonEmpty(first.value(QLatin1String("text"))).isEmpty();
        } else {
            const QJsonObject delta = first.value(QLatin1String("delta")).toObject();
            c.hasText = !nonEmpty(delta.value(QLatin1String("content"))).isEmpty()
                || !nonEmpty(delta.value(QLatin1String("reasoning_content"))).isEmpty();
        }
    }
    if (const QJsonValue u = o.value(QLatin1String("usage")); u.isObject()) {
        c.completionTokens = count(u.toObject().value(QLatin1String("completion_tokens")));
        c.promptTokens = count(u.toObject().value(QLatin1String("prompt_tokens")));
    }
    return c;
}

} // namespace kf
