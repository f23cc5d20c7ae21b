// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issues #30 (item 3: provenance) and #33 (item 4: from diagnosis to fix) through the real
// kernelforge-cli on the demo host (a real sshd), as a person would type it. The patched demo
// tree builds and verifies; with the CCCL patch's lines taken out again the build fails, `build
// attach --json` names the compiler's error as the root cause and the CCCL patch as its fix;
// verification now refuses the library the earlier build left ("stale: made by build X, the last
// build Y failed") and so does `server launch`; `patch apply` writes only the CCCL patch, the
// same profile builds again in the same build folder and succeeds, and everything passes again.
#include "tests/support/demotree.h"
#include "tests/support/testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

namespace {

const QString kProfile = QStringLiteral("Demo sgl-kernel (CMake + Ninja)");

QList<QJsonObject> jsonLines(const QByteArray& out)
{
    QList<QJsonObject> objects;
    for (const QByteArray& line : out.split('\n'))
        if (line.startsWith('{'))
            objects << QJsonDocument::fromJson(line).object();
    return objects;
}

QJsonObject eventNamed(const QList<QJsonObject>& lines, const QString& name)
{
    for (const QJsonObject& o : lines)
        if (o.value("event").toString() == name)
            return o;
    return {};
}

} // namespace

class TestCliBuildFix : public QObject
{
    Q_OBJECT

    QString dest(const kf::DemoHost& demo) const { return demo.user() + "@127.0.0.1"; }

    // build start + build attach --json; the attach's JSON lines.
    QList<QJsonObject> build(const kf::DemoHost& demo, int* exitStatus, QString* job)
    {
        auto start = kf::test::runCli(QStringList { "build", "start", "--profile", kProfile }
            + kf::test::cliSshOptions(demo) + QStringList { dest(demo) });
        if (start.exitCode != 0)
            return {};
        *job = QString::fromUtf8(start.out.trimmed().split('\n').last()).trimmed();
        auto attach = kf::test::runCli(QStringList { "build", "attach", *job, "--json", "--profile", kProfile }
                + kf::test::cliSshOptions(demo) + QStringList { dest(demo) },
            540000);
        *exitStatus = attach.exitCode;
        return jsonLines(attach.out);
    }

    kf::test::ProcessOutput verify(const kf::DemoHost& demo)
    {
        return kf::test::runCli(QStringList { "verify", "--profile", kProfile, "--json" }
                + kf::test::cliSshOptions(demo) + QStringList { dest(demo) },
            300000);
    }

private Q_SLOTS:
    void failedBuildOffersTheCcclPatchAndStaleLibrariesAreRefused()
    {
        // Without CUDA's relocated headers the demo's host-compiled file never includes them.
        if (!QFile::exists(QStringLiteral("/usr/local/cuda/include/cccl/cuda/std/version")))
            QSKIP("needs CUDA 13's include/cccl (CUDA at /usr/local/cuda on CI)");
        KF_START_DEMO_HOST(demo);
        const QStringList set { "--set", "builtin:sgl-kernel-sm120-cuda13", "--root", dest(demo) + ":sgl-kernel" };
        auto apply = kf::test::runCli(QStringList { "patch", "apply" } + set + kf::test::cliSshOptions(demo));
        QVERIFY2(apply.exitCode == 0, QByteArray(apply.out + apply.err).constData());

        // 1. The patched tree builds and verifies; the library is the build's.
        int status = -1;
        QString good;
        auto lines = build(demo, &status, &good);
        QVERIFY2(status == 0, qPrintable(QJsonDocument(eventNamed(lines, "finished")).toJson()));
        auto v = verify(demo);
        QVERIFY2(v.exitCode == 0, QByteArray(v.out + v.err).constData());
        QVERIFY2(jsonLines(v.out).last().value("made_by").toArray().contains(QJsonValue(good)), v.out.constData());

        // 2. The CCCL patch's lines taken out of the tree again: the build fails at the compiler.
        QVERIFY(kf::test::takeOutCcclPatch(demo.homeDir() + "/sgl-kernel/CMakeLists.txt"));
        QString broken;
        lines = build(demo, &status, &broken);
        QVERIFY(status != 0);
        const QJsonObject finished = eventNamed(lines, "finished");
        const QJsonObject cause = finished.value("root_cause").toObject();
        QVERIFY2(cause.value("message").toString().contains("cuda/std/version: No such file or directory"),
            qPrintable(QJsonDocument(finished).toJson()));
        QCOMPARE(cause.value("hint").toString(), QStringLiteral("cccl"));
        const QJsonObject fix = finished.value("fix").toObject();
        QCOMPARE(fix.value("kind").toString(), QStringLiteral("patch"));
        QCOMPARE(fix.value("id").toString(), QStringLiteral("cccl-include-dir"));
        QCOMPARE(fix.value("set").toString(), QStringLiteral("builtin:sgl-kernel-sm120-cuda13"));
        // The diagnostic event of the compiler's error names the same fix; ninja's FAILED line none.
        bool diagnosticFix = false;
        for (const QJsonObject& o : lines) {
            if (o.value("event").toString() != "diagnostic")
                continue;
            if (o.value("kind").toString() == "ninja")
                QVERIFY(!o.contains("fix"));
            diagnosticFix = diagnosticFix || o.value("fix").toObject().value("id").toString() == "cccl-include-dir";
        }
        QVERIFY(diagnosticFix);

        // 3. What the earlier build left is not called good, and a launch is refused.
        v = verify(demo);
        QCOMPARE(v.exitCode, 1);
        bool stale = false;
        for (const QJsonObject& o : jsonLines(v.out))
            if (o.value("type").toString() == "check" && o.value("id").toString() == "provenance")
                stale = stale
                    || (o.value("level").toString() == "fail"
                        && o.value("message").toString().contains(
                            "stale: build/common_ops.so was made by build " + good)
                        && o.value("message").toString().contains("the last build, build " + broken));
        QVERIFY2(stale, v.out.constData());
        QVERIFY(jsonLines(v.out).last().value("launch_blocked").toBool());
        const QString port = QString::number(kf::test::freeLocalPort());
        auto launch = kf::test::runCli(QStringList { "server", "launch", "--demo", "--port", port }
            + kf::test::cliSshOptions(demo) + QStringList { dest(demo) });
        QCOMPARE(launch.exitCode, 1);
        QVERIFY2(launch.err.contains("stale: build/common_ops.so"), launch.err.constData());

        // 4. The fix: the plan has only the CCCL patch to write; then the same profile builds on.
        apply = kf::test::runCli(
            QStringList { "patch", "apply" } + set + kf::test::cliSshOptions(demo) + QStringList { "--json" });
        QVERIFY2(apply.exitCode == 0, QByteArray(apply.out + apply.err).constData());
        for (const QJsonObject& p : jsonLines(apply.out))
            if (p.value("id").toString() != "cccl-include-dir")
                QCOMPARE(p.value("status").toString(), QStringLiteral("already-applied"));
        QString fixed;
        lines = build(demo, &status, &fixed);
        QVERIFY2(status == 0, qPrintable(QJsonDocument(eventNamed(lines, "finished")).toJson()));
        v = verify(demo);
        QVERIFY2(v.exitCode == 0, QByteArray(v.out + v.err).constData());
        QVERIFY2(jsonLines(v.out).last().value("made_by").toArray().contains(QJsonValue(fixed)), v.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliBuildFix)
#include "tst_cli_buildfix.moc"
