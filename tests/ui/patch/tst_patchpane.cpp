// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The review pane offscreen: on LocalTransport (a variant tree), and on the demo host's real
// sshd clicked through like a person: reject a hunk with Space, untick patches in the tree,
// move with n/p from the tree, the diff and the Why pane, Apply through the real dialog,
// roll back an older apply from the history. Screenshots land in the build tree.
#include "core/hosts/hostconnection.h"
#include "core/hosts/hostmanager.h"
#include "core/patch/patchset.h"
#include "core/ssh/sshhostconnection.h"
#include "core/store/database.h"
#include "core/transport/localtransport.h"
#include "core/transport/transportpool.h"
#include "tests/support/gatedtransport.h"
#include "tests/support/testsupport.h"
#include "ui/diff/diffview.h"
#include "ui/patch/patchpane.h"

#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>

using namespace kf;

namespace {

const QString kCmake = QStringLiteral("CMakeLists.txt");
const QString kFlashAttn = QStringLiteral("python/sgl_kernel/flash_attn.py");

// The built-in set's patch titles by id (what the tree shows).
QString titleOf(const QString& id)
{
    const auto set = patch::loadPatchSet(QStringLiteral("builtin:sgl-kernel-sm120-cuda13"));
    for (const patch::Patch& p : set->patches)
        if (p.id == id)
            return p.title;
    return {};
}

QTreeWidgetItem* patchItem(QTreeWidget* tree, const QString& id)
{
    const QString title = titleOf(id);
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        for (int k = 0; k < tree->topLevelItem(i)->childCount(); ++k)
            if (tree->topLevelItem(i)->child(k)->text(0) == title)
                return tree->topLevelItem(i)->child(k);
    return nullptr;
}

// Lines that only `with` has, once (what a rejected hunk would have written).
QList<QByteArray> linesOnlyIn(const QByteArray& with, const QByteArray& without)
{
    QList<QByteArray> out;
    const QList<QByteArray> mine = with.split('\n');
    const QList<QByteArray> other = without.split('\n');
    for (const QByteArray& l : mine)
        if (!l.trimmed().isEmpty() && mine.count(l) == 1 && !other.contains(l))
            out.append(l);
    return out;
}

// Answers the next modal message box as a person would: keeps its title and text, grabs it,
// presses its go-ahead button (Apply / Roll back). Gives up after 60 s.
struct Dialog
{
    QString title;
    QString text;
    bool seen = false;
};
void answerNextDialog(Dialog* out, const QString& screenshot, bool writeBroken = false, int triesLeft = 1200)
{
    QTimer::singleShot(50, qApp, [=] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box) {
            if (triesLeft > 0)
                answerNextDialog(out, screenshot, writeBroken, triesLeft - 1);
            return;
        }
        out->title = box->windowTitle();
        out->text = box->text();
        out->seen = true;
        if (writeBroken) {
            auto* check = box->findChild<QCheckBox*>(QStringLiteral("allowBrokenSyntax"));
            if (check)
                check->setChecked(true);
            else
                out->text += QStringLiteral("\n(no allowBrokenSyntax box)");
        }
        box->grab().save(test::screenshotPath(screenshot));
        for (QAbstractButton* b : box->buttons()) {
            const QMessageBox::ButtonRole role = box->buttonRole(b);
            if (role == QMessageBox::AcceptRole || role == QMessageBox::ApplyRole || role == QMessageBox::YesRole) {
                b->click();
                return;
            }
        }
    });
}

// The pane on the demo host's real sshd (reached through our SSH layer); it plans the
// built-in set on ~/sgl-kernel by itself.
struct DemoPane
{
    HostManager hosts;
    HostConnection* host = nullptr;
    std::unique_ptr<PatchPane> pane;

    void open(DemoHost& demo)
    {
        hosts.setFactory(SshHostConnection::factory(nullptr));
        host = hosts.add(demo.profile(QStringLiteral("demo-gpu-server")));
        QVERIFY(host);
        host->connectToHost();
        QTRY_VERIFY2_WITH_TIMEOUT(host->state() == ConnectionState::Ready, qPrintable(host->stateReason()), 30000);
        // The pane plans by itself once its host is Ready; the plan arrives from a worker thread
        // after this function has connected the spy.
        pane = std::make_unique<PatchPane>(AppContext {}, host);
        QSignalSpy planned(pane.get(), &PatchPane::planShown);
        pane->resize(1500, 950);
        pane->show();
        QTRY_VERIFY_WITH_TIMEOUT(planned.size() == 1 && !pane->isBusy(), 60000);
        pane->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(pane.get()));
    }
    QTreeWidget* tree() const { return pane->findChild<QTreeWidget*>(QStringLiteral("patchTree")); }
    QString outcome() const { return pane->findChild<QLabel*>(QStringLiteral("patchOutcome"))->text(); }
    QString status() const { return pane->findChild<QLabel*>(QStringLiteral("patchStatus"))->text(); }
    // Selects every history row and rolls them back through the real dialog; waits for the re-plan.
    void rollBackAll(Dialog* dialog)
    {
        QTableWidget* table = history();
        table->selectAll();
        QSignalSpy planned(pane.get(), &PatchPane::planShown);
        answerNextDialog(dialog, QStringLiteral("patchpane-rollback-all"));
        QTest::mouseClick(pane->findChild<QPushButton*>(QStringLiteral("rollBack")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(dialog->seen && planned.size() >= 1 && !pane->isBusy(), 60000);
    }
    QTableWidget* history() const { return pane->findChild<QTableWidget*>(QStringLiteral("patchHistory")); }
    QWidget* diffLeft() const { return pane->findChild<QWidget*>(QStringLiteral("diffLeft")); }
    QTextBrowser* why() const { return pane->findChild<QTextBrowser*>(); }
    // Clicks Apply and waits for the apply, the history and the new plan.
    void apply(Dialog* dialog, const QString& screenshot, bool writeBroken = false)
    {
        QSignalSpy applied(pane.get(), &PatchPane::applyFinished);
        QSignalSpy planned(pane.get(), &PatchPane::planShown);
        QSignalSpy loaded(pane.get(), &PatchPane::historyLoaded);
        answerNextDialog(dialog, screenshot, writeBroken);
        QTest::mouseClick(pane->findChild<QPushButton*>(QStringLiteral("applyPatches")), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(applied.size(), 1, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(planned.size() == 1 && loaded.size() >= 1 && !pane->isBusy(), 60000);
    }
};

} // namespace

class TestPatchPane : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void reviewToggleApply();
    void openingADiffThatLeavesTheRootIsRefused();
    void rejectedHunkSurvivesUntickingAnotherPatch();
    void untickedPatchesStayUntickedAfterApply();
    void applyDialogOmitsAFullyRejectedPatch();
    void nextAndPreviousMoveTreeDiffAndWhy();
    void rollBackAnOlderApply();
    void returnInTheApplyDialogApplies();
    void partlyAppliedShowsTheMissingHunk();
    void choicesSurviveRollback_data();
    void choicesSurviveRollback();
    void aSplitPythonEditIsRefusedUnlessOverridden();
    void closingThePaneStopsItsPlan();

private:
    QTemporaryDir m_dir;
    QString m_root;
    int m_databases = 0;
};

void TestPatchPane::initTestCase()
{
    qunsetenv("SSH_AUTH_SOCK");
    QVERIFY(m_dir.isValid());
    QStandardPaths::setTestModeEnabled(true);
    // LocalTransport resolves "~/" (backups) against HOME: keep them in the temp dir.
    qputenv("HOME", QFile::encodeName(m_dir.filePath(QStringLiteral("home"))));
    QDir().mkpath(m_dir.filePath(QStringLiteral("home")));
    m_root = m_dir.filePath(QStringLiteral("sgl-kernel"));
    const QString src = test::dataPath(QStringLiteral("sgl-kernel-variants/2025-10-cmp0177"));
    for (const QString& rel : { kCmake, kFlashAttn, QStringLiteral("python/sgl_kernel/__init__.py") }) {
        QDir().mkpath(QFileInfo(m_root + QLatin1Char('/') + rel).absolutePath());
        QVERIFY(QFile::copy(src + QLatin1Char('/') + rel, m_root + QLatin1Char('/') + rel));
    }
}

// A history of its own per test (a demo host may get the port of an earlier one).
void TestPatchPane::init()
{
    store::setDatabasePath(m_dir.filePath(QStringLiteral("history-%1.sqlite").arg(++m_databases)));
}

void TestPatchPane::reviewToggleApply()
{
    LocalHostConnection host(test::localProfile(QStringLiteral("local")));
    host.connectToHost();
    PatchPane pane { AppContext {}, &host };
    pane.resize(1500, 950);
    pane.show();
    QSignalSpy planned(&pane, &PatchPane::planShown);
    pane.plan(QStringLiteral("builtin:sgl-kernel-sm120-cuda13"), m_root);
    QTRY_COMPARE_WITH_TIMEOUT(planned.size(), 1, 30000);
    QCOMPARE(planned.first().first().toInt(), 4);
    auto* tree = pane.findChild<QTreeWidget*>(QStringLiteral("patchTree"));
    DiffView* diff = pane.diffView();

    // The file's item shows the whole file as Apply would write it (no switches there).
    tree->setCurrentItem(tree->topLevelItem(0));
    QCOMPARE(tree->topLevelItem(0)->text(0), kCmake);
    QVERIFY(!diff->isReviewable());
    QVERIFY(diff->hunkCount() >= 4); // policy guards, CCCL block, FA3 user check, FA3 default
    const QByteArray all = pane.resultFor(kCmake);
    QVERIFY(all.contains("if(POLICY CMP0169)"));
    QVERIFY(all.contains("/cccl"));
    // Issue #38 (item 8): its Why is not empty: each patch of the file with its state and reason.
    auto* why = pane.findChild<QTextBrowser*>(QStringLiteral("patchWhy"));
    QVERIFY(why);
    const QString fileWhy = why->toPlainText();
    QVERIFY2(fileWhy.startsWith(kCmake), qPrintable(fileWhy));
    QTreeWidgetItem* fileRow = tree->topLevelItem(0);
    QVERIFY(fileRow->childCount() >= 2);
    for (int i = 0; i < fileRow->childCount(); ++i)
        QVERIFY2(fileWhy.contains(fileRow->child(i)->text(0)), qPrintable(fileWhy));
    QVERIFY2(fileWhy.contains(QStringLiteral("patches of this set change it")), qPrintable(fileWhy));
    QVERIFY(pane.grab().save(test::screenshotPath(QStringLiteral("patchpane-file"))));

    // A patch's item shows its own change; Space rejects its current hunk.
    pane.selectFile(kCmake);
    QCOMPARE(tree->currentItem()->text(0), titleOf(QStringLiteral("cmake-policy-guards")));
    QVERIFY(diff->isReviewable());
    QCOMPARE(diff->hunkCount(), pane.review().hunkCount(0));
    QWidget* left = pane.findChild<QWidget*>(QStringLiteral("diffLeft"));
    QTest::keyClick(left, Qt::Key_Space);
    QVERIFY(!diff->isAccepted(0));
    const QByteArray withoutGuards = pane.resultFor(kCmake);
    QVERIFY(!withoutGuards.contains("if(POLICY CMP0169)"));
    QVERIFY(withoutGuards.contains("/cccl")); // the other patches stay
    QVERIFY(pane.grab().save(test::screenshotPath(QStringLiteral("patchpane-sidebyside"))));
    QTest::keyClick(left, Qt::Key_Space);
    QCOMPARE(pane.resultFor(kCmake), all);

    // Unified mode keeps the hunks and the choices.
    diff->setMode(DiffView::Mode::Unified);
    QCOMPARE(diff->hunkCount(), pane.review().hunkCount(0));
    QVERIFY(pane.grab().save(test::screenshotPath(QStringLiteral("patchpane-unified"))));
    diff->setMode(DiffView::Mode::SideBySide);

    // Unticking a whole patch recomputes the file without it.
    pane.setPatchAccepted(2, false); // fa3-option-respected
    const QByteArray noFa3 = pane.resultFor(kCmake);
    QVERIFY(!noFa3.contains("SGL_KERNEL_FA3_USER_SET"));
    QVERIFY(noFa3.contains("if(POLICY CMP0169)"));

    // Reject the CCCL patch too, then apply: the file on disk is exactly the reviewed result.
    pane.setPatchAccepted(1, false);
    QVERIFY(!pane.resultFor(kCmake).contains("/cccl"));
    const QByteArray expected = pane.resultFor(kCmake);
    QString summary;
    pane.setConfirmHandler([&summary](const QString& s) {
        summary = s;
        return true;
    });
    QSignalSpy applied(&pane, &PatchPane::applyFinished);
    QSignalSpy history(&pane, &PatchPane::historyLoaded);
    pane.applySelected();
    QTRY_COMPARE_WITH_TIMEOUT(applied.size(), 1, 30000);
    QVERIFY(summary.contains(kCmake));
    QCOMPARE(test::readFile(m_root + QLatin1Char('/') + kCmake), expected);
    QVERIFY(test::readFile(m_root + QLatin1Char('/') + kFlashAttn).contains("FA3_AVAILABLE = False"));
    QTRY_VERIFY_WITH_TIMEOUT(!history.isEmpty() && history.last().first().toInt() == 2, 30000);
    // After the apply the pane re-plans: the applied patches read "already applied", the
    // two unticked ones stay unticked.
    QTRY_COMPARE_WITH_TIMEOUT(planned.size(), 2, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!pane.isBusy(), 30000);
    QCOMPARE(patchItem(tree, QStringLiteral("cccl-include-dir"))->checkState(0), Qt::Unchecked);
    QCOMPARE(patchItem(tree, QStringLiteral("fa3-option-respected"))->checkState(0), Qt::Unchecked);
    QVERIFY(pane.grab().save(test::screenshotPath(QStringLiteral("patchpane-after-apply"))));
}

// "Open a patch set" with a diff naming a/../victim.txt: the pane says why and plans nothing.
void TestPatchPane::openingADiffThatLeavesTheRootIsRefused()
{
    LocalHostConnection host(test::localProfile(QStringLiteral("local")));
    host.connectToHost();
    PatchPane pane { AppContext {}, &host };
    pane.show();
    const QString patch = m_dir.filePath(QStringLiteral("evil.patch"));
    {
        QFile f(patch);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("--- a/../victim.txt\n+++ b/../victim.txt\n@@ -1 +1 @@\n-old\n+pwned\n");
    }
    QSignalSpy planned(&pane, &PatchPane::planShown);
    pane.plan(patch, m_root);
    auto statusText = [&pane] {
        for (const QLabel* l : pane.findChildren<QLabel*>())
            if (l->text().startsWith(QLatin1String("Planning failed")))
                return l->text();
        return QString();
    };
    QTRY_VERIFY_WITH_TIMEOUT(!statusText().isEmpty(), 30000);
    QVERIFY2(statusText().contains(QLatin1String("path \"../victim.txt\" leaves the root")), qPrintable(statusText()));
    QCOMPARE(planned.size(), 0);
}

// Issue #14: reject hunk 2 with Space, then untick another patch in the tree: the rejection
// stays, and the tree shows it (the patch is "partly", the hunk "rejected").
void TestPatchPane::rejectedHunkSurvivesUntickingAnotherPatch()
{
    KF_START_DEMO_HOST(demo);
    DemoPane d;
    d.open(demo);
    if (QTest::currentTestFailed())
        return;
    QTreeWidget* tree = d.tree();
    QTreeWidgetItem* fa3 = patchItem(tree, QStringLiteral("fa3-option-respected"));
    QVERIFY(fa3);
    const QByteArray all = d.pane->resultFor(kCmake);
    tree->setCurrentItem(fa3);
    d.diffLeft()->setFocus();
    QTest::keyClick(d.diffLeft(), Qt::Key_N);
    QCOMPARE(d.pane->diffView()->currentHunk(), 1);
    QTest::keyClick(d.diffLeft(), Qt::Key_Space);
    QVERIFY(!d.pane->diffView()->isAccepted(1));
    const QList<QByteArray> rejected = linesOnlyIn(all, d.pane->resultFor(kCmake));
    QVERIFY(!rejected.isEmpty());
    // The tree says so: the patch is partly taken, its second hunk is rejected.
    QVERIFY2(fa3->text(1).startsWith(QStringLiteral("partly")), qPrintable(fa3->text(1)));
    QCOMPARE(fa3->checkState(0), Qt::PartiallyChecked);
    QCOMPARE(fa3->childCount(), 2);
    QCOMPARE(fa3->child(1)->text(1), QStringLiteral("rejected"));
    QCOMPARE(fa3->child(1)->checkState(0), Qt::Unchecked);
    QVERIFY(d.pane->grab().save(test::screenshotPath(QStringLiteral("patchpane-hunk-rejected"))));

    // Untick another patch of the same file, as a click on its box does.
    patchItem(tree, QStringLiteral("cmake-policy-guards"))->setCheckState(0, Qt::Unchecked);
    QCOMPARE(patchItem(tree, QStringLiteral("cmake-policy-guards"))->text(1), QStringLiteral("rejected"));
    fa3 = patchItem(tree, QStringLiteral("fa3-option-respected"));
    const QByteArray after = d.pane->resultFor(kCmake);
    QVERIFY(!after.contains("if(POLICY CMP0169)"));
    for (const QByteArray& line : rejected)
        QVERIFY2(!after.split('\n').contains(line), line.constData());
    QVERIFY(fa3->text(1).startsWith(QStringLiteral("partly")));
    tree->setCurrentItem(fa3);
    QVERIFY(!d.pane->diffView()->isAccepted(1));
    QVERIFY(d.pane->diffView()->isAccepted(0));
    QVERIFY(d.pane->grab().save(test::screenshotPath(QStringLiteral("patchpane-hunk-rejected-other-unticked"))));
}

// Issue #14: after an Apply, patches that were unticked come back unticked.
void TestPatchPane::untickedPatchesStayUntickedAfterApply()
{
    KF_START_DEMO_HOST(demo);
    const QString flash = demo.homeDir() + QStringLiteral("/sgl-kernel/") + kFlashAttn;
    const QByteArray flashBefore = test::readFile(flash);
    DemoPane d;
    d.open(demo);
    if (QTest::currentTestFailed())
        return;
    patchItem(d.tree(), QStringLiteral("fa3-import-soft-fail"))->setCheckState(0, Qt::Unchecked);
    Dialog dialog;
    d.apply(&dialog, QStringLiteral("patchpane-apply-dialog-unticked"));
    QVERIFY(dialog.seen);
    QVERIFY2(!dialog.text.contains(QStringLiteral("flash_attn.py")), qPrintable(dialog.text));
    QCOMPARE(test::readFile(flash), flashBefore);
    QTreeWidgetItem* item = patchItem(d.tree(), QStringLiteral("fa3-import-soft-fail"));
    QCOMPARE(item->checkState(0), Qt::Unchecked);
    QCOMPARE(item->text(1), QStringLiteral("rejected"));
    QCOMPARE(patchItem(d.tree(), QStringLiteral("cccl-include-dir"))->text(1), QStringLiteral("already applied"));
    QVERIFY(!d.pane->findChild<QPushButton*>(QStringLiteral("applyPatches"))->isEnabled());
    QVERIFY(d.pane->grab().save(test::screenshotPath(QStringLiteral("patchpane-after-apply-unticked"))));
}

// Issue #14: a patch whose only hunk was rejected is not in the Apply dialog (nor written,
// nor journaled).
void TestPatchPane::applyDialogOmitsAFullyRejectedPatch()
{
    KF_START_DEMO_HOST(demo);
    const QString cmake = demo.homeDir() + QStringLiteral("/sgl-kernel/") + kCmake;
    DemoPane d;
    d.open(demo);
    if (QTest::currentTestFailed())
        return;
    QTreeWidgetItem* cccl = patchItem(d.tree(), QStringLiteral("cccl-include-dir"));
    d.tree()->setCurrentItem(cccl);
    d.diffLeft()->setFocus();
    QTest::keyClick(d.diffLeft(), Qt::Key_Space);
    QCOMPARE(cccl->text(1), QStringLiteral("rejected"));
    QCOMPARE(cccl->checkState(0), Qt::Unchecked);
    Dialog dialog;
    d.apply(&dialog, QStringLiteral("patchpane-apply-dialog"));
    QCOMPARE(dialog.title, QStringLiteral("Apply selected changes"));
    QVERIFY2(!dialog.text.contains(QStringLiteral("cccl-include-dir")), qPrintable(dialog.text));
    QVERIFY2(dialog.text.contains(QStringLiteral("cmake-policy-guards")), qPrintable(dialog.text));
    QVERIFY(!test::readFile(cmake).contains("_sgl_cuda_inc"));
    QVERIFY(test::readFile(cmake).contains("if(POLICY CMP0169)"));
    for (int row = 0; row < d.history()->rowCount(); ++row)
        QVERIFY2(!d.history()->item(row, 0)->toolTip().contains(QStringLiteral("cccl-include-dir")),
            qPrintable(d.history()->item(row, 0)->toolTip()));
}

// Issue #14: n/p move through every hunk of the plan, the tree and the Why pane with the
// diff, whether the focus is in the tree, the diff or the Why pane.
void TestPatchPane::nextAndPreviousMoveTreeDiffAndWhy()
{
    KF_START_DEMO_HOST(demo);
    DemoPane d;
    d.open(demo);
    if (QTest::currentTestFailed())
        return;
    QTreeWidget* tree = d.tree();
    // The stops in tree order: every hunk item, and every patch that is its own one hunk.
    QList<QTreeWidgetItem*> stops;
    for (QTreeWidgetItemIterator it(tree); *it; ++it) {
        QTreeWidgetItem* item = *it;
        const bool hunkItem = item->parent() && item->parent()->parent();
        const bool onePatchHunk = item->parent() && !item->parent()->parent() && item->childCount() == 0
            && (item->flags() & Qt::ItemIsUserCheckable);
        if (hunkItem || onePatchHunk)
            stops.append(item);
    }
    QVERIFY(stops.size() >= 6);
    auto expectAt = [&](int i) {
        QTreeWidgetItem* stop = stops[i];
        QCOMPARE(tree->currentItem(), stop);
        const bool hunkItem = stop->parent()->parent() != nullptr;
        QTreeWidgetItem* patch = hunkItem ? stop->parent() : stop;
        QCOMPARE(d.pane->diffView()->currentHunk(), hunkItem ? stop->parent()->indexOfChild(stop) : 0);
        QVERIFY2(d.why()->toPlainText().startsWith(patch->text(0)), qPrintable(d.why()->toPlainText()));
    };
    tree->setCurrentItem(tree->topLevelItem(0));
    QList<QWidget*> focus { tree, d.diffLeft(), d.why() };
    for (int i = 0; i < stops.size(); ++i) {
        QWidget* w = focus[i % focus.size()];
        w->setFocus();
        QTRY_VERIFY(w->hasFocus());
        QTest::keyClick(w, i % 2 ? Qt::Key_F7 : Qt::Key_N);
        expectAt(i);
        if (QTest::currentTestFailed())
            return;
        if (i == 2)
            QVERIFY(d.pane->grab().save(test::screenshotPath(QStringLiteral("patchpane-next-hunk"))));
    }
    QTest::keyClick(d.why(), Qt::Key_N); // the last stop stays
    expectAt(int(stops.size()) - 1);
    for (int i = int(stops.size()) - 2; i >= 0; --i) {
        QWidget* w = focus[i % focus.size()];
        w->setFocus();
        QTRY_VERIFY(w->hasFocus());
        if (i % 2)
            QTest::keyClick(w, Qt::Key_F7, Qt::ShiftModifier);
        else
            QTest::keyClick(w, Qt::Key_P);
        expectAt(i);
        if (QTest::currentTestFailed())
            return;
    }
    // The root field keeps its letters.
    auto* root = d.pane->findChild<QWidget*>(QStringLiteral("patchRoot"));
    root->setFocus();
    QTest::keyClick(root, Qt::Key_N);
    expectAt(0);
}

// Issue #14: apply the first patch, then the rest; select the older history row and roll it
// back: the later apply of the same file is undone first (the dialog says so), and the
// selection stays on the same entry across refreshes.
void TestPatchPane::rollBackAnOlderApply()
{
    KF_START_DEMO_HOST(demo);
    const QString cmake = demo.homeDir() + QStringLiteral("/sgl-kernel/") + kCmake;
    const QString flash = demo.homeDir() + QStringLiteral("/sgl-kernel/") + kFlashAttn;
    const QByteArray cmakeBefore = test::readFile(cmake);
    DemoPane d;
    d.open(demo);
    if (QTest::currentTestFailed())
        return;
    QTreeWidget* tree = d.tree();
    const QStringList rest { QStringLiteral("cccl-include-dir"), QStringLiteral("fa3-option-respected"),
        QStringLiteral("fa3-import-soft-fail") };
    for (const QString& id : rest)
        patchItem(tree, id)->setCheckState(0, Qt::Unchecked);
    QCOMPARE(patchItem(tree, QStringLiteral("cmake-policy-guards"))->checkState(0), Qt::Checked);
    Dialog first;
    d.apply(&first, QStringLiteral("patchpane-apply-first"));
    QTableWidget* history = d.history();
    QTRY_COMPARE_WITH_TIMEOUT(history->rowCount(), 1, 30000);
    const qint64 older = history->item(0, 0)->data(Qt::UserRole).toLongLong();
    QVERIFY(older > 0);
    history->selectRow(0);

    for (const QString& id : rest)
        patchItem(tree, id)->setCheckState(0, Qt::Checked);
    Dialog second;
    d.apply(&second, QStringLiteral("patchpane-apply-rest"));
    QTRY_COMPARE_WITH_TIMEOUT(history->rowCount(), 3, 30000);
    QVERIFY(test::readFile(flash).contains("FA3_AVAILABLE = False"));
    // The refresh put two rows above it: the selection is still on the older apply.
    const QModelIndexList selected = history->selectionModel()->selectedRows();
    QCOMPARE(selected.size(), 1);
    QCOMPARE(history->item(selected.first().row(), 0)->data(Qt::UserRole).toLongLong(), older);
    QCOMPARE(history->item(selected.first().row(), 2)->text(),
        QFileInfo(demo.homeDir()).canonicalFilePath() + QStringLiteral("/sgl-kernel/") + kCmake);

    Dialog rollback;
    QSignalSpy loaded(d.pane.get(), &PatchPane::historyLoaded);
    answerNextDialog(&rollback, QStringLiteral("patchpane-rollback-dialog"));
    QTest::mouseClick(d.pane->findChild<QPushButton*>(QStringLiteral("rollBack")), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(rollback.seen && loaded.size() >= 1 && !d.pane->isBusy(), 60000);
    QCOMPARE(rollback.title, QStringLiteral("Roll back selected changes"));
    const qsizetype later = rollback.text.indexOf(QStringLiteral("a later change to the same file, undone first"));
    QVERIFY2(later > 0, qPrintable(rollback.text));
    QVERIFY2(later < rollback.text.indexOf(QStringLiteral("#%1 ").arg(older)), qPrintable(rollback.text));
    QVERIFY2(!rollback.text.contains(QStringLiteral("flash_attn.py")), qPrintable(rollback.text));
    QCOMPARE(test::readFile(cmake), cmakeBefore);
    QVERIFY(test::readFile(flash).contains("FA3_AVAILABLE = False")); // not selected, not touched
    int rolledBack = 0;
    for (int row = 0; row < history->rowCount(); ++row)
        rolledBack += history->item(row, 3)->text() == QStringLiteral("rolled back");
    QCOMPARE(rolledBack, 2);
    QCOMPARE(history->item(history->selectionModel()->selectedRows().first().row(), 0)->data(Qt::UserRole).toLongLong(),
        older);
    auto* outcome = d.pane->findChild<QLabel*>(QStringLiteral("patchOutcome"));
    QVERIFY2(outcome && outcome->text().contains(QStringLiteral("Rolled back #%1").arg(older)),
        qPrintable(outcome ? outcome->text() : QString()));
    auto* tabs = d.pane->findChild<QTabWidget*>();
    tabs->setCurrentWidget(history->parentWidget());
    QVERIFY(d.pane->grab().save(test::screenshotPath(QStringLiteral("patchpane-rolled-back"))));
    // Issue #38 (item 8): in a small window the absolute paths no longer push State out of view;
    // they are cut in the middle and whole in their tool tips.
    d.pane->resize(1024, 640);
    QTRY_COMPARE_WITH_TIMEOUT(d.pane->size(), QSize(1024, 640), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(
        history->columnViewportPosition(3) + history->columnWidth(3) <= history->viewport()->width(), 10000);
    QVERIFY(history->columnWidth(3) >= history->horizontalHeader()->sectionSizeHint(3));
    QVERIFY(history->columnWidth(3) >= QFontMetrics(history->font()).horizontalAdvance(QStringLiteral("rolled back")));
    const QString fullPath = history->item(0, 2)->text();
    QVERIFY(fullPath.startsWith(u'/'));
    QVERIFY2(history->item(0, 2)->toolTip().contains(fullPath), qPrintable(history->item(0, 2)->toolTip()));
    QVERIFY(d.pane->grab().save(test::screenshotPath(QStringLiteral("patchpane-history-1024x640"))));

    // Again: nothing can be rolled back, and the pane says why (no dialog).
    QTest::mouseClick(d.pane->findChild<QPushButton*>(QStringLiteral("rollBack")), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(outcome->text().contains(QStringLiteral("already rolled back")), 60000);
    QVERIFY2(outcome->text().startsWith(QStringLiteral("Nothing can be rolled back")), qPrintable(outcome->text()));
}

// The confirmation's default button is Apply: Return goes ahead (Escape would cancel). The
// diff above says which side is which for a file's first patch and for a later one.
void TestPatchPane::returnInTheApplyDialogApplies()
{
    const QString root = m_dir.filePath(QStringLiteral("sgl-kernel-return"));
    const QString src = test::dataPath(QStringLiteral("sgl-kernel-variants/2025-10-cmp0177"));
    for (const QString& rel : { kCmake, kFlashAttn, QStringLiteral("python/sgl_kernel/__init__.py") }) {
        QDir().mkpath(QFileInfo(root + QLatin1Char('/') + rel).absolutePath());
        QVERIFY(QFile::copy(src + QLatin1Char('/') + rel, root + QLatin1Char('/') + rel));
    }
    LocalHostConnection host(test::localProfile(QStringLiteral("local")));
    host.connectToHost();
    PatchPane pane { AppContext {}, &host };
    pane.resize(1500, 950);
    pane.show();
    QSignalSpy planned(&pane, &PatchPane::planShown);
    pane.plan(QStringLiteral("builtin:sgl-kernel-sm120-cuda13"), root);
    QTRY_COMPARE_WITH_TIMEOUT(planned.size(), 1, 30000);
    auto* leftTitle = pane.findChild<QLabel*>(QStringLiteral("diffLeftTitle"));
    auto* rightTitle = pane.findChild<QLabel*>(QStringLiteral("diffRightTitle"));
    QVERIFY(leftTitle && rightTitle);
    auto* tree = pane.findChild<QTreeWidget*>(QStringLiteral("patchTree"));
    tree->setCurrentItem(patchItem(tree, QStringLiteral("cmake-policy-guards")));
    QVERIFY2(leftTitle->text().contains(QLatin1String("On server now")), qPrintable(leftTitle->text()));
    QVERIFY(leftTitle->text().contains(kCmake));
    QVERIFY(rightTitle->text().contains(QLatin1String("After this patch")));
    tree->setCurrentItem(patchItem(tree, QStringLiteral("cccl-include-dir")));
    QVERIFY2(leftTitle->text().contains(QLatin1String("Before this patch")), qPrintable(leftTitle->text()));
    tree->setCurrentItem(tree->topLevelItem(0));
    QVERIFY(rightTitle->text().contains(QLatin1String("After Apply")));

    const QByteArray expected = pane.resultFor(kCmake);
    QVERIFY(expected != test::readFile(root + QLatin1Char('/') + kCmake));
    bool sawDialog = false;
    QTimer::singleShot(50, qApp, [&sawDialog] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box)
            return; // the apply below then never happens: the test fails there
        sawDialog = true;
        QTest::keyClick(box, Qt::Key_Return);
    });
    QSignalSpy applied(&pane, &PatchPane::applyFinished);
    pane.applySelected();
    QVERIFY(sawDialog);
    QTRY_COMPARE_WITH_TIMEOUT(applied.size(), 1, 30000);
    QCOMPARE(test::readFile(root + QLatin1Char('/') + kCmake), expected);
}

// Issue #30: "Let -DSGL_KERNEL_ENABLE_FA3..." with its second hunk rejected, applied. The
// re-plan says "partly applied (1 of 2 hunks)" (before: "rejected"): hunk 1 in the file,
// hunk 2 still there to take, and still rejected; taking it completes the patch.
void TestPatchPane::partlyAppliedShowsTheMissingHunk()
{
    KF_START_DEMO_HOST(demo);
    const QString cmake = demo.homeDir() + QStringLiteral("/sgl-kernel/") + kCmake;
    DemoPane d;
    d.open(demo);
    if (QTest::currentTestFailed())
        return;
    QTreeWidget* tree = d.tree();
    QTreeWidgetItem* fa3 = patchItem(tree, QStringLiteral("fa3-option-respected"));
    QCOMPARE(fa3->childCount(), 2);
    fa3->child(1)->setCheckState(0, Qt::Unchecked);
    QCOMPARE(fa3->text(1), QStringLiteral("partly (1 of 2 hunks)"));
    Dialog first;
    d.apply(&first, QStringLiteral("patchpane-apply-partly"));
    QVERIFY2(first.text.contains(QStringLiteral("fa3-option-respected): 1 of 2 hunks")), qPrintable(first.text));
    QVERIFY(test::readFile(cmake).contains("set(SGL_KERNEL_FA3_USER_SET ON)"));
    QVERIFY(!test::readFile(cmake).contains("if(NOT SGL_KERNEL_FA3_USER_SET)"));

    fa3 = patchItem(tree, QStringLiteral("fa3-option-respected"));
    QCOMPARE(fa3->text(1), QStringLiteral("partly applied (1 of 2 hunks)"));
    QCOMPARE(fa3->childCount(), 2);
    QCOMPARE(fa3->child(0)->text(1), QStringLiteral("in the file"));
    QVERIFY(!(fa3->child(0)->flags() & Qt::ItemIsUserCheckable));
    QCOMPARE(fa3->child(1)->text(1), QStringLiteral("rejected"));
    QVERIFY(fa3->child(1)->flags() & Qt::ItemIsUserCheckable);
    QCOMPARE(fa3->child(1)->checkState(0), Qt::Unchecked);
    QVERIFY2(d.status().contains(QStringLiteral("1 partly applied")), qPrintable(d.status()));
    QVERIFY(d.pane->grab().save(test::screenshotPath(QStringLiteral("patchpane-partly-applied"))));

    fa3->child(1)->setCheckState(0, Qt::Checked);
    QCOMPARE(fa3->text(1), QStringLiteral("partly applied (1 of 2 hunks), will apply the rest"));
    Dialog rest;
    d.apply(&rest, QStringLiteral("patchpane-apply-the-rest"));
    QVERIFY2(rest.text.contains(QStringLiteral("adds 1 of the 1 missing hunks (1 already in the file)")),
        qPrintable(rest.text));
    QCOMPARE(patchItem(tree, QStringLiteral("fa3-option-respected"))->text(1), QStringLiteral("already applied"));
    QVERIFY(test::readFile(cmake).contains("if(NOT SGL_KERNEL_FA3_USER_SET)"));
}

void TestPatchPane::choicesSurviveRollback_data()
{
    QTest::addColumn<bool>("pythonFirst");
    QTest::newRow("python hunk with Space, then the CMake hunk's box") << true;
    QTest::newRow("CMake hunk with Space, then the python hunk's box") << false;
}

// Issue #30: reject hunk 2 of the python patch and of "Let -DSGL_KERNEL_ENABLE_FA3...",
// Apply (writing the split python, as the reviewer insists), roll everything back: both
// hunks are still rejected (before: they came back accepted and the next Apply wrote them),
// clicked in either order, and the next Apply writes the same files.
void TestPatchPane::choicesSurviveRollback()
{
    QFETCH(bool, pythonFirst);
    KF_START_DEMO_HOST(demo);
    const QString cmake = demo.homeDir() + QStringLiteral("/sgl-kernel/") + kCmake;
    const QString flash = demo.homeDir() + QStringLiteral("/sgl-kernel/") + kFlashAttn;
    const QByteArray cmakeBefore = test::readFile(cmake);
    const QByteArray flashBefore = test::readFile(flash);
    DemoPane d;
    d.open(demo);
    if (QTest::currentTestFailed())
        return;
    QTreeWidget* tree = d.tree();
    auto withSpace = [&](const QString& id) {
        tree->setCurrentItem(patchItem(tree, id));
        d.diffLeft()->setFocus();
        QTest::keyClick(d.diffLeft(), Qt::Key_N);
        QTest::keyClick(d.diffLeft(), Qt::Key_Space);
    };
    auto withBox = [&](const QString& id) { patchItem(tree, id)->child(1)->setCheckState(0, Qt::Unchecked); };
    const QString py = QStringLiteral("fa3-import-soft-fail");
    const QString fa3 = QStringLiteral("fa3-option-respected");
    if (pythonFirst) {
        withSpace(py);
        withBox(fa3);
    } else {
        withSpace(fa3);
        withBox(py);
    }
    auto expectRejected = [&](const QString& when) {
        for (const QString& id : { py, fa3 }) {
            QTreeWidgetItem* item = patchItem(tree, id);
            QVERIFY2(item->childCount() >= 2, qPrintable(id));
            QVERIFY2(item->child(1)->checkState(0) == Qt::Unchecked,
                qPrintable(when + QStringLiteral(": ") + id + QStringLiteral(": hunk 2 accepted")));
            QVERIFY2(item->text(1).startsWith(QStringLiteral("partly (")),
                qPrintable(id + QStringLiteral(": ") + item->text(1)));
        }
    };
    expectRejected(QStringLiteral("before the apply"));
    Dialog first;
    d.apply(&first, QStringLiteral("patchpane-apply-choices"), true);
    const QByteArray cmakeWritten = test::readFile(cmake);
    const QByteArray flashWritten = test::readFile(flash);
    QVERIFY(cmakeWritten != cmakeBefore && flashWritten != flashBefore);

    Dialog undo;
    d.rollBackAll(&undo);
    QCOMPARE(test::readFile(cmake), cmakeBefore);
    QCOMPARE(test::readFile(flash), flashBefore);
    expectRejected(QStringLiteral("after the rollback"));
    if (QTest::currentTestFailed())
        return;
    Dialog second;
    d.apply(&second, QStringLiteral("patchpane-apply-after-rollback"), true);
    QCOMPARE(test::readFile(cmake), cmakeWritten);
    QCOMPARE(test::readFile(flash), flashWritten);
}

// Issue #30's first path in the window: "Keep sgl_kernel importable without FA3" with only its
// second hunk rejected. The Apply dialog says the hunks belong together; Apply refuses the
// result (it is no longer Python: the server's python says where) and writes nothing; the
// patch is never called "already applied". Ticking the dialog's override writes it, and the
// plan then says "partly applied" with the missing hunk still offered.
void TestPatchPane::aSplitPythonEditIsRefusedUnlessOverridden()
{
    KF_START_DEMO_HOST(demo);
    const QString flash = demo.homeDir() + QStringLiteral("/sgl-kernel/") + kFlashAttn;
    const QByteArray flashBefore = test::readFile(flash);
    DemoPane d;
    d.open(demo);
    if (QTest::currentTestFailed())
        return;
    QTreeWidgetItem* py = patchItem(d.tree(), QStringLiteral("fa3-import-soft-fail"));
    QVERIFY(py->childCount() >= 2);
    py->child(1)->setCheckState(0, Qt::Unchecked);
    d.tree()->setCurrentItem(py);
    QVERIFY2(d.why()->toPlainText().contains(QStringLiteral("half of it")), qPrintable(d.why()->toPlainText()));
    Dialog refused;
    d.apply(&refused, QStringLiteral("patchpane-apply-split"));
    QVERIFY2(refused.text.contains(QStringLiteral("These hunks belong together, and you split them")),
        qPrintable(refused.text));
    QVERIFY2(d.outcome().contains(QStringLiteral("no longer parses as Python (line ")), qPrintable(d.outcome()));
    QCOMPARE(test::readFile(flash), flashBefore);
    py = patchItem(d.tree(), QStringLiteral("fa3-import-soft-fail"));
    QVERIFY2(py->text(1).startsWith(QStringLiteral("partly (")), qPrintable(py->text(1)));
    QVERIFY(d.pane->grab().save(test::screenshotPath(QStringLiteral("patchpane-split-refused"))));

    Dialog forced;
    d.apply(&forced, QStringLiteral("patchpane-apply-split-forced"), true);
    QVERIFY2(!forced.text.contains(QStringLiteral("no allowBrokenSyntax box")), qPrintable(forced.text));
    QVERIFY(test::readFile(flash) != flashBefore);
    QVERIFY2(d.outcome().contains(QStringLiteral("written although it no longer parses as Python")),
        qPrintable(d.outcome()));
    py = patchItem(d.tree(), QStringLiteral("fa3-import-soft-fail"));
    QVERIFY2(py->text(1).startsWith(QStringLiteral("partly applied (")), qPrintable(py->text(1)));
    QCOMPARE(py->child(1)->text(1), QStringLiteral("rejected"));
    QVERIFY2(!d.status().contains(QStringLiteral("4 already applied")), qPrintable(d.status()));
}

// Issue #34: a worker sees a cancel. A plan held inside its first file read while its pane
// closes reads no further file once it goes on (JobTracker's stop token, planSet's stop).
void TestPatchPane::closingThePaneStopsItsPlan()
{
    auto gate = std::make_shared<test::GatedTransport>(std::make_shared<LocalTransport>(), m_root + u'/');
    test::TransportHostConnection host(test::localProfile(QStringLiteral("local")), gate);
    host.connectToHost();
    auto* pane = new PatchPane { AppContext {}, &host };
    pane->plan(QStringLiteral("builtin:sgl-kernel-sm120-cuda13"), m_root);
    QVERIFY2(gate->waitUntilHeld(30000), "the plan reads a file of the tree");
    delete pane;
    gate->open();
    QVERIFY(transportPool()->waitForDone(60000));
    // Without the stop the plan read each file of the set (CMakeLists.txt, flash_attn.py).
    QCOMPARE(gate->reads().size(), 1);
}

QTEST_MAIN(TestPatchPane)
#include "tst_patchpane.moc"
