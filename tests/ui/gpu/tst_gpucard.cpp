// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// One GPU card: bars and the details line the field table puts on it, the GPM line (its Dmon
// rows) or why there is none, and the health verdict.
#include "tests/support/testsupport.h"
#include "tests/support/windowdriver.h"
#include "ui/gpu/gpucard.h"
#include "ui/gpu/usagebar.h"

#include <QImage>
#include <QLabel>
#include <QProgressBar>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QtTest>

using namespace kf;

namespace {

// Markup that would draw a red banner and load a local image if it were rendered.
const QString kMarkup = QStringLiteral("<b style='color:red'>BANNER</b><img src='/tmp/kf-card.png'>");

// Every label and tool tip of the card shows `kMarkup` as the characters it is, where it shows it.
void checkShownAsText(QWidget* card)
{
    int showing = 0;
    for (const QLabel* l : card->findChildren<QLabel*>()) {
        const QString shown = test::shownText(l);
        if (!l->text().contains(QStringLiteral("BANNER")))
            continue;
        QVERIFY2(shown.contains(kMarkup), qPrintable(l->objectName() + u": " + shown));
        ++showing;
    }
    QVERIFY(showing > 0);
    QTextDocument tip;
    tip.setHtml(card->toolTip());
    QVERIFY2(!card->toolTip().contains(QStringLiteral("BANNER")) || tip.toPlainText().contains(kMarkup),
        qPrintable(card->toolTip()));
}

} // namespace

class TestGpuCard : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolateAppState(QStringLiteral("kernelforge-gpucard"), m_db.path()); }

    // nvidia-smi's text fields are the host's: the card shows them, never renders them.
    void markupInEveryTextFieldStaysText()
    {
        GpuCard card(0);
        GpuSample s;
        s.index = 0;
        for (const GpuField f : gpuFieldsWhere([](const GpuFieldInfo& i) { return i.kind == GpuFieldKind::Text; }))
            s.setText(f, QLatin1String(gpuFieldInfo(f).json) + u' ' + kMarkup);
        s.setValue(GpuField::UtilGpu, 50);
        card.setSample(s, true);
        card.setStale(true, QStringLiteral("12 s") + kMarkup, QStringLiteral("link lost: ") + kMarkup);
        checkShownAsText(&card);
    }

    // The same through the window: a demo host whose nvidia-smi names its GPU, its pstate,
    // compute mode and MIG mode with markup.
    void theWindowsCardShowsMarkupAsText()
    {
        KF_START_DEMO_HOST(demo);
        const QByteArray markup = kMarkup.toUtf8();
        QVERIFY(test::patchDemoNvidiaSmi(demo, "NAME = \"NVIDIA H200\"", "NAME = \"NVIDIA H200 " + markup + "\""));
        QVERIFY(test::patchDemoNvidiaSmi(demo, "return \"P0\"", "return \"P0 " + markup + "\""));
        QVERIFY(test::patchDemoNvidiaSmi(demo, "return \"Default\"", "return \"Default " + markup + "\""));
        QVERIFY(test::patchDemoNvidiaSmi(demo, "return \"Disabled\"", "return \"Disabled " + markup + "\""));
        test::DemoWindow dw;
        dw.open(demo);
        if (QTest::currentTestFailed())
            return;
        QWidget* gpus = test::showTab(dw.window->tabs(), QStringLiteral("GPUs"));
        QVERIFY(gpus);
        GpuCard* card = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((card = gpus->findChild<GpuCard*>(QStringLiteral("gpuCard0"))) != nullptr
                && card->isVisible()
                && card->findChildren<QLabel*>().first()->text().contains(QStringLiteral("BANNER")),
            60000);
        checkShownAsText(card);
        QVERIFY(dw.window->grab().save(test::screenshotPath(QStringLiteral("gpu-card-markup"))));
    }

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

    void throttleReasonsInWords()
    {
        GpuCard card(1);
        GpuSample s;
        s.index = 1;
        s.reasons = kReasonSwPowerCap | kReasonSwThermal;
        s.hasReasons = true;
        card.setSample(s, false);
        QCOMPARE(card.reasonsText(), QStringLiteral("Clocks: power cap, thermal slowdown"));
        QVERIFY(!card.reasonsText().contains(u'_'));
    }

    void selectedCardIsHighlighted()
    {
        GpuCard card(2);
        GpuSample s;
        s.index = 2;
        card.setSample(s, false);
        card.resize(260, 180);
        const QImage plain = card.grab().toImage();
        card.setSelected(true);
        QVERIFY(card.isSelected());
        const QImage selected = card.grab().toImage();
        QVERIFY(plain != selected); // drawn differently: border and tint
        card.setSelected(false);
        QCOMPARE(card.grab().toImage(), plain);
    }

    void barTextReadableOverBothParts()
    {
        // WCAG AA asks 4.5:1 for text: the filled part's and the empty part's pairs both pass.
        UsageBar bar;
        QVERIFY(UsageBar::contrastRatio(bar.textOnFill(), bar.fillColor()) >= 4.5);
        QVERIFY(UsageBar::contrastRatio(bar.textOnEmpty(), bar.emptyColor()) >= 4.5);
        QVERIFY(qAbs(UsageBar::contrastRatio(Qt::black, Qt::white) - 21.0) < 0.01);
        // Drawn: at 50 % the text's pixels are light over the fill and dark over the empty part.
        bar.setRange(0, 100);
        bar.setValue(50);
        bar.setFormat(QStringLiteral("WWWWWWWWWWWWWWWWWWWW"));
        bar.resize(240, 16);
        const QImage img = bar.grab().toImage();
        int lightOnFill = 0, darkOnEmpty = 0;
        for (int y = 2; y < img.height() - 2; ++y) {
            for (int x = 4; x < img.width() - 4; ++x) {
                const QColor c = img.pixelColor(x, y);
                if (x < img.width() / 2 - 2 && c.lightness() > 200)
                    ++lightOnFill;
                if (x > img.width() / 2 + 2 && UsageBar::contrastRatio(c, bar.emptyColor()) > 3)
                    ++darkOnEmpty;
            }
        }
        QVERIFY2(lightOnFill > 10, qPrintable(QString::number(lightOnFill)));
        QVERIFY2(darkOnEmpty > 10, qPrintable(QString::number(darkOnEmpty)));
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

    void gpmLineOrWhyNot()
    {
        GpuCard card(0);
        auto* gpm = card.findChild<QLabel*>(QStringLiteral("gpm"));
        QVERIFY(gpm);
        GpuSample s;
        s.index = 0;
        card.setGpm(s, {}); // not known yet: nothing shown
        QVERIFY(gpm->isHidden());
        const std::pair<GpuField, double> values[] = { { GpuField::SmActive, 93 }, { GpuField::SmOccupancy, 31 },
            { GpuField::TensorActive, 71 }, { GpuField::DramActive, 42 }, { GpuField::PcieTx, 44 },
            { GpuField::PcieRx, 187 }, { GpuField::NvlinkTx, 21034 }, { GpuField::NvlinkRx, 20511 } };
        for (const auto& [field, v] : values)
            s.setValue(field, v);
        card.setGpm(s, {});
        QVERIFY(!gpm->isHidden());
        QCOMPARE(card.gpmText(),
            QStringLiteral(
                "GPM: SM 93 % · occupancy 31 % · tensor 71 % · DRAM 42 % · PCIe TX 44 MiB/s · RX 187 MiB/s · "
                "NVLink TX 21034 MiB/s · RX 20511 MiB/s"));
        GpuSample none;
        none.index = 0;
        card.setGpm(none, QStringLiteral("GPU 0: NVIDIA A100, compute capability 8.0, predates Hopper"));
        QCOMPARE(card.gpmText(), QStringLiteral("GPM: n/a"));
        QCOMPARE(gpm->toolTip(), QStringLiteral("GPU 0: NVIDIA A100, compute capability 8.0, predates Hopper"));
        QCOMPARE(gpm->textFormat(), Qt::PlainText); // the reason quotes nvidia-smi
    }

    void healthVerdict()
    {
        GpuCard card(1);
        QCOMPARE(card.healthText(), QString()); // no check yet
        GpuHealthInput in;
        in.sample.index = 1;
        in.xidKnown = true;
        in.xids = { { 79, QStringLiteral("[ 4410.1]"), QString() } };
        in.pcieReplays = 12;
        const GpuHealth h = judgeGpuHealth(in);
        card.setHealth(&h);
        QCOMPARE(card.healthText(),
            QStringLiteral("Health: unhealthy: Xid 79 (GPU has fallen off the bus) at [ 4410.1] since boot"));
        auto* label = card.findChild<QLabel*>(QStringLiteral("health"));
        QVERIFY(label->toolTip().contains(QStringLiteral("warn  12 PCIe replay(s) since reset")));
        card.setHealth(nullptr);
        QCOMPARE(card.healthText(), QString());
    }

private:
    QTemporaryDir m_db;
};

QTEST_MAIN(TestGpuCard)
#include "tst_gpucard.moc"
