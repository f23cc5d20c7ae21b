// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Edit > Preferences in the real window on the demo host: change every setting, OK, and see
// each take effect without a restart (the GPU stream's interval, the cards' units, the Hosts
// menu's reconnect switch) and land in QSettings; Cancel changes nothing.
#include "core/gpu/gpumonitorhub.h"
#include "tests/support/testsupport.h"
#include "tests/support/windowdriver.h"
#include "ui/common/preferences.h"
#include "ui/common/preferencesdialog.h"
#include "ui/gpu/gpucard.h"
#include "ui/gpu/gpupane.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QtTest>

using namespace kf;

namespace {

// Runs `fill` on the Preferences dialog once it is up, grabs it, then presses `button`.
void answerPreferences(std::function<void(PreferencesDialog*)> fill, QDialogButtonBox::StandardButton button,
    const QString& screenshot = {})
{
    QTimer::singleShot(50, qApp, [=] {
        auto* dialog = qobject_cast<PreferencesDialog*>(QApplication::activeModalWidget());
        if (!dialog) {
            answerPreferences(fill, button, screenshot);
            return;
        }
        fill(dialog);
        if (!screenshot.isEmpty())
            dialog->grab().save(test::screenshotPath(screenshot));
        dialog->findChild<QDialogButtonBox*>()->button(button)->click();
    });
}

QString cardText(MainWindow* window)
{
    QString text;
    for (const GpuCard* card : window->findChildren<GpuCard*>()) {
        if (!card->isVisible())
            continue;
        text += card->findChild<QLabel*>(QStringLiteral("details"))->text() + u'|'
            + card->findChild<QProgressBar*>(QStringLiteral("memory"))->text() + u'\n';
    }
    return text;
}

} // namespace

class TestPreferencesDialog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolateAppState(QStringLiteral("kernelforge-preferences")); }

    void everySettingAppliesWithoutRestart()
    {
        KF_START_DEMO_HOST(demo);
        test::DemoWindow dw;
        dw.open(demo);
        if (QTest::currentTestFailed())
            return;
        MainWindow* w = dw.window.get();
        QVERIFY(test::showTab(w->tabs(), QStringLiteral("GPUs")));
        QTRY_VERIFY_WITH_TIMEOUT(cardText(w).contains(QStringLiteral("°C")), 30000);
        QVERIFY2(cardText(w).contains(QStringLiteral(" GiB")), qPrintable(cardText(w)));
        GpuMonitor* monitor = dw.monitors.monitorFor(dw.host);
        QVERIFY(monitor);
        QTRY_COMPARE_WITH_TIMEOUT(monitor->state(), GpuMonitor::State::Streaming, 30000);
        QVERIFY2(monitor->streamCommand().endsWith(QStringLiteral("-lms 1000")), qPrintable(monitor->streamCommand()));
        auto* reconnect = w->findChild<QAction*>(QStringLiteral("reconnectOnStart"));
        QVERIFY(reconnect && reconnect->isChecked());

        // Cancel: nothing changes.
        answerPreferences(
            [](PreferencesDialog* d) { d->findChild<QSpinBox*>(QStringLiteral("gpuRefreshMs"))->setValue(5000); },
            QDialogButtonBox::Cancel);
        w->findChild<QAction*>(QStringLiteral("preferences"))->trigger();
        QCOMPARE(Preferences::load(), Preferences());
        QVERIFY(monitor->streamCommand().endsWith(QStringLiteral("-lms 1000")));

        // Every setting changed, OK.
        answerPreferences(
            [](PreferencesDialog* d) {
                d->findChild<QSpinBox*>(QStringLiteral("gpuRefreshMs"))->setValue(2000);
                auto pick = [d](const char* name, int data) {
                    auto* box = d->findChild<QComboBox*>(QString::fromLatin1(name));
                    QVERIFY(box);
                    box->setCurrentIndex(box->findData(data));
                    QVERIFY(box->currentIndex() >= 0);
                };
                pick("memoryUnit", int(Preferences::MemoryUnit::MiB));
                pick("temperatureUnit", int(Preferences::TemperatureUnit::Fahrenheit));
                pick("chartWindow", 3600);
                d->findChild<QCheckBox*>(QStringLiteral("reconnectOnStart"))->setChecked(false);
                d->findChild<QCheckBox*>(QStringLiteral("notifyOnBuildEnd"))->setChecked(false);
                d->resize(560, d->sizeHint().height());
            },
            QDialogButtonBox::Ok, QStringLiteral("preferences-dialog"));
        w->findChild<QAction*>(QStringLiteral("preferences"))->trigger();

        Preferences expected;
        expected.gpuRefreshMs = 2000;
        expected.memoryUnit = Preferences::MemoryUnit::MiB;
        expected.temperatureUnit = Preferences::TemperatureUnit::Fahrenheit;
        expected.chartWindowSeconds = 3600;
        expected.reconnectOnStart = false;
        expected.notifyOnBuildEnd = false;
        QCOMPARE(Preferences::load(), expected);
        const QSettings s;
        QCOMPARE(s.value(QStringLiteral("prefs/gpuRefreshMs")).toInt(), 2000);
        QCOMPARE(s.value(QStringLiteral("prefs/memoryUnit")).toString(), QStringLiteral("MiB"));
        QCOMPARE(s.value(QStringLiteral("prefs/temperatureUnit")).toString(), QStringLiteral("F"));
        QCOMPARE(s.value(QStringLiteral("prefs/chartWindowSeconds")).toInt(), 3600);
        QCOMPARE(s.value(QStringLiteral("session/reconnectOnStart")).toBool(), false);
        QCOMPARE(s.value(QStringLiteral("prefs/notifyOnBuildEnd")).toBool(), false);

        // At once: the running stream samples every 2 s, the hub starts new ones so, the cards
        // speak °F and MiB, the Hosts menu's switch is off.
        QTRY_VERIFY2_WITH_TIMEOUT(
            monitor->streamCommand().endsWith(QStringLiteral("-lms 2000")), qPrintable(monitor->streamCommand()), 5000);
        QCOMPARE(monitor->state(), GpuMonitor::State::Streaming);
        QCOMPARE(dw.monitors.options().intervalMs, 2000);
        QTRY_VERIFY2_WITH_TIMEOUT(cardText(w).contains(QStringLiteral("°F"))
                && cardText(w).contains(QStringLiteral(" MiB")) && !cardText(w).contains(QStringLiteral("°C"))
                && !cardText(w).contains(QStringLiteral("GiB")),
            qPrintable(cardText(w)), 30000);
        QVERIFY(!reconnect->isChecked());
        QVERIFY(w->grab().save(test::screenshotPath(QStringLiteral("preferences-applied"))));
    }
};

QTEST_MAIN(TestPreferencesDialog)
#include "tst_preferencesdialog.moc"
