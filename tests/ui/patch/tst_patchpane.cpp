// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Offscreen review pane: plan a variant tree on LocalTransport, toggle hunks and patches,
// apply the selection, look at the history; screenshots land in the build tree.
#include "core/hosts/hostconnection.h"
#include "core/store/database.h"
#include "tests/support/testsupport.h"
#include "ui/diff/diffview.h"
#include "ui/patch/patchpane.h"

#include <QDir>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace kf;

namespace { } // namespace

class TestPatchPane : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void reviewToggleApply();
    void openingADiffThatLeavesTheRootIsRefused();

private:
    QTemporaryDir m_dir;
    QString m_root;
};

void TestPatchPane::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QStandardPaths::setTestModeEnabled(true);
    // LocalTransport resolves "~/" (backups) against HOME: keep them in the temp dir.
    qputenv("HOME", QFile::encodeName(m_dir.filePath(QStringLiteral("home"))));
    QDir().mkpath(m_dir.filePath(QStringLiteral("home")));
    store::setDatabasePath(m_dir.filePath(QStringLiteral("history.sqlite")));
    m_root = m_dir.filePath(QStringLiteral("sgl-kernel"));
    const QString src = test::dataPath(QStringLiteral("sgl-kernel-variants/2025-10-cmp0177"));
    for (const QString& rel : { QStringLiteral("CMakeLists.txt"), QStringLiteral("python/sgl_kernel/flash_attn.py"),
             QStringLiteral("python/sgl_kernel/__init__.py") }) {
        QDir().mkpath(QFileInfo(m_root + QLatin1Char('/') + rel).absolutePath());
        QVERIFY(QFile::copy(src + QLatin1Char('/') + rel, m_root + QLatin1Char('/') + rel));
    }
}

void TestPatchPane::reviewToggleApply()
{
    HostProfile profile;
    profile.name = QStringLiteral("local");
    profile.isLocal = true;
    LocalHostConnection host(profile);
    host.connectToHost();
    PatchPane pane { AppContext {}, &host };
    pane.resize(1500, 950);
    pane.show();
    QSignalSpy planned(&pane, &PatchPane::planShown);
    pane.plan(QStringLiteral("builtin:sgl-kernel-sm120-cuda13"), m_root);
    QTRY_COMPARE_WITH_TIMEOUT(planned.size(), 1, 30000);
    QCOMPARE(planned.first().first().toInt(), 4);

    const QString cmake = QStringLiteral("CMakeLists.txt");
    pane.selectFile(cmake);
    DiffView* diff = pane.diffView();
    QVERIFY(diff->hunkCount() >= 4); // policy guards, CCCL block, FA3 user check, FA3 default
    const QByteArray all = pane.resultFor(cmake);
    QVERIFY(all.contains("if(POLICY CMP0169)"));
    QVERIFY(all.contains("/cccl"));
    QVERIFY(test::screenshotPath(QStringLiteral("patchpane-sidebyside")).endsWith(QStringLiteral(".png")));
    QVERIFY(pane.grab().save(test::screenshotPath(QStringLiteral("patchpane-sidebyside"))));

    // Keys: n moves to the next hunk, Shift+F7 back; Space rejects the current hunk.
    QWidget* left = pane.findChild<QWidget*>(QStringLiteral("diffLeft"));
    QVERIFY(left);
    QCOMPARE(diff->currentHunk(), 0);
    QTest::keyClick(left, Qt::Key_N);
    QCOMPARE(diff->currentHunk(), 1);
    QTest::keyClick(left, Qt::Key_F7, Qt::ShiftModifier);
    QCOMPARE(diff->currentHunk(), 0);
    QTest::keyClick(left, Qt::Key_Space);
    QVERIFY(!diff->isAccepted(0));
    const QByteArray withoutFirst = pane.resultFor(cmake);
    QVERIFY(withoutFirst != all);
    QVERIFY(!withoutFirst.contains("if(POLICY CMP0169)"));
    QVERIFY(withoutFirst.contains("/cccl")); // the other hunks stay
    QVERIFY(pane.summaryText().contains(QStringLiteral("of %1 hunks").arg(diff->hunkCount())));
    QTest::keyClick(left, Qt::Key_Space);
    QCOMPARE(pane.resultFor(cmake), all);

    // Unified mode keeps the hunks and the choices.
    diff->setMode(DiffView::Mode::Unified);
    QVERIFY(diff->hunkCount() >= 4);
    QVERIFY(pane.grab().save(test::screenshotPath(QStringLiteral("patchpane-unified"))));
    diff->setMode(DiffView::Mode::SideBySide);

    // Unticking a whole patch recomputes the file without it.
    pane.setPatchAccepted(2, false); // fa3-option-respected
    const QByteArray noFa3 = pane.resultFor(cmake);
    QVERIFY(!noFa3.contains("SGL_KERNEL_FA3_USER_SET"));
    QVERIFY(noFa3.contains("if(POLICY CMP0169)"));

    // Reject the CCCL hunk too, then apply: the file on disk is exactly the reviewed result.
    pane.selectFile(cmake);
    int cccl = -1;
    for (int i = 0; i < diff->hunkCount(); ++i) {
        diff->goToHunk(i);
        diff->setAccepted(i, false);
        if (!pane.resultFor(cmake).contains("/cccl"))
            cccl = i;
        diff->setAccepted(i, true);
        if (cccl >= 0)
            break;
    }
    QVERIFY(cccl >= 0);
    diff->setAccepted(cccl, false);
    const QByteArray expected = pane.resultFor(cmake);
    QString summary;
    pane.setConfirmHandler([&summary](const QString& s) {
        summary = s;
        return true;
    });
    QSignalSpy applied(&pane, &PatchPane::applyFinished);
    QSignalSpy history(&pane, &PatchPane::historyLoaded);
    pane.applySelected();
    QTRY_COMPARE_WITH_TIMEOUT(applied.size(), 1, 30000);
    QVERIFY(summary.contains(cmake));
    QCOMPARE(test::readFile(m_root + QLatin1Char('/') + cmake), expected);
    QVERIFY(
        test::readFile(m_root + QStringLiteral("/python/sgl_kernel/flash_attn.py")).contains("FA3_AVAILABLE = False"));
    QTRY_VERIFY_WITH_TIMEOUT(!history.isEmpty() && history.last().first().toInt() == 2, 30000);
    // After the apply the pane re-plans: the applied patches read "already applied".
    QTRY_COMPARE_WITH_TIMEOUT(planned.size(), 2, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!pane.isBusy(), 30000);
    QVERIFY(pane.grab().save(test::screenshotPath(QStringLiteral("patchpane-after-apply"))));
}

// "Open a patch set" with a diff naming a/../victim.txt: the pane says why and plans nothing.
void TestPatchPane::openingADiffThatLeavesTheRootIsRefused()
{
    HostProfile profile;
    profile.name = QStringLiteral("local");
    profile.isLocal = true;
    LocalHostConnection host(profile);
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

QTEST_MAIN(TestPatchPane)
#include "tst_patchpane.moc"
