// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issue #16, post-build verification in the real window on the demo host (a real sshd, its
// nvidia-smi: 8 x H200, compute capability 9.0). A build that succeeds is verified at once: the
// Verification tab shows one row per check with the libraries' real SASS targets (built by
// this machine's nvcc) against the GPUs, and the result goes into the host's timeline. A build
// whose library has no kernel image for the GPUs fails verification, and the Server tab then
// refuses Launch with that reason, until a verification passes again (Verify on demand).
#include "core/hosts/hostprofilestore.h"
#include "core/remotebuild/buildprofile.h"
#include "core/store/database.h"
#include "core/timeline/eventstore.h"
#include "tests/support/cudafixtures.h"
#include "tests/support/testsupport.h"
#include "tests/support/windowdriver.h"
#include "ui/fleet/rolloutdialog.h"
#include "ui/logview/logview.h"
#include "ui/remotebuild/buildpane.h"
#include "ui/remotebuild/verifyview.h"
#include "ui/server/serverpane.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QtTest>

using namespace kf;
using test::shown;
using test::showTab;

namespace {

// A "build" that puts one of the nvcc-built libraries into ~/<dir>/build on the demo host.
BuildProfile copying(const QString& name, const QString& dir, const QString& library)
{
    BuildProfile p;
    p.name = name;
    p.workingDirectory = QStringLiteral("~/") + dir;
    p.buildDir = QStringLiteral("build");
    p.command = QStringLiteral("mkdir -p build && cp '%1' build/ && echo built").arg(library);
    return p;
}

QTreeWidgetItem* row(QTreeWidget* checks, const QString& result, const QString& found)
{
    for (int i = 0; i < checks->topLevelItemCount(); ++i)
        if (checks->topLevelItem(i)->text(0) == result && checks->topLevelItem(i)->text(2).contains(found))
            return checks->topLevelItem(i);
    return nullptr;
}

QString rows(QTreeWidget* checks)
{
    QStringList out;
    for (int i = 0; i < checks->topLevelItemCount(); ++i)
        out << checks->topLevelItem(i)->text(0) + QLatin1Char(' ') + checks->topLevelItem(i)->text(1) + QLatin1Char(' ')
                + checks->topLevelItem(i)->text(2);
    return out.join(QLatin1Char('\n'));
}

} // namespace

class TestBuildVerify : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_cuda; // the nvcc-built libraries

    // Picks the profile, starts the build, waits for it and for the verification after it.
    void buildAndVerify(BuildPane* pane, const QString& profile)
    {
        pane->profilePicker()->setCurrentIndex(pane->profilePicker()->findData(profile));
        QCOMPARE(pane->profilePicker()->currentData().toString(), profile);
        QSignalSpy finished(pane, &BuildPane::buildFinished);
        QSignalSpy verified(pane->verifyView(), &VerifyView::verified);
        pane->findChild<QPushButton*>(QStringLiteral("startBuild"))->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        QVERIFY2(finished.first().first().value<JobInfo>().exitStatus == 0,
            qPrintable(QString::fromUtf8(pane->logView()->store().lines(0, 20).join("\n"))));
        QTRY_COMPARE_WITH_TIMEOUT(verified.size(), 1, 180000);
    }

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("HOME", m_tmp.path().toLocal8Bit());
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("kernelforge-test"));
        QApplication::setApplicationName(QStringLiteral("kernelforge-buildverify"));
        QSettings().clear();
        store::setDatabasePath(m_tmp.filePath(QStringLiteral("history.sqlite")));
        if (test::nvccPath().isEmpty())
            return;
        m_cuda = m_tmp.filePath(QStringLiteral("cuda"));
        QDir().mkpath(m_cuda);
        const QString problem = test::buildCudaLibraries(m_cuda, test::standardCudaLibraries());
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY(saveUserBuildProfiles(
            { copying(QStringLiteral("for H200"), QStringLiteral("good"), m_cuda + "/sm90a.so"),
                copying(QStringLiteral("for B200 only"), QStringLiteral("bad"), m_cuda + "/sm100a.so") })
                    .ok());
    }

    void cleanupTestCase() { QFile::remove(userBuildProfilesPath()); }

    void aFinishedBuildIsVerifiedAndABadOneBlocksLaunch()
    {
        if (test::nvccPath().isEmpty())
            QSKIP("no nvcc (CUDA 13 at /usr/local/cuda on CI): cannot build the CUDA libraries to verify");
        KF_START_DEMO_HOST(demo);
        for (const char* project : { "good", "bad" }) // the profiles' working folders
            QVERIFY(QDir().mkpath(demo.homeDir() + QLatin1Char('/') + QLatin1String(project)));
        test::DemoWindow dw;
        HostProfileStore saved(m_tmp.filePath(QStringLiteral("hosts.yaml"))); // Promote… offers the saved hosts
        HostProfile labB = demo.profile(QStringLiteral("lab-b"));
        labB.isDemo = false; // the demo's own profile is never saved
        QVERIFY(saved.save({ labB }));
        dw.ctx.profiles = &saved;
        dw.open(demo);
        if (QTest::currentTestFailed())
            return;
        const QString hostKey = dw.host->transport()->describe();
        auto* pane = shown<BuildPane>(showTab(dw.window->tabs(), QStringLiteral("Build")));
        QVERIFY(pane);
        VerifyView* view = pane->verifyView();
        auto* side = pane->findChild<QTabWidget*>(QStringLiteral("buildTabs"));
        QVERIFY(view->verifyButton()->isVisible());

        // 1. A library with sm_90a SASS: verified after the build, every check passes or warns.
        buildAndVerify(pane, QStringLiteral("for H200"));
        QCOMPARE(side->currentWidget(), view);
        QVERIFY(view->report());
        QVERIFY2(!view->report()->failed(), qPrintable(rows(view->checkList())));
        QVERIFY2(row(view->checkList(), QStringLiteral("PASS"), QStringLiteral("sm90a.so [sm_90a] runs on 9.0")),
            qPrintable(rows(view->checkList())));
        QVERIFY2(row(view->checkList(), QStringLiteral("PASS"), QStringLiteral("GPUs 0-7 (NVIDIA H200")),
            qPrintable(rows(view->checkList())));
        QVERIFY2(view->headline()->text().contains(QStringLiteral(">PASSED")), qPrintable(view->headline()->text()));
        auto* promote = pane->findChild<QPushButton*>(QStringLiteral("promoteBuild"));
        QVERIFY(promote);
        QTRY_VERIFY(promote->isEnabled()); // a build that passed here may go to other hosts
        QTest::qWait(200);
        QVERIFY(pane->grab().save(test::screenshotPath(QStringLiteral("buildpane-verified"))));
        // The Server tab has nothing against a launch.
        auto* server = shown<ServerPane>(showTab(dw.window->tabs(), QStringLiteral("Server")));
        QVERIFY(server);
        quint16 port = 0; // a free one: other tests' demo servers may hold 30000
        {
            QTcpServer s;
            QVERIFY(s.listen(QHostAddress::LocalHost, 0));
            port = s.serverPort();
        }
        ServerLaunchProfile serverProfile = ServerLaunchProfile::demoProfile();
        serverProfile.port = port;
        server->setProfile(serverProfile);
        auto* launch = server->findChild<QPushButton*>(QStringLiteral("launchServer"));
        auto* hint = server->findChild<QLabel*>(QStringLiteral("launchHint"));
        QTRY_VERIFY_WITH_TIMEOUT(launch->isEnabled(), 30000);

        // 2. A library for sm_100a only: no kernel image for the H200s. Verification fails and
        //    says a server launch would fail; the event is in the host's timeline.
        showTab(dw.window->tabs(), QStringLiteral("Build"));
        buildAndVerify(pane, QStringLiteral("for B200 only"));
        QVERIFY(view->report() && view->report()->failed());
        QTreeWidgetItem* arch = row(view->checkList(), QStringLiteral("FAIL"),
            QStringLiteral("sm100a.so cannot run on GPUs 0-7: no kernel image for 9.0"));
        QVERIFY2(arch, qPrintable(rows(view->checkList())));
        QCOMPARE(view->checkList()->currentItem(), arch); // the failure and its fix are in view
        QVERIFY(arch->text(3).contains(QStringLiteral("sm_90a")));
        QVERIFY(view->findChild<QTextBrowser*>(QStringLiteral("verifyDetail"))
                    ->toPlainText()
                    .contains(QStringLiteral("Fix:")));
        QVERIFY2(view->headline()->text().contains(QStringLiteral("a server launch on this host would fail")),
            qPrintable(view->headline()->text()));
        QVERIFY(pane->grab().save(test::screenshotPath(QStringLiteral("buildpane-verify-failed"))));
        QVERIFY(!promote->isEnabled()); // a failed one may not
        const auto events = timeline::events({ hostKey, {}, {}, { timeline::kind::VerifyResult } });
        QVERIFY(events);
        QCOMPARE(events->size(), 2);
        QVERIFY2(events->last().summary.startsWith(QStringLiteral("Verification failed")),
            qPrintable(events->last().summary));

        // 3. The Server tab refuses Launch, with the reason; a launch asked for anyway is refused too.
        showTab(dw.window->tabs(), QStringLiteral("Server"));
        QTRY_VERIFY_WITH_TIMEOUT(!launch->isEnabled(), 30000);
        QVERIFY2(hint->isVisible() && hint->text().startsWith(QStringLiteral("Launch is refused"))
                && hint->text().contains(QStringLiteral("sm100a.so cannot run on GPUs 0-7")),
            qPrintable(hint->text()));
        QSignalSpy failed(server, &ServerPane::launchFailed);
        server->launch();
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 30000);
        QVERIFY2(failed.first().first().toString().contains(QStringLiteral("no kernel image")),
            qPrintable(failed.first().first().toString()));
        QVERIFY(server->jobId().isEmpty());
        QVERIFY(server->grab().save(test::screenshotPath(QStringLiteral("serverpane-launch-refused"))));

        // 4. Verify on demand (the good build): it passes, and Launch is offered again.
        showTab(dw.window->tabs(), QStringLiteral("Build"));
        pane->profilePicker()->setCurrentIndex(pane->profilePicker()->findData(QStringLiteral("for H200")));
        QSignalSpy verified(view, &VerifyView::verified);
        view->verifyButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(verified.size(), 1, 180000);
        QCOMPARE(verified.first().first().toBool(), true);
        // Promote… opens the rollout dialog's promotion from this host with the verified profile.
        QTRY_VERIFY(promote->isEnabled());
        promote->click();
        auto* dialog = pane->findChild<RolloutDialog*>(QStringLiteral("rolloutDialog"));
        QVERIFY(dialog);
        QCOMPARE(dialog->findChild<QComboBox*>(QStringLiteral("rolloutAction"))->currentData().toString(),
            QStringLiteral("promote"));
        QCOMPARE(
            dialog->findChild<QComboBox*>(QStringLiteral("rolloutSource"))->currentText(), dw.host->profile().name);
        QCOMPARE(dialog->table()->rowCount(), 2); // this host and the saved one
        QVERIFY(dialog->grab().save(test::screenshotPath(QStringLiteral("buildpane-promote-dialog"))));
        dialog->close();
        showTab(dw.window->tabs(), QStringLiteral("Server"));
        QTRY_VERIFY_WITH_TIMEOUT(launch->isEnabled(), 30000);
        QVERIFY(!hint->text().contains(QStringLiteral("refused")));
    }
};

QTEST_MAIN(TestBuildVerify)
#include "tst_buildverify.moc"
