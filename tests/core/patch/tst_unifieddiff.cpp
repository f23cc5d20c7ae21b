// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/patchplan.h"
#include "core/patch/patchset.h"
#include "core/patch/unifieddiff.h"
#include "tests/support/testsupport.h"

#include <QTest>

using namespace kf::patch;
using kf::textdiff::splitLines;

namespace {

QString numbered(int from, int to)
{
    QString s;
    for (int i = from; i <= to; ++i)
        s += QStringLiteral("line %1\n").arg(i);
    return s;
}

} // namespace

class TestUnifiedDiff : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parseGitMulti();
    void parseFormatPatch();
    void parseCrlf();
    void parseErrors_data();
    void parseErrors();
    void strip_data();
    void strip();
    void apply_data();
    void apply();
    void rejectedNamesClosestLines();
    void noNewlineAtEnd();
    void planFromFormatPatchOnVariant();
};

void TestUnifiedDiff::parseGitMulti()
{
    const UnifiedDiff d
        = parseUnifiedDiff(QString::fromUtf8(kf::test::readData(QStringLiteral("patch/git-multi.diff"))));
    QVERIFY2(d, qPrintable(d.error));
    QCOMPARE(d.files.size(), 4);
    QVERIFY(d.files[0].isNew);
    QCOMPARE(d.files[0].targetPath(1), QStringLiteral("docs/notes.md"));
    QCOMPARE(d.files[0].hunks.first().newLines,
        (QStringList { QStringLiteral("# Notes"), QStringLiteral("Built for SM120.") }));
    QVERIFY(d.files[1].isDeleted);
    QCOMPARE(d.files[1].targetPath(1), QStringLiteral("old.txt"));
    QVERIFY(d.files[2].isRename);
    QCOMPARE(d.files[2].targetPath(1), QStringLiteral("src/b.py"));
    QVERIFY(d.files[3].hunks.first().oldNoNewlineAtEnd);
    QVERIFY(!d.files[3].hunks.first().newNoNewlineAtEnd);
    QCOMPARE(guessStripLevel(d), 1);
}

void TestUnifiedDiff::parseFormatPatch()
{
    const UnifiedDiff d
        = parseUnifiedDiff(QString::fromUtf8(kf::test::readData(QStringLiteral("patch/format-patch-cccl.patch"))));
    QVERIFY2(d, qPrintable(d.error));
    QCOMPARE(d.subject, QStringLiteral("[PATCH] sgl-kernel: add CUDA 13 cccl include dir and guard policies"));
    QCOMPARE(d.files.size(), 1);
    const DiffHunk& h = d.files[0].hunks.first();
    QCOMPARE(h.oldStart, 7);
    QCOMPARE(h.oldCount, 7);
    QCOMPARE(h.newCount, 11);
    QCOMPARE(h.section, QStringLiteral("include(FetchContent)"));
    QCOMPARE(h.leadingContext, 2);
    QCOMPARE(h.trailingContext, 3);
}

void TestUnifiedDiff::parseCrlf()
{
    const UnifiedDiff d
        = parseUnifiedDiff(QString::fromUtf8(kf::test::readData(QStringLiteral("patch/diffu-crlf.diff"))));
    QVERIFY2(d, qPrintable(d.error));
    QCOMPARE(d.files.first().oldPath, QStringLiteral("CMakeLists.txt.orig"));
    QCOMPARE(d.files.first().targetPath(0), QStringLiteral("CMakeLists.txt.orig"));
    QCOMPARE(guessStripLevel(d), 0);
    // Applied to a CRLF file, the file keeps CRLF.
    const auto r
        = applyHunks(splitLines(QStringLiteral("project(x)\r\nset(A 1)\r\nset(B 1)\r\n")), d.files.first().hunks);
    QVERIFY(r.allApplied());
    QCOMPARE(joinLines(r.result), QStringLiteral("project(x)\r\nset(A 2)\r\nset(B 1)\r\n"));
}

void TestUnifiedDiff::parseErrors_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("line");
    QTest::newRow("nothing") << QStringLiteral("hello\n") << 0;
    QTest::newRow("short hunk") << QStringLiteral("--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n") << 3;
    QTest::newRow("bad header") << QStringLiteral("--- a/x\n+++ b/x\n@@ -x +1 @@\n") << 3;
    QTest::newRow("stray line") << QStringLiteral("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n?b\n") << 5;
    // Crafted numbers: INT_MAX made applyHunks' start + context + offset overflow (UBSan), and
    // a number past INT_MAX read as 0.
    QTest::newRow("start near INT_MAX") << QStringLiteral(
        "--- a/x\n+++ b/x\n@@ -2147483647,2 +2147483647,2 @@\n a\n-b\n+c\n")
                                        << 3;
    QTest::newRow("start past INT_MAX") << QStringLiteral("--- a/x\n+++ b/x\n@@ -99999999999 +1 @@\n-a\n+b\n") << 3;
    QTest::newRow("count past the limit") << QStringLiteral("--- a/x\n+++ b/x\n@@ -1,1000000001 +1 @@\n-a\n+b\n") << 3;
}

void TestUnifiedDiff::parseErrors()
{
    QFETCH(QString, text);
    QFETCH(int, line);
    const UnifiedDiff d = parseUnifiedDiff(text);
    QVERIFY(!d);
    QCOMPARE(d.errorLine, line);
    if (QByteArray(QTest::currentDataTag()).contains("INT_MAX")
        || QByteArray(QTest::currentDataTag()).contains("limit"))
        QVERIFY2(d.error.contains(QStringLiteral("hunk header number out of range")), qPrintable(d.error));
}

void TestUnifiedDiff::strip_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("level");
    QTest::addColumn<QString>("expected");
    QTest::newRow("p0") << QStringLiteral("a/b/c") << 0 << QStringLiteral("a/b/c");
    QTest::newRow("p1") << QStringLiteral("a/b/c") << 1 << QStringLiteral("b/c");
    QTest::newRow("p2") << QStringLiteral("a/b/c") << 2 << QStringLiteral("c");
    QTest::newRow("too deep") << QStringLiteral("a/b") << 2 << QString();
    QTest::newRow("double slash") << QStringLiteral("a//b") << 1 << QStringLiteral("b");
}

void TestUnifiedDiff::strip()
{
    QFETCH(QString, path);
    QFETCH(int, level);
    QFETCH(QString, expected);
    QCOMPARE(stripComponents(path, level), expected);
}

void TestUnifiedDiff::apply_data()
{
    QTest::addColumn<QString>("original");
    QTest::addColumn<QString>("diff");
    QTest::addColumn<int>("fate");
    QTest::addColumn<int>("offset");
    QTest::addColumn<int>("fuzz");
    QTest::addColumn<QString>("result");
    const QString base = numbered(1, 10);
    const QString diff
        = QStringLiteral("--- a/f\n+++ b/f\n@@ -4,5 +4,5 @@\n line 4\n line 5\n-line 6\n+LINE SIX\n line 7\n line 8\n");
    QString expected = base;
    expected.replace(QStringLiteral("line 6\n"), QStringLiteral("LINE SIX\n"));
    QTest::newRow("exact") << base << diff << int(HunkFate::Applied) << 0 << 0 << expected;
    const QString shifted = numbered(-2, 0) + base; // three lines added on top
    QString shiftedExpected = shifted;
    shiftedExpected.replace(QStringLiteral("line 6\n"), QStringLiteral("LINE SIX\n"));
    QTest::newRow("offset +3") << shifted << diff << int(HunkFate::Applied) << 3 << 0 << shiftedExpected;
    QString fuzzy = base;
    fuzzy.replace(QStringLiteral("line 4\n"), QStringLiteral("line four\n"));
    QString fuzzyExpected = fuzzy;
    fuzzyExpected.replace(QStringLiteral("line 6\n"), QStringLiteral("LINE SIX\n"));
    QTest::newRow("fuzz 1") << fuzzy << diff << int(HunkFate::Applied) << 0 << 1 << fuzzyExpected;
    QTest::newRow("already applied") << expected << diff << int(HunkFate::AlreadyApplied) << 0 << 0 << expected;
    QString broken = base;
    broken.replace(QStringLiteral("line 6\n"), QStringLiteral("line six\n"));
    QTest::newRow("rejected") << broken << diff << int(HunkFate::Rejected) << 0 << 0 << broken;
}

void TestUnifiedDiff::apply()
{
    QFETCH(QString, original);
    QFETCH(QString, diff);
    QFETCH(int, fate);
    QFETCH(int, offset);
    QFETCH(int, fuzz);
    QFETCH(QString, result);
    const UnifiedDiff d = parseUnifiedDiff(diff);
    QVERIFY2(d, qPrintable(d.error));
    const FileApplyResult r = applyHunks(splitLines(original), d.files.first().hunks);
    QCOMPARE(r.hunks.size(), 1);
    QCOMPARE(int(r.hunks.first().kind), fate);
    if (fate == HunkFate::Applied) {
        QCOMPARE(r.hunks.first().offset, offset);
        QCOMPARE(r.hunks.first().fuzz, fuzz);
    }
    QCOMPARE(joinLines(r.result), result);
}

void TestUnifiedDiff::rejectedNamesClosestLines()
{
    const QString diff
        = QStringLiteral("--- a/f\n+++ b/f\n@@ -4,5 +4,5 @@\n line 4\n line 5\n-line 6\n+LINE SIX\n line 7\n line 8\n");
    QString text = numbered(1, 30);
    text.replace(QStringLiteral("line 6\n"), QStringLiteral("line six\n"));
    const auto r = applyHunks(splitLines(text), parseUnifiedDiff(diff).files.first().hunks);
    const HunkFate& f = r.hunks.first();
    QCOMPARE(int(f.kind), int(HunkFate::Rejected));
    QCOMPARE(f.nearestLine, 4);
    QCOMPARE(f.nearestLines.first(), QStringLiteral("line 4"));
    QVERIFY2(f.reason.contains(QStringLiteral("found \"line six\"")), qPrintable(f.reason));
}

void TestUnifiedDiff::noNewlineAtEnd()
{
    const UnifiedDiff d
        = parseUnifiedDiff(QString::fromUtf8(kf::test::readData(QStringLiteral("patch/git-multi.diff"))));
    const auto r = applyHunks(splitLines(QStringLiteral("one\ntwo")), d.files[3].hunks);
    QVERIFY(r.allApplied());
    QCOMPARE(joinLines(r.result), QStringLiteral("one\ntwo\n"));
    // And the reverse direction produced by our own differ round-trips.
    const QString back = kf::textdiff::unifiedDiff(
        QStringLiteral("one\ntwo\n"), QStringLiteral("one\ntwo"), QStringLiteral("a/t"), QStringLiteral("b/t"));
    const auto r2 = applyHunks(splitLines(QStringLiteral("one\ntwo\n")), parseUnifiedDiff(back).files.first().hunks);
    QCOMPARE(joinLines(r2.result), QStringLiteral("one\ntwo"));
}

void TestUnifiedDiff::planFromFormatPatchOnVariant()
{
    // A format-patch made against sglang's tree (sgl-kernel/ prefix) applied with -p2 to a
    // variant; the second plan says "already applied".
    const auto set
        = patchSetFromDiff(QString::fromUtf8(kf::test::readData(QStringLiteral("patch/format-patch-cccl.patch"))),
            QStringLiteral("cccl.patch"), 2);
    QVERIFY2(set, qPrintable(set.error()));
    QCOMPARE(set->patches.first().file, QStringLiteral("CMakeLists.txt"));
    QMap<QString, QByteArray> files { { QStringLiteral("CMakeLists.txt"),
        kf::test::readData(QStringLiteral("sgl-kernel-variants/2025-10-cmp0177/CMakeLists.txt")) } };
    const SetPlan plan = planSetOnFiles(set.value(), files);
    QCOMPARE(plan.patches.first().status, PatchStatus::WillApply);
    QVERIFY(plan.patches.first().reason.contains(QStringLiteral("1 hunk")));
    files[QStringLiteral("CMakeLists.txt")] = plan.files.first().proposed;
    const SetPlan again = planSetOnFiles(set.value(), files);
    QCOMPARE(again.patches.first().status, PatchStatus::AlreadyApplied);
    // On a tree whose policy lines differ, it is a conflict with the nearest lines.
    QMap<QString, QByteArray> old { { QStringLiteral("CMakeLists.txt"),
        kf::test::readData(QStringLiteral("sgl-kernel-variants/2025-02-no-fa3/CMakeLists.txt")) } };
    const SetPlan conflict = planSetOnFiles(set.value(), old);
    QCOMPARE(conflict.patches.first().status, PatchStatus::Conflict);
    QVERIFY(!conflict.patches.first().nearestLines.isEmpty());
}

QTEST_GUILESS_MAIN(TestUnifiedDiff)
#include "tst_unifieddiff.moc"
