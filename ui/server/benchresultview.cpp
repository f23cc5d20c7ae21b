// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/server/benchresultview.h"

#include "core/servebench/benchcompare.h"
#include "ui/chart/sweepchart.h"
#include "ui/chart/timechart.h"
#include "ui/common/plaintext.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace kf {

namespace {

const QColor kBetter(0x2c, 0xa0, 0x2c);
const QColor kWorse(0xd6, 0x27, 0x28);
const QString kEstimated = QStringLiteral("≈");

QString number(double v, int precision)
{
    return std::isfinite(v) ? QString::number(v, 'f', precision) : QStringLiteral("–");
}

// Decimals by size: 1234 tok/s, 56.7 ms, 3.21 ms.
QString metricText(double v)
{
    if (!std::isfinite(v))
        return QStringLiteral("–");
    const double a = std::abs(v);
    return QString::number(v, 'f', a >= 1000 ? 0 : a >= 10 ? 1 : 2);
}

QString metricLabel(const BenchMetric& m)
{
    // "output tok/s" and "requests/s" say their unit already.
    const QString label = QString::fromLatin1(m.label);
    const QString unit = QString::fromLatin1(m.unit);
    return unit.isEmpty() || label.endsWith(QLatin1String("/s")) ? label : QStringLiteral("%1 (%2)").arg(label, unit);
}

bool isThroughput(const BenchMetric& m)
{
    return QByteArrayView(m.unit) == "tok/s";
}

QTableWidgetItem* cell(const QString& text, const QString& tip = {})
{
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    if (!tip.isEmpty())
        item->setToolTip(tip);
    return item;
}

// Columns as wide as their contents, and never narrower than a number of six digits and a sign.
void fitColumns(QTableWidget* table)
{
    table->resizeColumnsToContents();
    const int min = table->fontMetrics().horizontalAdvance(QStringLiteral("+00000.0%")) + 12;
    for (int c = 0; c < table->columnCount(); ++c)
        table->setColumnWidth(c, qMax(min, table->columnWidth(c)));
}

QString reasonsText(const LevelStats& s)
{
    QStringList reasons;
    for (auto it = s.failureReasons.cbegin(); it != s.failureReasons.cend(); ++it)
        reasons << QStringLiteral("%1 × %2").arg(it.value()).arg(it.key());
    return reasons.join(QStringLiteral("; "));
}

QString runName(const BenchRun& r)
{
    return r.id ? QObject::tr("run %1").arg(r.id) : QObject::tr("this run");
}

} // namespace

BenchResultView::BenchResultView(QWidget* parent)
    : QWidget(parent)
    , m_header(new QLabel(this))
    , m_latency(new QComboBox(this))
    , m_chart(new SweepChart(this))
    , m_table(new QTableWidget(this))
    , m_notes(new QLabel(this))
    , m_references(new QLabel(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_header->setObjectName(QStringLiteral("benchHeader"));
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_header->setTextFormat(Qt::RichText); // escaped HTML, with or without a tag in it
    layout->addWidget(m_header);
    auto* axis = new QHBoxLayout();
    axis->addWidget(new QLabel(tr("Latency axis"), this));
    m_latency->setObjectName(QStringLiteral("benchLatencyMetric"));
    const QList<BenchMetric>& metrics = benchMetrics();
    for (int i = 0; i < metrics.size(); ++i)
        if (QByteArrayView(metrics[i].unit) == "ms")
            m_latency->addItem(QString::fromLatin1(metrics[i].label), i);
    m_latency->setCurrentIndex(qMax(0, m_latency->findText(QStringLiteral("TPOT p50"))));
    m_latency->setToolTip(tr("TTFT: time to the first token; TPOT: time per output token after the first; ITL: "
                             "each gap between tokens; E2E: the whole request (bench_serving's definitions)"));
    axis->addWidget(m_latency);
    axis->addStretch(1);
    layout->addLayout(axis);
    // Chart over table, the split the user's to move.
    auto* split = new QSplitter(Qt::Vertical, this);
    m_chart->setObjectName(QStringLiteral("benchChart"));
    m_chart->setMinimumHeight(120); // the Benchmark tab fits a 640 px window
    split->addWidget(m_chart);
    split->addWidget(m_table);
    split->setSizes({ 300, 320 });
    layout->addWidget(split, 1);
    m_table->setObjectName(QStringLiteral("benchTable"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setDefaultAlignment(Qt::AlignRight | Qt::AlignVCenter);
    for (QLabel* l : { m_notes, m_references }) {
        l->setTextFormat(Qt::RichText); // the server's words in them are escaped
        l->setWordWrap(true);
        l->setTextInteractionFlags(Qt::TextBrowserInteraction);
        l->setOpenExternalLinks(true);
        layout->addWidget(l);
    }
    m_notes->setObjectName(QStringLiteral("benchNotes"));
    m_references->setObjectName(QStringLiteral("benchReferences"));
    connect(m_latency, &QComboBox::currentIndexChanged, this, &BenchResultView::refresh);
    showMessage(tr("Run a benchmark, or pick a stored run."));
}

void BenchResultView::showRun(const BenchRun& run, const std::optional<ReferenceTable>& refs)
{
    m_mode = Mode::Run;
    m_a = run;
    m_b = BenchRun {};
    m_refs = refs;
    refresh();
}

void BenchResultView::showComparison(const BenchRun& a, const BenchRun& b)
{
    m_mode = Mode::Comparison;
    m_a = a;
    m_b = b;
    m_refs.reset();
    refresh();
}

void BenchResultView::showMessage(const QString& message)
{
    m_mode = Mode::Empty;
    m_a = m_b = BenchRun {};
    m_header->setText(message.toHtmlEscaped());
    m_chart->setCurves({});
    m_table->clear();
    m_table->setRowCount(0);
    m_table->setColumnCount(0);
    m_notes->clear();
    m_references->clear();
}

void BenchResultView::refresh()
{
    if (m_mode == Mode::Empty)
        return;
    const BenchMetric& latency = benchMetrics().at(m_latency->currentData().toInt());
    const QString latencyLabel = QStringLiteral("%1 (ms)").arg(QString::fromLatin1(latency.label));
    m_chart->setAxes(latencyLabel, tr("output tok/s"));
    auto curve = [&](const BenchRun& r, const QString& name, int color) {
        SweepChart::Curve c { name, TimeChart::paletteColor(color), {} };
        for (const LevelResult& l : r.levels)
            c.points.append(
                { l.concurrency, latency.value(l.stats), l.stats.outputThroughput, l.stats.outputTokensEstimated });
        return c;
    };
    if (m_mode == Mode::Run) {
        m_chart->setCurves({ curve(m_a, QString(), 0) });
        m_chart->setEmptyText(
            m_a.status == QLatin1String("running") ? tr("The first level is running…") : tr("No level was measured"));
        const QString status = m_a.status == QLatin1String("completed") ? QStringLiteral("<b>completed</b>")
            : m_a.status == QLatin1String("running")
            ? QStringLiteral("<b>running</b>")
            : QStringLiteral("<b style='color:#c0392b'>%1</b>").arg(m_a.status.toHtmlEscaped());
        QString head = tr("%1 · %2 · %3")
                           .arg(runName(m_a).toHtmlEscaped(), status,
                               m_a.started.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
        if (!m_a.error.isEmpty())
            head += QStringLiteral(": <span style='color:#c0392b'>%1</span>").arg(m_a.error.toHtmlEscaped());
        head += QStringLiteral("<br>%1: %2<br>%3: %4")
                    .arg(tr("Server"), serverSummary(m_a.facts).toHtmlEscaped(), tr("Workload"),
                        workloadSummary(m_a).toHtmlEscaped());
        m_header->setText(head);
        fillRunTable();
        showReferences();
    } else {
        m_chart->setCurves(
            { curve(m_a, tr("A: %1").arg(runName(m_a)), 0), curve(m_b, tr("B: %1").arg(runName(m_b)), 1) });
        const RunComparison c = compareRuns(m_a, m_b);
        auto line = [](const QString& tag, const BenchRun& r) {
            return QStringLiteral("<b>%1</b>: %2 · %3 · %4 · %5")
                .arg(tag, runName(r).toHtmlEscaped(),
                    r.started.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")), r.status.toHtmlEscaped(),
                    serverSummary(r.facts).toHtmlEscaped());
        };
        QString head = line(QStringLiteral("A"), m_a) + QStringLiteral("<br>") + line(QStringLiteral("B"), m_b)
            + QStringLiteral("<br>");
        head += c.differences.isEmpty()
            ? tr("Same workload and server: %1").arg(workloadSummary(m_a).toHtmlEscaped())
            : QStringLiteral("<span style='color:#c0392b'>%1</span>")
                  .arg(tr("Not the same workload or server, so the figures do not compare as they stand: %1")
                           .arg(c.differences.join(QStringLiteral("; ")).toHtmlEscaped()));
        m_header->setText(head);
        fillComparisonTable();
        m_references->clear();
    }
}

void BenchResultView::fillRunTable()
{
    const QList<BenchMetric>& metrics = benchMetrics();
    m_table->clear();
    m_table->setColumnCount(int(m_a.levels.size()));
    m_table->setRowCount(1 + int(metrics.size()) + 2);
    QStringList rows { tr("requests ok / sent") };
    for (const BenchMetric& m : metrics)
        rows << metricLabel(m);
    rows << tr("GPU utilisation (%)") << tr("GPU power, all GPUs (W)");
    m_table->setVerticalHeaderLabels(rows);
    QStringList columns;
    QStringList notes;
    bool inEstimated = false;
    bool outEstimated = false;
    for (int col = 0; col < m_a.levels.size(); ++col) {
        const LevelResult& l = m_a.levels[col];
        const LevelStats& s = l.stats;
        columns << tr("c=%1").arg(l.concurrency) + (l.cancelled ? tr(" (cancelled)") : QString());
        inEstimated = inEstimated || s.inputTokensEstimated;
        outEstimated = outEstimated || s.outputTokensEstimated;
        m_table->setItem(0, col, cell(QStringLiteral("%1 / %2").arg(s.completed).arg(s.requests)));
        for (int row = 0; row < metrics.size(); ++row) {
            const BenchMetric& m = metrics[row];
            const double v = m.value(s);
            // Output counts feed every tok/s; total tok/s also the prompt's.
            const bool estimated = isThroughput(m)
                && (s.outputTokensEstimated || (QByteArrayView(m.key) == "total_tok_s" && s.inputTokensEstimated));
            const QString text = QByteArrayView(m.unit).isEmpty() ? number(v, 0) : metricText(v); // a count
            QTableWidgetItem* item = cell((estimated && std::isfinite(v) ? kEstimated : QString()) + text,
                estimated ? tr("Estimated: the server reported no token counts") : QString());
            if (QByteArrayView(m.key) == "failed" && s.failed > 0) {
                item->setForeground(kWorse);
                item->setToolTip(plainToolTip(reasonsText(s)));
            }
            m_table->setItem(1 + row, col, item);
        }
        const LevelSideData side = levelSideData(m_a, l);
        m_table->setItem(1 + int(metrics.size()), col, cell(number(side.gpuUtilPercent, 0)));
        m_table->setItem(2 + int(metrics.size()), col, cell(number(side.gpuPowerW, 0)));
        if (s.failed > 0)
            notes << tr("<span style='color:#c0392b'>%1 of %2 requests failed at concurrency %3: %4</span>")
                         .arg(s.failed)
                         .arg(s.requests)
                         .arg(l.concurrency)
                         .arg(reasonsText(s).toHtmlEscaped());
        if (l.cancelled)
            notes << tr("Concurrency %1 was cancelled after %2 of its requests (%3 never sent).")
                         .arg(l.concurrency)
                         .arg(s.requests)
                         .arg(l.notSent);
    }
    m_table->setHorizontalHeaderLabels(columns);
    fitColumns(m_table);
    if (!m_a.levels.isEmpty()) {
        if (inEstimated || outEstimated)
            notes.prepend(tr("<b>%1 token counts are estimated</b> (marked %2): the server reported no usage, so "
                             "prompts count as their words and output as its text events.")
                              .arg(inEstimated && outEstimated ? tr("Input and output")
                                      : inEstimated            ? tr("Input")
                                                               : tr("Output"),
                                  kEstimated));
        else
            notes.prepend(tr("Token counts are the server's own (usage / meta_info)."));
    }
    if (m_a.gpu.isEmpty() && m_a.status != QLatin1String("running") && !m_a.levels.isEmpty())
        notes << tr("No GPU samples%1.")
                     .arg(m_a.gpuNote.isEmpty() ? QString() : QStringLiteral(": ") + m_a.gpuNote.toHtmlEscaped());
    if (!m_a.saveError.isEmpty())
        notes << QStringLiteral("<span style='color:#c0392b'>%1</span>")
                     .arg(tr("Not stored: %1").arg(m_a.saveError.toHtmlEscaped()));
    m_notes->setText(notes.join(QStringLiteral("<br>")));
}

void BenchResultView::fillComparisonTable()
{
    const RunComparison c = compareRuns(m_a, m_b);
    const QList<BenchMetric>& metrics = benchMetrics();
    m_table->clear();
    m_table->setColumnCount(3 * int(c.levels.size()));
    m_table->setRowCount(int(metrics.size()));
    QStringList rows;
    for (const BenchMetric& m : metrics)
        rows << metricLabel(m);
    m_table->setVerticalHeaderLabels(rows);
    QStringList columns;
    for (int i = 0; i < c.levels.size(); ++i) {
        const LevelComparison& l = c.levels[i];
        columns << tr("c=%1 A").arg(l.concurrency) << tr("c=%1 B").arg(l.concurrency) << tr("change");
        for (int row = 0; row < metrics.size(); ++row) {
            const BenchMetric& m = metrics[row];
            const double a = l.a ? m.value(*l.a) : noValue();
            const double b = l.b ? m.value(*l.b) : noValue();
            const double ch = relativeChange(a, b);
            auto text = [&m](double v) { return QByteArrayView(m.unit).isEmpty() ? number(v, 0) : metricText(v); };
            m_table->setItem(row, 3 * i, cell(l.a ? text(a) : tr("not run")));
            m_table->setItem(row, 3 * i + 1, cell(l.b ? text(b) : tr("not run")));
            auto* change = cell(std::isfinite(ch)
                    ? QStringLiteral("%1%2%").arg(ch >= 0 ? QStringLiteral("+") : QString()).arg(ch * 100, 0, 'f', 1)
                    : QStringLiteral("–"));
            if (std::isfinite(ch) && std::abs(ch) >= 0.005) {
                const bool better = (ch > 0) == m.higherIsBetter;
                change->setForeground(better ? kBetter : kWorse);
                change->setToolTip(better ? tr("B is better") : tr("B is worse"));
            }
            m_table->setItem(row, 3 * i + 2, change);
        }
    }
    m_table->setHorizontalHeaderLabels(columns);
    fitColumns(m_table);
    m_notes->setText(tr("Levels are matched by concurrency; change = (B − A) / A, green where B is better."));
}

void BenchResultView::showReferences()
{
    if (!m_refs) {
        m_references->clear();
        return;
    }
    QStringList lines;
    for (const LevelResult& l : std::as_const(m_a.levels)) {
        for (const ReferenceMatch& m : matchReferences(*m_refs, m_a, l.stats)) {
            const ReferenceResult& r = m.reference;
            const QString kind = r.totalThroughput ? tr("total") : tr("output");
            lines << tr("c=%1: <b>%2</b>, %3 × %4, %5, %6: %7 %8 tok/s (%9 per GPU) · yours %10 (%11 per GPU), "
                        "<b>×%12</b> · <a href=\"%13\">source</a>")
                         .arg(l.concurrency)
                         .arg(r.model.toHtmlEscaped())
                         .arg(r.gpus)
                         .arg(r.gpu.toHtmlEscaped(), r.precision.toHtmlEscaped(), r.server.toHtmlEscaped(),
                             number(r.tokensPerS, 0), kind, number(r.tokensPerSPerGpu(), 0), number(m.ours, 0),
                             m.oursPerGpu > 0 ? number(m.oursPerGpu, 0) : QStringLiteral("–"), number(m.ratio, 2),
                             r.source.toHtmlEscaped());
        }
    }
    const QString rule = tr("Published results are shown only when model, GPU kind and count, precision, input/output "
                            "length (within 10%) and concurrency match. Figures are the whole server's tokens per "
                            "second (output tokens, or input + output where marked total); per GPU = divided by its "
                            "GPUs; yours are normalised the same way. Table: %1")
                             .arg(m_refs->origin.toHtmlEscaped());
    if (lines.isEmpty()) {
        m_references->setText(QStringLiteral("<span style='color:gray'>%1 %2</span>")
                                  .arg(tr("No published result matches this workload."), rule));
        return;
    }
    m_references->setText(
        QStringLiteral("<b>%1</b><br>%2<br><span style='color:gray'>%3</span>")
            .arg(tr("Published results for this workload"), lines.join(QStringLiteral("<br>")), rule));
}

} // namespace kf
