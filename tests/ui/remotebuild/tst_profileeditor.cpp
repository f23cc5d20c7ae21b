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
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextLayout>
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
            QVERIFY2(message.contains(QStringLiteral(".yaml:5: ")), qPrintable(message));
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

    // Issue #38 (item 6): the editor took one profile only, had no way to add one, and a long
    // command wrapped to column 0 where it read as mis-indented YAML.
    void severalProfilesANewOneAndLongLinesKeepTheirIndent()
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

        // Two profiles are accepted; New profile adds a third, well formed, with a free name.
        bool twoAccepted = false;
        bool newButton = false;
        QList<BuildProfile> written;
        whenEditorShows([&](QDialog* d) {
            auto* text = d->findChild<QPlainTextEdit*>();
            text->setPlainText(QStringLiteral("profiles:\n  - name: first\n    working_dir: ~/a\n    command: make\n"
                                              "  - name: second\n    working_dir: ~/b\n    command: make all\n"));
            twoAccepted = button(d, QStringLiteral("Save"))->isEnabled();
            auto* add = d->findChild<QPushButton*>(QStringLiteral("newProfile"));
            newButton = add != nullptr;
            if (!add)
                return;
            add->click();
            written = parseBuildProfiles(text->toPlainText().toUtf8()).profiles;
            if (button(d, QStringLiteral("Save"))->isEnabled())
                button(d, QStringLiteral("Save"))->click();
        });
        edit->click();
        QVERIFY(twoAccepted);
        QVERIFY(newButton);
        QCOMPARE(written.size(), 3);
        QCOMPARE(written[2].name, QStringLiteral("new-profile"));
        QCOMPARE(written[2].workingDirectory, QStringLiteral("~/a"));
        QVERIFY(!checkBuildProfile(written[2]));
        auto loaded = loadBuildProfiles();
        QVERIFY2(loaded, qPrintable(loaded.error()));
        for (const QString& name :
            { QStringLiteral("first"), QStringLiteral("second"), QStringLiteral("new-profile") }) {
            QVERIFY2(findBuildProfile(*loaded, name), qPrintable(name));
            QVERIFY2(pane->profilePicker()->findData(name) >= 0, qPrintable(name));
        }
        QVERIFY2(
            summary->text().contains(QStringLiteral("Saved first, second, new-profile")), qPrintable(summary->text()));
        QCOMPARE(pane->profilePicker()->currentData().toString(), QStringLiteral("first"));

        // New profile again: the next free name.
        QString nextName;
        whenEditorShows([&](QDialog* d) {
            auto* add = d->findChild<QPushButton*>(QStringLiteral("newProfile"));
            add->click();
            const auto again = parseBuildProfiles(d->findChild<QPlainTextEdit*>()->toPlainText().toUtf8()).profiles;
            nextName = again.size() == 2 ? again[1].name : QString();
        });
        edit->click();
        QCOMPARE(nextName, QStringLiteral("new-profile-2"));

        // A long command stays on its line, after its indent: the text scrolls sideways.
        const QString longCommand
            = QStringLiteral("python3 -m pip install --no-build-isolation -v . ").repeated(8).trimmed();
        int commandLines = 0;
        int scrollRange = 0;
        whenEditorShows([&](QDialog* d) {
            auto* text = d->findChild<QPlainTextEdit*>();
            text->setPlainText(
                QString::fromUtf8(profileYaml(QStringLiteral("first"), QString()))
                    .replace(QStringLiteral("command: make"), QStringLiteral("command: ") + longCommand));
            d->grab(); // laid out and drawn as shown
            for (QTextBlock b = text->document()->begin(); b.isValid(); b = b.next())
                if (b.text().trimmed().startsWith(QLatin1String("command:")))
                    commandLines = b.layout()->lineCount();
            scrollRange = text->horizontalScrollBar()->maximum();
            d->grab().save(test::screenshotPath(QStringLiteral("profileeditor-long-command")));
        });
        edit->click();
        QCOMPARE(commandLines, 1);
        QVERIFY(scrollRange > 0);
    }
};

QTEST_MAIN(TestProfileEditor)
#include "tst_profileeditor.moc"
