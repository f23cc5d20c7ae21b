// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The Build pane offscreen, following a real CMake + Ninja build on this machine.
#include "core/hosts/hostconnection.h"
#include "core/remotebuild/buildprofile.h"
#include "core/store/database.h"
#include "ui/chart/timechart.h"
#include "ui/common/preferences.h"
#include "ui/logview/logview.h"
#include "ui/remotebuild/buildchart.h"
#include "ui/remotebuild/buildpane.h"
#include "ui/remotebuild/memorygateview.h"

#include "tests/support/testsupport.h"

#include <QComboBox>
#include <QDirIterator>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTreeWidget>
#include <QtTest>

class TestBuildPane : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;

    QString copyProject()
    {
        const QString src = kf::test::dataPath(QStringLiteral("buildlogs/demo-project"));
        const QString dst = m_tmp.filePath(QStringLiteral("project"));
        QDirIterator it(src, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString f = it.next();
            const QString target = dst + f.mid(src.size());
            QDir().mkpath(QFileInfo(target).absolutePath());
            QFile::copy(f, target);
            QFile::setPermissions(target, QFile(f).permissions());
        }
        return dst;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        kf::test::isolateAppState(QStringLiteral("kernelforge-buildpane"));
        kf::store::setDatabasePath(m_tmp.filePath(QStringLiteral("history.sqlite")));
    }

    // A step that prints nothing for a while: the summary keeps counting and says how long it has
    // run and how long nothing came; once the build is over there is no ETA and no quiet note.
    // Its end is announced in the window's status bar (offscreen has no tray) when Preferences
    // say so, and not at all when they say not.
    void aQuietStepShowsTimePassingAndTheEndIsAnnounced()
    {
        kf::BuildProfile p;
        p.name = QStringLiteral("quiet step");
        p.workingDirectory = m_tmp.path();
        p.command = QStringLiteral("printf '[1/3] CXX a.o\\n'; sleep 4; printf '[2/3] CXX b.o\\n[3/3] Link x\\n'");
        QVERIFY(kf::saveUserBuildProfiles(kf::builtInBuildProfiles() << p));
        kf::HostProfile hp;
        hp.name = QStringLiteral("this machine");
        hp.isLocal = true;
        kf::LocalHostConnection host(hp);
        host.connectToHost();
        QMainWindow window;
        auto* pane = new kf::BuildPane(kf::AppContext {}, &host);
        window.setCentralWidget(pane);
        window.resize(1280, 860);
        pane->setJobRoot(m_tmp.filePath(QStringLiteral("quiet-jobs")));
        pane->setQuietAfterMs(1000);
        window.show();
        pane->profilePicker()->setCurrentIndex(pane->profilePicker()->findData(p.name));
        auto* summary = pane->findChild<QLabel*>(QStringLiteral("buildSummary"));
        QVERIFY(summary);
        // No build yet: no empty progress bar under the controls.
        auto* bar = pane->findChild<QProgressBar*>(QStringLiteral("buildProgress"));
        QVERIFY(bar);
        QVERIFY(!bar->isVisible());

        kf::Preferences prefs = kf::Preferences::load();
        prefs.notifyOnBuildEnd = true;
        prefs.save();
        QSignalSpy finished(pane, &kf::BuildPane::buildFinished);
        pane->findChild<QPushButton*>(QStringLiteral("startBuild"))->click();
        QTRY_VERIFY2_WITH_TIMEOUT(
            summary->text().contains(QLatin1String("1/3 steps")), qPrintable(summary->text()), 30000);
        QVERIFY(bar->isVisible());
        QTRY_VERIFY2_WITH_TIMEOUT(
            summary->text().contains(QLatin1String("no output for")), qPrintable(summary->text()), 30000);
        QVERIFY2(summary->text().contains(QLatin1String("step running")), qPrintable(summary->text()));
        QVERIFY(window.grab().save(kf::test::screenshotPath(QStringLiteral("buildpane-quiet-step"))));
        // Later, still quiet: the elapsed time has moved on by itself.
        const QString earlier = summary->text();
        QTRY_VERIFY2_WITH_TIMEOUT(summary->text() != earlier || finished.size() == 1, qPrintable(earlier), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        const QString text = summary->text();
        QVERIFY2(text.contains(QLatin1String("succeeded")), qPrintable(text));
        QVERIFY2(!text.contains(QLatin1String("ETA")) && !text.contains(QLatin1String("no output"))
                && !text.contains(QLatin1String("running")),
            qPrintable(text));
        QCOMPARE(window.statusBar()->currentMessage(), finished.first().at(1).toString());
        // Issue #30 item 8: the build is over (and its verification started): nothing to cancel.
        QVERIFY(!pane->findChild<QPushButton*>(QStringLiteral("cancelBuild"))->isEnabled());
        // The tick stopped with the build: the line stays as the end left it.
        QTest::qWait(1500);
        QCOMPARE(summary->text(), text);

        // Notifications off: the next build ends without a word in the status bar.
        window.statusBar()->clearMessage();
        prefs.notifyOnBuildEnd = false;
        prefs.save();
        pane->findChild<QPushButton*>(QStringLiteral("startBuild"))->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 60000);
        QCOMPARE(window.statusBar()->currentMessage(), QString());
    }

    void endNoticeFollowsPreferencesAndThePlatform()
    {
        using N = kf::BuildPane::EndNotice;
        QCOMPARE(kf::BuildPane::endNotice(false, true), N::None);
        QCOMPARE(kf::BuildPane::endNotice(false, false), N::None);
        QCOMPARE(kf::BuildPane::endNotice(true, true), N::Desktop);
        QCOMPARE(kf::BuildPane::endNotice(true, false), N::StatusBar);
    }

    void followsABuildWithDiagnostics()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("ninja")).isEmpty())
            QSKIP("needs cmake and ninja");
        const bool cuda = QFile::exists(QStringLiteral("/usr/local/cuda/include/cccl/thrust/version.h"));
        kf::BuildProfile p;
        p.name = QStringLiteral("demo project");
        p.workingDirectory = copyProject();
        p.buildDir = QStringLiteral("build");
        p.command = QStringLiteral("cmake -S . -B build -G Ninja $CMAKE_ARGS && cmake --build build -j 2 -- -k 0");
        if (cuda)
            p.cmakeArgs << QStringLiteral("-DKF_USE_CUDA_HEADERS=ON");
        p.env.insert(QStringLiteral("KF_SLOWCC_DELAY"), QStringLiteral("0.4"));
        QVERIFY(kf::saveUserBuildProfiles(kf::builtInBuildProfiles() << p));

        kf::AppContext ctx;
        kf::HostProfile hp;
        hp.name = QStringLiteral("this machine");
        hp.isLocal = true;
        kf::LocalHostConnection host(hp);
        host.connectToHost();
        kf::BuildPane pane(ctx, &host);
        pane.resize(1280, 860);
        pane.setJobRoot(m_tmp.filePath(QStringLiteral("jobs")));
        pane.setConfirmCancel(false);
        pane.show();
        pane.profilePicker()->setCurrentIndex(pane.profilePicker()->findData(p.name));
        QCOMPARE(pane.profilePicker()->currentData().toString(), p.name);

        QSignalSpy finished(&pane, &kf::BuildPane::buildFinished);
        pane.findChild<QPushButton*>(QStringLiteral("startBuild"))->click();
        QTRY_VERIFY_WITH_TIMEOUT(pane.session() != nullptr, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 120000);
        const auto info = finished.first().first().value<kf::JobInfo>();
        QCOMPARE(info.exitStatus == 0, !cuda);
        QVERIFY2(pane.chart()->progressPoints() >= 2,
            qPrintable(pane.findChild<QLabel*>(QStringLiteral("buildSummary"))->text()
                + QString::fromUtf8(pane.logView()->store().lines(0, 60).join("\n"))));
        QVERIFY(pane.logView()->store().lineCount() > 10);
        QTRY_VERIFY_WITH_TIMEOUT(pane.logView()->liveView()->blockCount() > 10, 5000);
        // Every compile went through the memory gate (on by default); its tab lists them with the
        // peaks it measured, and the memory chart says what it judged memory by.
        int done = 0;
        for (int i = 0; i < pane.gateView()->units()->topLevelItemCount(); ++i)
            done += pane.gateView()->units()->topLevelItem(i)->text(1) == QLatin1String("done");
        QVERIFY2(done >= 12, qPrintable(pane.gateView()->summary()->text()));
        QVERIFY2(pane.gateView()->summary()->text().startsWith(QStringLiteral("Memory gate: 0 compiling, 0 waiting for "
                                                                              "memory, %1 done")
                                                                   .arg(done)),
            qPrintable(pane.gateView()->summary()->text()));
        QVERIFY2(pane.chart()->memoryChart()->title().startsWith(QStringLiteral("Memory the build may use: ")),
            qPrintable(pane.chart()->memoryChart()->title()));
        if (cuda) {
            QVERIFY(pane.diagnosticsList()->topLevelItemCount() >= 2);
            QTreeWidgetItem* first = nullptr;
            for (int i = 0; i < pane.diagnosticsList()->topLevelItemCount() && !first; ++i)
                if (pane.diagnosticsList()->topLevelItem(i)->text(1).endsWith(QStringLiteral("thrust_user.cpp:2:10")))
                    first = pane.diagnosticsList()->topLevelItem(i);
            QVERIFY(first);
            QVERIFY(first->text(3).contains(QStringLiteral("CCCL")));
            // Clicking a diagnostic shows its log line in the scroll-back pane.
            emit pane.diagnosticsList()->itemActivated(first, 0);
            QVERIFY(pane.logView()->scrollBackView()->isVisible());
            QVERIFY(pane.logView()->scrollBackView()->textCursor().block().text().contains(
                QStringLiteral("thrust/version.h")));
        }
        QSignalSpy refreshed(&pane, &kf::BuildPane::jobsRefreshed);
        pane.refreshJobs(); // the pane refreshed on the build's end too
        QTRY_VERIFY_WITH_TIMEOUT(refreshed.size() >= 1, 20000);
        QCOMPARE(pane.jobList()->topLevelItemCount(), 1);
        QCOMPARE(
            pane.jobList()->topLevelItem(0)->text(1), cuda ? QStringLiteral("failed") : QStringLiteral("succeeded"));
        QTest::qWait(200); // let the last batch of the log view flush before the grab
        QVERIFY(pane.grab().save(kf::test::screenshotPath(QStringLiteral("buildpane"))));
    }

    // The masked field: the value reaches this job's environment and nothing else.
    void secretEnvFieldIsMaskedAndReachesOnlyTheJob()
    {
        kf::BuildProfile p;
        p.name = QStringLiteral("secret user");
        p.workingDirectory = m_tmp.path();
        p.command = QStringLiteral("printf '%s' \"$MY_TOKEN\" > token-seen");
        QVERIFY(kf::saveUserBuildProfiles(kf::builtInBuildProfiles() << p));
        kf::AppContext ctx;
        kf::HostProfile hp;
        hp.name = QStringLiteral("this machine");
        hp.isLocal = true;
        kf::LocalHostConnection host(hp);
        host.connectToHost();
        kf::BuildPane pane(ctx, &host);
        pane.setJobRoot(m_tmp.filePath(QStringLiteral("secret-jobs")));
        pane.show();
        pane.profilePicker()->setCurrentIndex(pane.profilePicker()->findData(p.name));
        QCOMPARE(pane.secretEnvValue()->echoMode(), QLineEdit::Password);
        pane.secretEnvName()->setText(QStringLiteral("MY_TOKEN"));
        QTest::keyClicks(pane.secretEnvValue(), QStringLiteral("s3cr3t-token-value"));
        QSignalSpy finished(&pane, &kf::BuildPane::buildFinished);
        pane.findChild<QPushButton*>(QStringLiteral("startBuild"))->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        QCOMPARE(kf::test::readFile(m_tmp.filePath(QStringLiteral("token-seen"))), QByteArray("s3cr3t-token-value"));
        QVERIFY(!kf::test::readFile(kf::userBuildProfilesPath()).contains("s3cr3t"));
        QDirIterator jobs(m_tmp.filePath(QStringLiteral("secret-jobs")), QDir::Files, QDirIterator::Subdirectories);
        while (jobs.hasNext())
            QVERIFY2(!kf::test::readFile(jobs.next()).contains("s3cr3t"), qPrintable(jobs.filePath()));
    }

    void logViewKeepsUpAndCapsLines()
    {
        kf::LogView view;
        QVERIFY(view.openStore(m_tmp.filePath(QStringLiteral("big.log"))));
        view.setMaxLines(10000);
        QByteArray chunk;
        for (int i = 0; i < 50000; ++i)
            chunk += "[kf " + QByteArray::number(i) + "/50000 2 1.0] Building CXX object x" + QByteArray::number(i)
                + ".o\n";
        view.appendData(chunk);
        // The newest batch reaches the live view over a few flushes (each one within its time budget).
        QTRY_VERIFY_WITH_TIMEOUT(view.liveView()->toPlainText().endsWith(QStringLiteral("x49999.o")), 10000);
        QVERIFY(view.liveView()->blockCount() > 900);
        QVERIFY(view.liveView()->blockCount() <= 10000);
        QCOMPARE(view.store().lineCount(), 50000);
        QVERIFY(view.skippedLines() > 0);
        // The newest line is live; the oldest is only in the full log, and the view says so.
        QVERIFY(view.liveView()->toPlainText().startsWith(QStringLiteral("[kernelforge: ")));
        QCOMPARE(view.store().lines(0, 1).value(0), QByteArray("[kf 0/50000 2 1.0] Building CXX object x0.o"));
        QCOMPARE(view.store().search("object x12345.o"), QList<qint64> { 12345 });
        view.showLine(12345);
        QCOMPARE(view.scrollBackView()->textCursor().block().text(),
            QStringLiteral("[kf 12345/50000 2 1.0] Building CXX object x12345.o"));
    }
};

QTEST_MAIN(TestBuildPane)
#include "tst_buildpane.moc"
