// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// `kernelforge-cli timeline` and `kernelforge-cli recipe export|apply` through the real binary
// against demo hosts (real sshd instances): the timeline of what was done on one host, the
// recipe made from it, replayed on a second host whose tools differ (a newer driver: shown,
// allowed), on one with another GPU (stops at facts) and on one whose sources moved (stops at
// the plan). Each CLI run gets a private HOME, so the history is the test's own.
#include "tests/support/testsupport.h"

#include <QDateTime>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

class TestCliRecipe : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;

    QStringList env() const
    {
        return { QStringLiteral("HOME=") + m_home.path(), QStringLiteral("XDG_CONFIG_HOME="),
            QStringLiteral("XDG_STATE_HOME="), QStringLiteral("XDG_CACHE_HOME="), QStringLiteral("XDG_DATA_HOME=") };
    }
    static QString dest(const kf::DemoHost& demo) { return demo.user() + "@127.0.0.1"; }
    static QStringList target(const kf::DemoHost& demo)
    {
        return kf::test::cliSshOptions(demo) + QStringList { dest(demo) };
    }
    kf::test::ProcessOutput cli(const QStringList& args, int timeoutMs = 120000) const
    {
        return kf::test::runCli(args, timeoutMs, env());
    }
    static QByteArray both(const kf::test::ProcessOutput& p) { return p.out + "\n--- stderr:\n" + p.err; }
    static QList<QJsonObject> jsonLines(const QByteArray& out)
    {
        QList<QJsonObject> objects;
        for (const QByteArray& line : out.split('\n'))
            if (line.startsWith('{'))
                objects << QJsonDocument::fromJson(line).object();
        return objects;
    }
    static QStringList kinds(const QList<QJsonObject>& events)
    {
        QStringList k;
        for (const QJsonObject& e : events)
            k << e.value("kind").toString();
        return k;
    }
    static QByteArray cmakeLists(const kf::DemoHost& demo)
    {
        return kf::test::readFile(demo.homeDir() + "/sgl-kernel/CMakeLists.txt");
    }
    static constexpr const char* kDemoProfile = "Demo sgl-kernel (CMake + Ninja)";
    const QStringList m_set { "--set", "builtin:sgl-kernel-sm120-cuda13" };

    // On the source host: facts, then the patch set applied; exported as a recipe with a demo
    // server launch added (what a healthy launch there would have put in).
    QString makeRecipe(const kf::DemoHost& source, bool build = false)
    {
        auto facts = cli(QStringList { "facts" } + target(source));
        if (facts.exitCode != 0)
            return QStringLiteral("facts: ") + QString::fromUtf8(both(facts));
        auto apply = cli(QStringList { "patch", "apply" } + m_set
            + QStringList { "--root", dest(source) + ":sgl-kernel" } + kf::test::cliSshOptions(source));
        if (apply.exitCode != 0)
            return QStringLiteral("patch apply: ") + QString::fromUtf8(both(apply));
        if (build) { // the demo project built with its profile, followed to its end
            auto start = cli(QStringList { "build", "start", "--profile", kDemoProfile } + target(source));
            if (start.exitCode != 0)
                return QStringLiteral("build start: ") + QString::fromUtf8(both(start));
            const QString job = QString::fromUtf8(start.out.trimmed().split('\n').last()).trimmed();
            auto attach = cli(QStringList { "build", "attach", job } + target(source), 540000);
            if (attach.exitCode != 0)
                return QStringLiteral("build attach: ") + QString::fromUtf8(both(attach).right(3000));
        }
        const QString path = m_home.filePath("recipe.yaml");
        auto exported = cli(QStringList { "recipe", "export" } + target(source)
            + QStringList { "-o", path, "--name", "demo bring-up" });
        if (exported.exitCode != 0)
            return QStringLiteral("recipe export: ") + QString::fromUtf8(both(exported));
        QFile f(path);
        if (!f.open(QIODevice::Append))
            return f.errorString();
        const QByteArray port = QByteArray::number(kf::test::freeLocalPort()); // not one another test picks
        f.write("server: {name: sglang, model_path: demo/Model, tp: 2, port: " + port + ", demo: true}\n");
        return {};
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_home.isValid()); }

    // Bad usage is exit 2 with the reason, before anything connects or runs.
    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("says");
        const QString recipe = m_home.filePath(QStringLiteral("r.yaml"));
        QVERIFY(kf::test::writeFile(recipe, "version: 1\n"));
        QTest::newRow("export flag without value")
            << QStringList { "recipe", "export", "--local", "--name" } << "--name needs a value";
        QTest::newRow("export extra word")
            << QStringList { "recipe", "export", "--local", "extra" } << "unexpected arguments: extra";
        QTest::newRow("env without =") << QStringList { "recipe", "apply", "--local", recipe, "--env", "NOEQUALS" }
                                       << "--env needs K=V";
        QTest::newRow("launch timeout 0") << QStringList { "recipe", "apply", "--local", "--launch-timeout", "0",
            recipe } << "--launch-timeout needs seconds > 0";
        QTest::newRow("missing env file")
            << QStringList { "recipe", "apply", "--local", "--env-file", m_home.filePath("none.env"), recipe }
            << "none.env";
        QTest::newRow("no recipe") << QStringList { "recipe", "apply", "--local" } << "which RECIPE.yaml?";
        QTest::newRow("unknown subcommand")
            << QStringList { "recipe", "frobnicate" } << "unknown subcommand 'frobnicate'";
        QTest::newRow("timeline kind without value")
            << QStringList { "timeline", "--local", "--kind" } << "--kind needs a value";
        QTest::newRow("timeline extra word")
            << QStringList { "timeline", "--local", "extra" } << "unexpected arguments: extra";
    }
    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, says);
        const auto r = cli(args, 60000);
        QVERIFY2(r.exitCode == 2, r.err.constData());
        QVERIFY2(QString::fromUtf8(r.err).contains(says), r.err.constData());
        QVERIFY2(r.out.isEmpty(), r.out.constData());
    }

    void timelineOfAHost()
    {
        KF_START_DEMO_HOST(demo);
        auto empty = cli(QStringList { "timeline" } + target(demo));
        QCOMPARE(empty.exitCode, 0);
        QVERIFY2(empty.err.contains("nothing recorded for"), empty.err.constData());

        QVERIFY2(cli(QStringList { "facts" } + target(demo)).exitCode == 0, "facts");
        auto plan = cli(QStringList { "patch", "plan" } + m_set + QStringList { "--root", dest(demo) + ":sgl-kernel" }
            + kf::test::cliSshOptions(demo));
        QVERIFY2(plan.exitCode == 0 || plan.exitCode == 1, both(plan).constData());
        auto apply = cli(QStringList { "patch", "apply" } + m_set + QStringList { "--root", dest(demo) + ":sgl-kernel" }
            + kf::test::cliSshOptions(demo));
        QVERIFY2(apply.exitCode == 0, both(apply).constData());

        // One JSON object per line, oldest first: time, kind, summary, details.
        auto json = cli(QStringList { "timeline" } + target(demo) + QStringList { "--json" });
        QVERIFY2(json.exitCode == 0, both(json).constData());
        const auto events = jsonLines(json.out);
        const QStringList k = kinds(events);
        QVERIFY2(k.contains("facts.changed") && k.contains("patch.planned") && k.contains("patch.applied"),
            json.out.constData());
        QVERIFY(k.indexOf("patch.planned") < k.lastIndexOf("patch.applied"));
        for (const QJsonObject& e : events) {
            QVERIFY2(QDateTime::fromString(e.value("time").toString(), Qt::ISODateWithMs).isValid(),
                qPrintable(e.value("time").toString()));
            QVERIFY(!e.value("summary").toString().isEmpty());
            QVERIFY(e.value("details").isObject());
        }
        const QJsonObject applied = events.at(k.lastIndexOf("patch.applied"));
        QVERIFY2(
            QJsonDocument(applied).toJson().contains("CMakeLists.txt"), QJsonDocument(applied).toJson().constData());
        const QJsonObject facts = events.at(k.indexOf("facts.changed"));
        QCOMPARE(facts.value("details").toObject().value("versions").toObject().value("driver").toString(),
            QStringLiteral("580.159.04"));

        // Filters; another host's history is not this one's.
        auto onlyApplied
            = cli(QStringList { "timeline" } + target(demo) + QStringList { "--kind", "patch.applied", "--json" });
        const QStringList onlyKinds = kinds(jsonLines(onlyApplied.out));
        QVERIFY(!onlyKinds.isEmpty());
        QCOMPARE(QSet<QString>(onlyKinds.begin(), onlyKinds.end()), QSet<QString> { "patch.applied" });
        auto recent = cli(QStringList { "timeline" } + target(demo) + QStringList { "--since", "1h", "--json" });
        QCOMPARE(jsonLines(recent.out).size(), events.size());
        auto old = cli(QStringList { "timeline" } + target(demo) + QStringList { "--until", "2020-01-01", "--json" });
        QCOMPARE(old.exitCode, 0);
        QVERIFY2(jsonLines(old.out).isEmpty(), old.out.constData());
        auto other = cli(QStringList { "timeline", "-p", QString::number(demo.port() + 1), dest(demo), "--json" });
        QCOMPARE(other.exitCode, 0);
        QVERIFY(jsonLines(other.out).isEmpty());

        // Text, one line an event.
        auto text = cli(QStringList { "timeline" } + target(demo));
        QCOMPARE(text.exitCode, 0);
        QCOMPARE(text.out.count('\n'), events.size());
        QVERIFY(text.out.contains("patch.applied"));

        // Bad input: a clear error, exit 2.
        auto bad = cli(QStringList { "timeline" } + target(demo) + QStringList { "--since", "last tuesday" });
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("last tuesday"), bad.err.constData());
        QCOMPARE(cli(QStringList { "timeline" } + target(demo) + QStringList { "--since" }).exitCode, 2);

        // The report: one self-contained file with the events and the chart.
        const QString html = m_home.filePath("report.html");
        auto report = cli(QStringList { "timeline" } + target(demo) + QStringList { "--html", html });
        QVERIFY2(report.exitCode == 0, both(report).constData());
        const QByteArray page = kf::test::readFile(html);
        QVERIFY(page.startsWith("<!DOCTYPE html>"));
        QVERIFY(page.contains("<svg"));
        QVERIFY(page.contains("patch.applied"));
        QVERIFY2(!page.contains("src=\"http") && !page.contains("href=\"http") && !page.contains("<script src"),
            "the report loads nothing from elsewhere");
        auto unwritable = cli(QStringList { "timeline" } + target(demo)
            + QStringList { "--html", m_home.filePath("no/such/dir/r.html") });
        QCOMPARE(unwritable.exitCode, 1);
        QVERIFY2(unwritable.err.contains("cannot write"), unwritable.err.constData());
    }

    // A second host with a newer driver: the dry run shows the difference first and changes
    // nothing; the real run patches, builds (detached), launches the server and puts every
    // step in its timeline.
    void replayOnASecondHost()
    {
        KF_START_DEMO_HOST(source);
        KF_START_DEMO_HOST(second);
        QVERIFY(kf::test::patchDemoNvidiaSmi(second, "DRIVER = \"580.159.04\"", "DRIVER = \"590.48.01\""));
        const QString error = makeRecipe(source, /*build=*/true);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString recipe = m_home.filePath("recipe.yaml");
        const QByteArray yaml = kf::test::readFile(recipe);
        QVERIFY2(yaml.contains("kernelforge_recipe: 1") && yaml.contains("builtin:sgl-kernel-sm120-cuda13")
                && yaml.contains("580.159.04") && yaml.contains(kDemoProfile),
            yaml.constData());

        const QByteArray before = cmakeLists(second);
        auto dry = cli(QStringList { "recipe", "apply", "--dry-run", recipe } + target(second));
        QVERIFY2(dry.exitCode == 0, both(dry).constData());
        const qsizetype diff = dry.out.indexOf("DIFF driver 590.48.01");
        QVERIFY2(diff >= 0, dry.out.constData());
        QVERIFY2(diff < dry.out.indexOf("  same "), "differences come first");
        QVERIFY2(dry.out.contains(QByteArray("would build: ").append(kDemoProfile)), dry.out.constData());
        QVERIFY2(dry.out.contains("would launch: sglang-demo-server"), dry.out.constData());
        QVERIFY(dry.out.contains("nothing was changed"));
        QCOMPARE(cmakeLists(second), before);

        auto real = cli(QStringList { "recipe", "apply", recipe } + target(second) + QStringList { "--json" }, 540000);
        if (real.exitCode != 0)
            QFAIL(kf::test::printWhole(real, "recipe apply on the second host"));
        QStringList steps;
        QString buildJob, verifyReason;
        for (const QJsonObject& e : jsonLines(real.out)) {
            if (e.value("event").toString() == "step")
                steps << e.value("step").toString() + ":" + e.value("status").toString();
            if (e.value("event").toString() == "step" && e.value("step").toString() == "verify")
                verifyReason = e.value("reason").toString();
            if (e.value("event").toString() == "build_started")
                buildJob = e.value("job").toString();
        }
        // Every step ran and succeeded: a skipped verification is not a replay that worked.
        QCOMPARE(steps, QStringList({ "facts:ok", "plan:ok", "apply:ok", "build:ok", "verify:ok", "launch:ok" }));
        QVERIFY2(!verifyReason.isEmpty(), real.out.constData());
        // The build ran detached on the second host: attachable from elsewhere, and it succeeded.
        QVERIFY(!buildJob.isEmpty());
        auto attach = cli(QStringList { "build", "attach", buildJob } + target(second));
        if (attach.exitCode != 0)
            QFAIL(kf::test::printWhole(attach, "build attach"));
        QCOMPARE(cmakeLists(second), cmakeLists(source));
        QVERIFY(cmakeLists(second) != before);

        auto tl = cli(QStringList { "timeline" } + target(second) + QStringList { "--json" });
        const auto events = jsonLines(tl.out);
        QStringList recorded;
        for (const QJsonObject& e : events)
            if (e.value("kind").toString() == "recipe.step" && !e.value("details").toObject().value("dry_run").toBool())
                recorded << e.value("details").toObject().value("step").toString();
        QCOMPARE(recorded, QStringList({ "facts", "plan", "apply", "build", "verify", "launch" }));
        const QStringList k = kinds(events);
        QVERIFY2(k.contains("patch.applied") && k.contains("build.started") && k.contains("build.finished")
                && k.contains("verify.result") && k.contains("server.launched"),
            tl.out.constData());
        // The verification looked at what the build made on the second host and found it good.
        const QJsonObject verified = events.at(k.lastIndexOf("verify.result")).value("details").toObject();
        QVERIFY2(verified.value("ok").toBool(), QJsonDocument(verified).toJson().constData());
        QVERIFY2(!verified.value("libraries").toArray().isEmpty(), QJsonDocument(verified).toJson().constData());
    }

    // A recipe from someone else names a build profile of yours that holds a token: it gets no
    // value of yours unless you name the profile (--env-from-profile); its dry run shows the
    // command as it is (escaped: a carriage return and an erase-line cannot hide the first
    // half), CMAKE_ARGS, the build dir and where every environment value would come from.
    void aSharedRecipeGetsNoValueOfYours()
    {
        const QByteArray secret = "tok-" + QByteArray::number(QDateTime::currentMSecsSinceEpoch()) + "-secret";
        QVERIFY(kf::test::writeFile(m_home.filePath(".config/kernelforge/build-profiles.yaml"),
            "profiles:\n  - name: victim\n    command: make\n    env: {SECRET_TOKEN: " + secret + "}\n"));
        const QString work = m_home.filePath("shared-work");
        QVERIFY(QDir().mkpath(work));
        const QString leak = work + "/leak";
        const QString recipe = m_home.filePath("shared.yaml");
        QVERIFY(kf::test::writeFile(recipe,
            "kernelforge_recipe: 1\nname: shared\nbuild:\n  name: victim\n  working_dir: " + work.toUtf8()
                + "\n  command: \"printf '%s' \\\"$SECRET_TOKEN\\\" > leak; true \\r\\e[2Kpip install -e .\"\n"
                  "  cmake_args: [-DSGL_KERNEL_ENABLE_FA3=OFF]\n  build_dir: out\n  env: [SECRET_TOKEN]\n"));

        auto dry = cli({ "recipe", "apply", "--dry-run", "--local", recipe });
        QVERIFY2(dry.exitCode == 0, both(dry).constData());
        QVERIFY2(dry.out.contains("  command: printf '%s' \"$SECRET_TOKEN\" > leak; true \\r\\x1b[2Kpip install -e ."),
            dry.out.constData());
        QVERIFY2(dry.out.contains("  CMAKE_ARGS: -DSGL_KERNEL_ENABLE_FA3=OFF\n")
                && dry.out.contains(QByteArray("  build dir: " + work.toUtf8() + "/out\n"))
                && dry.out.contains("  env SECRET_TOKEN: no value (give --env SECRET_TOKEN=VALUE or --env-file FILE)"),
            dry.out.constData());
        QVERIFY2(!dry.out.contains('\r') && !dry.out.contains('\x1b'), dry.out.constData());
        // JSON keeps the recipe's text exactly.
        auto json = cli({ "recipe", "apply", "--dry-run", "--local", recipe, "--json" });
        bool exact = false;
        for (const QJsonObject& e : jsonLines(json.out))
            exact |= e.value("text").toString().contains("true \r\x1b[2Kpip install -e .");
        QVERIFY2(exact, json.out.constData());

        // Applied: the build stops for want of a value; nothing ran, nothing leaked.
        auto real = cli({ "recipe", "apply", "--local", recipe }, 300000);
        QVERIFY2(real.exitCode == 1, both(real).constData());
        QVERIFY2(real.out.contains("no value for the environment variable SECRET_TOKEN"), real.out.constData());
        QVERIFY(!QFile::exists(leak));
        QVERIFY(!both(real).contains(secret));

        // Named by the user: the dry run says so (never the value), and the build gets it.
        auto named = cli({ "recipe", "apply", "--dry-run", "--local", "--env-from-profile", "victim", recipe });
        QVERIFY2(
            named.out.contains("  env SECRET_TOKEN: from the local build profile 'victim'"), both(named).constData());
        QVERIFY(!both(named).contains(secret));
        auto missing = cli({ "recipe", "apply", "--dry-run", "--local", "--env-from-profile", "nobody", recipe });
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains("--env-from-profile: no build profile named 'nobody'"), missing.err.constData());
        cli({ "recipe", "apply", "--local", "--env-from-profile", "victim", recipe }, 300000);
        QTRY_COMPARE_WITH_TIMEOUT(kf::test::readFile(leak), secret, 60000);
    }

    // Stops at the first step that fails, says why, and changes nothing on the host.
    // Issue #30: Ctrl-C while the recipe's apply step has its first file renamed into place but
    // not yet journaled as done (the applier's test hook holds it): that file is finished and
    // journaled, nothing more starts, the run says so and exits 130; `patch rollback` restores.
    void interruptedDuringApply()
    {
        KF_START_DEMO_HOST(source);
        KF_START_DEMO_HOST(second);
        const QString error = makeRecipe(source);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QByteArray before = cmakeLists(second);
        const QString marker = m_home.filePath("recipe-held");
        QProcess run;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        for (const QString& kv : env())
            e.insert(kv.section(u'=', 0, 0), kv.section(u'=', 1));
        e.insert(QStringLiteral("KF_TEST_HOLD_AFTER_RENAME"), marker);
        run.setProcessEnvironment(e);
        run.start(QStringLiteral(KF_CLI_BINARY),
            QStringList { "recipe", "apply", m_home.filePath("recipe.yaml") } + target(second));
        QVERIFY(run.waitForStarted(30000));
        QTRY_VERIFY2_WITH_TIMEOUT(
            QFile::exists(marker), qPrintable(QString::fromUtf8(run.readAllStandardError())), 90000);
        QVERIFY(cmakeLists(second) != before);
        QVERIFY(::kill(pid_t(run.processId()), SIGINT) == 0);
        QVERIFY(run.waitForFinished(120000));
        const QByteArray out = run.readAllStandardOutput() + "\n--- stderr:\n" + run.readAllStandardError();
        QCOMPARE(run.exitStatus(), QProcess::NormalExit);
        QVERIFY2(run.exitCode() == 130, out.constData());
        QVERIFY2(out.contains("Stopped: apply: interrupted: the file in flight was finished"), out.constData());
        QVERIFY2(!out.contains("== build") && !out.contains("== launch"), out.constData());
        auto rollback = cli(QStringList { "patch", "rollback" } + m_set
            + QStringList { "--root", dest(second) + ":sgl-kernel" } + kf::test::cliSshOptions(second));
        QVERIFY2(rollback.exitCode == 0, both(rollback).constData());
        QCOMPARE(cmakeLists(second), before);
    }

    void stopsWhereTheHostDiffers_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("step");
        QTest::addColumn<QString>("reason");
        QTest::newRow("another GPU") << "gpu"
                                     << "facts"
                                     << "NVIDIA B200";
        QTest::newRow("anchors moved") << "anchors"
                                       << "plan"
                                       << "fa3-option-respected";
    }
    void stopsWhereTheHostDiffers()
    {
        QFETCH(QString, change);
        QFETCH(QString, step);
        QFETCH(QString, reason);
        KF_START_DEMO_HOST(source);
        KF_START_DEMO_HOST(second);
        const QString error = makeRecipe(source);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        if (change == "gpu") {
            QVERIFY(kf::test::patchDemoNvidiaSmi(second, "NAME = \"NVIDIA H200\"", "NAME = \"NVIDIA B200\""));
        } else {
            // The line the FA3 patch replaces is still there, but not in the shape it knows.
            QByteArray moved = cmakeLists(second);
            QVERIFY(moved.contains("    set(SGL_KERNEL_ENABLE_FA3 ON)\n"));
            moved.replace(
                "    set(SGL_KERNEL_ENABLE_FA3 ON)\n", "    set(SGL_KERNEL_ENABLE_FA3 ON CACHE BOOL \"FA3\")\n");
            QFile f(second.homeDir() + "/sgl-kernel/CMakeLists.txt");
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            QCOMPARE(f.write(moved), moved.size());
        }
        const QByteArray before = cmakeLists(second);
        for (const bool dryRun : { true, false }) {
            auto run = cli(QStringList { "recipe", "apply" } + (dryRun ? QStringList { "--dry-run" } : QStringList {})
                + QStringList { m_home.filePath("recipe.yaml") } + target(second) + QStringList { "--json" });
            QVERIFY2(run.exitCode == 1, both(run).constData());
            const auto lines = jsonLines(run.out);
            QVERIFY(!lines.isEmpty());
            const QJsonObject last = lines.last();
            QCOMPARE(last.value("event").toString(), QStringLiteral("finished"));
            QCOMPARE(last.value("ok").toBool(), false);
            QVERIFY2(
                last.value("reason").toString().startsWith(step + ": "), qPrintable(last.value("reason").toString()));
            QVERIFY2(last.value("reason").toString().contains(reason), qPrintable(last.value("reason").toString()));
            for (const QJsonObject& e : lines)
                QVERIFY2(e.value("event").toString() != "step_started" || e.value("step").toString() != "apply",
                    "no step after the failing one starts");
            QCOMPARE(cmakeLists(second), before);
        }
        auto tl = cli(QStringList { "timeline" } + target(second) + QStringList { "--kind", "recipe.step", "--json" });
        const auto events = jsonLines(tl.out);
        QVERIFY(!events.isEmpty());
        QCOMPARE(events.last().value("details").toObject().value("step").toString(), step);
        QCOMPARE(events.last().value("details").toObject().value("status").toString(), QStringLiteral("failed"));
    }

    // Issue #30: a recipe's launch goes through the one launch policy (the Server pane's, `server
    // launch`'s): GPUs a server of ours already uses refuse it with the reason; a recipe never forces.
    void launchThroughTheOnePolicy()
    {
        KF_START_DEMO_HOST(host);
        const QString first = QString::number(kf::test::freeLocalPort());
        auto launched = cli(QStringList { "server", "launch", "--demo", "--tp", "8", "--port", first } + target(host));
        QVERIFY2(launched.exitCode == 0, both(launched).constData());
        const QString job = QString::fromUtf8(launched.out.trimmed());
        const QString second = QString::number(kf::test::freeLocalPort());
        const QString path = m_home.filePath("launch-only.yaml");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("kernelforge_recipe: 1\nname: a second server\n"
                "server: {name: sglang, model_path: demo/Model, tp: 8, port: "
            + second.toUtf8() + ", demo: true}\n");
        f.close();
        auto run = cli(QStringList { "recipe", "apply", path } + target(host) + QStringList { "--json" });
        QVERIFY2(run.exitCode == 1, both(run).constData());
        const QJsonObject last = jsonLines(run.out).last();
        QCOMPARE(last.value("event").toString(), QStringLiteral("finished"));
        const QString reason = last.value("reason").toString();
        QVERIFY2(reason.startsWith("launch: refused: GPUs 0-7 already run the server KernelForge started on port "
                     + first + " (job " + job + ")"),
            qPrintable(reason));
    }
};

QTEST_GUILESS_MAIN(TestCliRecipe)
#include "tst_cli_recipe.moc"
