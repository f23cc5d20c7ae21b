// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issue #14, item 8: the GPU and server panes of the real window (on the demo host, a real
// sshd) when there is nothing current to show. After Disconnect the GPU cards are grey and
// say how old they are; a host without nvidia-smi says it has no NVIDIA driver; no server on
// the port says so plainly (not "Channel open failure"); and the server charts break where
// there was no server instead of drawing a line across.
#include "core/store/database.h"
#include "tests/support/testsupport.h"
#include "tests/support/windowdriver.h"
#include "ui/fleet/fleetview.h"
#include "ui/gpu/gpucard.h"
#include "ui/gpu/gpupane.h"
#include "ui/server/serverpane.h"

#include <QApplication>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace kf;
using test::shown;
using test::showTab;

namespace {

// The visible label whose text contains `words`, or null.
QLabel* labelSaying(const QWidget* root, const QString& words)
{
    for (QLabel* l : root->findChildren<QLabel*>())
        if (l->isVisible() && l->text().contains(words))
            return l;
    return nullptr;
}

// Pixels of the window's picture of `widget` with a clear colour (not a shade of grey).
int colouredPixels(QWidget* window, QWidget* widget)
{
    const QImage image = window->grab(QRect(widget->mapTo(window, QPoint(0, 0)), widget->size())).toImage();
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            n += c.hsvSaturation() > 60 && c.value() > 60;
        }
    return n;
}

int finiteAfterLastGap(const QList<QPointF>& points, bool* sawGapBetweenData)
{
    int before = 0;
    int after = 0;
    bool gap = false;
    for (const QPointF& p : points) {
        if (std::isnan(p.y())) {
            gap = before > 0;
            after = 0;
        } else if (gap) {
            ++after;
        } else {
            ++before;
        }
    }
    *sawGapBetweenData = gap && before > 0;
    return after;
}

} // namespace

class TestNothingToShowWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolateAppState(QStringLiteral("kernelforge-nothingtoshow"), m_db.path()); }

    void disconnectedGpuCardsAreGreyAndDated()
    {
        KF_START_DEMO_HOST(demo);
        test::DemoWindow dw;
        dw.open(demo);
        if (QTest::currentTestFailed())
            return;
        MainWindow& w = *dw.window;
        QWidget* tab = showTab(w.tabs(), QStringLiteral("GPUs"));
        QTRY_COMPARE_WITH_TIMEOUT(shown<GpuPane>(tab)->cardCount(), 8, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(shown<GpuCard>(tab, QStringLiteral("gpuCard0")) != nullptr, 10000);
        GpuCard* card = shown<GpuCard>(tab, QStringLiteral("gpuCard0"));
        QTRY_VERIFY_WITH_TIMEOUT(colouredPixels(&w, card) > 0, 30000); // live: the sparkline is drawn in colour

        for (QAction* menu : w.menuBar()->actions())
            if (menu->text() == QStringLiteral("&Hosts"))
                for (QAction* a : menu->menu()->actions())
                    if (a->text() == QStringLiteral("&Disconnect"))
                        a->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(dw.host->state() == ConnectionState::Disconnected, 10000);
        const QRegularExpression age(QStringLiteral("stale, (\\d+) s old"));
        QLabel* title = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((title = labelSaying(card, QStringLiteral("stale, "))) != nullptr, 10000);
        QVERIFY2(age.match(title->text()).hasMatch(), qPrintable(title->text()));
        const int firstAge = age.match(title->text()).captured(1).toInt();
        QTRY_VERIFY_WITH_TIMEOUT(age.match(title->text()).captured(1).toInt() >= firstAge + 2, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(colouredPixels(&w, card), 0, 5000);
        QVERIFY(labelSaying(tab, QStringLiteral("the cards show the last samples")));
        QVERIFY(w.grab().save(test::screenshotPath(QStringLiteral("nothing-gpus-disconnected"))));

        // Connected again: the cards are live and coloured again.
        dw.host->connectToHost();
        QTRY_VERIFY_WITH_TIMEOUT(labelSaying(card, QStringLiteral("stale")) == nullptr, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(colouredPixels(&w, card) > 0, 10000);
    }

    void hostWithoutNvidiaSmiSaysNoDriver()
    {
        KF_START_DEMO_HOST(demo);
        if (!QStandardPaths::findExecutable(QStringLiteral("nvidia-smi")).isEmpty())
            QSKIP("this machine has nvidia-smi: the demo host cannot be without it");
        QVERIFY(QFile::remove(demo.binDir() + QStringLiteral("/nvidia-smi")));
        test::DemoWindow dw;
        dw.open(demo);
        if (QTest::currentTestFailed())
            return;
        QWidget* tab = showTab(dw.window->tabs(), QStringLiteral("GPUs"));
        QTRY_VERIFY_WITH_TIMEOUT(labelSaying(tab, QStringLiteral("No NVIDIA driver found on this host")), 60000);
        QCOMPARE(shown<GpuPane>(tab)->cardCount(), 0);
        QVERIFY(dw.window->grab().save(test::screenshotPath(QStringLiteral("nothing-gpus-nodriver"))));
        // The fleet tile says the same.
        auto* fleet = shown<FleetView>(showTab(dw.window->tabs(), QStringLiteral("Fleet")));
        QVERIFY(fleet);
        // Tiles are updated at most every 250 ms (coalesced).
        QTRY_VERIFY2_WITH_TIMEOUT(
            fleet->tileText(dw.host->profile().name).contains(QStringLiteral("No NVIDIA driver found")),
            qPrintable(fleet->tileText(dw.host->profile().name)), 10000);
    }

    void noServerSaysSoAndChartsBreak()
    {
        KF_START_DEMO_HOST(demo);
        test::DemoWindow dw;
        dw.open(demo);
        if (QTest::currentTestFailed())
            return;
        QWidget* tab = showTab(dw.window->tabs(), QStringLiteral("Server"));
        auto* server = shown<ServerPane>(tab);
        QVERIFY(server);
        const quint16 port = test::freeLocalPort();
        ServerLaunchProfile profile = server->profile();
        profile.port = port;
        server->setProfile(profile);
        auto status = [&] { return shown<QLabel>(tab, QStringLiteral("serverStatus"))->text(); };
        const QString noServer = QStringLiteral("No server on port %1 (Launch one, or set the port)").arg(port);
        QTRY_VERIFY_WITH_TIMEOUT(status().contains(noServer), 30000);
        QVERIFY2(!status().contains(QStringLiteral("Channel")), qPrintable(status()));
        QVERIFY(dw.window->grab().save(test::screenshotPath(QStringLiteral("nothing-server-none"))));

        auto launchAndChart = [&](int points) {
            QTRY_VERIFY_WITH_TIMEOUT(shown<QPushButton>(tab, QStringLiteral("launchServer"))->isEnabled(), 30000);
            QTest::mouseClick(shown<QPushButton>(tab, QStringLiteral("launchServer")), Qt::LeftButton);
            QTRY_VERIFY_WITH_TIMEOUT(status().contains(QStringLiteral("healthy")), 60000);
            QTRY_VERIFY_WITH_TIMEOUT(server->throughputPoints().size() >= points, 30000);
        };
        launchAndChart(2);
        test::answerNextQuestion(QMessageBox::Yes);
        QTest::mouseClick(shown<QPushButton>(tab, QStringLiteral("stopServer")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(status().contains(noServer), 60000);
        launchAndChart(int(server->throughputPoints().size()) + 2);
        bool gap = false;
        QTRY_VERIFY_WITH_TIMEOUT(finiteAfterLastGap(server->throughputPoints(), &gap) >= 2, 30000);
        QVERIFY(gap);
        QVERIFY(dw.window->grab().save(test::screenshotPath(QStringLiteral("nothing-server-gap"))));
    }

private:
    QTemporaryDir m_db;
};

QTEST_MAIN(TestNothingToShowWindow)
#include "tst_nothingtoshowwindow.moc"
