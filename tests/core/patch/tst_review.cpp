// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// patch::Review: per patch and per hunk decisions, the file text they give, the patch states,
// the Apply dialog's list, and decisions carried across re-plans.
#include "core/patch/patchset.h"
#include "core/patch/review.h"
#include "tests/support/testsupport.h"

#include <QTest>

using namespace kf;
using namespace kf::patch;

namespace {

// Three recipes on one file: "two-words" has two hunks far apart, "gamma-fix" one, and
// "alpha-again" changes the line the first hunk of "two-words" writes.
const QByteArray kSet = R"(name: review-test
title: Review test
patches:
  - id: two-words
    title: Two words
    file: f.txt
    edits:
      - replace: {find: alpha, with: ALPHA, done_if: ALPHA}
      - replace: {find: beta, with: BETA, done_if: BETA}
  - id: gamma-fix
    title: Gamma
    file: f.txt
    edits:
      - replace: {find: gamma, with: GAMMA, done_if: GAMMA}
  - id: alpha-again
    title: Alpha again
    file: f.txt
    edits:
      - replace: {find: ALPHA, with: ALPHA2, done_if: ALPHA2}
)";

const QByteArray kText = "line1\nalpha\nline3\nline4\nline5\nline6\nline7\nline8\nbeta\nline10\nline11\nline12\n"
                         "line13\ngamma\nline15\n";

const QString kFile = QStringLiteral("f.txt");

PatchSet testSet()
{
    const auto set = parsePatchSetYaml(kSet, QStringLiteral("review-test.yaml"));
    if (!set)
        qFatal("%s", qPrintable(set.error()));
    return set.value();
}

SetPlan planOn(const QByteArray& text)
{
    SetPlan plan = planSetOnFiles(testSet(), { { kFile, text } });
    plan.host = QStringLiteral("local");
    plan.root = QStringLiteral("/tree");
    return plan;
}

QStringList lines(const QByteArray& text)
{
    return QString::fromUtf8(text).split(QLatin1Char('\n'));
}

} // namespace

class TestReview : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void hunksArePerPatchAndAllTakenIsThePlan();
    void rejectedHunkSurvivesUntickingAnotherPatch();
    void hunkOnRejectedLinesCannotBePlaced();
    void acceptingAHunkOfARejectedPatchTakesThatHunkOnly();
    void applyListOmitsFullyRejectedPatches();
    void replanKeepsUnchangedDecisions();
    void replanDropsChangedDecisions();
    void createAndDeleteFollowTheirHunk();
    void builtinSetAllTakenIsByteExact_data();
    void builtinSetAllTakenIsByteExact();
    void decisionsCarryToAnotherTree();
    void aRejectedHunkOutlivesAPlanWhereItsPatchIsApplied();
    void hunksInPlaceAreShownNotTaken();
    void splitEditsAreNamedBeforeApply();
};

void TestReview::hunksArePerPatchAndAllTakenIsThePlan()
{
    const SetPlan plan = planOn(kText);
    QCOMPARE(plan.count(PatchStatus::WillApply), 3);
    const Review review(plan);
    QCOMPARE(review.hunkCount(0), 2);
    QCOMPARE(review.hunkCount(1), 1);
    QCOMPARE(review.hunkCount(2), 1);
    QCOMPARE(review.hunk(0, 1).oldLines, QStringList { QStringLiteral("beta") });
    QCOMPARE(review.hunk(0, 1).newLines, QStringList { QStringLiteral("BETA") });
    QCOMPARE(review.hunk(2, 0).oldLines, QStringList { QStringLiteral("ALPHA") }); // what it sees in the plan
    QCOMPARE(review.resultFor(kFile), plan.fileFor(kFile)->proposed);
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(review.state(i), ReviewState::WillApply);
        QCOMPARE(review.stateText(i), QStringLiteral("will apply"));
    }
}

// The issue's click order: reject hunk 2, then untick another patch of the same file.
void TestReview::rejectedHunkSurvivesUntickingAnotherPatch()
{
    Review review(planOn(kText));
    review.setHunkAccepted(0, 1, false);
    review.setPatchAccepted(1, false);
    QVERIFY(!review.isHunkAccepted(0, 1));
    QVERIFY(review.isHunkAccepted(0, 0));
    const QStringList out = lines(review.resultFor(kFile));
    QVERIFY(out.contains(QStringLiteral("beta")));
    QVERIFY(!out.contains(QStringLiteral("BETA")));
    QVERIFY(out.contains(QStringLiteral("gamma")));
    QVERIFY(out.contains(QStringLiteral("ALPHA2")));
    QCOMPARE(review.state(0), ReviewState::Partly);
    QCOMPARE(review.stateText(0), QStringLiteral("partly (1 of 2 hunks)"));
    QVERIFY2(review.stateReason(0).contains(QStringLiteral("you rejected hunk 2")), qPrintable(review.stateReason(0)));
    QCOMPARE(review.state(1), ReviewState::Rejected);
    // Ticking the patch again takes all of it; the other patch's choice is untouched.
    review.setPatchAccepted(1, true);
    QVERIFY(!review.isHunkAccepted(0, 1));
    QVERIFY(lines(review.resultFor(kFile)).contains(QStringLiteral("GAMMA")));
}

void TestReview::hunkOnRejectedLinesCannotBePlaced()
{
    Review review(planOn(kText));
    review.setHunkAccepted(0, 0, false); // alpha stays, so ALPHA -> ALPHA2 has no line to change
    QVERIFY(review.isHunkAccepted(2, 0));
    QVERIFY(review.isHunkBlocked(2, 0));
    QCOMPARE(review.state(2), ReviewState::Conflict);
    QVERIFY2(review.stateReason(2).contains(QStringLiteral("cannot be placed")), qPrintable(review.stateReason(2)));
    const QStringList out = lines(review.resultFor(kFile));
    QVERIFY(out.contains(QStringLiteral("alpha")));
    QVERIFY(!out.contains(QStringLiteral("ALPHA2")));
    QVERIFY(out.contains(QStringLiteral("BETA")));
    QVERIFY(out.contains(QStringLiteral("GAMMA")));
    // Taking the first hunk again places it.
    review.setHunkAccepted(0, 0, true);
    QVERIFY(!review.isHunkBlocked(2, 0));
    QCOMPARE(review.resultFor(kFile), review.plan().fileFor(kFile)->proposed);
}

void TestReview::acceptingAHunkOfARejectedPatchTakesThatHunkOnly()
{
    Review review(planOn(kText));
    review.setPatchAccepted(0, false);
    QCOMPARE(review.state(0), ReviewState::Rejected);
    QVERIFY(!review.isHunkAccepted(0, 0) && !review.isHunkAccepted(0, 1));
    review.setHunkAccepted(0, 1, true);
    QVERIFY(review.isPatchAccepted(0));
    QVERIFY(!review.isHunkAccepted(0, 0));
    QVERIFY(review.isHunkAccepted(0, 1));
    QCOMPARE(review.state(0), ReviewState::Partly);
}

// The Apply dialog lists only what is taken; a patch whose only hunk was rejected is not there.
void TestReview::applyListOmitsFullyRejectedPatches()
{
    Review review(planOn(kText));
    review.setHunkAccepted(1, 0, false);
    QCOMPARE(review.state(1), ReviewState::Rejected);
    const QList<FileChoiceSummary> files = review.changes();
    QCOMPARE(files.size(), 1);
    QStringList ids;
    for (const PatchChoice& p : files.first().patches)
        ids << p.id;
    QCOMPARE(ids, (QStringList { QStringLiteral("two-words"), QStringLiteral("alpha-again") }));
    QVERIFY(!review.summary().contains(QStringLiteral("gamma-fix")));
    QVERIFY(review.summary().contains(QStringLiteral("Two words (two-words)")));
    const ApplyOptions options = review.applyOptions();
    QCOMPARE(options.onlyFiles, QStringList { kFile });
    QCOMPARE(options.choices.value(kFile).patchIds, ids);
    QCOMPARE(options.choices.value(kFile).content, review.resultFor(kFile));
    // Half of a patch is said so.
    review.setHunkAccepted(0, 1, false);
    QVERIFY2(
        review.summary().contains(QStringLiteral("Two words (two-words): 1 of 2 hunks")), qPrintable(review.summary()));
    // Nothing taken: nothing to apply.
    review.setPatchAccepted(0, false);
    review.setPatchAccepted(2, false);
    QVERIFY(review.changes().isEmpty());
    QCOMPARE(review.summary(), QStringLiteral("Nothing selected to apply."));
    QVERIFY(review.applyOptions().onlyFiles.isEmpty());
}

// After an apply the plan is made again: an unticked patch stays unticked, a rejected hunk
// stays rejected, where they are the same hunks.
void TestReview::replanKeepsUnchangedDecisions()
{
    Review first(planOn(kText));
    first.setPatchAccepted(1, false);   // gamma-fix
    first.setHunkAccepted(0, 1, false); // beta -> BETA
    const QByteArray written = first.resultFor(kFile);
    const SetPlan again = planOn(written);
    // alpha is in the file, beta still to do: partly applied, not "rejected" (issue #30).
    QCOMPARE(again.patches[0].status, PatchStatus::PartlyApplied);
    QCOMPARE(again.patches[0].partsText(), QStringLiteral("1 of 2 edits"));
    QCOMPARE(again.patches[1].status, PatchStatus::WillApply);
    QCOMPARE(again.patches[2].status, PatchStatus::AlreadyApplied);
    const Review second(again, first);
    QCOMPARE(second.hunkCount(0), 1);
    QVERIFY(!second.isHunkAccepted(0, 0));
    QCOMPARE(second.state(0), ReviewState::PartlyApplied);
    QCOMPARE(second.stateText(0), QStringLiteral("partly applied (1 of 2 edits)"));
    QVERIFY(!second.isPatchAccepted(1));
    QCOMPARE(second.state(1), ReviewState::Rejected);
    QCOMPARE(second.state(2), ReviewState::AlreadyApplied);
    QVERIFY(second.changes().isEmpty());
    // A fresh review of the same plan takes everything.
    QCOMPARE(Review(again).state(1), ReviewState::WillApply);
}

void TestReview::replanDropsChangedDecisions()
{
    Review first(planOn(kText));
    first.setPatchAccepted(1, false);
    first.setHunkAccepted(0, 1, false);
    // Someone changed both lines: the hunks are not the ones that were decided.
    QByteArray edited = kText;
    edited.replace("gamma\n", "gamma gamma\n");
    edited.replace("beta\n", "beta beta\n");
    const Review second(planOn(edited), first);
    QVERIFY(second.isPatchAccepted(1));
    QCOMPARE(second.state(1), ReviewState::WillApply);
    QVERIFY(second.isHunkAccepted(0, 1));
    QCOMPARE(second.state(0), ReviewState::WillApply);
}

void TestReview::createAndDeleteFollowTheirHunk()
{
    const QString diff = QStringLiteral("diff --git a/NOTES.md b/NOTES.md\nnew file mode 100644\n--- /dev/null\n+++ "
                                        "b/NOTES.md\n@@ -0,0 +1,2 @@\n+# Notes\n+SM120 build\n"
                                        "diff --git a/old.txt b/old.txt\ndeleted file mode 100644\n--- a/old.txt\n+++ "
                                        "/dev/null\n@@ -1,2 +0,0 @@\n-one\n-two\n");
    const auto set = patchSetFromDiff(diff, QStringLiteral("x.diff"));
    QVERIFY2(set, qPrintable(set.error()));
    SetPlan plan = planSetOnFiles(set.value(), { { QStringLiteral("old.txt"), QByteArray("one\ntwo\n") } });
    QCOMPARE(plan.count(PatchStatus::WillApply), 2);
    Review review(plan);
    QList<FileChoiceSummary> files = review.changes();
    QCOMPARE(files.size(), 2);
    QVERIFY(files[0].create);
    QCOMPARE(files[0].content, QByteArray("# Notes\nSM120 build\n"));
    QVERIFY(files[1].remove);
    QVERIFY(review.applyOptions().choices.value(QStringLiteral("old.txt")).remove);
    review.setHunkAccepted(0, 0, false);
    review.setHunkAccepted(1, 0, false);
    QVERIFY(review.changes().isEmpty());
    QCOMPARE(review.resultFor(QStringLiteral("old.txt")), QByteArray("one\ntwo\n"));
}

void TestReview::builtinSetAllTakenIsByteExact_data()
{
    QTest::addColumn<QString>("variant");
    for (const char* v : { "2025-10-cmp0177", "2025-06-moved-includes", "2026-03-crlf", "2026-fork-conflicts" })
        QTest::newRow(v) << QString::fromLatin1(v);
}

void TestReview::builtinSetAllTakenIsByteExact()
{
    QFETCH(QString, variant);
    const auto set = loadPatchSet(QStringLiteral("builtin:sgl-kernel-sm120-cuda13"));
    QVERIFY2(set, qPrintable(set.error()));
    QMap<QString, QByteArray> files;
    for (const Patch& p : set->patches) {
        const QByteArray data = test::readData(QStringLiteral("sgl-kernel-variants/%1/%2").arg(variant, p.file));
        if (!data.isEmpty())
            files.insert(p.file, data);
    }
    const SetPlan plan = planSetOnFiles(set.value(), files);
    Review review(plan);
    for (const FilePlan& f : plan.files)
        QCOMPARE(review.resultFor(f.file), f.changes() ? f.proposed : f.original);
    // Rejecting every hunk one at a time and taking it back returns to the plan exactly.
    for (int i = 0; i < review.patchCount(); ++i) {
        for (int h = 0; h < review.hunkCount(i); ++h) {
            review.setHunkAccepted(i, h, false);
            QVERIFY(review.state(i) == ReviewState::Partly || review.state(i) == ReviewState::Rejected);
            review.setHunkAccepted(i, h, true);
        }
    }
    for (const FilePlan& f : plan.files)
        QCOMPARE(review.resultFor(f.file), f.changes() ? f.proposed : f.original);
}

// A deployment recipe carries the decisions to another host's plan of the same set: the same
// file text there gives the same result; a tree whose hunk differs says which decision did not fit.
void TestReview::decisionsCarryToAnotherTree()
{
    Review source(planOn(kText));
    source.setPatchAccepted(1, false);   // gamma-fix
    source.setHunkAccepted(0, 1, false); // beta -> BETA
    const QList<DecisionRecord> decisions = source.decisions();
    QCOMPARE(decisions.size(), 3);
    QCOMPARE(decisions[0].patchId, QStringLiteral("two-words"));
    QCOMPARE(decisions[0].rejectedHunks.size(), 1);
    QCOMPARE(decisions[0].rejectedHunks.first().index, 2);
    QCOMPARE(decisions[0].rejectedHunks.first().id, hunkId({ QStringLiteral("beta") }, { QStringLiteral("BETA") }));
    QVERIFY(!decisions[1].accepted);
    QCOMPARE(source.applyOptions().decisions, decisions);

    // Another tree with the same lines in other places (line numbers differ): same outcome.
    const QByteArray moved = "header\nmore\n" + kText;
    Review target(planOn(moved));
    QVERIFY(target.applyDecisions(decisions).isEmpty());
    QCOMPARE(target.resultFor(kFile), "header\nmore\n" + source.resultFor(kFile));
    QCOMPARE(target.decisions(), decisions);

    // A tree where beta reads differently: the hunk rejected on the source is not there.
    QByteArray other = kText;
    other.replace("beta\n", "beta beta\n");
    Review elsewhere(planOn(other));
    const QStringList problems = elsewhere.applyDecisions(decisions);
    QCOMPARE(problems.size(), 1);
    QVERIFY2(
        problems.first().contains(QStringLiteral("two-words")) && problems.first().contains(QStringLiteral("hunk 2")),
        qPrintable(problems.first()));
    QVERIFY(!elsewhere.isPatchAccepted(1)); // the rest still carried over
}

// Rolling back brings the file back to before the apply; the plan in between may not offer
// the patch at all (applied, or applied by hand): its hunk decisions are not lost there.
void TestReview::aRejectedHunkOutlivesAPlanWhereItsPatchIsApplied()
{
    Review first(planOn(kText));
    first.setHunkAccepted(0, 1, false); // beta -> BETA rejected
    first.setPatchAccepted(1, false);   // gamma-fix unticked
    // Someone applied everything meanwhile: nothing to review.
    QByteArray all = kText;
    all.replace("alpha", "ALPHA2").replace("beta", "BETA").replace("gamma", "GAMMA");
    const SetPlan applied = planOn(all);
    QCOMPARE(applied.count(PatchStatus::AlreadyApplied), 3);
    const Review second(applied, first);
    // Rolled back: the decisions come back with their hunks.
    const Review third(planOn(kText), second);
    QVERIFY(third.isHunkAccepted(0, 0));
    QVERIFY(!third.isHunkAccepted(0, 1));
    QCOMPARE(third.state(0), ReviewState::Partly);
    QVERIFY(!third.isPatchAccepted(1));
    QCOMPARE(third.resultFor(kFile), first.resultFor(kFile));
}

// A file planned from its base: the hunks already there are accepted and fixed, the others
// are chosen; rejecting all of those leaves the patch partly applied, taking them completes it.
void TestReview::hunksInPlaceAreShownNotTaken()
{
    Review first(planOn(kText));
    first.setHunkAccepted(0, 1, false);
    const QByteArray written = first.resultFor(kFile);
    SetPlan again = planSetOnFiles(testSet(), { { kFile, written } }, { { kFile, FileBase { true, kText, 1 } } });
    again.host = QStringLiteral("local");
    again.root = QStringLiteral("/tree");
    QCOMPARE(again.patches[0].status, PatchStatus::PartlyApplied);
    Review second(again, first);
    QCOMPARE(second.hunkCount(0), 2);
    QVERIFY(second.isHunkInPlace(0, 0));
    QVERIFY(second.isHunkAccepted(0, 0));
    QVERIFY(!second.isHunkAccepted(0, 1)); // the choice made before the apply
    QCOMPARE(second.state(0), ReviewState::PartlyApplied);
    QCOMPARE(second.stateText(0), QStringLiteral("partly applied (1 of 2 hunks)"));
    second.setHunkAccepted(0, 0, false); // in place: not the review's to take back
    QVERIFY(second.isHunkAccepted(0, 0));
    second.setHunkAccepted(0, 1, true);
    QCOMPARE(second.state(0), ReviewState::WillApply);
    QCOMPARE(second.stateText(0), QStringLiteral("partly applied (1 of 2 hunks), will apply the rest"));
    QCOMPARE(second.resultFor(kFile), Review(planOn(kText)).resultFor(kFile));
    QVERIFY2(second.summary().contains(QStringLiteral("adds 1 of the 1 missing hunks (1 already in the file)")),
        qPrintable(second.summary()));
}

void TestReview::splitEditsAreNamedBeforeApply()
{
    const auto set = loadPatchSet(QStringLiteral("builtin:sgl-kernel-sm120-cuda13"));
    QVERIFY(set);
    const QString py = QStringLiteral("python/sgl_kernel/flash_attn.py");
    const QByteArray text
        = test::readData(QStringLiteral("sgl-kernel-variants/2025-04-fa3-option/python/sgl_kernel/flash_attn.py"));
    const SetPlan plan = planSetOnFiles(set.value(), { { py, text } });
    int patch = -1;
    for (int i = 0; i < plan.patches.size(); ++i)
        if (plan.patches[i].id == QLatin1String("fa3-import-soft-fail"))
            patch = i;
    QVERIFY(patch >= 0);
    Review review(plan);
    QVERIFY(review.splitEdits().isEmpty());
    // The hunks of the try/except replacement: take the first, reject the second.
    const int group = review.hunk(patch, 0).group;
    QVERIFY(review.hunkCount(patch) >= 2 && review.hunk(patch, 1).group == group);
    review.setHunkAccepted(patch, 1, false);
    const QStringList split = review.splitEdits();
    QCOMPARE(split.size(), 1);
    QVERIFY2(
        split.first().contains(QStringLiteral("Keep sgl_kernel importable without FA3")), qPrintable(split.first()));
    QVERIFY2(split.first().contains(QStringLiteral("are one edit (soft-fail the flash_ops import")),
        qPrintable(split.first()));
    QVERIFY2(split.first().contains(QStringLiteral("without 2")), qPrintable(split.first()));
    QVERIFY2(review.summary().contains(QStringLiteral("These hunks belong together, and you split them")),
        qPrintable(review.summary()));
    QVERIFY2(review.stateReason(patch).contains(QStringLiteral("half of it")), qPrintable(review.stateReason(patch)));
    // The whole edit rejected: nothing split.
    for (int h = 0; h < review.hunkCount(patch); ++h)
        if (review.hunk(patch, h).group == group)
            review.setHunkAccepted(patch, h, false);
    QVERIFY(review.splitEdits().isEmpty());
}

QTEST_GUILESS_MAIN(TestReview)
#include "tst_review.moc"
