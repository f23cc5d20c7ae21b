// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// `kernelforge-cli server bench`: the real binary against the demo SGLang server, locally and
// through the demo sshd; stored runs listed, shown and compared; Ctrl-C cancels cleanly.
#include "core/server/serverclient.h"
#include "tests/support/demosglangserver.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace kf;

class TestCliServerBench : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_home;
    QStringList env() const
    {
        return { QStringLiteral("XDG_STATE_HOME=") + m_home.filePath(QStringLiteral("state")),
            QStringLiteral("XDG_CONFIG_HOME=") + m_home.filePath(QStringLiteral("config")) };
    }
    QJsonObject json(const test::ProcessOutput& r) { return QJsonDocument::fromJson(r.out).object(); }

private Q_SLOTS:
    void localSweepListShowCompare()
    {
        test::DemoSglangServer server;
        QVERIFY(server.start(
            QStringList { QStringLiteral("--tp"), QStringLiteral("1") } + test::DemoSglangServer::kQuietArgs));
        QVERIFY(server.waitHealthy());
        const QStringList run { QStringLiteral("server"), QStringLiteral("bench"), QStringLiteral("--local"),
            QStringLiteral("--port"), QString::number(server.port()), QStringLiteral("--concurrency"),
            QStringLiteral("1,4"), QStringLiteral("--requests"), QStringLiteral("6"), QStringLiteral("--input-len"),
            QStringLiteral("32"), QStringLiteral("--output-len"), QStringLiteral("12") };
        auto r = test::runCli(run + QStringList { QStringLiteral("--json") }, 180000, env());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QJsonObject o = json(r);
        QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
        QCOMPARE(o.value(QStringLiteral("host")).toString(), QStringLiteral("local"));
        const qint64 first = o.value(QStringLiteral("id")).toInteger();
        QVERIFY(first > 0);
        const QJsonArray levels = o.value(QStringLiteral("levels")).toArray();
        QCOMPARE(levels.size(), 2);
        for (const QJsonValue& v : levels) {
            const QJsonObject l = v.toObject();
            QCOMPARE(l.value(QStringLiteral("completed")).toInt(), 6);
            QCOMPARE(l.value(QStringLiteral("output_tokens")).toInt(), 72);
            QCOMPARE(l.value(QStringLiteral("output_tokens_estimated")).toBool(), false);
            QVERIFY(l.value(QStringLiteral("ttft_s")).toObject().value(QStringLiteral("p99")).toDouble() > 0);
            QVERIFY(l.value(QStringLiteral("output_throughput")).toDouble() > 0);
        }
        QCOMPARE(o.value(QStringLiteral("server")).toObject().value(QStringLiteral("server_version")).toString(),
            QStringLiteral("0.5.6.demo"));

        // The human table, stored as a second run.
        r = test::runCli(run, 180000, env());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("TTFT ms p50/p90/p99"));
        QVERIFY(r.out.contains("counted by the server"));
        QVERIFY(r.out.contains("stored as run"));

        r = test::runCli(
            { QStringLiteral("server"), QStringLiteral("bench"), QStringLiteral("list"), QStringLiteral("--json") },
            60000, env());
        QCOMPARE(r.exitCode, 0);
        const QJsonArray runs = QJsonDocument::fromJson(r.out).array();
        QCOMPARE(runs.size(), 2);
        const qint64 second = runs.at(0).toObject().value(QStringLiteral("id")).toInteger();
        QVERIFY(second > first);

        r = test::runCli({ QStringLiteral("server"), QStringLiteral("bench"), QStringLiteral("show"),
                             QString::number(first), QStringLiteral("--json") },
            60000, env());
        QCOMPARE(r.exitCode, 0);
        const QJsonArray detail = json(r)
                                      .value(QStringLiteral("levels"))
                                      .toArray()
                                      .at(1)
                                      .toObject()
                                      .value(QStringLiteral("requests_detail"))
                                      .toArray();
        QCOMPARE(detail.size(), 6);
        QCOMPARE(detail.at(0).toObject().value(QStringLiteral("output_tokens")).toInt(), 12);

        r = test::runCli({ QStringLiteral("server"), QStringLiteral("bench"), QStringLiteral("compare"),
                             QString::number(first), QString::number(second) },
            60000, env());
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("same workload"), r.out.constData());
        QVERIFY(r.out.contains("\nc=4\n"));
        QVERIFY(r.out.contains("output tok/s"));
        r = test::runCli({ QStringLiteral("server"), QStringLiteral("bench"), QStringLiteral("compare"),
                             QString::number(first), QString::number(second), QStringLiteral("--json") },
            60000, env());
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(json(r).value(QStringLiteral("levels")).toArray().size(), 2);

        r = test::runCli(
            { QStringLiteral("server"), QStringLiteral("bench"), QStringLiteral("show"), QStringLiteral("999") }, 60000,
            env());
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("no benchmark run 999"));
    }

    // Issue #35: goodput, the analysis and the context in the JSON; a stored run replayed from
    // its context against the same server, and the two compared.
    void goodputReplayCompare()
    {
        test::DemoSglangServer server;
        QVERIFY(server.start(
            QStringList { QStringLiteral("--tp"), QStringLiteral("1") } + test::DemoSglangServer::kQuietArgs));
        QVERIFY(server.waitHealthy());
        auto r = test::runCli(
            { QStringLiteral("server"), QStringLiteral("bench"), QStringLiteral("--local"), QStringLiteral("--port"),
                QString::number(server.port()), QStringLiteral("--concurrency"), QStringLiteral("1,2"),
                QStringLiteral("--requests"), QStringLiteral("4"), QStringLiteral("--input-len"), QStringLiteral("16"),
                QStringLiteral("--output-len"), QStringLiteral("6"), QStringLiteral("--goodput"),
                QStringLiteral("ttft:60000 e2el:60000"), QStringLiteral("--random-range-ratio"), QStringLiteral("0.5"),
                QStringLiteral("--range-ratio-meaning"), QStringLiteral("sglang"), QStringLiteral("--json") },
            180000, env());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject first = json(r);
        const qint64 id = first.value(QStringLiteral("id")).toInteger();
        const QJsonArray levels = first.value(QStringLiteral("levels")).toArray();
        QCOMPARE(levels.size(), 2);
        for (const QJsonValue& v : levels) {
            const QJsonObject a = v.toObject().value(QStringLiteral("analysis")).toObject();
            QCOMPARE(a.value(QStringLiteral("goodput")).toObject().value(QStringLiteral("good")).toInt(), 4);
            QCOMPARE(a.value(QStringLiteral("saturated")).toBool(), false);
            QVERIFY(a.value(QStringLiteral("server_agreement")).toObject().value(QStringLiteral("agrees")).toBool());
            QVERIFY(v.toObject().value(QStringLiteral("output_throughput_per_gpu")).toDouble() > 0);
        }
        const QJsonObject context = first.value(QStringLiteral("context")).toObject();
        QVERIFY(!context.value(QStringLiteral("kernelforge_version")).toString().isEmpty());
        QCOMPARE(context.value(QStringLiteral("server_args")).toObject().value(QStringLiteral("tp_size")).toInt(), 1);
        QCOMPARE(context.value(QStringLiteral("other_running_before")).toDouble(), 0.0);
        QCOMPARE(
            first.value(QStringLiteral("params")).toObject().value(QStringLiteral("range_ratio_meaning")).toString(),
            QStringLiteral("sglang"));

        // The replay takes everything from run `id`: only the target and the port are given.
        r = test::runCli({ QStringLiteral("server"), QStringLiteral("bench"), QStringLiteral("--replay"),
                             QString::number(id), QStringLiteral("--local"), QStringLiteral("--port"),
                             QString::number(server.port()), QStringLiteral("--json") },
            180000, env());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject replay = json(r);
        const qint64 replayId = replay.value(QStringLiteral("id")).toInteger();
        const QJsonObject params = replay.value(QStringLiteral("params")).toObject();
        QCOMPARE(params.value(QStringLiteral("replay_of")).toInteger(), id);
        QCOMPARE(params.value(QStringLiteral("slo")),
            first.value(QStringLiteral("params")).toObject().value(QStringLiteral("slo")));
        QCOMPARE(params.value(QStringLiteral("range_ratio")).toDouble(), 0.5);
        QCOMPARE(replay.value(QStringLiteral("levels")).toArray().size(), 2);

        r = test::runCli({ QStringLiteral("server"), QStringLiteral("bench"), QStringLiteral("compare"),
                             QString::number(id), QString::number(replayId) },
            60000, env());
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("same workload"), r.out.constData());
        QVERIFY(r.out.contains("same context (host, build, driver, server arguments)"));
        QVERIFY(r.out.contains("requests meeting the SLOs %"));
        r = test::runCli({ QStringLiteral("server"), QStringLiteral("bench"), QStringLiteral("compare"),
                             QString::number(id), QString::number(replayId), QStringLiteral("--json") },
            60000, env());
        const QJsonObject good = json(r)
                                     .value(QStringLiteral("levels"))
                                     .toArray()
                                     .at(0)
                                     .toObject()
                                     .value(QStringLiteral("metrics"))
                                     .toObject()
                                     .value(QStringLiteral("good_pct"))
                                     .toObject();
        QCOMPARE(good.value(QStringLiteral("verdict")).toString(), QStringLiteral("same")); // 100 % both
        // The human show has the analysis and the context.
        r = test::runCli(
            { QStringLiteral("server"), QStringLiteral("bench"), QStringLiteral("show"), QString::number(replayId) },
            60000, env());
        QVERIFY2(r.out.contains(QByteArray("replay    of run " + QByteArray::number(id))), r.out.constData());
        QVERIFY(r.out.contains("goodput"));
        QVERIFY(r.out.contains("context   KernelForge "));
        QVERIFY(r.out.contains("saturation   no"));
    }

    // A ShareGPT-format file: its prompts, each with its reply's length; a replay refuses a file
    // that changed since.
    void shareGptDataset()
    {
        test::DemoSglangServer server;
        QVERIFY(server.start(
            QStringList { QStringLiteral("--tp"), QStringLiteral("1") } + test::DemoSglangServer::kQuietArgs));
        QVERIFY(server.waitHealthy());
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("sharegpt.json"));
        QVERIFY(QFile::copy(QStringLiteral(KF_TEST_DATA_DIR "/servebench/sharegpt_sample.json"), file));
        auto r = test::runCli(
            { QStringLiteral("server"), QStringLiteral("bench"), QStringLiteral("--local"), QStringLiteral("--port"),
                QString::number(server.port()), QStringLiteral("--concurrency"), QStringLiteral("1"),
                QStringLiteral("--requests"), QStringLiteral("3"), QStringLiteral("--dataset"),
                QStringLiteral("sharegpt"), QStringLiteral("--dataset-path"), file, QStringLiteral("--json") },
            180000, env());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = json(r);
        const QJsonObject level = o.value(QStringLiteral("levels")).toArray().at(0).toObject();
        QCOMPARE(level.value(QStringLiteral("completed")).toInt(), 3);
        // The three usable conversations' replies, in words (the demo server counts words as
        // tokens): 40 + 17 + 17. The one-turn conversation and the one-word prompt are left out.
        QCOMPARE(level.value(QStringLiteral("output_tokens")).toInt(), 40 + 17 + 17);
        const QString sha
            = o.value(QStringLiteral("params")).toObject().value(QStringLiteral("dataset_sha256")).toString();
        QCOMPARE(sha.size(), 64);
        const qint64 id = o.value(QStringLiteral("id")).toInteger();
        QFile f(file);
        QVERIFY(f.open(QIODevice::Append));
        f.write("\n");
        f.close();
        r = test::runCli(
            { QStringLiteral("server"), QStringLiteral("bench"), QStringLiteral("--replay"), QString::number(id),
                QStringLiteral("--local"), QStringLiteral("--port"), QString::number(server.port()) },
            180000, env());
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("is not the file the replayed run used"), r.out.constData());
    }

    void overTheRealSshd()
    {
        test::DemoSglangServer server;
        QVERIFY(server.start(
            QStringList { QStringLiteral("--tp"), QStringLiteral("1") } + test::DemoSglangServer::kQuietArgs));
        QVERIFY(server.waitHealthy());
        KF_START_DEMO_HOST(demo);
        auto r = test::runCli(
            { QStringLiteral("server"), QStringLiteral("bench"), QStringLiteral("-p"), QString::number(demo.port()),
                QStringLiteral("-i"), demo.clientKeyPath(), QStringLiteral("--known-hosts"), demo.knownHostsPath(),
                demo.user() + QStringLiteral("@127.0.0.1"), QStringLiteral("--port"), QString::number(server.port()),
                QStringLiteral("--concurrency"), QStringLiteral("1,2"), QStringLiteral("--requests"),
                QStringLiteral("4"), QStringLiteral("--input-len"), QStringLiteral("24"),
                QStringLiteral("--output-len"), QStringLiteral("8"), QStringLiteral("--api"),
                QStringLiteral("openai-chat"), QStringLiteral("--json") },
            180000, env());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = json(r);
        // The history's host key (Transport::describe()), as every history table names a host.
        QCOMPARE(o.value(QStringLiteral("host")).toString(),
            demo.user() + QStringLiteral("@127.0.0.1:") + QString::number(demo.port()));
        QCOMPARE(o.value(QStringLiteral("params")).toObject().value(QStringLiteral("api")).toString(),
            QStringLiteral("openai-chat"));
        QCOMPARE(o.value(QStringLiteral("levels")).toArray().size(), 2);
        QCOMPARE(
            o.value(QStringLiteral("levels")).toArray().at(1).toObject().value(QStringLiteral("completed")).toInt(), 4);
        // The demo host's nvidia-smi answered while the requests ran.
        QVERIFY2(o.value(QStringLiteral("gpu_samples")).toInt() > 0, r.err.constData());
    }

    void ctrlCCancelsCleanly()
    {
        test::DemoSglangServer server;
        QVERIFY(server.start(
            QStringList { QStringLiteral("--tp"), QStringLiteral("1") } + test::DemoSglangServer::kQuietArgs));
        QVERIFY(server.waitHealthy());
        QProcess cli;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        for (const QString& kv : env())
            e.insert(kv.section(QLatin1Char('='), 0, 0), kv.section(QLatin1Char('='), 1));
        cli.setProcessEnvironment(e);
        cli.start(QStringLiteral(KF_CLI_BINARY),
            { QStringLiteral("server"), QStringLiteral("bench"), QStringLiteral("--local"), QStringLiteral("--port"),
                QString::number(server.port()), QStringLiteral("--concurrency"), QStringLiteral("6"),
                QStringLiteral("--requests"), QStringLiteral("30"), QStringLiteral("--output-len"),
                QStringLiteral("20000"), QStringLiteral("--input-len"), QStringLiteral("16"),
                QStringLiteral("--no-warmup") });
        QVERIFY(cli.waitForStarted());
        QTRY_COMPARE_WITH_TIMEOUT(server.running(), 6.0, 60000);
        ::kill(pid_t(cli.processId()), SIGINT);
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
        QCOMPARE(cli.exitCode(), 130);
        const QByteArray out = cli.readAllStandardOutput();
        QVERIFY2(out.contains(": cancelled"), out.constData());
        QTRY_COMPARE_WITH_TIMEOUT(server.running(), 0.0, 30000);
        auto r = test::runCli(
            { QStringLiteral("server"), QStringLiteral("bench"), QStringLiteral("list"), QStringLiteral("--json") },
            60000, env());
        QCOMPARE(QJsonDocument::fromJson(r.out).array().at(0).toObject().value(QStringLiteral("status")).toString(),
            QStringLiteral("cancelled"));
    }

    void errorsAndUsage()
    {
        auto r = test::runCli({ QStringLiteral("server"), QStringLiteral("bench"), QStringLiteral("--local"),
                                  QStringLiteral("--api"), QStringLiteral("grpc") },
            60000, env());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--api needs one of openai, openai-chat, sglang: grpc"), r.err.constData());
        r = test::runCli({ QStringLiteral("server"), QStringLiteral("bench"), QStringLiteral("--local"),
                             QStringLiteral("--concurrency"), QStringLiteral("4,x") },
            60000, env());
        QCOMPARE(r.exitCode, 2);
        // Every subcommand's flags: a bad or missing value, an unknown option, too few ids.
        const QList<std::pair<QStringList, QByteArray>> usage {
            { { "--local", "--requests" }, "--requests needs a value" },
            { { "--local", "--port", "70000" }, "--port needs a port from 1 to 65535: 70000" },
            { { "--local", "--request-rate", "-1" }, "--request-rate needs requests per second" },
            { { "--local", "--frobnicate" }, "unknown option --frobnicate" },
            { { "list", "--limit", "0" }, "--limit needs a whole number from 1 to 100000: 0" },
            { { "list", "extra" }, "unknown option extra" },
            { { "show", "1", "2" }, "unknown option 2" },
            { { "compare", "1" }, "give two run ids" },
            { { "reference", "--frobnicate" }, "unknown option --frobnicate" },
            { { "--local", "--random-range-ratio", "0.5" }, "needs --range-ratio-meaning sglang or vllm" },
            { { "--local", "--random-range-ratio", "1", "--range-ratio-meaning", "vllm" },
                "vLLM's range ratio lies in [0, 1)" },
            { { "--local", "--goodput", "ttft:5 foo:3" }, "'foo:3': the SLO keys are ttft, tpot and e2el" },
            { { "--local", "--search", "concurrency" }, "a goodput search needs SLOs" },
            { { "--local", "--burstiness", "0" }, "--burstiness needs a number > 0" },
            { { "--local", "--ramp-up", "linear" }, "a ramp-up needs a start and an end rate" },
            { { "--local", "--dataset", "sharegpt" }, "needs a ShareGPT-format JSON file" },
            { { "--replay", "5", "--local", "--concurrency", "4" }, "a replay takes its workload from run 5" },
        };
        for (const auto& [args, says] : usage) {
            r = test::runCli(QStringList { QStringLiteral("server"), QStringLiteral("bench") } + args, 60000, env());
            QVERIFY2(r.exitCode == 2, qPrintable(args.join(u' ') + QStringLiteral(": ") + QString::fromUtf8(r.err)));
            QVERIFY2(r.err.contains(says), r.err.constData());
        }
        // Nothing listening: the run fails with a reason and is stored as failed.
        r = test::runCli({ QStringLiteral("server"), QStringLiteral("bench"), QStringLiteral("--local"),
                             QStringLiteral("--port"), QString::number(test::freeLocalPort()) },
            60000, env());
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("failed: no server answers"), r.out.constData());
        r = test::runCli({ QStringLiteral("server"), QStringLiteral("bench"), QStringLiteral("--help") }, 60000, env());
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("server bench compare RUN1 RUN2"));
    }

    void referenceTable()
    {
        auto r = test::runCli({ QStringLiteral("server"), QStringLiteral("bench"), QStringLiteral("reference"),
                                  QStringLiteral("--json") },
            60000, env());
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = json(r);
        QCOMPARE(o.value(QStringLiteral("origin")).toString(), QStringLiteral(":/servebench/reference.yaml"));
        QVERIFY(!o.value(QStringLiteral("results")).toArray().isEmpty());
        r = test::runCli({ QStringLiteral("server"), QStringLiteral("bench"), QStringLiteral("reference"),
                             QStringLiteral("--edit") },
            60000, env());
        QCOMPARE(r.exitCode, 0);
        const QString path = QString::fromUtf8(r.out).trimmed();
        QVERIFY(path.startsWith(m_home.filePath(QStringLiteral("config"))));
        QVERIFY(QFile::exists(path));
        r = test::runCli(
            { QStringLiteral("server"), QStringLiteral("bench"), QStringLiteral("reference") }, 60000, env());
        QVERIFY(r.out.contains(path.toUtf8()));
    }
};

QTEST_GUILESS_MAIN(TestCliServerBench)
#include "tst_cli_serverbench.moc"
