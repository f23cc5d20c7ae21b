// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// runVerify over the demo host's real sshd and on this machine: real nvcc-made libraries in a
// build folder (with a FIFO and a symlink loop beside them), a wheel in dist/, an installed
// sgl_kernel whose extension needs a c10 symbol this machine lacks (the real dynamic loader
// refuses it), and the demo's nvidia-smi (8 x H200, compute capability 9.0). Without
// cuobjdump the libraries are read by their headers over SFTP ranges; with a cuobjdump that
// replays the real listings captured on the H200 machine, from its output.
#include "core/ssh/sshtransport.h"
#include "core/transport/localtransport.h"
#include "core/verify/verifier.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

using namespace kf;
using Level = PreflightCheck::Level;

namespace {

const QStringList kLibraries { "sm90a.so", "sm100a.so", "ptx80.so", "multi.so", "nocuda.so" };

// root/proj/build/*.so, root/proj/dist/*.whl, root/pkgs/sgl_kernel (the "installed" package).
QString makeProject(const QString& root)
{
    QDir(root).mkpath(QStringLiteral("proj/build/lib"));
    QDir(root).mkpath(QStringLiteral("proj/dist"));
    QDir(root).mkpath(QStringLiteral("pkgs/sgl_kernel"));
    for (const QString& l : kLibraries)
        if (!QFile::copy(test::dataPath("fatbin/" + l), root + "/proj/build/lib/" + l))
            return "cannot copy " + l;
    QFile::copy(test::dataPath("fatbin/sgl_kernel-demo.whl"), root + "/proj/dist/sgl_kernel-0.3.16-cp310-abi3.whl");
    if (::mkfifo(QFile::encodeName(root + "/proj/build/pipe.so").constData(), 0644) != 0)
        return QStringLiteral("mkfifo failed");
    QFile::link(root + "/proj", root + "/proj/build/loop");
    QFile init(root + "/pkgs/sgl_kernel/__init__.py");
    if (!init.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot write __init__.py");
    init.write("from sgl_kernel import common_ops\n");
    init.close();
    QFile src(root + "/abi.cpp");
    if (!src.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot write abi.cpp");
    src.write("namespace c10 { struct SymInt { bool kf_sym_ne(const SymInt&) const; }; }\n"
              "extern \"C\" void* PyInit_common_ops() { c10::SymInt a; return (void*)(long)a.kf_sym_ne(a); }\n");
    src.close();
    const auto cc = test::runProgram(QStringLiteral("c++"),
        { "-shared", "-fPIC", "-o", root + "/pkgs/sgl_kernel/common_ops.abi3.so", root + "/abi.cpp" });
    return cc.exitCode == 0 ? QString() : QString::fromUtf8(cc.err);
}

BuildProfile profileFor(const QString& root)
{
    BuildProfile p;
    p.name = QStringLiteral("verify test");
    p.command = QStringLiteral("true");
    p.cmakeArgs = { QStringLiteral("-DSGL_KERNEL_ENABLE_FA3=OFF") };
    p.env.insert(QStringLiteral("PYTHONPATH"), root + QStringLiteral("/pkgs"));
    return p;
}

const VerifyLibrary* library(const VerifyReport& r, const QString& name)
{
    for (const VerifyLibrary& l : r.libraries)
        if (l.fileName() == name)
            return &l;
    return nullptr;
}

QStringList messages(const VerifyReport& r, const char* id, Level level)
{
    QStringList out;
    for (const PreflightCheck& c : r.checks)
        if (c.id == QLatin1String(id) && c.level == level)
            out << c.message;
    return out;
}

// What every run over these files must find, whoever listed the libraries.
void checkReport(const VerifyReport& r, bool multiFamily)
{
    QCOMPARE(r.gpus.size(), 8);
    QCOMPARE(r.gpus.first().cc->toString(), QStringLiteral("9.0"));
    QCOMPARE(r.libraries.size(), kLibraries.size() + 1); // + the package's common_ops.abi3.so
    QCOMPARE(joinTargetNames(library(r, "sm90a.so")->targets), QStringLiteral("sm_90a"));
    QCOMPARE(joinTargetNames(library(r, "sm100a.so")->targets), QStringLiteral("sm_100a"));
    QCOMPARE(joinTargetNames(library(r, "ptx80.so")->targets), QStringLiteral("compute_80"));
    QCOMPARE(joinTargetNames(library(r, "multi.so")->targets),
        multiFamily ? QStringLiteral("sm_90 compute_90a sm_100f compute_120")
                    : QStringLiteral("sm_90 compute_90a sm_100 compute_120"));
    QVERIFY(library(r, "nocuda.so")->noDeviceCode);
    QVERIFY(library(r, "common_ops.abi3.so")->noDeviceCode);
    QCOMPARE(library(r, "common_ops.abi3.so")->origin, QStringLiteral("package"));
    QVERIFY(!library(r, "pipe.so")); // a FIFO is no library

    const QStringList fails = messages(r, "arch", Level::Fail);
    QCOMPARE(fails.size(), 1);
    QVERIFY2(fails.first().startsWith(QLatin1String("lib/sm100a.so cannot run on GPUs 0-7: no kernel image for 9.0")),
        qPrintable(fails.first()));
    QVERIFY(messages(r, "arch", Level::Warn)
                .join(u'\n')
                .contains(QLatin1String("lib/ptx80.so on GPUs 0-7: JIT from compute_80")));
    QVERIFY(messages(r, "arch", Level::Warn).join(u'\n').contains(QLatin1String("no CUDA code in lib/nocuda.so")));
    QVERIFY(messages(r, "arch", Level::Pass).join(u'\n').contains(QLatin1String("lib/multi.so [")));

    const QStringList import = messages(r, "import", Level::Fail);
    QCOMPARE(import.size(), 1);
    QVERIFY2(import.first().contains(QLatin1String("built against a different torch")), qPrintable(import.first()));
    QVERIFY(messages(r, "fa3", Level::Warn).join(u'\n').contains(QLatin1String("-DSGL_KERNEL_ENABLE_FA3=OFF")));
    QCOMPARE(r.wheels.size(), 1);
    QCOMPARE(
        r.wheels.first().libraries, (QStringList { "sgl_kernel/common_ops.abi3.so", "sgl_kernel/flash_ops.abi3.so" }));
    QCOMPARE(r.launchBlockers().size(), 2);
}

} // namespace

class TestVerify : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty())
            QSKIP("no python3");
    }

    void overSshReadingHeaders()
    {
        KF_START_DEMO_HOST(demo);
        const QString problem = makeProject(demo.homeDir());
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        auto t = SshTransport::connect(demo.profile());
        QVERIFY2(t, qPrintable(t.error()));
        const auto report = runVerify(**t, { QStringLiteral("proj/build"), profileFor(demo.homeDir()) });
        QVERIFY2(report, qPrintable(report.error()));
        QCOMPARE(report->dir, QDir(demo.homeDir() + "/proj/build").canonicalPath());
        if (report->cuobjdump.isEmpty())
            QCOMPARE(library(*report, "sm90a.so")->source, QStringLiteral("headers"));
        checkReport(*report, report->cuobjdump.isEmpty());
    }

    // A cuobjdump on the server replays the listings cuobjdump 13.0 printed for these files.
    void overSshWithCuobjdump()
    {
        KF_START_DEMO_HOST(demo);
        const QString problem = makeProject(demo.homeDir());
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QFile stub(demo.binDir() + "/cuobjdump");
        QVERIFY(stub.open(QIODevice::WriteOnly));
        stub.write(QStringLiteral("#!/bin/sh\n"
                                  "for f; do :; done\n"
                                  "cap=%1/$(basename \"$f\").txt\n"
                                  "[ -f \"$cap\" ] || cap=%1/nocuda.so.txt\n"
                                  "cat \"$cap\"\n"
                                  "grep -q 'does not contain device code' \"$cap\" && exit 255\n"
                                  "exit 0\n")
                       .arg(test::dataPath(QStringLiteral("fatbin/cuobjdump")))
                       .toUtf8());
        stub.close();
        QVERIFY(stub.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        auto t = SshTransport::connect(demo.profile());
        QVERIFY2(t, qPrintable(t.error()));
        const auto report = runVerify(**t, { QStringLiteral("proj/build"), profileFor(demo.homeDir()) });
        QVERIFY2(report, qPrintable(report.error()));
        QCOMPARE(report->cuobjdump, demo.binDir() + "/cuobjdump");
        for (const VerifyLibrary& l : report->libraries)
            QCOMPARE(l.source, QStringLiteral("cuobjdump"));
        checkReport(*report, false);
    }

    void onThisMachine()
    {
        QTemporaryDir dir;
        const QString problem = makeProject(dir.path());
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        BuildProfile p = profileFor(dir.path());
        // The demo's nvidia-smi first on PATH (this machine has no GPU).
        p.env.insert(QStringLiteral("PATH"),
            QStringLiteral(KF_SOURCE_DIR "/resources/demo/bin:") + qEnvironmentVariable("PATH"));
        LocalTransport local;
        const auto report = runVerify(local, { dir.path() + "/proj/build", p });
        QVERIFY2(report, qPrintable(report.error()));
        checkReport(*report, report->cuobjdump.isEmpty());
    }

    // Header reads stop at their time budget; what was not read gets no verdict, only a warning.
    void headerReadBudget()
    {
        QTemporaryDir dir;
        QVERIFY(QFile::copy(test::dataPath("fatbin/sm100a.so"), dir.filePath("sm100a.so")));
        BuildProfile p;
        p.name = QStringLiteral("budget");
        p.env.insert(QStringLiteral("PATH"),
            QStringLiteral(KF_SOURCE_DIR "/resources/demo/bin:") + qEnvironmentVariable("PATH"));
        LocalTransport local;
        VerifyRequest request { dir.path(), p };
        auto report = runVerify(local, request);
        QVERIFY2(report, qPrintable(report.error()));
        if (!report->cuobjdump.isEmpty())
            QSKIP("cuobjdump lists the libraries here: no header reads to budget");
        QCOMPARE(messages(*report, "arch", Level::Fail).size(), 1);
        request.headerReadBudgetMs = 0;
        report = runVerify(local, request);
        QVERIFY2(report, qPrintable(report.error()));
        QVERIFY(messages(*report, "arch", Level::Fail).isEmpty());
        QVERIFY2(messages(*report, "arch", Level::Warn).join(u'\n').contains(QLatin1String("time budget")),
            qPrintable(messages(*report, "arch", Level::Warn).join(u'\n')));
    }

    // The script lists one file a line: a name with a line break would add libraries that do not
    // exist (or stand for other files); such a file is left out, the others are listed as named.
    void aNameWithALineBreakIsLeftOut()
    {
        QTemporaryDir dir;
        QVERIFY(QFile::copy(test::dataPath("fatbin/sm100a.so"), dir.filePath("real.so")));
        QVERIFY(test::writeFile(dir.filePath("evil.so\n/etc/passwd.so"), "x"));
        QVERIFY(test::writeFile(dir.filePath(QString::fromUtf8("tab\there \x1b[2K.so")), "x"));
        LocalTransport local;
        const auto report = runVerify(local, { dir.path(), std::nullopt });
        QVERIFY2(report, qPrintable(report.error()));
        QStringList names;
        for (const VerifyLibrary& l : report->libraries)
            names << l.fileName();
        names.sort();
        QCOMPARE(names, QStringList({ "real.so", QString::fromUtf8("tab\there \x1b[2K.so") }));
    }

    void missingFolder()
    {
        LocalTransport local;
        const auto report = runVerify(local, { QStringLiteral("/nonexistent/kf-verify"), std::nullopt });
        QVERIFY2(report, qPrintable(report.error()));
        QVERIFY(report->dirMissing);
        QVERIFY(report->failed());
        QVERIFY(!runVerify(local, {}).ok()); // nothing to verify
    }
};

QTEST_GUILESS_MAIN(TestVerify)
#include "tst_verify.moc"
