// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Planning's view of a patch, from the file's content hunk by hunk: "already applied" only
// when every hunk is there, "partly applied (k of n)" with the missing hunks still to
// review, whatever an applied-marker regex says; hunks of one edit grouped.
#include "core/patch/patchplan.h"
#include "core/patch/patchset.h"
#include "core/patch/review.h"
#include "tests/support/testsupport.h"

#include <QTest>

using namespace kf;
using namespace kf::patch;

namespace {

const QString kCmake = QStringLiteral("CMakeLists.txt");
const QString kFlashAttn = QStringLiteral("python/sgl_kernel/flash_attn.py");

PatchSet builtin()
{
    const auto set = loadPatchSet(QStringLiteral("builtin:sgl-kernel-sm120-cuda13"));
    if (!set)
        qFatal("%s", qPrintable(set.error()));
    return set.value();
}

QMap<QString, QByteArray> variant(const QString& name)
{
    const QString dir = test::dataPath(QStringLiteral("sgl-kernel-variants/") + name);
    return { { kCmake, test::readFile(dir + QLatin1Char('/') + kCmake) },
        { kFlashAttn, test::readFile(dir + QLatin1Char('/') + kFlashAttn) } };
}

int indexOf(const SetPlan& plan, const QString& id)
{
    for (qsizetype i = 0; i < plan.patches.size(); ++i)
        if (plan.patches[i].id == id)
            return int(i);
    return -1;
}

QList<bool> inPlaceFlags(const PatchPlan& p)
{
    QList<bool> out;
    for (const PatchHunk& h : p.patchHunks)
        out.append(h.inPlace);
    return out;
}

} // namespace

class TestPatchPlan : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aRecipeWithSomeEditsMadeIsPartlyApplied();
    void everySubsetOfThePythonHunksFromTheBase();
    void aDiffWithSomeHunksInPlaceIsPartlyApplied();
    void hunksOfOneEditShareAGroup();
    void aFixByHandIsStillRecognised();
    void aChangedHunkIsAConflict();
};

// The sibling: "Let -DSGL_KERNEL_ENABLE_FA3..." with the first of its two hunks in
// the file (no journal to tell more): partly applied, 1 of 2 edits, the other one to review.
void TestPatchPlan::aRecipeWithSomeEditsMadeIsPartlyApplied()
{
    const PatchSet set = builtin();
    const SetPlan plan = planSetOnFiles(set, variant(QStringLiteral("2025-04-fa3-option")));
    const int fa3 = indexOf(plan, QStringLiteral("fa3-option-respected"));
    QCOMPARE(plan.patches[fa3].status, PatchStatus::WillApply);
    QCOMPARE(plan.patches[fa3].patchHunks.size(), 2);
    Review review(plan);
    review.setHunkAccepted(fa3, 1, false);
    QMap<QString, QByteArray> files = variant(QStringLiteral("2025-04-fa3-option"));
    files[kCmake] = review.resultFor(kCmake);

    const SetPlan again = planSetOnFiles(set, files);
    const PatchPlan& p = again.patches[fa3];
    QCOMPARE(p.status, PatchStatus::PartlyApplied);
    QCOMPARE(p.partsText(), QStringLiteral("1 of 2 edits"));
    QVERIFY2(p.reason.contains(QStringLiteral("1 of 2 edits already in the file")), qPrintable(p.reason));
    QCOMPARE(p.patchHunks.size(), 1); // the missing one, to review and apply
    QVERIFY(p.patchHunks.first().newLines.join(QLatin1Char('\n')).contains(QStringLiteral("SGL_KERNEL_FA3_USER_SET")));
    QVERIFY(again.countsText().contains(QStringLiteral("1 partly applied")));
    const Review second(again);
    QCOMPARE(second.state(fa3), ReviewState::WillApply);
    QCOMPARE(second.stateText(fa3), QStringLiteral("partly applied (1 of 2 edits), will apply the rest"));
    // Taking the rest gives what the whole patch gives.
    QCOMPARE(second.resultFor(kCmake), plan.fileFor(kCmake)->proposed);
}

// The first path, without a server: each subset of the python patch's hunks is what
// the file holds; planned from the base it is "already applied" only with every hunk, and
// otherwise partly applied with exactly the missing hunks to add, which complete it.
void TestPatchPlan::everySubsetOfThePythonHunksFromTheBase()
{
    const PatchSet set = builtin();
    const QMap<QString, QByteArray> files = variant(QStringLiteral("2025-04-fa3-option"));
    const SetPlan plan = planSetOnFiles(set, files);
    const int py = indexOf(plan, QStringLiteral("fa3-import-soft-fail"));
    const int n = int(plan.patches[py].patchHunks.size());
    QVERIFY2(n >= 2, qPrintable(QString::number(n)));
    const QByteArray full = plan.fileFor(kFlashAttn)->proposed;
    for (int subset = 1; subset < (1 << n); ++subset) {
        Review review(plan);
        QList<bool> taken;
        for (int h = 0; h < n; ++h) {
            taken.append(subset & (1 << h));
            review.setHunkAccepted(py, h, taken.last());
        }
        QMap<QString, QByteArray> now = files;
        now[kFlashAttn] = review.resultFor(kFlashAttn);
        const QMap<QString, FileBase> bases { { kFlashAttn, FileBase { true, files.value(kFlashAttn), 7 } } };
        const SetPlan again = planSetOnFiles(set, now, bases);
        const PatchPlan& p = again.patches[py];
        const QString what = QStringLiteral("subset %1: %2 (%3)").arg(subset).arg(statusText(p.status), p.reason);
        QVERIFY2(again.fileFor(kFlashAttn)->base, qPrintable(what));
        if (subset == (1 << n) - 1) {
            QVERIFY2(p.status == PatchStatus::AlreadyApplied, qPrintable(what));
            QVERIFY(!again.fileFor(kFlashAttn)->changes());
            continue;
        }
        QVERIFY2(p.status == PatchStatus::PartlyApplied, qPrintable(what));
        QCOMPARE(inPlaceFlags(p), taken);
        QCOMPARE(p.partsText(), QStringLiteral("%1 of %2 hunks").arg(taken.count(true)).arg(n));
        QVERIFY2(p.reason.contains(QStringLiteral("apply #7")), qPrintable(p.reason));
        // The missing hunks stay visible and selectable; taking them completes the patch.
        const Review rest(again);
        QCOMPARE(rest.hunkCount(py), n);
        for (int h = 0; h < n; ++h) {
            QCOMPARE(rest.isHunkInPlace(py, h), bool(taken[h]));
            QVERIFY(rest.isHunkAccepted(py, h));
        }
        QCOMPARE(rest.resultFor(kFlashAttn), full);
        QCOMPARE(again.fileFor(kFlashAttn)->proposed, full);
    }
}

void TestPatchPlan::aDiffWithSomeHunksInPlaceIsPartlyApplied()
{
    QString text;
    for (int i = 1; i <= 30; ++i)
        text += QStringLiteral("line %1\n").arg(i);
    const QString diff
        = QStringLiteral("--- a/f.txt\n+++ b/f.txt\n@@ -2,3 +2,3 @@\n line 2\n-line 3\n+LINE 3\n line 4\n"
                         "@@ -20,3 +20,3 @@\n line 20\n-line 21\n+LINE 21\n line 22\n");
    const auto set = patchSetFromDiff(diff, QStringLiteral("two.diff"));
    QVERIFY2(set, qPrintable(set.error()));
    QString half = text;
    half.replace(QStringLiteral("line 3\n"), QStringLiteral("LINE 3\n"));
    const SetPlan plan = planSetOnFiles(set.value(), { { QStringLiteral("f.txt"), half.toUtf8() } });
    const PatchPlan& p = plan.patches.first();
    QCOMPARE(p.status, PatchStatus::PartlyApplied);
    QCOMPARE(p.partsText(), QStringLiteral("1 of 2 hunks"));
    QCOMPARE(p.patchHunks.size(), 1);
    QCOMPARE(p.patchHunks.first().newLines, QStringList { QStringLiteral("LINE 21") });
}

void TestPatchPlan::hunksOfOneEditShareAGroup()
{
    const SetPlan plan = planSetOnFiles(builtin(), variant(QStringLiteral("2025-04-fa3-option")));
    const PatchPlan& py = plan.patches[indexOf(plan, QStringLiteral("fa3-import-soft-fail"))];
    QVERIFY(py.patchHunks.size() >= 2);
    // The replacement of try/except is one edit, whatever number of hunks it shows as; the
    // block at the end is another.
    const PatchHunk& first = py.patchHunks.first();
    const PatchHunk& last = py.patchHunks.last();
    QVERIFY2(first.groupLabel.contains(QStringLiteral("soft-fail the flash_ops import")), qPrintable(first.groupLabel));
    QVERIFY2(last.groupLabel.contains(QStringLiteral("clear error when FA3 is called")), qPrintable(last.groupLabel));
    QVERIFY(first.group != last.group);
    int inFirst = 0;
    for (const PatchHunk& h : py.patchHunks)
        inFirst += h.group == first.group;
    QVERIFY2(inFirst >= 2, "the try/except replacement shows as one hunk: nothing to split");
    // Two separate wraps are two edits.
    const PatchPlan& guards = plan.patches[indexOf(plan, QStringLiteral("cmake-policy-guards"))];
    for (qsizetype h = 1; h < guards.patchHunks.size(); ++h)
        QVERIFY(guards.patchHunks[h].group != guards.patchHunks[h - 1].group);
}

void TestPatchPlan::aFixByHandIsStillRecognised()
{
    const SetPlan plan = planSetOnFiles(builtin(), variant(QStringLiteral("2026-hand-fixed")));
    for (const PatchPlan& p : plan.patches)
        QVERIFY2(p.status == PatchStatus::AlreadyApplied, qPrintable(p.id + QStringLiteral(": ") + p.reason));
}

// A hunk the file holds neither as the patch found it nor as it leaves it: changed by hand
// since KernelForge's apply. Not "applied", not "partly applied": a conflict that says so.
void TestPatchPlan::aChangedHunkIsAConflict()
{
    const PatchSet set = builtin();
    const QMap<QString, QByteArray> files = variant(QStringLiteral("2025-04-fa3-option"));
    const SetPlan plan = planSetOnFiles(set, files);
    QByteArray edited = plan.fileFor(kFlashAttn)->proposed;
    QVERIFY(edited.contains("    FA3_AVAILABLE = False\n"));
    edited.replace("    FA3_AVAILABLE = False\n", "    FA3_AVAILABLE = None  # by hand\n");
    QMap<QString, QByteArray> now = files;
    now[kFlashAttn] = edited;
    const SetPlan again = planSetOnFiles(set, now, { { kFlashAttn, FileBase { true, files.value(kFlashAttn), 3 } } });
    const PatchPlan& p = again.patches[indexOf(again, QStringLiteral("fa3-import-soft-fail"))];
    QCOMPARE(p.status, PatchStatus::Conflict);
    QVERIFY2(p.reason.contains(QStringLiteral("neither in place nor where the patch expects")), qPrintable(p.reason));
    QVERIFY2(p.reason.contains(QStringLiteral("since apply #3")), qPrintable(p.reason));
}

QTEST_GUILESS_MAIN(TestPatchPlan)
#include "tst_patchplan.moc"
