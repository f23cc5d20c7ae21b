// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/gpu/gpucard.h"

#include "core/gpu/throttlereasons.h"
#include "core/timeseries/seriesbuffer.h"
#include "ui/chart/timechart.h"
#include "ui/common/plaintext.h"
#include "ui/common/preferences.h"
#include "ui/gpu/usagebar.h"

#include <QGraphicsColorizeEffect>
#include <QGridLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QProgressBar>

#include <algorithm>

namespace kf {

namespace {

// The details line: the fields whose row has a card piece, in table order (docs in gpufield.h);
// `source` picks the query's pieces (the details line) or dmon's (the GPM line).
QString details(const GpuSample& s, GpuFieldSource source = GpuFieldSource::Query)
{
    static const QList<GpuField> queried
        = gpuFieldsWhere([](const GpuFieldInfo& f) { return *f.card != 0 && f.source == GpuFieldSource::Query; });
    static const QList<GpuField> gpm
        = gpuFieldsWhere([](const GpuFieldInfo& f) { return *f.card != 0 && f.source == GpuFieldSource::Dmon; });
    const QList<GpuField>& onCard = source == GpuFieldSource::Query ? queried : gpm;
    const Preferences prefs = Preferences::load(); // units as Edit > Preferences says now
    QString line;
    for (const GpuField field : onCard) {
        const GpuFieldInfo& info = gpuFieldInfo(field);
        QString value = s.text(field);
        if (const double v = s.value(field); hasValue(v)) {
            const QString unit = gpuFieldUnit(field);
            value = unit == QStringLiteral("°C") ? prefs.formatTemperature(v)
                : unit == QStringLiteral("MiB")  ? prefs.formatMemory(v)
                : *info.unit                     ? QString::number(v, 'f', 0) + u' ' + unit
                                                 : QString::number(v, 'f', 0);
        }
        const QString piece = QString::fromUtf8(info.card).arg(value.isEmpty() ? QStringLiteral("–") : value);
        if (!line.isEmpty())
            line += piece.startsWith(u'/') ? QStringLiteral(" ") : QStringLiteral(" · ");
        line += piece;
    }
    return line;
}

} // namespace

GpuCard::GpuCard(int index, QWidget* parent)
    : QFrame(parent)
    , m_index(index)
    , m_title(new QLabel(this))
    , m_util(new UsageBar(this))
    , m_mem(new UsageBar(this))
    , m_details(new QLabel(this))
    , m_reasons(new QLabel(this))
    , m_gpm(new QLabel(this))
    , m_health(new QLabel(this))
    , m_spark(new TimeChart(this))
{
    setObjectName(QStringLiteral("gpuCard%1").arg(index));
    m_details->setObjectName(QStringLiteral("details"));
    m_util->setObjectName(QStringLiteral("util"));
    m_mem->setObjectName(QStringLiteral("memory"));
    setFrameShape(QFrame::StyledPanel);
    setCursor(Qt::PointingHandCursor);
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(8, 6, 8, 6);
    grid->setVerticalSpacing(3);
    grid->addWidget(m_title, 0, 0, 1, 2);
    grid->addWidget(new QLabel(tr("Util"), this), 1, 0);
    grid->addWidget(m_util, 1, 1);
    grid->addWidget(new QLabel(tr("Mem"), this), 2, 0);
    grid->addWidget(m_mem, 2, 1);
    grid->addWidget(m_details, 3, 0, 1, 2);
    grid->addWidget(m_gpm, 4, 0, 1, 2);
    grid->addWidget(m_reasons, 5, 0, 1, 2);
    grid->addWidget(m_health, 6, 0, 1, 2);
    grid->addWidget(m_spark, 7, 0, 1, 2);
    m_util->setRange(0, 100);
    m_mem->setRange(0, 1000);
    for (auto* bar : { m_util, m_mem }) {
        bar->setTextVisible(true);
        bar->setMaximumHeight(16);
    }
    m_reasons->setObjectName(QStringLiteral("reasons"));
    m_gpm->setObjectName(QStringLiteral("gpm"));
    m_health->setObjectName(QStringLiteral("health"));
    // Plain text: a reason or finding quotes nvidia-smi or the kernel log.
    for (QLabel* label : { m_gpm, m_health }) {
        label->setTextFormat(Qt::PlainText);
        label->setWordWrap(true);
    }
    m_gpm->hide();    // until GPM values or the reason there are none
    m_health->hide(); // until a health check answered
    // Long lines wrap instead of widening the card: the grid's columns follow kMinimumWidth.
    for (QLabel* label : { m_title, m_details, m_reasons })
        label->setWordWrap(true);
    // Every text field is nvidia-smi's (or an exporter's) text: the title is rich text with each
    // field escaped, the other lines are plain text.
    m_title->setTextFormat(Qt::RichText);
    m_details->setTextFormat(Qt::PlainText);
    m_reasons->setTextFormat(Qt::PlainText);
    m_reasons->setToolTip(tr("Why the clocks are held back (nvidia-smi clocks_event_reasons.active)"));
    m_spark->setCompact(true);
    m_spark->setValueRange(0, 100);
    m_spark->addSeries(tr("Utilization"), TimeChart::paletteColor(index));
    m_spark->setFixedHeight(44);
    setMinimumWidth(kMinimumWidth);
}

void GpuCard::setSelected(bool selected)
{
    if (selected == m_selected)
        return;
    m_selected = selected;
    updateFrame();
}

QString GpuCard::reasonsText() const
{
    return m_reasons->text().trimmed();
}

void GpuCard::updateFrame()
{
    // Alerting wins the border colour; the selection adds a tinted background.
    QString style;
    if (m_alerting || m_selected) {
        style = QStringLiteral("kf--GpuCard { border: %1px solid %2; border-radius: 4px; %3 }")
                    .arg(m_selected ? 3 : 2)
                    .arg(m_alerting ? QStringLiteral("#d62728") : QStringLiteral("palette(highlight)"))
                    .arg(m_selected ? QStringLiteral("background-color: rgba(43, 92, 184, 28);") : QString());
    }
    setStyleSheet(style);
}

void GpuCard::setStale(bool stale, const QString& age, const QString& why)
{
    if (stale != m_stale) {
        // Grey and still readable (a disabled card's colours stay, and its text fades away).
        if (stale) {
            auto* grey = new QGraphicsColorizeEffect(this);
            grey->setColor(Qt::gray);
            grey->setStrength(1.0);
            setGraphicsEffect(grey);
        } else {
            setGraphicsEffect(nullptr);
        }
    }
    m_stale = stale;
    m_staleText = !stale ? QString()
        : age.isEmpty()  ? tr(" &nbsp;<i>stale</i>")
                         : tr(" &nbsp;<i>stale, %1</i>").arg(age.toHtmlEscaped());
    setToolTip(
        stale ? plainToolTip(tr("Last sample (%1): %2").arg(age.isEmpty() ? tr("age unknown") : age, why)) : QString());
    m_title->setText(m_titleText + m_staleText);
}

void GpuCard::setSample(const GpuSample& s, bool alerting)
{
    m_titleText = QStringLiteral("<b>GPU %1</b> &nbsp;%2 &nbsp;<span style='color:gray'>%3</span>")
                      .arg(s.index)
                      .arg(s.text(GpuField::Name).toHtmlEscaped(), s.text(GpuField::Pstate).toHtmlEscaped());
    m_title->setText(m_titleText + m_staleText);
    const double util = s.value(GpuField::UtilGpu);
    if (hasValue(util)) {
        m_util->setValue(int(util));
        m_util->setFormat(QStringLiteral("%1 %").arg(util, 0, 'f', 0));
    } else {
        m_util->setValue(0);
        m_util->setFormat(s.text(GpuField::MigMode) == QStringLiteral("Enabled") ? tr("n/a (MIG)") : tr("n/a"));
    }
    const double frac = s.memFraction();
    m_mem->setValue(hasValue(frac) ? int(frac * 1000) : 0);
    const Preferences prefs = Preferences::load();
    m_mem->setFormat(!hasValue(frac) ? tr("n/a")
            : prefs.memoryUnit == Preferences::MemoryUnit::MiB
            ? QStringLiteral("%1 / %2 MiB")
                  .arg(s.value(GpuField::MemUsed), 0, 'f', 0)
                  .arg(s.value(GpuField::MemTotal), 0, 'f', 0)
            : QStringLiteral("%1 / %2 GiB")
                  .arg(s.value(GpuField::MemUsed) / 1024, 0, 'f', 1)
                  .arg(s.value(GpuField::MemTotal) / 1024, 0, 'f', 0));
    m_details->setText(details(s));
    const QStringList words = s.hasReasons ? reasonPhrases(s.reasons) : QStringList();
    m_reasons->setText(words.isEmpty() ? QStringLiteral(" ") : tr("Clocks: %1").arg(words.join(QStringLiteral(", "))));
    if (alerting != m_alerting) {
        m_alerting = alerting;
        updateFrame();
    }
}

void GpuCard::setSparkline(const SeriesBuffer* util, qint64 fromMs, qint64 toMs)
{
    m_spark->setTimeWindow(fromMs, toMs);
    m_spark->setSeriesData(0, util ? util->decimated(fromMs, toMs, m_spark->columns()) : QList<QPointF>());
}

void GpuCard::setGpm(const GpuSample& sample, const QString& why)
{
    static const QList<GpuField> metrics = gpmGpuFields();
    const bool any
        = std::any_of(metrics.cbegin(), metrics.cend(), [&](GpuField f) { return hasValue(sample.value(f)); });
    m_gpm->setText(any      ? tr("GPM: %1").arg(details(sample, GpuFieldSource::Dmon))
            : why.isEmpty() ? QString()
                            : tr("GPM: n/a"));
    m_gpm->setToolTip(any ? tr("GPU Performance Monitoring (nvidia-smi dmon --gpm-metrics): how busy the SMs, "
                               "tensor cores and DRAM really are, and PCIe / NVLink traffic")
                          : why);
    m_gpm->setVisible(any || !why.isEmpty());
}

QString GpuCard::gpmText() const
{
    return m_gpm->text();
}

void GpuCard::setHealth(const GpuHealth* health)
{
    m_health->setVisible(health != nullptr);
    if (!health)
        return;
    m_health->setText(tr("Health: %1").arg(health->summary()));
    QStringList lines;
    for (const HealthFinding& f : health->findings)
        lines << QStringLiteral("%1  %2").arg(healthLevelName(f.level), f.message);
    m_health->setToolTip(lines.isEmpty() ? tr("Nothing found: Xid events, ECC, retired pages, remapped rows, PCIe "
                                              "link and replays, NVLink errors, clock-event time")
                                         : lines.join(u'\n'));
    static const char* const kColor[] = { "#2ca02c", "#c07000", "#d62728" };
    m_health->setStyleSheet(QStringLiteral("color: %1;").arg(QLatin1String(kColor[int(health->verdict)])));
}

QString GpuCard::healthText() const
{
    return m_health->isHidden() ? QString() : m_health->text();
}

void GpuCard::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton)
        Q_EMIT clicked(m_index);
    QFrame::mousePressEvent(event);
}

} // namespace kf
