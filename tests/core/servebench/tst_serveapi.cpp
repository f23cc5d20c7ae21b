// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/servebench/serveapi.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace kf;

Q_DECLARE_METATYPE(kf::ServeApi)

class TestServeApi : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void names()
    {
        for (ServeApi api : { ServeApi::Completions, ServeApi::ChatCompletions, ServeApi::Generate })
            QCOMPARE(serveApiFromName(serveApiName(api)), api);
        QVERIFY(!serveApiFromName(QStringLiteral("vllm")).has_value());
        QCOMPARE(serveApiPath(ServeApi::ChatCompletions), QByteArray("/v1/chat/completions"));
    }

    void requestBodies()
    {
        const QJsonObject c
            = QJsonDocument::fromJson(serveRequestBody(ServeApi::Completions, QStringLiteral("m"), "a \"b\"", 7))
                  .object();
        QCOMPARE(c.value(QStringLiteral("prompt")).toString(), QStringLiteral("a \"b\""));
        QCOMPARE(c.value(QStringLiteral("max_tokens")).toInt(), 7);
        QCOMPARE(c.value(QStringLiteral("ignore_eos")).toBool(), true);
        QCOMPARE(c.value(QStringLiteral("stream")).toBool(), true);
        QCOMPARE(c.value(QStringLiteral("temperature")).toDouble(), 0.0);
        QVERIFY(c.value(QStringLiteral("stream_options")).toObject().value(QStringLiteral("include_usage")).toBool());
        const QJsonObject chat
            = QJsonDocument::fromJson(serveRequestBody(ServeApi::ChatCompletions, QStringLiteral("m"), "hi", 3))
                  .object();
        QCOMPARE(chat.value(QStringLiteral("messages")).toArray().at(0).toObject().value(QStringLiteral("content")),
            QJsonValue(QStringLiteral("hi")));
        const QJsonObject gen
            = QJsonDocument::fromJson(serveRequestBody(ServeApi::Generate, QStringLiteral("m"), "hi", 5)).object();
        QCOMPARE(gen.value(QStringLiteral("text")).toString(), QStringLiteral("hi"));
        const QJsonObject sp = gen.value(QStringLiteral("sampling_params")).toObject();
        QCOMPARE(sp.value(QStringLiteral("max_new_tokens")).toInt(), 5);
        QCOMPARE(sp.value(QStringLiteral("ignore_eos")).toBool(), true);
        QVERIFY(!gen.contains(QStringLiteral("model")));
    }

    void events_data()
    {
        QTest::addColumn<ServeApi>("api");
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<bool>("done");
        QTest::addColumn<bool>("hasText");
        QTest::addColumn<int>("completion");
        QTest::addColumn<int>("prompt");
        QTest::addColumn<QString>("error");
        QTest::newRow("done") << ServeApi::Completions << QByteArray(" [DONE] ") << true << false << -1 << -1
                              << QString();
        QTest::newRow("completion token")
            << ServeApi::Completions << QByteArray(R"({"choices":[{"index":0,"text":" the"}],"usage":null})") << false
            << true << -1 << -1 << QString();
        QTest::newRow("completion empty text")
            << ServeApi::Completions << QByteArray(R"({"choices":[{"index":0,"text":""}]})") << false << false << -1
            << -1 << QString();
        QTest::newRow("usage chunk") << ServeApi::Completions
                                     << QByteArray(
                                            R"({"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":34}})")
                                     << false << false << 34 << 12 << QString();
        QTest::newRow("chat role chunk") << ServeApi::ChatCompletions
                                         << QByteArray(R"({"choices":[{"delta":{"role":"assistant","content":""}}]})")
                                         << false << false << -1 << -1 << QString();
        QTest::newRow("chat content") << ServeApi::ChatCompletions
                                      << QByteArray(R"({"choices":[{"delta":{"content":"Hi"}}]})") << false << true
                                      << -1 << -1 << QString();
        QTest::newRow("chat reasoning") << ServeApi::ChatCompletions
                                        << QByteArray(
                                               R"({"choices":[{"delta":{"content":null,"reasoning_content":"hm"}}]})")
                                        << false << true << -1 << -1 << QString();
        QTest::newRow("generate") << ServeApi::Generate
                                  << QByteArray(
                                         R"({"text":"a b","meta_info":{"prompt_tokens":5,"completion_tokens":2}})")
                                  << false << true << 2 << 5 << QString();
        QTest::newRow("sglang error") << ServeApi::Generate << QByteArray(R"({"error":{"message":"too long"}})")
                                      << false << false << -1 << -1 << QStringLiteral("server error: too long");
        QTest::newRow("openai error") << ServeApi::Completions
                                      << QByteArray(R"({"object":"error","message":"bad model","code":400})") << false
                                      << false << -1 << -1 << QStringLiteral("server error: bad model");
        QTest::newRow("malformed") << ServeApi::Completions << QByteArray("{\"choices\":") << false << false << -1 << -1
                                   << QStringLiteral("malformed stream event");
        QTest::newRow("not an object") << ServeApi::Completions << QByteArray("[1,2]") << false << false << -1 << -1
                                       << QStringLiteral("not an object");
        QTest::newRow("negative count ignored")
            << ServeApi::Generate << QByteArray(R"({"text":"a","meta_info":{"completion_tokens":-4}})") << false << true
            << -1 << -1 << QString();
    }
    void events()
    {
        QFETCH(ServeApi, api);
        QFETCH(QByteArray, data);
        QFETCH(bool, done);
        QFETCH(bool, hasText);
        QFETCH(int, completion);
        QFETCH(int, prompt);
        QFETCH(QString, error);
        const StreamChunk c = interpretStreamEvent(api, data);
        QCOMPARE(c.done, done);
        QCOMPARE(c.hasText, hasText);
        QCOMPARE(c.completionTokens, completion);
        QCOMPARE(c.promptTokens, prompt);
        if (error.isEmpty())
            QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        else
            QVERIFY2(c.error.contains(error), qPrintable(c.error));
    }
};

QTEST_GUILESS_MAIN(TestServeApi)
#include "tst_serveapi.moc"
