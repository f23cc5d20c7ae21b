// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issue #14, item 6: a build that fails, in the real window on the demo host (a real sshd).
// Starting over a failed preflight check asks first and offers the fix; a failed build shows
// in red with its exit status and first error, stops its ETA, opens Diagnostics (rows readable
// in full), lists its job as "failed"; the comparison with the previous run is honest.
#include "core/remotebuild/buildprofile.h"
#include "core/store/database.h"
#include "tests/support/testsupport.h"
#include "tests/support/windowdriver.h"
#include "ui/remotebuild/buildpane.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QtTest>

#include <cmath>

using namespace kf;
using test::shown;
using test::showTab;

namespace {

BuildProfile profile(const QString& name, const QString& dir, const QString& command)
{
    BuildProfile p;
    p.name = name;
    p.workingDirectory = dir;
    p.command = command;
    return p;
}

QString jobState(QTreeWidget* jobs, const QString& id)
{
    for (int i = 0; i < jobs->topLevelItemCount(); ++i)
        if (jobs->topLevelItem(i)->text(0) == id)
            return jobs->topLevelItem(i)->text(1);
    return QString();
}

// WCAG 2 relative luminance and contrast ratio.
double luminance(QRgb c)
{
    auto lin = [](int v) {
        const double s = v / 255.0;
        return s <= 0.03928 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * lin(qRed(c)) + 0.7152 * lin(qGreen(c)) + 0.0722 * lin(qBlue(c));
}

double contrast(QRgb a, QRgb b)
{
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// The bar drawn with and without its text: the pixels that differ are text, the other image
// has what is under them. For each colour under the text (the chunk, the groove), the text's
// strongest pixel against it: the worst of these is what a reader gets.
double worstTextContrast(QProgressBar* bar)
{
    bar->setTextVisible(false);
    const QImage under = bar->grab().toImage().convertToFormat(QImage::Format_RGB32);
    bar->setTextVisible(true);
    const QImage drawn = bar->grab().toImage().convertToFormat(QImage::Format_RGB32);
    QMap<QRgb, QPair<int, double>> byBackground; // text pixels over it, their best contrast
    for (int y = 0; y < drawn.height(); ++y)
        for (int x = 0; x < drawn.width(); ++x) {
            const QRgb bg = under.pixel(x, y);
            const QRgb fg = drawn.pixel(x, y);
            if (bg == fg)
                continue;
            auto& [count, best] = byBackground[bg];
            ++count;
            best = std::max(best, contrast(fg, bg));
        }
    double worst = byBackground.isEmpty() ? 0 : 21;
    for (const auto& [count, best] : std::as_const(byBackground))
        if (count >= 20) // a colour the text really crosses, not an edge pixel
            worst = std::min(worst, best);
    return worst;
}

} // namespace

class TestBuildFailure : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;

private Q_SLOTS:
    void initTestCase()
    {
        // The user's build profiles file is this test's own (other tests run at the same time).
        qputenv("HOME", m_tmp.path().toLocal8Bit());
        test::isolateAppState(QStringLiteral("kernelforge-buildfailure"), m_tmp.path());
        // Two steps of four, then a compiler error and exit status 3.
        const QString failing = QStringLiteral(
            R"(printf '[kf 1/4 1 0.500] CXX a.o\n[kf 2/4 1 0.900] CXX kernel.o\n'; )"
            R"(echo 'kernel.cu:3:5: error: identifier "boom" is undefined in this deliberately long message )"
            R"(that does not fit any column of the diagnostics list'; exit 3)");
        QVERIFY(saveUserBuildProfiles(
            { profile(QStringLiteral("nowhere"), QStringLiteral("~/no-such-project"), QStringLiteral("true")),
                profile(QStringLiteral("broken"), QStringLiteral("~"), failing) })
                    .ok());
    }

    void cleanupTestCase() { QFile::remove(userBuildProfilesPath()); }

    void failedPreflightAsksAndAFailedBuildSaysSo()
    {
        KF_START_DEMO_HOST(demo);
        test::DemoWindow dw;
        dw.open(demo);
        if (QTest::currentTestFailed())
            return;
        auto* pane = shown<BuildPane>(showTab(dw.window->tabs(), QStringLiteral("Build")));
        QVERIFY(pane);
        auto* start = pane->findChild<QPushButton*>(QStringLiteral("startBuild"));
        auto* summary = pane->findChild<QLabel*>(QStringLiteral("buildSummary"));
        auto* side = pane->findChild<QTabWidget*>(QStringLiteral("buildTabs"));
        auto* bar = pane->findChild<QProgressBar*>();
        QVERIFY(start && summary && side && bar);

        // Preflight fails (no working directory); Start asks, with the fix, and "Fix first" starts nothing.
        pane->profilePicker()->setCurrentIndex(pane->profilePicker()->findData(QStringLiteral("nowhere")));
        QSignalSpy preflight(pane, &BuildPane::preflightDone);
        pane->runPreflight();
        QTRY_COMPARE_WITH_TIMEOUT(preflight.size(), 1, 30000);
        QCOMPARE(preflight.first().first().toInt(), 1);
        // Start runs preflight again (issue #30 item 7: the server may have changed) and asks then.
        QString question;
        test::answerNextQuestion(QMessageBox::No, &question, 60000);
        start->click();
        QTRY_VERIFY2_WITH_TIMEOUT(!question.isEmpty(), "Start did not ask", 60000);
        QCOMPARE(preflight.size(), 2);
        QVERIFY2(question.contains(QStringLiteral("workdir"))
                && question.contains(QStringLiteral("clone the project there or fix working_dir")),
            qPrintable(question));
        QTRY_COMPARE_WITH_TIMEOUT(side->tabText(side->currentIndex()), QStringLiteral("Preflight"), 10000);
        QVERIFY(!pane->session());

        // A build that fails: red, exit status, first error, no ETA, Diagnostics open.
        pane->profilePicker()->setCurrentIndex(pane->profilePicker()->findData(QStringLiteral("broken")));
        QSignalSpy finished(pane, &BuildPane::buildFinished);
        start->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
        const auto info = finished.first().first().value<JobInfo>();
        const QString text = summary->text();
        QVERIFY2(text.contains(QStringLiteral("failed (exit status 3)")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Root cause: kernel.cu:3:5: identifier \"boom\" is undefined")),
            qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("ETA")) && !text.contains(QStringLiteral("running")), qPrintable(text));
        QVERIFY2(summary->property("failed").toBool(), "the summary is not shown as a failure");
        QVERIFY2(!bar->styleSheet().isEmpty(), "the bar is not shown as a failure");
        // Issue #38 (item 8): its text is readable on every colour it crosses (WCAG AA, 4.5:1).
        const double contrast = worstTextContrast(bar);
        QVERIFY2(contrast >= 4.5, qPrintable(QStringLiteral("contrast %1 : 1").arg(contrast)));
        QCOMPARE(side->tabText(side->currentIndex()), QStringLiteral("Diagnostics"));
        auto* detail = shown<QTextBrowser>(side, QStringLiteral("diagnosticDetail"));
        QVERIFY(detail);
        QVERIFY2(detail->toPlainText().contains(QStringLiteral("does not fit any column of the diagnostics list")),
            qPrintable(detail->toPlainText()));
        // The Jobs list is refreshed and says "failed".
        QTRY_COMPARE_WITH_TIMEOUT(jobState(pane->jobList(), info.id), QStringLiteral("failed"), 30000);

        // Again: the comparison with the first run never claims "0/0 now".
        auto* compare = pane->findChild<QLabel*>(QStringLiteral("buildCompare"));
        QVERIFY(compare);
        start->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 30000);
        QVERIFY2(!compare->text().contains(QStringLiteral("0/0")), qPrintable(compare->text()));
        QVERIFY2(compare->text().contains(QStringLiteral("2/4 steps then, 2/4 now")), qPrintable(compare->text()));

        const bool saved = pane->grab().save(test::screenshotPath(QStringLiteral("build-failed")));
        QVERIFY(saved);
    }
};

QTEST_MAIN(TestBuildFailure)
#include "tst_buildfailure.moc"
