// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// kernelforge-cli verify, the real binary: libraries this machine's nvcc builds now (sm_90a,
// sm_100a, sm_120a, PTX only, multi-target) checked --local and over the demo host's sshd
// against its nvidia-smi (8 x H200, compute capability 9.0); exit codes and JSON.
#include "tests/support/cudafixtures.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;

namespace {

QList<QJsonObject> jsonLines(const QByteArray& out)
{
    QList<QJsonObject> objects;
    for (const QByteArray& line : out.split('\n'))
        if (line.startsWith('{'))
            objects << QJsonDocument::fromJson(line).object();
    return objects;
}

QStringList demoPath()
{
    return { QStringLiteral("PATH=" KF_SOURCE_DIR "/resources/demo/bin:") + qEnvironmentVariable("PATH") };
}

QJsonObject libraryNamed(const QList<QJsonObject>& lines, const QString& name)
{
    for (const QJsonObject& o : lines)
        if (o.value("type").toString() == "library" && o.value("path").toString().endsWith("/" + name))
            return o;
    return {};
}

QStringList strings(const QJsonValue& v)
{
    QStringList out;
    for (const QJsonValue& e : v.toArray())
        out << e.toString();
    return out;
}

} // namespace

class TestCliVerify : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_build;

    void requireLibraries()
    {
        if (test::nvccPath().isEmpty())
            QSKIP("no nvcc (CUDA 13 at /usr/local/cuda on CI): cannot build the CUDA libraries to verify");
        QVERIFY2(!m_build.isEmpty(), "the CUDA libraries did not build (see initTestCase)");
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (test::nvccPath().isEmpty())
            return;
        const QString build = m_dir.filePath(QStringLiteral("build"));
        QDir().mkpath(build);
        const QString problem = test::buildCudaLibraries(build, test::standardCudaLibraries());
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        m_build = build;
    }

    void localJson()
    {
        requireLibraries();
        const auto r = test::runCli({ "verify", "--local", "--dir", m_build, "--json" }, 300000, demoPath());
        QVERIFY2(r.exitCode == 1, r.err.constData());
        const auto lines = jsonLines(r.out);
        QCOMPARE(lines.first().value("type").toString(), QStringLiteral("gpu"));
        QCOMPARE(lines.first().value("compute_cap").toString(), QStringLiteral("9.0"));
        for (const test::CudaLibrary& lib : test::standardCudaLibraries()) {
            const QJsonObject o = libraryNamed(lines, lib.name);
            QVERIFY2(!o.isEmpty(), qPrintable(lib.name));
            QStringList want = lib.targets;
            QStringList got = strings(o.value("targets"));
            want.sort();
            got.sort();
            if (!o.value("source").toString().startsWith("cuobjdump")) // cuobjdump 13.0 drops the 'f'
                QCOMPARE(got, want);
            const QJsonObject onH200 = o.value("gpus").toArray().first().toObject();
            QCOMPARE(onH200.value("compute_cap").toString(), QStringLiteral("9.0"));
            const bool runs = lib.name == "sm90a.so" || lib.name == "ptx80.so" || lib.name == "multi.so";
            QVERIFY2(onH200.value("runs").toBool() == runs, qPrintable(lib.name));
            QCOMPARE(onH200.value("jit").toBool(), lib.name == "ptx80.so");
        }
        QCOMPARE(libraryNamed(lines, "multi.so").value("gpus").toArray().first().toObject().value("target").toString(),
            QStringLiteral("sm_90"));
        int archFails = 0;
        for (const QJsonObject& o : lines)
            if (o.value("type").toString() == "check" && o.value("id").toString() == "arch"
                && o.value("level").toString() == "fail")
                ++archFails;
        QCOMPARE(archFails, 2); // sm_100a and sm_120a
        const QJsonObject summary = lines.last();
        QCOMPARE(summary.value("type").toString(), QStringLiteral("summary"));
        QCOMPARE(summary.value("ok").toBool(), false);
        QCOMPARE(summary.value("launch_blocked").toBool(), true);
    }

    void localAllGood()
    {
        requireLibraries();
        QTemporaryDir dir;
        QVERIFY(QFile::copy(m_build + "/sm90a.so", dir.filePath("sm90a.so")));
        const auto r = test::runCli({ "verify", "--local", "--dir", dir.path() }, 300000, demoPath());
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QVERIFY2(r.out.contains("sm90a.so [sm_90a] runs on 9.0 (sm_90a SASS)"), r.out.constData());
        QVERIFY(r.out.contains("PASS"));
    }

    // sgl-kernel's two common_ops builds, judged per GPU as its loader picks them: on an H200 +
    // RTX PRO 6000 host both GPUs have their code (sm90/ and sm100/); an H200 + RTX 4090 host
    // sends the 4090 (8.9) to sm100/, which has Blackwell code only: it is named, and verify fails.
    void loaderChoicePerGpu()
    {
        requireLibraries();
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("sgl_kernel/sm90") && QDir(dir.path()).mkpath("sgl_kernel/sm100"));
        QVERIFY(QFile::copy(m_build + "/sm90a.so", dir.filePath("sgl_kernel/sm90/common_ops.abi3.so")));
        QVERIFY(QFile::copy(m_build + "/sm120a.so", dir.filePath("sgl_kernel/sm100/common_ops.abi3.so")));
        auto r = test::runCli({ "verify", "--local", "--dir", dir.path() }, 300000,
            demoPath()
                + QStringList { "KF_DEMO_GPUS=2", "KF_DEMO_GPU_MODELS=NVIDIA H200=9.0,NVIDIA RTX PRO 6000=12.0" });
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QVERIFY2(r.out.contains("sgl-kernel's loader: GPU 0 (9.0) -> sgl_kernel/sm90/common_ops.abi3.so (sm_90a SASS); "
                                "GPU 1 (12.0) -> sgl_kernel/sm100/common_ops.abi3.so (sm_120a SASS)"),
            r.out.constData());
        r = test::runCli({ "verify", "--local", "--dir", dir.path(), "--json" }, 300000,
            demoPath()
                + QStringList { "KF_DEMO_GPUS=2", "KF_DEMO_GPU_MODELS=NVIDIA H200=9.0,NVIDIA GeForce RTX 4090=8.9" });
        QCOMPARE(r.exitCode, 1);
        QStringList fails;
        for (const QJsonObject& o : jsonLines(r.out))
            if (o.value("type").toString() == "check" && o.value("level").toString() == "fail")
                fails << o.value("message").toString();
        QCOMPARE(fails.size(), 1);
        QVERIFY2(fails.first().startsWith("GPU 1 (NVIDIA GeForce RTX 4090, compute capability 8.9) would fail: "
                                          "sgl-kernel's loader picks sgl_kernel/sm100/common_ops.abi3.so for it"),
            qPrintable(fails.first()));
        QCOMPARE(jsonLines(r.out).last().value("launch_blocked").toBool(), true);
    }

    // A verification is part of the host's story: `timeline` lists it afterwards (private HOME,
    // so the history is this test's own).
    void verificationIsOnTheTimeline()
    {
        requireLibraries();
        QTemporaryDir home;
        const QStringList env = demoPath()
            + QStringList { QStringLiteral("HOME=") + home.path(), QStringLiteral("XDG_CONFIG_HOME="),
                  QStringLiteral("XDG_STATE_HOME="), QStringLiteral("XDG_CACHE_HOME="),
                  QStringLiteral("XDG_DATA_HOME=") };
        QTemporaryDir dir;
        QVERIFY(QFile::copy(m_build + "/sm90a.so", dir.filePath("sm90a.so")));
        auto r = test::runCli({ "verify", "--local", "--dir", dir.path() }, 300000, env);
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        r = test::runCli({ "timeline", "--local", "--json" }, 60000, env);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto events = jsonLines(r.out);
        QCOMPARE(events.size(), 1);
        QCOMPARE(events.first().value("kind").toString(), QStringLiteral("verify.result"));
        QVERIFY2(events.first().value("summary").toString().startsWith(QStringLiteral("Verification passed")),
            r.out.constData());
    }

    void overSsh()
    {
        requireLibraries();
        KF_START_DEMO_HOST(demo);
        QDir().mkpath(demo.homeDir() + "/sgl/build");
        for (const test::CudaLibrary& lib : test::standardCudaLibraries())
            QVERIFY(QFile::copy(m_build + "/" + lib.name, demo.homeDir() + "/sgl/build/" + lib.name));
        const auto r
            = test::runCli({ "verify", "-p", QString::number(demo.port()), "-i", demo.clientKeyPath(), "--known-hosts",
                               demo.knownHostsPath(), demo.user() + "@127.0.0.1", "--dir", "sgl/build" },
                300000);
        QVERIFY2(r.exitCode == 1, QByteArray(r.out + r.err).constData());
        QVERIFY2(r.out.contains("sm100a.so cannot run on GPUs 0-7: no kernel image for 9.0: sm_100a runs only on 10.0"),
            r.out.constData());
        QVERIFY(r.out.contains("sm120a.so cannot run on GPUs 0-7"));
        QVERIFY(r.out.contains("ptx80.so on GPUs 0-7: JIT from compute_80 PTX"));
    }

    void usageAndConnectionErrors()
    {
        auto r = test::runCli({ "verify", "--local" });
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("give --dir DIR or --profile NAME"));
        r = test::runCli({ "verify", "--local", "--dir" });
        QCOMPARE(r.exitCode, 2);
        r = test::runCli({ "verify", "--local", "--dir", "x", "extra" });
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("unexpected argument extra"));
        r = test::runCli({ "verify", "--local", "--profile", "no such profile" });
        QCOMPARE(r.exitCode, 2);
        r = test::runCli({ "verify", "--help" });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("--dir DIR"));
        r = test::runCli({ "verify", "--local", "--dir", "/nonexistent/kf-verify" });
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.contains("no folder /nonexistent/kf-verify"));
        r = test::runCli({ "verify", "-p", "1", "--no-reconnect", "nobody@127.0.0.1", "--dir", "x" });
        QCOMPARE(r.exitCode, 255);
    }
};

QTEST_GUILESS_MAIN(TestCliVerify)
#include "tst_cli_verify.moc"
