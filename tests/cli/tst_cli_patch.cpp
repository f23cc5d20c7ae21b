// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The real kernelforge-cli binary on copies of the sgl-kernel variant trees.
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

bool copyTree(const QString& from, const QString& to)
{
    QDir src(from);
    QDir().mkpath(to);
    for (const QFileInfo& fi : src.entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QString target = to + QLatin1Char('/') + fi.fileName();
        if (fi.isDir() ? !copyTree(fi.absoluteFilePath(), target) : !QFile::copy(fi.absoluteFilePath(), target))
            return false;
    }
    return true;
}

QList<QJsonObject> jsonLines(const QByteArray& out)
{
    QList<QJsonObject> objs;
    for (const QByteArray& line : out.split('\n'))
        if (!line.trimmed().isEmpty())
            objs.append(QJsonDocument::fromJson(line).object());
    return objs;
}

} // namespace

class TestCliPatch : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void planApplyAgainRollback();
    void notApplicableExitsOne();
    void errorsExitTwo_data();
    void errorsExitTwo();
    void diffFileAsSet();

private:
    QStringList env() const;
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_root;
};

void TestCliPatch::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_root = m_dir->filePath(QStringLiteral("sgl-kernel"));
}

QStringList TestCliPatch::env() const
{
    return { QStringLiteral("HOME=") + m_dir->filePath(QStringLiteral("home")),
        QStringLiteral("XDG_STATE_HOME=") + m_dir->filePath(QStringLiteral("state")),
        QStringLiteral("XDG_CACHE_HOME=") + m_dir->filePath(QStringLiteral("cache")) };
}

void TestCliPatch::planApplyAgainRollback()
{
    QVERIFY(copyTree(kf::test::dataPath(QStringLiteral("sgl-kernel-variants/2025-06-moved-includes")), m_root));
    const QByteArray original = kf::test::readFile(m_root + QStringLiteral("/CMakeLists.txt"));
    const QStringList base { QStringLiteral("patch"), QString(), QStringLiteral("--set"),
        QStringLiteral("builtin:sgl-kernel-sm120-cuda13"), QStringLiteral("--root"), m_root };
    auto run = [&](const QString& action, bool json) {
        QStringList a = base;
        a[1] = action;
        if (json)
            a << QStringLiteral("--json");
        return kf::test::runCli(a, 120000, env());
    };

    const auto plan = run(QStringLiteral("plan"), false);
    QVERIFY2(plan.exitCode == 0, plan.err.constData());
    QVERIFY(plan.out.contains("[will apply] cmake-policy-guards"));
    QVERIFY(plan.out.contains("+if(POLICY CMP0169)"));
    QVERIFY(plan.out.contains("Summary: 4 will apply"));

    const auto apply = run(QStringLiteral("apply"), true);
    QVERIFY2(apply.exitCode == 0, apply.err.constData());
    const QList<QJsonObject> applied = jsonLines(apply.out);
    QCOMPARE(applied.size(), 4);
    for (const QJsonObject& o : applied) {
        QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("applied"));
        QVERIFY(
            o.value(QStringLiteral("sha256_before")).toString() != o.value(QStringLiteral("sha256_after")).toString());
        QCOMPARE(o.value(QStringLiteral("sha256_after")).toString().size(), 64);
    }
    QVERIFY(kf::test::readFile(m_root + QStringLiteral("/CMakeLists.txt")).contains("if(POLICY CMP0169)"));

    const auto again = run(QStringLiteral("apply"), true);
    QCOMPARE(again.exitCode, 0);
    for (const QJsonObject& o : jsonLines(again.out))
        QCOMPARE(o.value(QStringLiteral("status")).toString(), QStringLiteral("already-applied"));

    const auto status = run(QStringLiteral("status"), false);
    QVERIFY(status.out.contains("standing"));

    const auto rollback = run(QStringLiteral("rollback"), false);
    QVERIFY2(rollback.exitCode == 0, QByteArray(rollback.out + rollback.err).constData());
    QCOMPARE(rollback.out.count("[rolled back]"), 2);
    QCOMPARE(kf::test::readFile(m_root + QStringLiteral("/CMakeLists.txt")), original);
    const auto nothing = run(QStringLiteral("rollback"), false);
    QVERIFY(nothing.out.contains("Nothing to roll back"));
}

void TestCliPatch::notApplicableExitsOne()
{
    QVERIFY(copyTree(kf::test::dataPath(QStringLiteral("sgl-kernel-variants/2025-02-no-fa3")), m_root));
    const auto r = kf::test::runCli({ QStringLiteral("patch"), QStringLiteral("apply"), QStringLiteral("--set"),
                                        QStringLiteral("builtin:sgl-kernel-sm120-cuda13"), QStringLiteral("--root"),
                                        m_root, QStringLiteral("--json") },
        120000, env());
    QCOMPARE(r.exitCode, 1);
    const QList<QJsonObject> objs = jsonLines(r.out);
    QCOMPARE(objs.size(), 4);
    QCOMPARE(objs[0].value(QStringLiteral("status")).toString(), QStringLiteral("applied"));
    QCOMPARE(objs[2].value(QStringLiteral("status")).toString(), QStringLiteral("not-applicable"));
    QVERIFY(objs[2].value(QStringLiteral("reason")).toString().contains(QStringLiteral("April 2025")));
    QCOMPARE(objs[3].value(QStringLiteral("status")).toString(), QStringLiteral("not-applicable"));
}

void TestCliPatch::errorsExitTwo_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QByteArray>("message");
    QTest::newRow("unknown builtin") << QStringList { QStringLiteral("plan"), QStringLiteral("--set"),
        QStringLiteral("builtin:nope"), QStringLiteral("--root"), QStringLiteral("/tmp") }
                                     << QByteArray("no built-in patch set");
    QTest::newRow("missing root") << QStringList { QStringLiteral("plan"), QStringLiteral("--set"),
        QStringLiteral("builtin:sgl-kernel-sm120-cuda13") }
                                  << QByteArray("--root are required");
    QTest::newRow("root not a folder") << QStringList { QStringLiteral("plan"), QStringLiteral("--set"),
        QStringLiteral("builtin:sgl-kernel-sm120-cuda13"), QStringLiteral("--root"), QStringLiteral("/nonexistent/x") }
                                       << QByteArray("is not a folder");
    QTest::newRow("unknown action") << QStringList { QStringLiteral("frob") } << QByteArray("unknown action");
}

void TestCliPatch::errorsExitTwo()
{
    QFETCH(QStringList, args);
    QFETCH(QByteArray, message);
    const auto r = kf::test::runCli(QStringList { QStringLiteral("patch") } + args, 60000, env());
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(message), r.err.constData());
}

void TestCliPatch::diffFileAsSet()
{
    QVERIFY(copyTree(kf::test::dataPath(QStringLiteral("sgl-kernel-variants/2025-10-cmp0177")), m_root));
    const auto r
        = kf::test::runCli({ QStringLiteral("patch"), QStringLiteral("apply"), QStringLiteral("--set"),
                               kf::test::dataPath(QStringLiteral("patch/format-patch-cccl.patch")),
                               QStringLiteral("--strip"), QStringLiteral("2"), QStringLiteral("--root"), m_root },
            60000, env());
    QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
    QVERIFY(r.out.contains("[applied] CMakeLists.txt"));
    QVERIFY(kf::test::readFile(m_root + QStringLiteral("/CMakeLists.txt")).contains("if(POLICY CMP0177)"));
}

QTEST_GUILESS_MAIN(TestCliPatch)
#include "tst_cli_patch.moc"
