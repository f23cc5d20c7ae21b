// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issue #14, item 7: the build profile editor in the real window (Build tab of the demo host,
// a real sshd). Every field is checked as typed, with the message and its YAML line; only a
// valid profile is saved, and "Saved" is said only after it was; profiles are renamed and deleted.
#include "core/remotebuild/buildprofile.h"
#include "core/store/database.h"
#include "tests/support/testsupport.h"
#include "tests/support/windowdriver.h"
#include "ui/remotebuild/buildpane.h"

#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>

using namespace kf;
using test::shown;
using test::showTab;

namespace {

// Runs fn on the profile editor once it is shown modally, then closes it if fn did not.
void whenEditorShows(std::function<void(QDialog*)> fn)
{
    auto* timer = new QTimer(qApp);
    auto waited = std::make_shared<int>(0);
    timer->setInterval(50);
    QObject::connect(timer, &QTimer::timeout, timer, [timer, waited, fn] {
        *waited += timer->interval();
        auto* d = qobject_cast<QDialog*>(QApplication::activeModalWidget());
        if (d && d->findChild<QPlainTextEdit*>()) {
            timer->deleteLater();
            fn(d);
            if (d->isVisible())
                d->reject();
        } else if (*waited > 30000) {
            timer->deleteLater();
        }
    });
    timer->start();
}

QPushButton* button(QWidget* root, const QString& text)
{
    for (QPushButton* b : root->findChildren<QPushButton*>())
        if (b->text().remove(QLatin1Char('&')) == text)
            return b;
    return nullptr;
}

QByteArray profileYaml(const QString& name, const QString& extra)
{
    return QStringLiteral("profiles:\n  - name: %1\n    working_dir: ~/proj\n    command: make\n%2")
        .arg(name, extra)
        .toUtf8();
}

} // namespace

class TestProfileEditor : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;

private Q_SLOTS:
    void initTestCase()
    {
        // The user's build profiles file is this test's own (other tests run at the same time).
        qputenv("HOME", m_tmp.path().toLocal8Bit());
        test::isolateAppState(QStringLiteral("kernelforge-profileeditor"), m_tmp.path());
        QFile::remove(userBuildProfilesPath());
    }

    void everyFieldIsCheckedOnlyValidProfilesAreSavedRenameAndDelete()
    {
        KF_START_DEMO_HOST(demo);
        test::DemoWindow dw;
        dw.open(demo);
        if (QTest::currentTestFailed())
            return;
        auto* pane = shown<BuildPane>(showTab(dw.window->tabs(), QStringLiteral("Build")));
        QVERIFY(pane);
        QPushButton* edit = button(pane, QStringLiteral("Edit…"));
        QVERIFY(edit);
        auto* summary = pane->findChild<QLabel*>(QStringLiteral("buildSummary"));
        QVERIFY(summary);

        // Each bad field: the dialog stays, names the field and its line, and nothing is written.
        // (The extra field is on line 5.)
        const QStringList bad { QStringLiteral("    max_jobs: lots\n"), QStringLiteral("    nvcc_threads: -3\n"),
            QStringLiteral("    max_job: 4\n"), QStringLiteral("    env: {1BAD: x}\n"),
            QStringLiteral("    demo: maybe\n") };
        for (const QString& extra : bad) {
            bool stayed = false;
            QString message;
            whenEditorShows([&](QDialog* d) {
                d->findChild<QPlainTextEdit*>()->setPlainText(
                    QString::fromUtf8(profileYaml(QStringLiteral("mine"), extra)));
                if (QPushButton* save = button(d, QStringLiteral("Save")))
                    save->click();
                stayed = d->isVisible();
                auto* error = d->findChild<QLabel*>(QStringLiteral("profileError"));
                message = error && error->isVisible() ? error->text() : QString();
            });
            edit->click();
            QVERIFY2(stayed, qPrintable(extra));
            const QString key = extra.trimmed().section(QLatin1Char(':'), 0, 0);
            QVERIFY2(message.contains(QStringLiteral("line 5")), qPrintable(message));
            QVERIFY2(message.contains(key.startsWith(QLatin1String("env")) ? QStringLiteral("1BAD") : key),
                qPrintable(message));
            QVERIFY2(!QFile::exists(userBuildProfilesPath()), qPrintable(extra));
            QVERIFY2(!summary->text().contains(QStringLiteral("Saved")), qPrintable(summary->text()));
        }

        // A valid one is saved, and only then is it said.
        whenEditorShows([&](QDialog* d) {
            d->findChild<QPlainTextEdit*>()->setPlainText(
                QString::fromUtf8(profileYaml(QStringLiteral("mine"), QStringLiteral("    max_jobs: 4\n"))));
            button(d, QStringLiteral("Save"))->click();
        });
        edit->click();
        QVERIFY2(summary->text().contains(QStringLiteral("Saved mine")), qPrintable(summary->text()));
        auto loaded = loadBuildProfiles();
        QVERIFY(loaded);
        QCOMPARE(findBuildProfile(*loaded, QStringLiteral("mine"))->maxJobs, 4);
        QCOMPARE(pane->profilePicker()->currentData().toString(), QStringLiteral("mine"));

        // Rename: the profile is replaced, not copied.
        whenEditorShows([&](QDialog* d) {
            auto* text = d->findChild<QPlainTextEdit*>();
            text->setPlainText(text->toPlainText().replace(QStringLiteral("name: mine"), QStringLiteral("name: ours")));
            button(d, QStringLiteral("Save"))->click();
        });
        edit->click();
        loaded = loadBuildProfiles();
        QVERIFY(loaded);
        QVERIFY(!findBuildProfile(*loaded, QStringLiteral("mine")));
        QCOMPARE(findBuildProfile(*loaded, QStringLiteral("ours"))->maxJobs, 4);
        QCOMPARE(pane->profilePicker()->currentData().toString(), QStringLiteral("ours"));

        // Delete asks, then removes it from the file and the picker.
        QString question;
        whenEditorShows([&](QDialog* d) {
            QPushButton* del = button(d, QStringLiteral("Delete"));
            QVERIFY(del);
            test::answerNextQuestion(QMessageBox::Yes, &question);
            del->click();
        });
        edit->click();
        QVERIFY2(question.contains(QStringLiteral("ours")), qPrintable(question));
        loaded = loadBuildProfiles();
        QVERIFY(loaded);
        QVERIFY(!findBuildProfile(*loaded, QStringLiteral("ours")));
        QCOMPARE(pane->profilePicker()->findData(QStringLiteral("ours")), -1);
    }
};

QTEST_MAIN(TestProfileEditor)
#include "tst_profileeditor.moc"
