// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Finding the sgl-kernel tree from every kind of root a person names, over the real sshd
// (DemoHost) and on LocalTransport: an sglang checkout of either layout, the sgl-kernel
// folder, the aot folder itself (also through a symlink and "~/"), a root holding both layouts,
// and roots holding neither, whose search says where it looked. The patch plan of the built-in
// set uses the same search and says which layout and folder it planned against.
#include "core/patch/patchplan.h"
#include "core/patch/patchset.h"
#include "core/sglkernel/kerneltree.h"
#include "tests/support/testsupport.h"
#include "tests/support/transporttarget.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;
using namespace kf::sglkernel;

namespace {

// A minimal kernel tree: the two markers and the files the built-in set changes.
void makeTree(const QString& dir)
{
    QVERIFY(test::writeFile(dir + QStringLiteral("/CMakeLists.txt"),
        "cmake_minimum_required(VERSION 3.26)\ncmake_policy(SET CMP0169 OLD)\nfind_package(CUDAToolkit)\n"
        "include_directories(\n  ${PROJECT_SOURCE_DIR}/include # (headers)\n)\n"));
    QVERIFY(test::writeFile(dir + QStringLiteral("/python/sgl_kernel/__init__.py"), ""));
}

using Target = test::TransportTarget;
using test::startTarget;

} // namespace

class TestKernelTree : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { qunsetenv("SSH_AUTH_SOCK"); }
    void everyKindOfRoot_data();
    void everyKindOfRoot();
    void planSaysLayoutAndFolder_data();
    void planSaysLayoutAndFolder();
};

void TestKernelTree::everyKindOfRoot_data()
{
    QTest::addColumn<QString>("transport");
    QTest::addColumn<QString>("root"); // relative to the home; "~/" kept as written
    QTest::addColumn<QString>("dir");  // the tree found, relative to the home; empty: none
    QTest::addColumn<int>("layout");
    QTest::addColumn<QString>("subdir");
    QTest::addColumn<QStringList>("looked"); // relative to the root; checked when nothing is found
    for (const QString& t : { QStringLiteral("ssh"), QStringLiteral("local") }) {
        const auto row = [&](const char* name) -> QTestData& {
            return QTest::newRow(qPrintable(t + QStringLiteral(": ") + name));
        };
        row("aot checkout") << t << QStringLiteral("new") << QStringLiteral("new/python/sglang/kernels/aot")
                            << int(KernelLayout::Aot) << QStringLiteral("python/sglang/kernels/aot") << QStringList();
        row("aot checkout, ~/ and trailing slash")
            << t << QStringLiteral("~/new/") << QStringLiteral("new/python/sglang/kernels/aot")
            << int(KernelLayout::Aot) << QStringLiteral("python/sglang/kernels/aot") << QStringList();
        row("sgl-kernel/ checkout") << t << QStringLiteral("old") << QStringLiteral("old/sgl-kernel")
                                    << int(KernelLayout::SglKernelFolder) << QStringLiteral("sgl-kernel")
                                    << QStringList();
        row("the sgl-kernel folder") << t << QStringLiteral("old/sgl-kernel") << QStringLiteral("old/sgl-kernel")
                                     << int(KernelLayout::SglKernelFolder) << QString() << QStringList();
        row("the aot folder") << t << QStringLiteral("new/python/sglang/kernels/aot")
                              << QStringLiteral("new/python/sglang/kernels/aot") << int(KernelLayout::Aot) << QString()
                              << QStringList();
        row("the aot folder through a symlink") << t << QStringLiteral("kernels") << QStringLiteral("kernels")
                                                << int(KernelLayout::Aot) << QString() << QStringList();
        row("both layouts: the newer one")
            << t << QStringLiteral("both") << QStringLiteral("both/python/sglang/kernels/aot") << int(KernelLayout::Aot)
            << QStringLiteral("python/sglang/kernels/aot") << QStringList();
        row("neither") << t << QStringLiteral("empty") << QString() << 0 << QString()
                       << QStringList { "", "/python/sglang/kernels/aot", "/sgl-kernel" };
        row("a tree without its package") << t << QStringLiteral("half") << QString() << 0 << QString()
                                          << QStringList { "", "/python/sglang/kernels/aot", "/sgl-kernel" };
        row("no such folder") << t << QStringLiteral("nowhere") << QString() << 0 << QString()
                              << QStringList { "", "/python/sglang/kernels/aot", "/sgl-kernel" };
    }
}

void TestKernelTree::everyKindOfRoot()
{
    QFETCH(QString, transport);
    QFETCH(QString, root);
    QFETCH(QString, dir);
    QFETCH(int, layout);
    QFETCH(QString, subdir);
    QFETCH(QStringList, looked);
    Target t;
    const Result<void> started = startTarget(transport, t);
    QVERIFY2(started, qPrintable(started.error()));
    makeTree(t.home + QStringLiteral("/new/python/sglang/kernels/aot"));
    makeTree(t.home + QStringLiteral("/old/sgl-kernel"));
    makeTree(t.home + QStringLiteral("/both/python/sglang/kernels/aot"));
    makeTree(t.home + QStringLiteral("/both/sgl-kernel"));
    QVERIFY(QDir().mkpath(t.home + QStringLiteral("/empty/python")));
    QVERIFY(test::writeFile(t.home + QStringLiteral("/half/sgl-kernel/CMakeLists.txt"), "project(x)\n"));
    QVERIFY(
        QFile::link(t.home + QStringLiteral("/new/python/sglang/kernels/aot"), t.home + QStringLiteral("/kernels")));

    const auto search = findKernelTree(*t.transport, root);
    QVERIFY2(search, qPrintable(search.error()));
    QString given = root;
    while (given.endsWith(QLatin1Char('/')))
        given.chop(1);
    if (dir.isEmpty()) {
        QVERIFY(!search->tree);
        QStringList expected;
        for (const QString& l : looked)
            expected << given + l;
        QCOMPARE(search->looked, expected);
        const QString why = search->notFound();
        QVERIFY2(
            why.startsWith(QStringLiteral("no sgl-kernel tree at %1: looked for CMakeLists.txt and "
                                          "python/sgl_kernel in %1, %1/python/sglang/kernels/aot and %1/sgl-kernel")
                               .arg(given)),
            qPrintable(why));
        return;
    }
    QVERIFY2(search->tree, qPrintable(search->notFound()));
    const KernelTree& tree = *search->tree;
    QCOMPARE(int(tree.layout), layout);
    QCOMPARE(tree.subdir, subdir);
    QCOMPARE(tree.root, given);
    QCOMPARE(tree.dir, subdir.isEmpty() ? given : given + QLatin1Char('/') + subdir);
    // The folder named is the one expected (the transport resolves "~/" and the link).
    const auto real = t.transport->canonicalPath(tree.dir);
    QVERIFY2(real, qPrintable(real.error()));
    QCOMPARE(*real, QDir(t.home + QLatin1Char('/') + dir).canonicalPath());
    QVERIFY2(tree.describe().contains(QLatin1String(layoutRule(tree.layout).name)), qPrintable(tree.describe()));
    if (root == QLatin1String("both")) {
        QCOMPARE(search->alsoFound, QStringList { QStringLiteral("both/sgl-kernel") });
    }
}

void TestKernelTree::planSaysLayoutAndFolder_data()
{
    QTest::addColumn<QString>("transport");
    QTest::addColumn<QString>("root");
    QTest::addColumn<QString>("note");    // what SetPlan::rootNote starts with
    QTest::addColumn<QString>("planned"); // the folder planned against, relative to the home; empty: the root
    for (const QString& t : { QStringLiteral("ssh"), QStringLiteral("local") }) {
        QTest::newRow(qPrintable(t + QStringLiteral(": aot checkout")))
            << t << QStringLiteral("new")
            << QStringLiteral("sgl-kernel tree: python/sglang/kernels/aot below new (aot layout")
            << QStringLiteral("new/python/sglang/kernels/aot");
        QTest::newRow(qPrintable(t + QStringLiteral(": sgl-kernel/ checkout")))
            << t << QStringLiteral("old") << QStringLiteral("sgl-kernel tree: sgl-kernel below old (sgl-kernel/ layout")
            << QStringLiteral("old/sgl-kernel");
        QTest::newRow(qPrintable(t + QStringLiteral(": neither")))
            << t << QStringLiteral("empty") << QStringLiteral("no sgl-kernel tree at empty: looked for") << QString();
    }
}

void TestKernelTree::planSaysLayoutAndFolder()
{
    QFETCH(QString, transport);
    QFETCH(QString, root);
    QFETCH(QString, note);
    QFETCH(QString, planned);
    Target t;
    const Result<void> started = startTarget(transport, t);
    QVERIFY2(started, qPrintable(started.error()));
    makeTree(t.home + QStringLiteral("/new/python/sglang/kernels/aot"));
    makeTree(t.home + QStringLiteral("/old/sgl-kernel"));
    QVERIFY(QDir().mkpath(t.home + QStringLiteral("/empty")));
    const auto set = patch::loadPatchSet(QStringLiteral("builtin:sgl-kernel-sm120-cuda13"));
    QVERIFY2(set, qPrintable(set.error()));
    const patch::SetPlan plan = patch::planSet(*t.transport, *set, root);
    QVERIFY2(plan, qPrintable(plan.error));
    QVERIFY2(plan.rootNote.startsWith(note), qPrintable(plan.rootNote));
    QCOMPARE(plan.root, QDir(t.home + QLatin1Char('/') + (planned.isEmpty() ? root : planned)).canonicalPath());
    for (const patch::PatchPlan& p : plan.patches) {
        if (planned.isEmpty()) {
            // Nothing found: every file is missing, and each reason says where it was looked for.
            QCOMPARE(int(p.status), int(patch::PatchStatus::NotApplicable));
            QCOMPARE(int(p.notApplicable), int(patch::NotApplicableKind::NoFile));
            QVERIFY2(p.reason.contains(plan.root + QLatin1Char('/') + p.file), qPrintable(p.reason));
            QVERIFY2(p.reason.contains(QStringLiteral("python/sglang/kernels/aot and empty/sgl-kernel")),
                qPrintable(p.reason));
        } else if (p.id == QLatin1String("cmake-policy-guards") || p.id == QLatin1String("cccl-include-dir")) {
            QVERIFY2(p.status == patch::PatchStatus::WillApply, qPrintable(p.id + QLatin1Char(' ') + p.reason));
        }
    }
}

QTEST_GUILESS_MAIN(TestKernelTree)
#include "tst_kerneltree.moc"
