// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issue #14, item 5: the connect dialog in the real window (real sshd). Invalid input is refused
// before anything connects; an unsaved host that fails is not left in the sidebar, and the form
// stays open with the reason and Retry (issue #38, item 2); hosts are
// edited, duplicated and removed (menu, context menu, Delete key) with confirmation.
#include "core/hosts/hostprofilestore.h"
#include "tests/support/testsupport.h"
#include "tests/support/windowdriver.h"
#include "ui/hosts/connectdialog.h"

#include <QApplication>
#include <QCheckBox>
#include <QDesktopServices>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>

using namespace kf;

namespace {

// Runs fn on the connect dialog once it is shown modally (as a person would fill it in).
void whenDialogShows(std::function<void(ConnectDialog*)> fn)
{
    auto* timer = new QTimer(qApp);
    auto waited = std::make_shared<int>(0);
    timer->setInterval(50);
    QObject::connect(timer, &QTimer::timeout, timer, [timer, waited, fn] {
        *waited += timer->interval();
        if (auto* d = qobject_cast<ConnectDialog*>(QApplication::activeModalWidget())) {
            timer->deleteLater();
            fn(d);
        } else if (*waited > 30000) {
            timer->deleteLater();
        }
    });
    timer->start();
}

QAction* menuAction(QMainWindow& w, const QString& objectName, const QString& text = {})
{
    for (QAction* a : w.menuBar()->findChildren<QAction*>()) {
        if ((!objectName.isEmpty() && a->objectName() == objectName)
            || (!text.isEmpty() && a->text().remove(QLatin1Char('&')) == text))
            return a;
    }
    return nullptr;
}

QStringList hostNames(const HostManager& hosts)
{
    QStringList out;
    for (HostConnection* h : hosts.hosts())
        out << h->profile().name;
    return out;
}

QStringList savedNames(const HostProfileStore& store)
{
    QStringList out;
    const auto loaded = store.load();
    if (loaded)
        for (const HostProfile& p : loaded->profiles)
            out << p.name;
    return out;
}

} // namespace

// Receives the URLs QDesktopServices would open (a test has no desktop).
class UrlCatcher : public QObject
{
    Q_OBJECT
public:
    QList<QUrl> urls;
public Q_SLOTS:
    void open(const QUrl& url) { urls.append(url); }
};

class TestHostsWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolateAppState(QStringLiteral("kernelforge-hostswindow")); }

    void invalidDestinationIsRefusedAndAFailedUnsavedHostIsNotKept()
    {
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        HostProfileStore store(dir.filePath(QStringLiteral("hosts.yaml")));
        test::DemoWindow dw;
        dw.ctx.profiles = &store;
        dw.open(demo);
        if (QTest::currentTestFailed())
            return;
        MainWindow& w = *dw.window;
        QAction* connectAction = menuAction(w, {}, QStringLiteral("Connect to Server…"));
        QVERIFY(connectAction);

        // Typed as a person types it: every prefix ("root@bad") is valid on the way.
        bool stillOpen = false;
        QString message;
        whenDialogShows([&](ConnectDialog* d) {
            d->findChild<QCheckBox*>(QStringLiteral("save"))->setChecked(false);
            d->destinationField()->setFocus();
            QTest::keyClicks(d->destinationField(), QStringLiteral("root@bad host:99999"));
            d->connectButton()->click();
            stillOpen = d->isVisible();
            message = d->messageLabel()->isVisible() ? d->messageLabel()->text() : QString();
            d->reject();
        });
        connectAction->trigger();
        QVERIFY2(stillOpen, "the dialog closed on an invalid destination");
        QVERIFY2(message.contains(QStringLiteral("root@bad host:99999")), qPrintable(message));
        QCOMPARE(hostNames(dw.hosts), QStringList { QStringLiteral("demo-gpu-server") });

        // A valid destination nobody answers, not saved (issue #38, item 2): the form stays open
        // with what was typed and says why, plainly, with Retry; the host is not kept.
        const quint16 closed = test::freeLocalPort();
        const QString destination = QStringLiteral("nobody@127.0.0.1:%1").arg(closed);
        QStringList failures;
        QString typedAfter;
        QString retryText;
        bool openAfterFailure = false;
        bool openConfigShown = false;
        QList<QUrl> opened;
        QTemporaryDir sshHome;
        whenDialogShows([&](ConnectDialog* d) {
            d->findChild<QCheckBox*>(QStringLiteral("save"))->setChecked(false);
            QTest::keyClicks(d->destinationField(), destination);
            QVERIFY(!d->openSshConfigButton()->isVisible()); // nothing failed yet
            connect(d, &ConnectDialog::connectFailed, d, [&, d](const QString& reason) {
                failures << d->messageLabel()->text();
                openAfterFailure = d->isVisible();
                typedAfter = d->destinationField()->text();
                retryText = d->connectButton()->text();
                if (failures.size() == 1) {
                    QVERIFY(d->grab().save(test::screenshotPath(QStringLiteral("connect-dialog-refused"))));
                    // Open config, as VS Code's Remote-SSH offers it: the ssh configuration the
                    // destination was resolved through, made 0600 when missing, in the desktop's editor.
                    openConfigShown = d->openSshConfigButton()->isVisible();
                    d->setSshHomeDir(sshHome.path());
                    UrlCatcher catcher;
                    QDesktopServices::setUrlHandler(QStringLiteral("file"), &catcher, "open");
                    d->openSshConfigButton()->click();
                    QDesktopServices::unsetUrlHandler(QStringLiteral("file"));
                    opened = catcher.urls;
                    d->connectButton()->click(); // Retry: the same answer, the form still open
                } else {
                    Q_UNUSED(reason);
                    d->reject();
                }
            });
            d->connectButton()->click();
        });
        connectAction->trigger(); // returns once the dialog is closed (Cancel after the retry)
        QCOMPARE(failures.size(), 2);
        QVERIFY(openAfterFailure);
        QCOMPARE(typedAfter, destination);
        QCOMPARE(retryText.remove(QLatin1Char('&')), QStringLiteral("Retry"));
        QVERIFY(openConfigShown);
        const QString config = sshHome.filePath(QStringLiteral(".ssh/config"));
        QCOMPARE(opened, QList<QUrl> { QUrl::fromLocalFile(config) });
        QCOMPARE(
            QFileInfo(config).permissions(), QFile::ReadOwner | QFile::WriteOwner | QFile::ReadUser | QFile::WriteUser);
        for (const QString& text : std::as_const(failures)) {
            QVERIFY2(text.contains(QStringLiteral("Could not connect to ") + destination), qPrintable(text));
            QVERIFY2(text.contains(QStringLiteral("refused")), qPrintable(text));
        }
        QTRY_COMPARE_WITH_TIMEOUT(hostNames(dw.hosts), QStringList { QStringLiteral("demo-gpu-server") }, 30000);
        QVERIFY(savedNames(store).isEmpty());
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("Could not connect")),
            qPrintable(w.statusBar()->currentMessage()));
        // Nothing typed is lost: the next dialog starts from it.
        QString prefilled;
        whenDialogShows([&](ConnectDialog* d) {
            prefilled = d->destinationField()->text();
            d->reject();
        });
        connectAction->trigger();
        QCOMPARE(prefilled, destination);
    }

    void hostsAreEditedDuplicatedAndRemoved()
    {
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        HostProfileStore store(dir.filePath(QStringLiteral("hosts.yaml")));
        HostProfile saved = demo.profile(QStringLiteral("lab"));
        saved.isDemo = false;
        QVERIFY(store.upsert(saved).ok());
        test::DemoWindow dw;
        dw.ctx.profiles = &store;
        dw.open(demo);
        if (QTest::currentTestFailed())
            return;
        MainWindow& w = *dw.window;
        QVERIFY(dw.hosts.add(saved));
        w.selectHost(QStringLiteral("lab"));

        // The sidebar's context menu holds the host's actions.
        QStringList contextTexts;
        for (QAction* a : w.hostList()->actions())
            contextTexts << a->text().remove(QLatin1Char('&'));
        QCOMPARE(contextTexts,
            (QStringList {
                QStringLiteral("Edit Host…"), QStringLiteral("Duplicate Host…"), QStringLiteral("Remove Host…") }));

        // Edit: rename; the saved entry follows, and the host connects under its new name.
        whenDialogShows([&](ConnectDialog* d) {
            QVERIFY(d->findChild<QCheckBox*>(QStringLiteral("save"))->isChecked());
            auto* name = d->findChild<QLineEdit*>(QStringLiteral("name"));
            name->setText(QStringLiteral("lab-renamed"));
            d->connectButton()->click();
        });
        menuAction(w, QStringLiteral("editHost"))->trigger();
        QCOMPARE(savedNames(store), QStringList { QStringLiteral("lab-renamed") });
        QVERIFY(!hostNames(dw.hosts).contains(QStringLiteral("lab")));
        QVERIFY(hostNames(dw.hosts).contains(QStringLiteral("lab-renamed")));
        QCOMPARE(w.currentHost()->profile().name, QStringLiteral("lab-renamed"));
        QTRY_VERIFY_WITH_TIMEOUT(w.currentHost()->state() == ConnectionState::Ready, 30000);

        // Duplicate: a second saved host from the first.
        whenDialogShows([&](ConnectDialog* d) {
            auto* name = d->findChild<QLineEdit*>(QStringLiteral("name"));
            QCOMPARE(name->text(), QStringLiteral("lab-renamed (copy)"));
            d->findChild<QCheckBox*>(QStringLiteral("save"))->setChecked(true);
            d->connectButton()->click();
        });
        menuAction(w, QStringLiteral("duplicateHost"))->trigger();
        QCOMPARE(
            savedNames(store), (QStringList { QStringLiteral("lab-renamed"), QStringLiteral("lab-renamed (copy)") }));
        QCOMPARE(w.currentHost()->profile().name, QStringLiteral("lab-renamed (copy)"));

        // Delete in the sidebar asks; No keeps it.
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.hostList()->setFocus();
        QTRY_VERIFY(w.hostList()->hasFocus());
        QString question;
        test::answerNextQuestion(QMessageBox::No, &question);
        QTest::keyClick(w.hostList(), Qt::Key_Delete);
        QVERIFY2(question.contains(QStringLiteral("lab-renamed (copy)")), qPrintable(question));
        QCOMPARE(savedNames(store).size(), 2);
        // Yes removes it from the sidebar and from hosts.yaml.
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.hostList()->setFocus();
        QTRY_VERIFY(w.hostList()->hasFocus());
        test::answerNextQuestion(QMessageBox::Yes);
        QTest::keyClick(w.hostList(), Qt::Key_Delete);
        QCOMPARE(savedNames(store), QStringList { QStringLiteral("lab-renamed") });
        QVERIFY(!hostNames(dw.hosts).contains(QStringLiteral("lab-renamed (copy)")));

        // The demo session is not saved: removable too, from the menu.
        w.selectHost(QStringLiteral("demo-gpu-server"));
        test::answerNextQuestion(QMessageBox::Yes);
        menuAction(w, QStringLiteral("removeHost"))->trigger();
        QCOMPARE(hostNames(dw.hosts), QStringList { QStringLiteral("lab-renamed") });
        QCOMPARE(savedNames(store), QStringList { QStringLiteral("lab-renamed") });
    }
};

QTEST_MAIN(TestHostsWindow)
#include "tst_hostswindow.moc"
