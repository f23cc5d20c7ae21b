// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// `kernelforge-cli fleet rollout promote` through the real binary against three demo hosts (real
// sshd instances, issue #36): the demo project patched and built on the first (nvcc where the
// machine has it), promoted to the second, whose last build of that folder had failed, and to a
// third whose torch differs. The second gets the libraries byte for byte and passes its own
// verification; the third is refused with the difference named and receives nothing. Each CLI
// run gets a private HOME, so the history is the test's own.
#include "core/hosts/hostprofilestore.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;

class TestCliPromote : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;
    static constexpr const char* kProfile = "Demo sgl-kernel (CMake + Ninja)";

    QStringList env() const
    {
        return { QStringLiteral("HOME=") + m_home.path(), QStringLiteral("XDG_CONFIG_HOME="),
            QStringLiteral("XDG_STATE_HOME="), QStringLiteral("XDG_CACHE_HOME="), QStringLiteral("XDG_DATA_HOME=") };
    }
    static QStringList target(const DemoHost& demo)
    {
        return test::cliSshOptions(demo) + QStringList { demo.user() + QStringLiteral("@127.0.0.1") };
    }
    test::ProcessOutput cli(const QStringList& args, int timeoutMs = 120000) const
    {
        return test::runCli(args, timeoutMs, env());
    }
    static QList<QJsonObject> jsonLines(const QByteArray& out)
    {
        QList<QJsonObject> objects;
        for (const QByteArray& line : out.split('\n'))
            if (line.startsWith('{'))
                objects << QJsonDocument::fromJson(line).object();
        return objects;
    }
    // The demo server's flashinfer cache on a host: file -> modification time (seconds).
    static QMap<QString, qint64> jitCache(const DemoHost& demo)
    {
        QMap<QString, qint64> out;
        QDirIterator it(
            demo.homeDir() + QStringLiteral("/.cache/flashinfer"), QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString p = it.next();
            out.insert(QFileInfo(p).fileName(), QFileInfo(p).lastModified().toSecsSinceEpoch()); // tar keeps seconds
        }
        return out;
    }
    // A recipe that only launches the demo server, which "compiles" its JIT kernels for 4 s when
    // its cache is cold; returns the launch step's line ("healthy on port P after S s (job J)").
    QString serve(const DemoHost& demo, quint16 port)
    {
        const QString recipe = m_home.filePath(QStringLiteral("serve.yaml"));
        test::writeFile(recipe,
            QStringLiteral("kernelforge_recipe: 1\nname: serve\nserver: {name: sglang, model_path: demo/Model, tp: 2, "
                           "port: %1, demo: true, extra_args: [--jit-seconds, '4']}\n")
                .arg(port)
                .toUtf8());
        auto run = cli(QStringList { "recipe", "apply", recipe } + target(demo) + QStringList { "--json" }, 300000);
        for (const QJsonObject& e : jsonLines(run.out))
            if (e.value("event").toString() == "step" && e.value("step").toString() == "launch"
                && e.value("status").toString() == "ok")
                return e.value("reason").toString();
        return QStringLiteral("FAILED ") + QString::fromLatin1(test::printWhole(run, "recipe apply (serve)"));
    }
    bool stopServer(const DemoHost& demo, quint16 port)
    {
        return cli(QStringList { "server", "stop", "--port", QString::number(port) } + target(demo)).exitCode == 0;
    }

    // The libraries a build left under the demo project's folder: relative path -> bytes.
    static QMap<QString, QByteArray> libraries(const DemoHost& demo)
    {
        QMap<QString, QByteArray> out;
        const QString root = demo.homeDir() + QStringLiteral("/sgl-kernel");
        QDirIterator it(root, { QStringLiteral("*.so") }, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString p = it.next();
            out.insert(QDir(root).relativeFilePath(p), test::readFile(p));
        }
        return out;
    }
    QString patchAndBuild(const DemoHost& demo) { return test::patchAndBuildDemo(demo, kProfile, env()); }
    QString build(const DemoHost& demo, int expectedExit)
    {
        auto start = cli(QStringList { "build", "start", "--profile", kProfile } + target(demo));
        if (start.exitCode != 0)
            return QString::fromLatin1(test::printWhole(start, "build start"));
        const QString job = QString::fromUtf8(start.out.trimmed().split('\n').last()).trimmed();
        auto attach = cli(QStringList { "build", "attach", job } + target(demo), 540000);
        if ((attach.exitCode == 0) != (expectedExit == 0))
            return QString::fromLatin1(test::printWhole(attach, "build attach"));
        return {};
    }
    QList<QJsonObject> timeline(const DemoHost& demo, const QString& kind)
    {
        QList<QJsonObject> out;
        for (const QJsonObject& e :
            jsonLines(cli(QStringList { "timeline" } + target(demo) + QStringList { "--json" }).out))
            if (e.value("kind").toString() == kind)
                out << e;
        return out;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_home.isValid()); }

    void promoteToTheHostsItFits()
    {
        KF_START_DEMO_HOST(a);
        KF_START_DEMO_HOST(b);
        KF_START_DEMO_HOST(c);
        QVERIFY(test::installDemoTorch(a, QStringLiteral("2.9.1+cu130")));
        QVERIFY(test::installDemoTorch(b, QStringLiteral("2.9.1+cu130")));
        QVERIFY(test::installDemoTorch(c, QStringLiteral("2.8.0+cu128")));
        const QString hosts = m_home.filePath(QStringLiteral("hosts.yaml"));
        QList<HostProfile> profiles { a.profile(QStringLiteral("a")), b.profile(QStringLiteral("b")),
            c.profile(QStringLiteral("c")) };
        for (HostProfile& p : profiles)
            p.isDemo = false;
        QVERIFY(HostProfileStore(hosts).save(profiles));

        // b's last build of the folder failed (unpatched sources stop at CMake): what a failed
        // build left there must not be what b's verification judges after the promotion.
        QString failed = build(b, 1);
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        const QString built = patchAndBuild(a);
        QVERIFY2(built.isEmpty(), qPrintable(built));
        const QMap<QString, QByteArray> made = libraries(a);
        QVERIFY(!made.isEmpty());

        auto promote = [&] {
            return cli({ "fleet", "rollout", "promote", "--from", "a", "--profile", kProfile, "--host", "b", "--host",
                           "c", "--host", "a", "--batch", "2", "--continue-on-error", "--hosts-file", hosts, "--json" },
                540000);
        };
        auto run = promote();
        QStringList states;
        for (const QJsonObject& o : jsonLines(run.out))
            states << o.value("host").toString() + u':' + o.value("state").toString();
        if (states != QStringList({ "b:succeeded", "c:refused" }))
            QFAIL(test::printWhole(run, "fleet rollout promote"));
        QCOMPARE(run.exitCode, 1); // a host was refused
        QVERIFY2(run.err.contains("c| differs: torch 2.9.1+cu130 here, 2.8.0+cu128 on c"), run.err.constData());
        QVERIFY2(run.err.contains("a| verifying the build of"), run.err.constData());

        // b has the very libraries a built, and its own verification passed.
        QCOMPARE(libraries(b), made);
        const auto promoted = timeline(b, QStringLiteral("build.promoted"));
        QCOMPARE(promoted.size(), 1);
        const QJsonObject d = promoted.first().value("details").toObject();
        QCOMPARE(d.value("status").toString(), QStringLiteral("ok"));
        QCOMPARE(d.value("fingerprint").toObject().value("torch").toString(), QStringLiteral("2.9.1+cu130"));
        QCOMPARE(d.value("sha256").toString().size(), 64);
        const auto verified = timeline(b, QStringLiteral("verify.result"));
        QVERIFY(!verified.isEmpty());
        QVERIFY2(verified.last().value("details").toObject().value("ok").toBool(),
            QJsonDocument(verified.last()).toJson().constData());
        // The install is b's newest build of the folder, not a build event of its own.
        QCOMPARE(timeline(b, QStringLiteral("build.finished")).size(), 1);

        // c: refused with the difference, nothing sent, its refusal in its timeline.
        QVERIFY(libraries(c).isEmpty());
        QVERIFY(!QFileInfo::exists(c.homeDir() + QStringLiteral("/.cache/kernelforge/promote")));
        const auto refused = timeline(c, QStringLiteral("build.promoted"));
        QCOMPARE(refused.size(), 1);
        const QJsonObject r = refused.first().value("details").toObject();
        QCOMPARE(r.value("status").toString(), QStringLiteral("refused"));
        QVERIFY2(r.value("reasons").toArray().first().toString().startsWith("torch 2.9.1+cu130 here, 2.8.0+cu128"),
            QJsonDocument(r).toJson().constData());

        // Again: the artifact is already on b (same hash), so it is not sent twice.
        auto again = promote();
        QVERIFY2(again.err.contains("is already on b (same SHA-256): not sent again"), again.err.constData());
        QCOMPARE(libraries(b), made);

        // c, asked to build itself when the build does not fit: it builds the profile (its tree
        // patched first, as a recipe would) and verifies; its event says "built".
        const QString patched = test::patchDemo(c, env());
        QVERIFY2(patched.isEmpty(), qPrintable(patched));
        auto instead = cli({ "fleet", "rollout", "promote", "--from", "a", "--profile", kProfile, "--host", "c",
                               "--build-if-refused", "--hosts-file", hosts, "--json" },
            540000);
        if (instead.exitCode != 0 || !instead.err.contains("c| building Demo sgl-kernel (CMake + Ninja) on c instead"))
            QFAIL(test::printWhole(instead, "fleet rollout promote --build-if-refused"));
        const QJsonObject itself = timeline(c, QStringLiteral("build.promoted")).last().value("details").toObject();
        QCOMPARE(itself.value("status").toString(), QStringLiteral("built"));
        QVERIFY(!itself.value("install_job").toString().isEmpty());
        QCOMPARE(timeline(c, QStringLiteral("build.finished")).size(), 1);
        QVERIFY(timeline(c, QStringLiteral("verify.result")).last().value("details").toObject().value("ok").toBool());
        QVERIFY(!libraries(c).isEmpty());

        // a's torch changes after its build: its libraries were made for the old one, so they
        // are not promoted, and the build's recorded environment says why.
        QVERIFY(test::installDemoTorch(a, QStringLiteral("2.9.2+cu130")));
        auto changed = promote();
        QCOMPARE(changed.exitCode, 1);
        if (!changed.err.contains("torch 2.9.1+cu130 at the build, 2.9.2+cu130 now; build again before promoting"))
            QFAIL(test::printWhole(changed, "fleet rollout promote after a's torch changed"));
    }

    // --caches: the JIT caches of a's healthy server go with the build; b's key matches and its
    // server starts without compiling; c's triton differs, so nothing is seeded there.
    void warmCachesGoWhereTheirKeyMatches()
    {
        KF_START_DEMO_HOST(a);
        KF_START_DEMO_HOST(b);
        KF_START_DEMO_HOST(c);
        for (const DemoHost* h : { &a, &b, &c })
            QVERIFY(test::installDemoTorch(*h, QStringLiteral("2.9.1+cu130")));
        QVERIFY(test::installDemoDistribution(a, QStringLiteral("triton"), QStringLiteral("3.5.0")));
        QVERIFY(test::installDemoDistribution(b, QStringLiteral("triton"), QStringLiteral("3.5.0")));
        QVERIFY(test::installDemoDistribution(c, QStringLiteral("triton"), QStringLiteral("3.4.0")));
        const QString hosts = m_home.filePath(QStringLiteral("caches-hosts.yaml"));
        QList<HostProfile> profiles { a.profile(QStringLiteral("a")), b.profile(QStringLiteral("b")),
            c.profile(QStringLiteral("c")) };
        for (HostProfile& p : profiles)
            p.isDemo = false;
        QVERIFY(HostProfileStore(hosts).save(profiles));
        const QString built = patchAndBuild(a);
        QVERIFY2(built.isEmpty(), qPrintable(built));

        // Without a healthy server on a there is nothing to capture.
        auto early = cli({ "fleet", "rollout", "promote", "--from", "a", "--profile", kProfile, "--caches", "--host",
            "b", "--hosts-file", hosts });
        QVERIFY2(early.exitCode == 1 && early.err.contains("has reached healthy"), early.err.constData());

        const quint16 port = test::freeLocalPort();
        const QString cold = serve(a, port);
        QVERIFY2(cold.startsWith("healthy on port"), qPrintable(cold));
        const QMap<QString, qint64> compiled = jitCache(a);
        QCOMPARE(compiled.size(), 4);
        QVERIFY(stopServer(a, port));

        auto run = cli({ "fleet", "rollout", "promote", "--from", "a", "--profile", kProfile, "--caches", "--host", "b",
                           "--host", "c", "--continue-on-error", "--hosts-file", hosts, "--json" },
            540000);
        QStringList states;
        for (const QJsonObject& o : jsonLines(run.out))
            states << o.value("host").toString() + u':' + o.value("state").toString();
        if (states != QStringList({ "b:succeeded", "c:succeeded" }))
            QFAIL(test::printWhole(run, "fleet rollout promote --caches"));
        QVERIFY2(run.err.contains("c| JIT caches differ: triton 3.5.0 in the cache, 3.4.0 on c"), run.err.constData());
        // b has a's kernels as a compiled them; c has none.
        QCOMPARE(jitCache(b), compiled);
        QVERIFY(jitCache(c).isEmpty());
        auto caches = [&](const DemoHost& h) {
            return timeline(h, QStringLiteral("build.promoted"))
                .last()
                .value("details")
                .toObject()
                .value("caches")
                .toObject();
        };
        QCOMPARE(caches(b).value("status").toString(), QStringLiteral("ok"));
        QCOMPARE(caches(c).value("status").toString(), QStringLiteral("refused"));
        QVERIFY(caches(b).value("cold_start_s").toDouble() > 0);

        // b's server starts without compiling (its kernels are the seeded files, untouched); c's compiles.
        const QString warm = serve(b, port);
        QVERIFY2(warm.startsWith("healthy on port"), qPrintable(warm));
        QCOMPARE(jitCache(b), compiled);
        QVERIFY(stopServer(b, port));
        const QString coldC = serve(c, port);
        QVERIFY2(coldC.startsWith("healthy on port"), qPrintable(coldC));
        QCOMPARE(jitCache(c).size(), 4);
        QVERIFY(jitCache(c) != compiled);
        QVERIFY(stopServer(c, port));
        qInfo().noquote() << "start on a (cold):" << cold << "| on b (seeded):" << warm << "| on c (cold):" << coldC;

        // b's recipe carries the promotion: replayed on d it installs the very artifact (this
        // machine's copy, hash checked), seeds the same caches, builds nothing, and d's server
        // starts on a's kernels.
        KF_START_DEMO_HOST(d);
        QVERIFY(test::installDemoTorch(d, QStringLiteral("2.9.1+cu130")));
        QVERIFY(test::installDemoDistribution(d, QStringLiteral("triton"), QStringLiteral("3.5.0")));
        const QString recipe = m_home.filePath(QStringLiteral("from-b.yaml"));
        auto exported = cli(QStringList { "recipe", "export" } + target(b) + QStringList { "-o", recipe });
        if (exported.exitCode != 0)
            QFAIL(test::printWhole(exported, "recipe export"));
        const QByteArray yaml = test::readFile(recipe);
        const QString sha = timeline(b, QStringLiteral("build.promoted"))
                                .last()
                                .value("details")
                                .toObject()
                                .value("sha256")
                                .toString();
        QVERIFY2(yaml.contains("promote:") && yaml.contains(QByteArray(QByteArray("sha256: ") + sha.toLatin1()))
                && yaml.contains("caches:"),
            yaml.constData());
        auto replay = [&] {
            return cli(
                QStringList { "recipe", "apply", recipe } + target(d) + QStringList { "--hosts-file", hosts, "--json" },
                540000);
        };
        auto applied = replay();
        QString buildStep;
        for (const QJsonObject& e : jsonLines(applied.out))
            if (e.value("event").toString() == "step" && e.value("step").toString() == "build")
                buildStep = e.value("status").toString() + u' ' + e.value("reason").toString();
        if (applied.exitCode != 0 || !buildStep.startsWith("ok promoted "))
            QFAIL(test::printWhole(applied, "recipe apply (a promotion)"));
        QCOMPARE(libraries(d), libraries(a));
        QCOMPARE(jitCache(d), compiled);
        QVERIFY(timeline(d, QStringLiteral("build.finished")).isEmpty());
        QCOMPARE(timeline(d, QStringLiteral("build.promoted")).last().value("details").toObject().value("status"),
            QJsonValue(QStringLiteral("ok")));
        QVERIFY(stopServer(d, port));

        // Without this machine's copy, the replay fetches it from a again (the same hash).
        QVERIFY(QDir(m_home.filePath(QStringLiteral(".cache/kernelforge/promote"))).removeRecursively());
        auto again = replay();
        if (again.exitCode != 0 || !again.out.contains("fetching it from a again"))
            QFAIL(test::printWhole(again, "recipe apply without the cached artifact"));
        QVERIFY(stopServer(d, port));
    }

    // A wheel the build made (nvcc-built libraries in it) goes as the wheel: pip installs it on b
    // (the profile's environment: the user site), where b's verification finds the package and
    // imports it.
    void aWheelIsInstalledWithPip()
    {
        KF_START_DEMO_HOST(a);
        KF_START_DEMO_HOST(b);
        QVERIFY(test::installDemoTorch(a, QStringLiteral("2.9.1+cu130")));
        QVERIFY(test::installDemoTorch(b, QStringLiteral("2.9.1+cu130")));
        const QString hosts = m_home.filePath(QStringLiteral("wheel-hosts.yaml"));
        QList<HostProfile> profiles { a.profile(QStringLiteral("a")), b.profile(QStringLiteral("b")) };
        for (HostProfile& p : profiles)
            p.isDemo = false;
        QVERIFY(HostProfileStore(hosts).save(profiles));
        const char* wheelProfile = "Demo sgl-kernel wheel (CMake + Ninja, then a wheel)";
        const QString built = test::patchAndBuildDemo(a, QString::fromLatin1(wheelProfile), env());
        QVERIFY2(built.isEmpty(), qPrintable(built));
        auto run = cli({ "fleet", "rollout", "promote", "--from", "a", "--profile", wheelProfile, "--host", "b",
                           "--hosts-file", hosts, "--json" },
            540000);
        const auto rows = jsonLines(run.out);
        if (run.exitCode != 0 || rows.size() != 1 || rows.first().value("state").toString() != "succeeded")
            QFAIL(test::printWhole(run, "fleet rollout promote (wheel)"));
        QVERIFY2(run.err.contains("b| installing (wheel)"), run.err.constData());
        QVERIFY2(rows.first().value("summary").toString().contains("import sgl_kernel: ok"), run.out.constData());
        // pip put the package into b's user site, with the libraries a built.
        QDirIterator it(b.homeDir() + QStringLiteral("/.local/lib"), { QStringLiteral("common_ops.so") }, QDir::Files,
            QDirIterator::Subdirectories);
        QVERIFY(it.hasNext());
        QCOMPARE(
            test::readFile(it.next()), test::readFile(a.homeDir() + QStringLiteral("/sgl-kernel/build/common_ops.so")));
        const QJsonObject verified = timeline(b, QStringLiteral("verify.result")).last().value("details").toObject();
        QVERIFY2(verified.value("ok").toBool(), QJsonDocument(verified).toJson().constData());
        QCOMPARE(
            timeline(b, QStringLiteral("build.promoted")).last().value("details").toObject().value("kind").toString(),
            QStringLiteral("wheel"));
    }

    void aBuildThatFailsVerificationIsNotPromoted()
    {
        KF_START_DEMO_HOST(a);
        KF_START_DEMO_HOST(b);
        const QString hosts = m_home.filePath(QStringLiteral("hosts2.yaml"));
        QList<HostProfile> profiles { a.profile(QStringLiteral("a")), b.profile(QStringLiteral("b")) };
        for (HostProfile& p : profiles)
            p.isDemo = false;
        QVERIFY(HostProfileStore(hosts).save(profiles));
        const QString failed = build(a, 1); // unpatched: the build fails, nothing to promote
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        auto run = cli({ "fleet", "rollout", "promote", "--from", "a", "--profile", kProfile, "--host", "b",
            "--hosts-file", hosts });
        QVERIFY2(run.exitCode == 1, QByteArray(run.out + run.err).constData());
        QVERIFY2(run.err.contains("nothing to promote"), run.err.constData());
        QVERIFY(timeline(b, QStringLiteral("build.promoted")).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliPromote)
#include "tst_cli_promote.moc"
