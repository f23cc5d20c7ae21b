// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issues #30 (items 3, 7, 8) and #33 (item 4) in the real window on the demo host (a real sshd).
// The patched demo tree builds and is verified (the Verification tab names the build). With the
// CCCL patch's lines taken out again, Start runs preflight again and asks; the build fails, the
// headline and the first Diagnostics row show the compiler's error with its hint (not ninja's
// FAILED line), Cancel is off, the Verification tab no longer calls the earlier result current,
// and Verify refuses the library the earlier build left. "Fix: Apply the CCCL include patch"
// opens the Patches review on that patch alone; Apply, and the build goes on and succeeds.
#include "core/remotebuild/buildprofile.h"
#include "core/store/database.h"
#include "tests/support/demotree.h"
#include "tests/support/testsupport.h"
#include "tests/support/windowdriver.h"
#include "ui/patch/patchpane.h"
#include "ui/remotebuild/buildpane.h"
#include "ui/remotebuild/diagnosticsview.h"
#include "ui/remotebuild/verifyview.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

using namespace kf;
using Tab = kf::MainWindow::Tab;

namespace {

QString rows(QTreeWidget* t)
{
    QStringList out;
    for (int i = 0; i < t->topLevelItemCount(); ++i)
        out << t->topLevelItem(i)->text(0) + QLatin1Char(' ') + t->topLevelItem(i)->text(1) + QLatin1Char(' ')
                + t->topLevelItem(i)->text(2);
    return out.join(QLatin1Char('\n'));
}

} // namespace

class TestBuildFixer : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("HOME", m_tmp.path().toLocal8Bit());
        test::isolateAppState(QStringLiteral("kernelforge-buildfixer"), m_tmp.path());
    }

    void aFailedBuildOffersItsFixAndBuildsOn()
    {
        if (!QFile::exists(QStringLiteral("/usr/local/cuda/include/cccl/cuda/std/version")))
            QSKIP("needs CUDA 13's include/cccl (CUDA at /usr/local/cuda on CI)");
        KF_START_DEMO_HOST(demo);
        test::DemoWindow dw;
        dw.open(demo);
        if (QTest::currentTestFailed())
            return;
        MainWindow& w = *dw.window;
        auto* patches = qobject_cast<PatchPane*>(w.pane(Tab::Patches));
        auto* build = qobject_cast<BuildPane*>(w.pane(Tab::Build));
        QVERIFY(patches && build);
        int applies = 0;
        patches->setConfirmHandler([&](const QString&) {
            ++applies;
            return true;
        });
        auto* summary = build->findChild<QLabel*>(QStringLiteral("buildSummary"));
        auto* cancel = build->findChild<QPushButton*>(QStringLiteral("cancelBuild"));
        auto* side = build->findChild<QTabWidget*>(QStringLiteral("buildTabs"));
        VerifyView* verify = build->verifyView();
        QVERIFY(summary && cancel && side);

        // 1. The whole set applied; the demo profile builds and is verified, by that build.
        w.showTab(Tab::Patches);
        QTRY_VERIFY_WITH_TIMEOUT(patches->review().patchCount() == 4 && !patches->isBusy(), 60000);
        QSignalSpy applied(patches, &PatchPane::applyFinished);
        patches->applySelected();
        QTRY_COMPARE_WITH_TIMEOUT(applied.size(), 1, 60000);
        w.showTab(Tab::Build);
        QVERIFY(build->profilePicker()->currentData().toString().startsWith(QStringLiteral("Demo ")));
        QSignalSpy finished(build, &BuildPane::buildFinished);
        QSignalSpy verified(verify, &VerifyView::verified);
        test::answerNextQuestion(QMessageBox::Yes, nullptr, 20000); // only if this machine fails a check
        build->findChild<QPushButton*>(QStringLiteral("startBuild"))->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 540000);
        QCOMPARE(finished.last().first().value<JobInfo>().exitStatus, 0);
        const QString good = finished.last().first().value<JobInfo>().id;
        QTRY_COMPARE_WITH_TIMEOUT(verified.size(), 1, 300000);
        QVERIFY2(verified.last().first().toBool(), qPrintable(rows(verify->checkList())));
        QVERIFY2(verify->provenanceLine()->text().contains(QStringLiteral("the libraries of build ") + good),
            qPrintable(verify->provenanceLine()->text()));
        QVERIFY(!cancel->isEnabled()); // item 8: nothing to cancel once it ended

        // 2. The CCCL patch's lines out of the tree again. Start checks the server again and asks.
        QVERIFY(test::takeOutCcclPatch(demo.homeDir() + QStringLiteral("/sgl-kernel/CMakeLists.txt")));
        QString question;
        test::answerNextQuestion(QMessageBox::Yes, &question, 120000);
        build->findChild<QPushButton*>(QStringLiteral("startBuild"))->click();
        QTRY_VERIFY2_WITH_TIMEOUT(question.contains(QStringLiteral("cccl")), qPrintable(question), 120000);
        // While it runs, the earlier verification is not shown as the current state.
        QTRY_VERIFY_WITH_TIMEOUT(build->session() && build->session()->jobId() != good, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(verify->provenanceLine()->property("outdated").toBool(), 30000);
        QVERIFY2(verify->provenanceLine()->text().contains(build->session()->jobId()),
            qPrintable(verify->provenanceLine()->text()));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 540000);
        QVERIFY(finished.last().first().value<JobInfo>().exitStatus != 0);
        const QString broken = finished.last().first().value<JobInfo>().id;

        // 3. The headline and the first row: the compiler's error and its hint; Cancel is off.
        const QString head = summary->text();
        QVERIFY2(head.contains(QStringLiteral("Root cause: "))
                && head.contains(QStringLiteral("cuda/std/version: No "
                                                "such file or directory")),
            qPrintable(head));
        QVERIFY2(head.contains(QStringLiteral("Hint: CUDA 13 moved")), qPrintable(head));
        QVERIFY2(!head.contains(QStringLiteral("build step failed")), qPrintable(head));
        QCOMPARE(side->currentWidget(), build->diagnosticsView());
        QTreeWidget* list = build->diagnosticsList();
        QVERIFY2(list->topLevelItem(0)->text(2).contains(QStringLiteral("cuda/std/version")), qPrintable(rows(list)));
        QVERIFY(list->topLevelItem(0)->text(3).contains(QStringLiteral("CCCL")));
        QCOMPARE(list->currentItem(), list->topLevelItem(0));
        QLabel* cause = build->diagnosticsView()->rootCauseLabel();
        QVERIFY(cause->isVisible() && cause->wordWrap());
        QVERIFY2(cause->text().contains(QStringLiteral("cuda/std/version")), qPrintable(cause->text()));
        QVERIFY(!cancel->isEnabled());
        QVERIFY(verify->provenanceLine()->text().contains(broken + QStringLiteral(" (")));

        // 4. Verify now: the library the good build left is stale.
        QSignalSpy reverified(verify, &VerifyView::verified);
        verify->verifyButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(reverified.size(), 1, 300000);
        QCOMPARE(reverified.first().first().toBool(), false);
        QVERIFY2(rows(verify->checkList())
                     .contains(QStringLiteral("FAIL made by build stale: build/common_ops.so was "
                                              "made by build ")
                         + good),
            qPrintable(rows(verify->checkList())));
        QVERIFY(verify->headline()->text().contains(QStringLiteral("a server launch on this host would fail")));
        QVERIFY(w.grab().save(test::screenshotPath(QStringLiteral("buildpane-root-cause-and-fix"))));

        // 5. The fix: the Patches review opens on the CCCL patch alone; Apply, and the build goes on.
        side->setCurrentWidget(build->diagnosticsView());
        QPushButton* fix = build->diagnosticsView()->fixButton();
        QVERIFY(fix->isVisible());
        QVERIFY2(fix->text().contains(QStringLiteral("CCCL")), qPrintable(fix->text()));
        fix->click();
        QTRY_VERIFY_WITH_TIMEOUT(w.tab(Tab::Patches)->isVisible(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!patches->isBusy() && patches->review().patchCount() == 4, 60000);
        int cccl = -1;
        for (int i = 0; i < patches->review().patchCount(); ++i)
            if (patches->review().plan().patches[i].id == QStringLiteral("cccl-include-dir"))
                cccl = i;
        QVERIFY(cccl >= 0);
        QCOMPARE(patches->shownPatch(), cccl);
        patches->applySelected();
        QTRY_COMPARE_WITH_TIMEOUT(applied.size(), 2, 60000);
        QVERIFY(applied.last().first().value<patch::ApplyReport>().ok());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 3, 540000);
        QVERIFY(w.tab(Tab::Build)->isVisible());
        QCOMPARE(finished.last().first().value<JobInfo>().exitStatus, 0);
        QTRY_VERIFY_WITH_TIMEOUT(reverified.size() == 2 || verified.size() == 2, 300000);
        QTRY_VERIFY_WITH_TIMEOUT(!verify->isRunning() && verify->report() && !verify->report()->failed(), 300000);
        QCOMPARE(applies, 2);
    }
};

QTEST_MAIN(TestBuildFixer)
#include "tst_buildfixer.moc"
