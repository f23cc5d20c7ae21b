// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issue #20, first run: the real window offscreen on the real sshd. The first screen (no server
// yet) offers "Add a server" (the connect dialog) and "Try the demo server" (which connects it);
// "Set up key login" in the connect dialog installs a key over a password login and the form
// then uses it; hosts connected when a window closed are connected again by the next window,
// with the same host and tab selected (unless the setting is off).
#include "core/demo/demostart.h"
#include "core/hosts/hostmanager.h"
#include "core/ssh/sshhostconnection.h"
#include "core/ssh/sshtransport.h"
#include "tests/support/scriptedinteraction.h"
#include "tests/support/testsupport.h"
#include "tests/support/windowdriver.h"
#include "ui/hosts/connectdialog.h"
#include "ui/mainwindow.h"

#include <QApplication>
#include <QLabel>
#include <QListView>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

using namespace kf;

namespace {

// Runs fn on the next modal widget of type T once it shows (as a person would answer it).
template <typename T> void whenModalShows(std::function<void(T*)> fn)
{
    auto* timer = new QTimer(qApp);
    auto waited = std::make_shared<int>(0);
    timer->setInterval(50);
    QObject::connect(timer, &QTimer::timeout, timer, [timer, waited, fn] {
        *waited += timer->interval();
        if (auto* w = qobject_cast<T*>(QApplication::activeModalWidget())) {
            timer->deleteLater();
            fn(w);
        } else if (*waited > 30000) {
            timer->deleteLater();
        }
    });
    timer->start();
}

HostProfile thisMachine()
{
    HostProfile local;
    local.name = QStringLiteral("This machine");
    local.isLocal = true;
    return local;
}

} // namespace

class TestFirstRun : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        qunsetenv("SSH_AUTH_SOCK");
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("kernelforge-test"));
        QApplication::setApplicationName(QStringLiteral("kernelforge-firstrun"));
    }
    void init() { QSettings().clear(); }
    void cleanupTestCase() { test::removeSystemUser(QStringLiteral("kfuikey")); }

    void firstScreenLeadsToAServerOrTheDemo()
    {
        DemoHost demo; // not started: "Try the demo server" starts it
        HostManager hosts;
        hosts.setFactory(SshHostConnection::factory(nullptr));
        hosts.add(thisMachine())->connectToHost();
        AppContext ctx;
        ctx.hosts = &hosts;
        ctx.demo = &demo;
        auto window = std::make_unique<MainWindow>(ctx);
        window->resize(1440, 900);
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));

        // Nothing but this machine: nothing is selected and the Overview says how to go on.
        QCOMPARE(window->currentHost(), nullptr);
        QCOMPARE(window->tabs()->currentWidget(), window->tab(MainWindow::Tab::Overview));
        auto* add = test::shown<QPushButton>(window.get(), QStringLiteral("addServer"));
        auto* tryDemo = test::shown<QPushButton>(window.get(), QStringLiteral("tryDemo"));
        QVERIFY(add && tryDemo);
        QVERIFY(window->grab().save(test::screenshotPath(QStringLiteral("firstrun_first_screen"))));

        bool dialogShown = false;
        whenModalShows<ConnectDialog>([&](ConnectDialog* d) {
            dialogShown = d->isVisible() && d->importButton()->isVisible() && d->installKeyButton()->isVisible();
            d->reject();
        });
        QTest::mouseClick(add, Qt::LeftButton);
        QVERIFY(dialogShown);

        QTest::mouseClick(tryDemo, Qt::LeftButton);
        HostConnection* h = hosts.find(kDemoHostName);
        QVERIFY(h);
        QTRY_VERIFY2_WITH_TIMEOUT(h->state() == ConnectionState::Ready, qPrintable(h->stateReason()), 30000);
        QCOMPARE(window->currentHost(), h);
        QVERIFY(demo.isRunning());
        window.reset();
        for (HostConnection* c : hosts.hosts())
            c->disconnectFromHost();
    }

    void keyInstallFromTheConnectDialog()
    {
        if (!test::isRoot())
            QSKIP("a password-only user needs root");
        const QString user = QStringLiteral("kfuikey");
        QCOMPARE(test::ensureSystemUser(user, QStringLiteral("/bin/sh")), QString());
        DemoHost::Options opts;
        opts.user = user;
        KF_START_DEMO_HOST(demo, opts);
        QVERIFY(demo.addPasswordUser(user, QStringLiteral("once only 99")).ok());
        QTemporaryDir dir;
        const QString keyPath = dir.path() + QStringLiteral("/kernelforge_ed25519");

        test::ScriptedInteraction ui;
        ui.answers = { "once only 99" };
        ConnectDialog dialog(nullptr);
        dialog.setInteraction(&ui);
        dialog.setKeyPath(keyPath);
        HostProfile p = demo.profile(QStringLiteral("pw-box"));
        p.identityFiles = {};
        p.isDemo = false;
        dialog.setProfile(p);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QVERIFY(!dialog.forgetButton()->isVisible()); // no keychain here

        QString choice;
        whenModalShows<QMessageBox>([&](QMessageBox* box) {
            choice = box->text();
            QVERIFY(QTest::qWaitForWindowExposed(box));
            box->grab().save(test::screenshotPath(QStringLiteral("firstrun_key_install_choice")));
            box->findChild<QPushButton*>(QStringLiteral("viaPassword"))->click();
        });
        QSignalSpy finished(&dialog, &ConnectDialog::keyInstallFinished);
        QTest::mouseClick(dialog.installKeyButton(), Qt::LeftButton);
        QVERIFY2(choice.contains(keyPath), qPrintable(choice));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
        QCOMPARE(ui.asked.size(), 1);
        QCOMPARE(ui.asked.first().kind, SecretRequest::Kind::Password);
        const QString message = dialog.messageLabel()->text();
        QVERIFY2(message.contains(QLatin1String("This host now logs in with")), qPrintable(message));
        QCOMPARE(dialog.profile().identityFiles, QStringList { keyPath });
        QVERIFY(dialog.grab().save(test::screenshotPath(QStringLiteral("firstrun_key_installed"))));

        // The profile the dialog gives now logs in with the key alone.
        auto t = SshTransport::connect(dialog.profile());
        QVERIFY2(t.ok(), qPrintable(t.error()));
    }

    void reopensConnectedHostsAndTheTab()
    {
        KF_START_DEMO_HOST(demo);
        HostProfile p = demo.profile(QStringLiteral("gpu-box")); // a saved server, not the demo
        p.isDemo = false;
        HostProfile idle = demo.profile(QStringLiteral("idle-box"));
        idle.isDemo = false;
        auto session = [&](bool expectReconnect, HostManager& hosts) {
            hosts.setFactory(SshHostConnection::factory(nullptr));
            HostConnection* h = hosts.add(p);
            HostConnection* other = hosts.add(idle);
            AppContext ctx;
            ctx.hosts = &hosts;
            QSignalSpy hChanged(h, &HostConnection::stateChanged);
            QSignalSpy otherChanged(other, &HostConnection::stateChanged);
            auto window = std::make_unique<MainWindow>(ctx);
            window->show();
            QVERIFY(QTest::qWaitForWindowExposed(window.get()));
            QCOMPARE(window->currentHost(), h);
            QCOMPARE(window->tabs()->currentWidget(), window->tab(MainWindow::Tab::Gpus));
            // The one that was not connected is connected by hand now, after the window began
            // whatever reconnects it does: once it is Ready, a reconnect started before it
            // has long said Connecting.
            HostConnection* probe = expectReconnect ? h : other;
            if (!expectReconnect)
                other->connectToHost();
            QTRY_VERIFY2_WITH_TIMEOUT(
                probe->state() == ConnectionState::Ready, qPrintable(probe->stateReason()), 30000);
            if (expectReconnect)
                QCOMPARE(otherChanged.size(), 0); // it was not connected when the window closed
            else
                QCOMPARE(hChanged.size(), 0); // the setting is off
            if (!expectReconnect)
                other->disconnectFromHost(); // not connected at the close, as before
            window->close();
            window.reset();
            for (HostConnection* c : hosts.hosts())
                c->disconnectFromHost();
        };

        {
            HostManager hosts;
            hosts.setFactory(SshHostConnection::factory(nullptr));
            HostConnection* h = hosts.add(p);
            hosts.add(idle);
            h->connectToHost();
            QTRY_VERIFY2_WITH_TIMEOUT(h->state() == ConnectionState::Ready, qPrintable(h->stateReason()), 30000);
            AppContext ctx;
            ctx.hosts = &hosts;
            MainWindow window(ctx);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.selectHost(p.name);
            window.showTab(MainWindow::Tab::Gpus);
            window.close();
            h->disconnectFromHost();
        }
        QVERIFY(MainWindow::reconnectOnStart()); // the default
        {
            HostManager hosts;
            session(true, hosts);
        }
        if (QTest::currentTestFailed())
            return;
        MainWindow::setReconnectOnStart(false);
        {
            HostManager hosts;
            session(false, hosts);
        }
    }
};

QTEST_MAIN(TestFirstRun)
#include "tst_firstrun.moc"
