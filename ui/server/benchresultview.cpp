// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/server/benchresultview.h"

#include "core/gpu/throttlereasons.h"
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
    // "output tok/s per GPU" and "goodput (req/s)" say their unit already.
    const QString label = QString::fromLatin1(m.label);
    const QString unit = QString::fromLatin1(m.unit);
    return unit.isEmpty() || label.contains(unit) || label.endsWith(QLatin1String("/s"))
        ? label
        : QStringLiteral("%1 (%2)").arg(label, unit);
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

const BenchMetric& metricOf(const QComboBox* box)
{
    const BenchMetric* m = benchMetric(box->currentData().toByteArray().constData());
    return m ? *m : benchMetrics().first();
}

QString red(const QString& html)
{
    return QStringLiteral("<span style='color:#c0392b'>%1</span>").arg(html);
}

// What KernelForge adds to a level, in one line for the notes.
QString analysisNote(const BenchRun& run, const LevelResult& l)
{
    const LevelAnalysis& a = l.analysis;
    QStringList parts;
    if (a.saturation.saturated())
        parts << red(QObject::tr("saturated: %1").arg(a.saturation.summary().toHtmlEscaped()));
    if (a.agreement.checked && !a.agreement.agrees)
        parts << red(a.agreement.detail.toHtmlEscaped());
    if (a.otherRunning > 0 || a.otherQueued > 0)
        parts << red(QObject::tr("other load: %1 running, %2 waiting on the server just before it")
                         .arg(number(a.otherRunning, 0), number(a.otherQueued, 0)));
    if (run.params.slo.any())
        parts << QObject::tr("%1 of %2 requests met %3")
                     .arg(a.goodput.good)
                     .arg(a.goodput.requests)
                     .arg(sloText(run.params.slo));
    parts << (a.steady.valid()
            ? QObject::tr("steady %1–%2 s: %3 output tok/s")
                  .arg(number(a.steady.startS, 1), number(a.steady.endS, 1), number(a.steady.outputThroughput, 0))
            : a.steady.note.toHtmlEscaped());
    if (hasValue(a.cacheHitRate))
        parts << QObject::tr("prefix cache hits %1 %").arg(number(a.cacheHitRate * 100, 1));
    if (a.gpu.hasReasons && a.gpu.reasons)
        parts << QObject::tr("GPU clocks limited: %1").arg(reasonPhrases(a.gpu.reasons).join(QStringLiteral(", ")));
    return QStringLiteral("<b>%1</b>: %2").arg(levelLabel(l.plan()).toHtmlEscaped(), parts.join(QStringLiteral(" · ")));
}

} // namespace

BenchResultView::BenchResultView(QWidget* parent)
    : QWidget(parent)
    , m_header(new QLabel(this))
    , m_chart(new SweepChart(this))
    , m_table(new QTableWidget(this))
    , m_notes(new QLabel(this))
    , m_references(new QLabel(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_header->setObjectName(QStringLiteral("benchHeader"));
    m_header->setWordWrap(true);
    // Never squeezed below its lines: the chart and table give way.
    m_header->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_header->setTextFormat(Qt::RichText); // escaped HTML, with or without a tag in it
    layout->addWidget(m_header);
    auto* axis = new QHBoxLayout();
    m_y = new QComboBox(this);
    m_y->setObjectName(QStringLiteral("benchYMetric"));
    for (const char* key :
        { "output_tok_s_per_gpu", "total_tok_s_per_gpu", "output_tok_s", "total_tok_s", "output_goodput" })
        m_y->addItem(QString::fromLatin1(benchMetric(key)->label), QByteArray(key));
    m_y->setToolTip(tr("Throughput, output or total (input + output) tokens; per GPU = the server's figure divided "
                       "by its GPUs"));
    m_x = new QComboBox(this);
    m_x->setObjectName(QStringLiteral("benchXMetric"));
    // Both choices give way (elided) in a narrow window rather than widening the pane.
    for (QComboBox* c : { m_y, m_x }) {
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        c->setMinimumContentsLength(12);
    }
    m_x->addItem(QString::fromLatin1(benchMetric("output_tok_s_per_user")->label), QByteArray("output_tok_s_per_user"));
    for (const BenchMetric& m : benchMetrics())
        if (QByteArrayView(m.unit) == "ms")
            m_x->addItem(QString::fromLatin1(m.label), QByteArray(m.key));
    m_x->setToolTip(tr("Per user: 1 / TPOT p50, the tokens per second one user sees while decoding. TTFT: time to the "
                       "first token; TPOT: time per output token after the first; ITL: each gap between tokens; E2E: "
                       "the whole request (bench_serving's definitions)"));
    axis->addWidget(m_y);
    axis->addWidget(new QLabel(tr("against"), this));
    axis->addWidget(m_x);
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
    connect(m_x, &QComboBox::currentIndexChanged, this, &BenchResultView::refresh);
    connect(m_y, &QComboBox::currentIndexChanged, this, &BenchResultView::refresh);
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
    const BenchMetric& xm = metricOf(m_x);
    const BenchMetric& ym = metricOf(m_y);
    const bool xLatency = QByteArrayView(xm.unit) == "ms";
    m_chart->setAxes(
        xLatency ? QStringLiteral("%1 (ms)").arg(QString::fromLatin1(xm.label)) : QString::fromLatin1(xm.label),
        QString::fromLatin1(ym.label), xm.higherIsBetter);
    auto curve = [&](const BenchRun& r, const QString& name, int color) {
        SweepChart::Curve c { name, TimeChart::paletteColor(color), {} };
        QList<const LevelResult*> levels;
        for (const LevelResult& l : r.levels)
            levels.append(&l);
        // Along the load: concurrency, then rate (a search runs them out of order).
        std::stable_sort(levels.begin(), levels.end(), [](const LevelResult* a, const LevelResult* b) {
            return std::pair(a->concurrency, a->requestRate) < std::pair(b->concurrency, b->requestRate);
        });
        for (const LevelResult* l : std::as_const(levels)) {
            const MetricInput in { *l, r.facts.gpuCount };
            const bool meets = !r.params.slo.any() || !(l->analysis.goodput.fraction < r.params.goodputTarget);
            c.points.append({ levelLabel(l->plan()), xm.value(in), ym.value(in), l->stats.outputTokensEstimated, meets,
                l->analysis.saturation.saturated() });
        }
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
        if (m_a.params.replayOf)
            head += QStringLiteral("<br>") + tr("Replay of run %1").arg(m_a.params.replayOf);
        if (!m_a.note.isEmpty())
            head += QStringLiteral("<br><b>%1</b>").arg(m_a.note.toHtmlEscaped());
        m_header->setText(head);
        fillRunTable();
        showReferences();
    } else {
        m_chart->setCurves(
            { curve(m_a, tr("A: %1").arg(runName(m_a)), 0), curve(m_b, tr("B: %1").arg(runName(m_b)), 1) });
        const RunComparison c = compareRuns(m_a, m_b);
        // The server once when both ran on the same one: the lines stay short.
        const bool sameServer = serverSummary(m_a.facts) == serverSummary(m_b.facts);
        auto line = [sameServer](const QString& tag, const BenchRun& r) {
            return QStringLiteral("<b>%1</b>: %2 · %3 · %4%5")
                .arg(tag, runName(r).toHtmlEscaped(),
                    r.started.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")), r.status.toHtmlEscaped(),
                    sameServer ? QString() : QStringLiteral(" · ") + serverSummary(r.facts).toHtmlEscaped());
        };
        QString head = line(QStringLiteral("A"), m_a) + QStringLiteral("<br>") + line(QStringLiteral("B"), m_b)
            + QStringLiteral("<br>");
        if (sameServer)
            head += tr("Server: %1").arg(serverSummary(m_a.facts).toHtmlEscaped()) + QStringLiteral("<br>");
        head += c.differences.isEmpty()
            ? tr("Same workload: %1").arg(workloadSummary(m_a).toHtmlEscaped())
            : red(tr("Not the same workload, so the figures do not compare as they stand: %1")
                      .arg(c.differences.join(QStringLiteral("; ")).toHtmlEscaped()));
        head += QStringLiteral("<br>")
            + (c.contextDifferences.isEmpty()
                    ? tr("Same host, build, driver and server arguments.")
                    : tr("Ran differently: %1").arg(c.contextDifferences.join(QStringLiteral("; ")).toHtmlEscaped()));
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
    m_table->setRowCount(1 + int(metrics.size()) + 5);
    QStringList rows { tr("requests ok / sent") };
    for (const BenchMetric& m : metrics)
        rows << metricLabel(m);
    rows << tr("GPU utilisation (%)") << tr("GPU power, all GPUs (W)") << tr("GPM SM active (%)")
         << tr("GPM tensor active (%)") << tr("GPM DRAM active (%)");
    m_table->setVerticalHeaderLabels(rows);
    QStringList columns;
    QStringList notes;
    bool inEstimated = false;
    bool outEstimated = false;
    for (int col = 0; col < m_a.levels.size(); ++col) {
        const LevelResult& l = m_a.levels[col];
        const LevelStats& s = l.stats;
        const MetricInput in { l, m_a.facts.gpuCount };
        columns << levelLabel(l.plan()) + (l.cancelled ? tr(" (cancelled)") : QString());
        inEstimated = inEstimated || s.inputTokensEstimated;
        outEstimated = outEstimated || s.outputTokensEstimated;
        m_table->setItem(0, col, cell(QStringLiteral("%1 / %2").arg(s.completed).arg(s.requests)));
        for (int row = 0; row < metrics.size(); ++row) {
            const BenchMetric& m = metrics[row];
            const double v = m.value(in);
            // Output counts feed every tok/s; total tok/s also the prompt's.
            const bool estimated = isThroughput(m)
                && (s.outputTokensEstimated || (QByteArrayView(m.key).startsWith("total") && s.inputTokensEstimated));
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
        m_table->setItem(3 + int(metrics.size()), col, cell(number(side.smActivePercent, 0)));
        m_table->setItem(4 + int(metrics.size()), col, cell(number(side.tensorActivePercent, 0)));
        m_table->setItem(5 + int(metrics.size()), col, cell(number(side.dramActivePercent, 0)));
        if (s.failed > 0)
            notes << red(tr("%1 of %2 requests failed at %3: %4")
                             .arg(s.failed)
                             .arg(s.requests)
                             .arg(levelLabel(l.plan()))
                             .arg(reasonsText(s).toHtmlEscaped()));
        if (l.cancelled)
            notes << tr("%1 was cancelled after %2 of its requests (%3 never sent).")
                         .arg(levelLabel(l.plan()))
                         .arg(s.requests)
                         .arg(l.notSent);
        notes << analysisNote(m_a, l);
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
    else if (!m_a.gpmNote.isEmpty())
        notes << tr("No GPM in the GPU samples: %1").arg(m_a.gpmNote.toHtmlEscaped());
    QStringList context;
    for (const QString& line : contextLines(m_a.context))
        context << (line.startsWith(QLatin1String("OTHER LOAD")) ? red(line.toHtmlEscaped()) : line.toHtmlEscaped());
    if (!context.isEmpty())
        notes << tr("<b>Context</b>: %1").arg(context.join(QStringLiteral(" · ")));
    if (!m_a.saveError.isEmpty())
        notes << red(tr("Not stored: %1").arg(m_a.saveError.toHtmlEscaped()));
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
        const QString label = levelLabel(l.plan);
        columns << tr("%1 A").arg(label) << tr("%1 B").arg(label) << tr("change");
        std::optional<MetricInput> ia;
        std::optional<MetricInput> ib;
        if (l.a)
            ia.emplace(MetricInput { *l.a, m_a.facts.gpuCount });
        if (l.b)
            ib.emplace(MetricInput { *l.b, m_b.facts.gpuCount });
        for (int row = 0; row < metrics.size(); ++row) {
            const BenchMetric& m = metrics[row];
            const MetricComparison mc = compareMetric(m, ia ? &*ia : nullptr, ib ? &*ib : nullptr);
            auto text = [&m](double v) { return QByteArrayView(m.unit).isEmpty() ? number(v, 0) : metricText(v); };
            m_table->setItem(row, 3 * i, cell(l.a ? text(mc.a) : tr("not run")));
            m_table->setItem(row, 3 * i + 1, cell(l.b ? text(mc.b) : tr("not run")));
            auto* change = cell(std::isfinite(mc.change) ? QStringLiteral("%1%2%")
                                                               .arg(mc.change >= 0 ? QStringLiteral("+") : QString())
                                                               .arg(mc.change * 100, 0, 'f', 1)
                                                         : QStringLiteral("–"));
            // Without a spread (one sample per level) only the stated noise floor decides.
            const QString floor
                = tr("no spread known (one sample), so the noise floor of %1 % of A").arg(kBenchNoiseFloor * 100);
            if (mc.verdict == Verdict::Better || mc.verdict == Verdict::Worse) {
                const bool better = mc.verdict == Verdict::Better;
                change->setForeground(better ? kBetter : kWorse);
                if (mc.spreadKnown)
                    change->setToolTip((better ? tr("B is better, beyond the runs' spread (±%1)")
                                               : tr("B is worse, beyond the runs' spread (±%1)"))
                                           .arg(metricText(mc.band)));
                else
                    change->setToolTip(
                        (better ? tr("B is better, beyond noise (±%1: %2)") : tr("B is worse, beyond noise (±%1: %2)"))
                            .arg(metricText(mc.band), floor));
            } else if (mc.verdict == Verdict::Same) {
                change->setToolTip(mc.spreadKnown
                        ? tr("Within the runs' spread (±%1): the same").arg(metricText(mc.band))
                        : tr("Within noise (±%1: %2): the same").arg(metricText(mc.band), floor));
            }
            change->setData(Qt::UserRole, verdictName(mc.verdict));
            m_table->setItem(row, 3 * i + 2, change);
        }
    }
    m_table->setHorizontalHeaderLabels(columns);
    fitColumns(m_table);
    m_notes->setText(tr("Levels are matched by concurrency and rate; change = (B − A) / A, green or red only where "
                        "|B − A| exceeds twice the runs' combined standard error (from their requests' spread) and "
                        "%1 % of A (the noise floor, all there is for a level of one sample); other changes are "
                        "the same within the noise.")
                         .arg(kBenchNoiseFloor * 100));
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
