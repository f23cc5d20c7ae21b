// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The real kernelforge-cli binary on copies of the sgl-kernel variant trees.
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

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
    void rollbackFindsTheApplyByTheRealRoot();
    void rollbackFindsRowsWithTheRootAsTyped();
    void rejectHunksLikeGitAddP();
    void interruptedBetweenRenameAndJournal_data();
    void interruptedBetweenRenameAndJournal();

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
    // Nothing left: a one-line reason and exit 1, so a script notices.
    const auto nothing = run(QStringLiteral("rollback"), false);
    QCOMPARE(nothing.exitCode, 1);
    QVERIFY2(nothing.err.contains("nothing to roll back: no standing apply of sgl-kernel-sm120-cuda13"),
        nothing.err.constData());
    QCOMPARE(nothing.err.trimmed().count('\n'), 0);
}

// `apply --root ./sgl-kernel/` from its parent, then `rollback --root` through a symlink to
// the same folder: the history is keyed by the real path, so the rollback finds the apply;
// every message shows that path. A second rollback matches nothing and exits 1.
void TestCliPatch::rollbackFindsTheApplyByTheRealRoot()
{
    QVERIFY(copyTree(kf::test::dataPath(QStringLiteral("sgl-kernel-variants/2025-06-moved-includes")), m_root));
    QVERIFY(QFile::link(m_root, m_dir->filePath(QStringLiteral("link"))));
    const QString real = QFileInfo(m_root).canonicalFilePath();
    const QByteArray original = kf::test::readFile(m_root + QStringLiteral("/CMakeLists.txt"));
    auto run = [&](const QString& action, const QString& root) {
        return kf::test::runCli({ QStringLiteral("patch"), action, QStringLiteral("--set"),
                                    QStringLiteral("builtin:sgl-kernel-sm120-cuda13"), QStringLiteral("--root"), root },
            120000, env());
    };
    const QString here = QDir::currentPath();
    QVERIFY(QDir::setCurrent(m_dir->path()));
    const auto apply = run(QStringLiteral("apply"), QStringLiteral("./sgl-kernel/"));
    QVERIFY(QDir::setCurrent(here));
    QVERIFY2(apply.exitCode == 0, QByteArray(apply.out + apply.err).constData());
    QVERIFY2(apply.out.contains(QByteArray(QByteArray("Root: local:") + real.toUtf8() + '\n')), apply.out.constData());
    QVERIFY(kf::test::readFile(m_root + QStringLiteral("/CMakeLists.txt")) != original);

    const auto status = run(QStringLiteral("status"), m_dir->filePath(QStringLiteral("link")));
    QVERIFY2(status.out.contains(QByteArray(QByteArray("History on local:") + real.toUtf8() + ":\n")),
        status.out.constData());
    QCOMPARE(status.out.count("standing"), 2);

    const auto rollback = run(QStringLiteral("rollback"), m_dir->filePath(QStringLiteral("link")));
    QVERIFY2(rollback.exitCode == 0, QByteArray(rollback.out + rollback.err).constData());
    QCOMPARE(rollback.out.count("[rolled back]"), 2);
    QVERIFY2(rollback.out.contains(QByteArray(QByteArray(" ") + real.toUtf8() + "/CMakeLists.txt")),
        rollback.out.constData());
    QCOMPARE(kf::test::readFile(m_root + QStringLiteral("/CMakeLists.txt")), original);

    const auto nothing = run(QStringLiteral("rollback"), m_root);
    QCOMPARE(nothing.exitCode, 1);
    const QByteArray reason
        = "nothing to roll back: no standing apply of sgl-kernel-sm120-cuda13 on local:" + real.toUtf8();
    QVERIFY2(nothing.err.contains(reason), nothing.err.constData());
    QCOMPARE(nothing.err.trimmed().count('\n'), 0);
}

// History rows journaled before roots were canonical (the root as typed) are still found.
void TestCliPatch::rollbackFindsRowsWithTheRootAsTyped()
{
    QVERIFY(copyTree(kf::test::dataPath(QStringLiteral("sgl-kernel-variants/2025-06-moved-includes")), m_root));
    const QString real = QFileInfo(m_root).canonicalFilePath();
    const QByteArray original = kf::test::readFile(m_root + QStringLiteral("/CMakeLists.txt"));
    const QStringList base { QStringLiteral("patch"), QString(), QStringLiteral("--set"),
        QStringLiteral("builtin:sgl-kernel-sm120-cuda13"), QStringLiteral("--root"), m_root };
    QStringList args = base;
    args[1] = QStringLiteral("apply");
    QCOMPARE(kf::test::runCli(args, 120000, env()).exitCode, 0);
    // What an older version wrote: the root and path as the user typed them.
    const QString typed = m_root + QStringLiteral("/./");
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("old-rows"));
        db.setDatabaseName(m_dir->filePath(QStringLiteral("state/kernelforge/history.sqlite")));
        QVERIFY(db.open());
        QSqlQuery q(db);
        q.prepare(QStringLiteral("UPDATE patch_applies SET root = ?, path = ? || file"));
        q.addBindValue(typed);
        q.addBindValue(typed);
        QVERIFY2(q.exec(), qPrintable(q.lastError().text()));
        QCOMPARE(q.numRowsAffected(), 2);
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("old-rows"));
    args[1] = QStringLiteral("rollback");
    const auto rollback = kf::test::runCli(args, 120000, env());
    QVERIFY2(rollback.exitCode == 0, QByteArray(rollback.out + rollback.err).constData());
    QCOMPARE(rollback.out.count("[rolled back]"), 2);
    QCOMPARE(kf::test::readFile(m_root + QStringLiteral("/CMakeLists.txt")), original);
    args[1] = QStringLiteral("status");
    const auto status = kf::test::runCli(args, 120000, env());
    QVERIFY2(status.out.contains(QByteArray(QByteArray("History on local:") + real.toUtf8() + ":\n")),
        status.out.constData());
    QCOMPARE(status.out.count("  rolled back "), 2);
    QVERIFY2(!status.out.contains("/./"), status.out.constData());
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
    // A mistyped --id must not read as "no id" (which rolls back every standing apply).
    QTest::newRow("id not a number") << QStringList { QStringLiteral("rollback"), QStringLiteral("--set"),
        QStringLiteral("builtin:sgl-kernel-sm120-cuda13"), QStringLiteral("--root"), QStringLiteral("/tmp"),
        QStringLiteral("--id"), QStringLiteral("l2") }
                                     << QByteArray("--id needs a journal id (see patch status): l2");
    QTest::newRow("strip negative") << QStringList { QStringLiteral("plan"), QStringLiteral("--set"),
        QStringLiteral("builtin:sgl-kernel-sm120-cuda13"), QStringLiteral("--root"), QStringLiteral("/tmp"),
        QStringLiteral("--strip"), QStringLiteral("-1") }
                                    << QByteArray("--strip needs a number of path components >= 0: -1");
    QTest::newRow("set without value") << QStringList { QStringLiteral("plan"), QStringLiteral("--root"),
        QStringLiteral("/tmp"), QStringLiteral("--set") }
                                       << QByteArray("option --set needs a value");
    QTest::newRow("unknown option") << QStringList { QStringLiteral("plan"), QStringLiteral("--frob") }
                                    << QByteArray("unknown option --frob");
    QTest::newRow("reject with plan") << QStringList { QStringLiteral("plan"), QStringLiteral("--set"),
        QStringLiteral("builtin:sgl-kernel-sm120-cuda13"), QStringLiteral("--root"), QStringLiteral("/tmp"),
        QStringLiteral("--reject"), QStringLiteral("cccl-include-dir:1") }
                                      << QByteArray("--reject and --allow-broken-syntax go with apply");
    // Checked against the set before anything connects.
    QTest::newRow("reject an unknown patch") << QStringList { QStringLiteral("apply"), QStringLiteral("--set"),
        QStringLiteral("builtin:sgl-kernel-sm120-cuda13"), QStringLiteral("--root"),
        QStringLiteral("nobody@192.0.2.1:sgl"), QStringLiteral("--reject"),
        QStringLiteral("nosuch:1") } << QByteArray("--reject nosuch:1: no patch 'nosuch' in sgl-kernel-sm120-cuda13");
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

namespace {

QJsonObject patchById(const QList<QJsonObject>& objs, const QString& id)
{
    for (const QJsonObject& o : objs)
        if (o.value(QStringLiteral("id")).toString() == id)
            return o;
    return {};
}

} // namespace

// Per-hunk review from a terminal, like `git add -p`, against the demo server: plan --json
// names every hunk; apply --reject PATCH:HUNK applies the rest through the same checks and
// journal as the window; the plan then says "partly applied" and still offers the missing
// hunk. A split that is no longer Python is refused unless --allow-broken-syntax.
void TestCliPatch::rejectHunksLikeGitAddP()
{
    KF_START_DEMO_HOST(demo);
    const QString cmake = demo.homeDir() + QStringLiteral("/sgl-kernel/CMakeLists.txt");
    const QString py = demo.homeDir() + QStringLiteral("/sgl-kernel/python/sgl_kernel/flash_attn.py");
    const QByteArray pyBefore = kf::test::readFile(py);
    const QStringList base = QStringList { QStringLiteral("--set"), QStringLiteral("builtin:sgl-kernel-sm120-cuda13"),
        QStringLiteral("--root"), demo.user() + QStringLiteral("@127.0.0.1:sgl-kernel") }
        + kf::test::cliSshOptions(demo);
    auto run = [&](const QString& action, const QStringList& more) {
        return kf::test::runCli(QStringList { QStringLiteral("patch"), action } + base + more, 120000, env());
    };

    const auto plan = run(QStringLiteral("plan"), { QStringLiteral("--json") });
    QVERIFY2(plan.exitCode == 0, QByteArray(plan.out + plan.err).constData());
    const QJsonObject fa3 = patchById(jsonLines(plan.out), QStringLiteral("fa3-option-respected"));
    const QJsonArray hunks = fa3.value(QStringLiteral("hunks")).toArray();
    QCOMPARE(hunks.size(), 2);
    for (int i = 0; i < hunks.size(); ++i) {
        const QJsonObject h = hunks[i].toObject();
        QCOMPARE(h.value(QStringLiteral("index")).toInt(), i + 1);
        QCOMPARE(h.value(QStringLiteral("id")).toString().size(), 16);
        QVERIFY(h.value(QStringLiteral("new")).isArray() && h.value(QStringLiteral("old")).isArray());
        QCOMPARE(h.value(QStringLiteral("in_place")).toBool(), false);
    }
    const QStringList hunk2 = hunks[1].toObject().value(QStringLiteral("new")).toVariant().toStringList();
    QVERIFY2(hunk2.join(QLatin1Char('\n')).contains(QStringLiteral("if(NOT SGL_KERNEL_FA3_USER_SET)")),
        qPrintable(hunk2.join(QLatin1Char('\n'))));

    // Hunk 2 left out, by its index, and the python patch as a whole; the others whole.
    const auto apply = run(QStringLiteral("apply"),
        { QStringLiteral("--reject"), QStringLiteral("fa3-option-respected:2"), QStringLiteral("--reject"),
            QStringLiteral("fa3-import-soft-fail"), QStringLiteral("--json") });
    QVERIFY2(apply.exitCode == 0, QByteArray(apply.out + apply.err).constData());
    QCOMPARE(patchById(jsonLines(apply.out), QStringLiteral("fa3-option-respected")).value(QStringLiteral("status")),
        QStringLiteral("partly-applied"));
    QCOMPARE(patchById(jsonLines(apply.out), QStringLiteral("cccl-include-dir")).value(QStringLiteral("status")),
        QStringLiteral("applied"));
    QCOMPARE(patchById(jsonLines(apply.out), QStringLiteral("fa3-import-soft-fail")).value(QStringLiteral("status")),
        QStringLiteral("rejected"));
    QCOMPARE(kf::test::readFile(py), pyBefore);
    QVERIFY(kf::test::readFile(cmake).contains("set(SGL_KERNEL_FA3_USER_SET ON)"));
    QVERIFY(!kf::test::readFile(cmake).contains("if(NOT SGL_KERNEL_FA3_USER_SET)"));

    // The plan now: partly applied, hunk 1 in the file, hunk 2 still offered.
    const auto again = run(QStringLiteral("plan"), { QStringLiteral("--json") });
    const QJsonObject partly = patchById(jsonLines(again.out), QStringLiteral("fa3-option-respected"));
    QCOMPARE(partly.value(QStringLiteral("status")).toString(), QStringLiteral("partly-applied"));
    QCOMPARE(partly.value(QStringLiteral("parts")).toString(), QStringLiteral("1 of 2 hunks"));
    const QJsonArray now = partly.value(QStringLiteral("hunks")).toArray();
    QCOMPARE(now.size(), 2);
    QCOMPARE(now[0].toObject().value(QStringLiteral("in_place")).toBool(), true);
    QCOMPARE(now[1].toObject().value(QStringLiteral("in_place")).toBool(), false);
    QCOMPARE(now[1].toObject().value(QStringLiteral("id")), hunks[1].toObject().value(QStringLiteral("id")));
    const auto text = run(QStringLiteral("plan"), {});
    QVERIFY2(text.out.contains("[partly applied (1 of 2 hunks)] fa3-option-respected"), text.out.constData());
    QVERIFY2(text.out.contains("1 partly applied"), text.out.constData());

    // The python patch split inside its try/except edit: refused, nothing written.
    const QJsonObject pyPlan = patchById(jsonLines(again.out), QStringLiteral("fa3-import-soft-fail"));
    const QJsonArray pyHunks = pyPlan.value(QStringLiteral("hunks")).toArray();
    QVERIFY(pyHunks.size() >= 2);
    QCOMPARE(pyHunks[0].toObject().value(QStringLiteral("edit")), pyHunks[1].toObject().value(QStringLiteral("edit")));
    const QString second
        = QStringLiteral("fa3-import-soft-fail:") + pyHunks[1].toObject().value(QStringLiteral("id")).toString();
    const auto split = run(QStringLiteral("apply"), { QStringLiteral("--reject"), second, QStringLiteral("--json") });
    QVERIFY2(split.exitCode == 1, QByteArray(split.out + split.err).constData());
    QVERIFY2(split.err.contains("are one edit (soft-fail the flash_ops import"), split.err.constData());
    const QJsonObject refused = patchById(jsonLines(split.out), QStringLiteral("fa3-import-soft-fail"));
    QCOMPARE(refused.value(QStringLiteral("status")).toString(), QStringLiteral("refused"));
    QVERIFY2(refused.value(QStringLiteral("reason")).toString().contains(QStringLiteral("no longer parses as Python")),
        qPrintable(refused.value(QStringLiteral("reason")).toString()));
    QCOMPARE(kf::test::readFile(py), pyBefore);

    // The reviewer insists: written, and the plan says partly applied, never "already applied".
    const auto forced = run(QStringLiteral("apply"),
        { QStringLiteral("--reject"), second, QStringLiteral("--allow-broken-syntax"), QStringLiteral("--json") });
    QVERIFY2(forced.exitCode == 0, QByteArray(forced.out + forced.err).constData());
    QVERIFY(kf::test::readFile(py) != pyBefore);
    const auto after = run(QStringLiteral("plan"), { QStringLiteral("--json") });
    const QJsonObject pyAfter = patchById(jsonLines(after.out), QStringLiteral("fa3-import-soft-fail"));
    QCOMPARE(pyAfter.value(QStringLiteral("status")).toString(), QStringLiteral("partly-applied"));

    // What is not there is a usage error.
    const auto noHunk
        = run(QStringLiteral("apply"), { QStringLiteral("--reject"), QStringLiteral("cccl-include-dir:9") });
    QCOMPARE(noHunk.exitCode, 2);
    QVERIFY2(
        noHunk.err.contains("cccl-include-dir is already applied, nothing of it to apply"), noHunk.err.constData());
}

void TestCliPatch::interruptedBetweenRenameAndJournal_data()
{
    QTest::addColumn<int>("signal");
    QTest::newRow("SIGINT") << int(SIGINT);
    QTest::newRow("SIGTERM") << int(SIGTERM);
    QTest::newRow("SIGKILL (no chance to finish)") << int(SIGKILL);
}

// Issue #30: a signal while the first file is renamed into place but not yet verified and
// journaled as done (the applier's test hook holds it there). SIGINT/SIGTERM: the file in
// flight is finished and journaled, no other is started, the summary is printed, exit 130.
// SIGKILL: the journal entry stays pending and is settled by content later. Either way a
// rollback restores the file.
void TestCliPatch::interruptedBetweenRenameAndJournal()
{
    QFETCH(int, signal);
    KF_START_DEMO_HOST(demo);
    const QString cmake = demo.homeDir() + QStringLiteral("/sgl-kernel/CMakeLists.txt");
    const QString py = demo.homeDir() + QStringLiteral("/sgl-kernel/python/sgl_kernel/flash_attn.py");
    const QByteArray cmakeBefore = kf::test::readFile(cmake);
    const QByteArray pyBefore = kf::test::readFile(py);
    const QStringList base = QStringList { QStringLiteral("--set"), QStringLiteral("builtin:sgl-kernel-sm120-cuda13"),
        QStringLiteral("--root"), demo.user() + QStringLiteral("@127.0.0.1:sgl-kernel") }
        + kf::test::cliSshOptions(demo);
    const QString marker = m_dir->filePath(QStringLiteral("held"));
    QProcess cli;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const QString& kv : env())
        environment.insert(kv.section(QLatin1Char('='), 0, 0), kv.section(QLatin1Char('='), 1));
    environment.insert(QStringLiteral("KF_TEST_HOLD_AFTER_RENAME"), marker);
    cli.setProcessEnvironment(environment);
    cli.start(QStringLiteral(KF_CLI_BINARY), QStringList { QStringLiteral("patch"), QStringLiteral("apply") } + base);
    QVERIFY(cli.waitForStarted(30000));
    QTRY_VERIFY2_WITH_TIMEOUT(QFile::exists(marker), qPrintable(QString::fromUtf8(cli.readAllStandardError())), 90000);
    QCOMPARE(kf::test::readFile(marker).trimmed(), QByteArray("CMakeLists.txt"));
    QVERIFY(kf::test::readFile(cmake) != cmakeBefore); // renamed into place
    QVERIFY(::kill(pid_t(cli.processId()), signal) == 0);
    QVERIFY(cli.waitForFinished(120000));
    const QByteArray out = cli.readAllStandardOutput();
    const QByteArray err = cli.readAllStandardError();
    if (signal == SIGKILL) {
        QCOMPARE(cli.exitStatus(), QProcess::CrashExit);
    } else {
        QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
        QCOMPARE(cli.exitCode(), 130);
        QVERIFY2(out.contains("[applied] cmake-policy-guards"), out.constData());
        QVERIFY2(out.contains("[interrupted] fa3-import-soft-fail"), out.constData());
        QVERIFY2(err.contains(signal == SIGINT ? "interrupted by SIGINT" : "interrupted by SIGTERM"), err.constData());
        QVERIFY2(err.contains("1 file(s) written and journaled, 1 not started"), err.constData());
    }
    QCOMPARE(kf::test::readFile(py), pyBefore); // never started
    const auto status
        = kf::test::runCli(QStringList { QStringLiteral("patch"), QStringLiteral("status") } + base, 120000, env());
    QVERIFY2(status.out.contains("standing"), status.out.constData()); // a pending entry settled: never lost
    const auto rollback
        = kf::test::runCli(QStringList { QStringLiteral("patch"), QStringLiteral("rollback") } + base, 120000, env());
    QVERIFY2(rollback.exitCode == 0, QByteArray(rollback.out + rollback.err).constData());
    QCOMPARE(rollback.out.count("[rolled back]"), 1);
    QCOMPARE(kf::test::readFile(cmake), cmakeBefore);
    QCOMPARE(kf::test::readFile(py), pyBefore);
}

QTEST_GUILESS_MAIN(TestCliPatch)
#include "tst_cli_patch.moc"
