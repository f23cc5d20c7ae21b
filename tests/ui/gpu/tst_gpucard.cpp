// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// One GPU card: bars and the details line the field table puts on it.
#include "ui/gpu/gpucard.h"

#include <QLabel>
#include <QProgressBar>
#include <QtTest>

using namespace kf;

class TestGpuCard : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void showsTheSample()
    {
        GpuCard card(0);
        GpuSample s;
        s.index = 0;
        s.setText(GpuField::Name, QStringLiteral("NVIDIA H200"));
        s.setText(GpuField::Pstate, QStringLiteral("P0"));
        // A row of tests/data/field-h200/stream.csv.
        const std::pair<GpuField, double> values[] = { { GpuField::UtilGpu, 98 }, { GpuField::MemUsed, 42099 },
            { GpuField::MemTotal, 143771 }, { GpuField::TempGpu, 52 }, { GpuField::PowerDraw, 198.27 },
            { GpuField::PowerLimit, 700 }, { GpuField::ClockSm, 1515 } };
        for (const auto& [field, v] : values)
            s.setValue(field, v);
        s.reasons = kReasonSwPowerCap;
        s.hasReasons = true;
        card.setSample(s, false);
        QCOMPARE(card.findChild<QLabel*>(QStringLiteral("details"))->text(),
            QStringLiteral("52 °C · 198 W / 700 W · SM 1515 MHz"));
        QCOMPARE(card.findChild<QProgressBar*>(QStringLiteral("util"))->text(), QStringLiteral("98 %"));
        QCOMPARE(card.findChild<QProgressBar*>(QStringLiteral("memory"))->text(), QStringLiteral("41.1 / 140 GiB"));
    }

    void noValueIsADash()
    {
        // A vGPU guest or MIG slice: nvidia-smi printed [N/A] / [Not Supported] everywhere.
        GpuCard card(3);
        GpuSample s;
        s.index = 3;
        s.setText(GpuField::MigMode, QStringLiteral("Enabled"));
        card.setSample(s, false);
        QCOMPARE(card.findChild<QLabel*>(QStringLiteral("details"))->text(), QStringLiteral("– · – / – · SM –"));
        QCOMPARE(card.findChild<QProgressBar*>(QStringLiteral("util"))->text(), QStringLiteral("n/a (MIG)"));
        QCOMPARE(card.findChild<QProgressBar*>(QStringLiteral("memory"))->text(), QStringLiteral("n/a"));
    }
};

QTEST_MAIN(TestGpuCard)
#include "tst_gpucard.moc"
