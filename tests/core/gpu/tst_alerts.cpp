// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/gpu/alerts.h"

#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;

namespace {
GpuSample cool()
{
    GpuSample s;
    s.index = 2;
    s.setValue(GpuField::TempGpu, 60);
    s.setValue(GpuField::TempMemory, 70);
    s.setValue(GpuField::MemUsed, 1000);
    s.setValue(GpuField::MemTotal, 143771);
    s.setValue(GpuField::EccUncorrected, 0);
    s.reasons = kReasonSwPowerCap;
    s.hasReasons = true;
    return s;
}
} // namespace

class TestAlerts : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void rules_data()
    {
        QTest::addColumn<GpuSample>("sample");
        QTest::addColumn<QList<int>>("kinds");
        QTest::addColumn<bool>("critical");
        QTest::newRow("healthy, power capped") << cool() << QList<int> {} << false;
        GpuSample hot = cool();
        hot.setValue(GpuField::TempGpu, 86);
        QTest::newRow("hot") << hot << QList<int> { int(AlertKind::GpuTemperature) } << false;
        GpuSample hbm = cool();
        hbm.setValue(GpuField::TempMemory, 96);
        QTest::newRow("hot memory") << hbm << QList<int> { int(AlertKind::MemoryTemperature) } << false;
        GpuSample full = cool();
        full.setValue(GpuField::MemUsed, 140000);
        QTest::newRow("memory nearly full") << full << QList<int> { int(AlertKind::MemoryFull) } << false;
        GpuSample ecc = cool();
        ecc.setValue(GpuField::EccUncorrected, 3);
        QTest::newRow("ecc") << ecc << QList<int> { int(AlertKind::EccErrors) } << true;
        GpuSample slow = cool();
        slow.reasons = kReasonHwSlowdown;
        QTest::newRow("hw slowdown") << slow << QList<int> { int(AlertKind::HwSlowdown) } << true;
        GpuSample brake = cool();
        brake.reasons = kReasonHwPowerBrake;
        QTest::newRow("power brake") << brake << QList<int> { int(AlertKind::HwSlowdown) } << true;
        GpuSample thermal = cool();
        thermal.reasons = kReasonSwThermal;
        QTest::newRow("sw thermal") << thermal << QList<int> { int(AlertKind::Thermal) } << false;
        GpuSample both = cool();
        both.reasons = kReasonHwThermal | kReasonHwSlowdown;
        both.setValue(GpuField::TempGpu, 93);
        QTest::newRow("hw thermal + slowdown + hot")
            << both
            << QList<int> { int(AlertKind::GpuTemperature), int(AlertKind::HwSlowdown), int(AlertKind::Thermal) }
            << true;
        GpuSample unknown = cool();
        unknown.setValue(GpuField::TempGpu, noValue());
        unknown.setValue(GpuField::MemUsed, noValue());
        unknown.hasReasons = false;
        QTest::newRow("no values, no alerts") << unknown << QList<int> {} << false;
    }
    void rules()
    {
        QFETCH(GpuSample, sample);
        QFETCH(QList<int>, kinds);
        QFETCH(bool, critical);
        const QList<Alert> alerts = evaluateAlerts({ sample }, AlertRules {}, 42);
        QList<int> got;
        bool anyCritical = false;
        for (const auto& a : alerts) {
            got.append(int(a.kind));
            anyCritical |= a.critical;
            QCOMPARE(a.gpu, 2);
            QCOMPARE(a.timeMs, qint64(42));
            QVERIFY(a.message.startsWith(QStringLiteral("GPU 2: ")));
        }
        QCOMPARE(got, kinds);
        QCOMPARE(anyCritical, critical);
    }

    void slowdownReasonsInWords()
    {
        // The alert list shows the reasons as people say them, not nvidia-smi's field names.
        GpuSample s = cool();
        s.reasons = kReasonHwThermal | kReasonHwSlowdown;
        QStringList messages;
        for (const Alert& a : evaluateAlerts({ s }, AlertRules {}, 42))
            messages << a.message;
        QVERIFY2(messages.contains(QStringLiteral("GPU 2: thermal slowdown (HW thermal slowdown)")),
            qPrintable(messages.join(u'|')));
        QVERIFY2(messages.contains(QStringLiteral("GPU 2: hardware slowdown (HW slowdown)")),
            qPrintable(messages.join(u'|')));
    }

    void userChangesThresholds()
    {
        GpuSample s = cool();
        s.setValue(GpuField::TempGpu, 80);
        AlertRules rules;
        QVERIFY(evaluateAlerts({ s }, rules).isEmpty());
        rules.gpuTempC = 75;
        QCOMPARE(evaluateAlerts({ s }, rules).size(), 1);
        s.reasons = kReasonHwSlowdown;
        rules.hwSlowdown = false;
        QCOMPARE(evaluateAlerts({ s }, rules).size(), 1);

        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("kf.ini")), QSettings::IniFormat);
        QCOMPARE(AlertRules::load(settings), AlertRules {});
        rules.save(settings);
        QCOMPARE(AlertRules::load(settings), rules);
    }
};

QTEST_GUILESS_MAIN(TestAlerts)
#include "tst_alerts.moc"
