// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/server/benchform.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include <cmath>
#include <limits>

namespace kf {

namespace {

enum LevelKind { ConcurrencyLevels, RateLevels, SearchConcurrency, SearchRate };

template <typename W> W* named(W* w, const char* name)
{
    w->setObjectName(QString::fromLatin1(name));
    return w;
}

QSpinBox* spin(QWidget* parent, const char* name, int lo, int hi, int value, const QString& suffix = {})
{
    auto* s = named(new QSpinBox(parent), name);
    s->setRange(lo, hi);
    s->setValue(value);
    s->setSuffix(suffix);
    return s;
}

QDoubleSpinBox* real(
    QWidget* parent, const char* name, double lo, double hi, double value, int decimals, const QString& suffix = {})
{
    auto* s = named(new QDoubleSpinBox(parent), name);
    s->setRange(lo, hi);
    s->setDecimals(decimals);
    s->setValue(value);
    s->setSuffix(suffix);
    return s;
}

// A choice that gives way in a narrow window (its text elided) instead of widening the form.
QComboBox* narrowable(QComboBox* c)
{
    c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    c->setMinimumContentsLength(14);
    return c;
}

QFormLayout* page(QTabWidget* tabs, const QString& title)
{
    auto* w = new QWidget(tabs);
    auto* form = new QFormLayout(w);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    tabs->addTab(w, title);
    return form;
}

} // namespace

BenchForm::BenchForm(QWidget* parent)
    : QTabWidget(parent)
{
    setObjectName(QStringLiteral("benchParams"));
    setDocumentMode(true);

    QFormLayout* w = page(this, tr("Workload"));
    m_api = narrowable(named(new QComboBox(this), "benchApi"));
    m_api->addItem(tr("OpenAI completions (/v1/completions)"), int(ServeApi::Completions));
    m_api->addItem(tr("OpenAI chat (/v1/chat/completions)"), int(ServeApi::ChatCompletions));
    m_api->addItem(tr("SGLang native (/generate)"), int(ServeApi::Generate));
    w->addRow(tr("API"), m_api);
    m_dataset = narrowable(named(new QComboBox(this), "benchDataset"));
    m_dataset->addItem(tr("Random words"), int(Dataset::Random));
    m_dataset->addItem(tr("ShareGPT file"), int(Dataset::ShareGpt));
    m_dataset->addItem(tr("Shared-prefix groups (cache hits)"), int(Dataset::SharedPrefix));
    w->addRow(tr("Dataset"), m_dataset);
    m_inputLen = spin(this, "benchInputLen", 1, 1000000, 1024, tr(" tokens"));
    w->addRow(tr("Input length"), m_inputLen);
    m_outputLen = spin(this, "benchOutputLen", 0, 1000000, 128, tr(" tokens"));
    m_outputLen->setSpecialValueText(tr("each reply's length"));
    w->addRow(tr("Output length"), m_outputLen);
    auto* ratioRow = new QHBoxLayout();
    m_rangeRatio = real(this, "benchRangeRatio", -0.05, 1, -0.05, 2);
    m_rangeRatio->setSingleStep(0.05);
    m_rangeRatio->setSpecialValueText(tr("fixed lengths"));
    m_rangeMeaning = narrowable(named(new QComboBox(this), "benchRangeMeaning"));
    m_rangeMeaning->addItem(tr("as vLLM: L·(1−r) … L·(1+r)"), int(RangeMeaning::Vllm));
    m_rangeMeaning->addItem(tr("as SGLang: L·r … L"), int(RangeMeaning::Sglang));
    m_rangeMeaning->setToolTip(tr("The tools read --random-range-ratio differently (sglang#7253); name the one you "
                                  "compare with."));
    ratioRow->addWidget(m_rangeRatio);
    ratioRow->addWidget(m_rangeMeaning, 1);
    w->addRow(tr("Range ratio"), ratioRow);
    auto* fileRow = new QHBoxLayout();
    m_datasetPath = named(new QLineEdit(this), "benchDatasetPath");
    m_datasetPath->setPlaceholderText(tr("ShareGPT_V3_unfiltered_cleaned_split.json"));
    m_browse = named(new QPushButton(tr("Browse…"), this), "benchDatasetBrowse");
    fileRow->addWidget(m_datasetPath, 1);
    fileRow->addWidget(m_browse);
    w->addRow(tr("ShareGPT file"), fileRow);
    auto* groupRow = new QHBoxLayout();
    m_groups = spin(this, "benchPrefixGroups", 1, 100000, 4, tr(" groups"));
    m_perGroup = spin(this, "benchPromptsPerGroup", 1, 100000, 8, tr(" each"));
    groupRow->addWidget(m_groups);
    groupRow->addWidget(m_perGroup);
    w->addRow(tr("Prefix groups"), groupRow);
    auto* lenRow = new QHBoxLayout();
    m_prefixLen = spin(this, "benchPrefixLen", 1, 1000000, 512, tr(" prefix"));
    m_questionLen = spin(this, "benchQuestionLen", 1, 1000000, 64, tr(" question"));
    lenRow->addWidget(m_prefixLen);
    lenRow->addWidget(m_questionLen);
    w->addRow(tr("Tokens"), lenRow);
    m_uniquePrefix = named(new QCheckBox(tr("Unique prefixes (0 % cache hits)"), this), "benchUniquePrefix");
    m_uniquePrefix->setToolTip(tr("Every conversation its own prefix: a 0 % prefix-cache baseline"));
    w->addRow(m_uniquePrefix);

    QFormLayout* l = page(this, tr("Load"));
    m_levelKind = narrowable(named(new QComboBox(this), "benchLevelKind"));
    m_levelKind->addItem(tr("Concurrency levels"), int(ConcurrencyLevels));
    m_levelKind->addItem(tr("Request rates"), int(RateLevels));
    m_levelKind->addItem(tr("Goodput search: concurrency"), int(SearchConcurrency));
    m_levelKind->addItem(tr("Goodput search: request rate"), int(SearchRate));
    l->addRow(tr("Levels"), m_levelKind);
    m_concurrency = named(new QLineEdit(QStringLiteral("1,4,16,64"), this), "benchConcurrency");
    m_concurrency->setToolTip(tr("One level per concurrency: the requests in flight at once"));
    l->addRow(tr("Concurrency"), m_concurrency);
    m_rates = named(new QLineEdit(QStringLiteral("1,2,4,8"), this), "benchRates");
    m_rates->setToolTip(tr("One level per request rate (requests/s)"));
    l->addRow(tr("Rates"), m_rates);
    m_maxConcurrency = spin(this, "benchMaxConcurrency", 0, 100000, 0);
    m_maxConcurrency->setSpecialValueText(tr("no cap"));
    l->addRow(tr("Max in flight"), m_maxConcurrency);
    m_requests = spin(this, "benchRequests", 0, 1000000, 0);
    m_requests->setSpecialValueText(tr("auto"));
    m_requests->setToolTip(tr("auto: max(16, 4 × concurrency); at a rate, 10 s of arrivals (at least 32)"));
    l->addRow(tr("Requests per level"), m_requests);
    m_rate = real(this, "benchRate", 0, 100000, 0, 1, tr(" req/s"));
    m_rate->setSpecialValueText(tr("all at once"));
    m_rate->setToolTip(tr("Arrivals at concurrency levels; 0: every request at once (a closed loop)"));
    l->addRow(tr("Request rate"), m_rate);
    m_burstiness = real(this, "benchBurstiness", 0.01, 1000, 1, 2);
    m_burstiness->setToolTip(tr("Gamma shape of the gaps between arrivals (vLLM's --burstiness): 1 Poisson, below 1 "
                                "burstier, above 1 more even"));
    l->addRow(tr("Burstiness"), m_burstiness);
    auto* rampRow = new QHBoxLayout();
    m_rampUp = named(new QComboBox(this), "benchRampUp");
    m_rampUp->addItem(tr("no ramp"), int(RampUp::None));
    m_rampUp->addItem(tr("linear"), int(RampUp::Linear));
    m_rampUp->addItem(tr("exponential"), int(RampUp::Exponential));
    m_rampStart = real(this, "benchRampStart", 0, 100000, 1, 1);
    m_rampEnd = real(this, "benchRampEnd", 0, 100000, 10, 1, tr(" req/s"));
    rampRow->addWidget(m_rampUp);
    rampRow->addWidget(m_rampStart);
    rampRow->addWidget(m_rampEnd);
    l->addRow(tr("Ramp-up"), rampRow);
    m_stopOnSaturation
        = named(new QCheckBox(tr("Stop after the first saturated level"), this), "benchStopOnSaturation");
    l->addRow(m_stopOnSaturation);

    QFormLayout* g = page(this, tr("Goodput"));
    auto slo = [this](const char* name) {
        QDoubleSpinBox* s = real(this, name, 0, 1e7, 0, 0, tr(" ms"));
        s->setSpecialValueText(tr("none"));
        return s;
    };
    m_sloTtft = slo("benchSloTtft");
    m_sloTpot = slo("benchSloTpot");
    m_sloE2e = slo("benchSloE2e");
    g->addRow(tr("TTFT at most"), m_sloTtft);
    g->addRow(tr("TPOT at most"), m_sloTpot);
    g->addRow(tr("E2E at most"), m_sloE2e);
    m_target = real(this, "benchGoodputTarget", 1, 100, 90, 0, tr(" % of requests"));
    g->addRow(tr("Goodput target"), m_target);
    m_searchMax = spin(this, "benchSearchMax", 1, 100000, 256);
    m_searchMax->setToolTip(tr("The goodput search tries 1, 2, 4… up to this, then halves the gap"));
    g->addRow(tr("Search up to"), m_searchMax);

    connect(m_browse, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(
            this, tr("ShareGPT-format JSON file"), m_datasetPath->text(), tr("JSON (*.json);;All files (*)"));
        if (!f.isEmpty())
            m_datasetPath->setText(f);
    });
    for (QComboBox* c : { m_api, m_dataset, m_rangeMeaning, m_levelKind, m_rampUp })
        connect(c, &QComboBox::currentIndexChanged, this, [this] {
            updateEnabled();
            Q_EMIT changed();
        });
    for (QLineEdit* e : { m_concurrency, m_rates, m_datasetPath })
        connect(e, &QLineEdit::textChanged, this, &BenchForm::changed);
    for (QSpinBox* s : { m_inputLen, m_outputLen, m_groups, m_perGroup, m_prefixLen, m_questionLen, m_maxConcurrency,
             m_requests, m_searchMax })
        connect(s, &QSpinBox::valueChanged, this, &BenchForm::changed);
    for (QDoubleSpinBox* s :
        { m_rangeRatio, m_rate, m_burstiness, m_rampStart, m_rampEnd, m_sloTtft, m_sloTpot, m_sloE2e, m_target })
        connect(s, &QDoubleSpinBox::valueChanged, this, [this] {
            updateEnabled();
            Q_EMIT changed();
        });
    for (QCheckBox* c : { m_uniquePrefix, m_stopOnSaturation })
        connect(c, &QCheckBox::toggled, this, &BenchForm::changed);
    updateEnabled();
}

void BenchForm::setRunning(bool running)
{
    m_running = running;
    updateEnabled();
}

void BenchForm::updateEnabled()
{
    const auto dataset = Dataset(m_dataset->currentData().toInt());
    const int kind = m_levelKind->currentData().toInt();
    const bool ramp = RampUp(m_rampUp->currentData().toInt()) != RampUp::None;
    const bool idle = !m_running;
    for (QWidget* x : std::initializer_list<QWidget*> { m_api, m_dataset, m_levelKind, m_requests, m_burstiness,
             m_rampUp, m_stopOnSaturation, m_sloTtft, m_sloTpot, m_sloE2e, m_target })
        x->setEnabled(idle);
    m_inputLen->setEnabled(idle && dataset == Dataset::Random);
    m_outputLen->setEnabled(idle && dataset != Dataset::SharedPrefix);
    m_rangeRatio->setEnabled(idle && dataset == Dataset::Random);
    m_rangeMeaning->setEnabled(idle && dataset == Dataset::Random && m_rangeRatio->value() >= 0);
    m_datasetPath->setEnabled(idle && dataset == Dataset::ShareGpt);
    m_browse->setEnabled(idle && dataset == Dataset::ShareGpt);
    for (QWidget* x : std::initializer_list<QWidget*> { m_groups, m_perGroup, m_prefixLen, m_questionLen })
        x->setEnabled(idle && dataset == Dataset::SharedPrefix);
    m_uniquePrefix->setEnabled(idle && dataset != Dataset::SharedPrefix);
    m_requests->setEnabled(idle && dataset != Dataset::SharedPrefix);
    m_concurrency->setEnabled(idle && kind == ConcurrencyLevels);
    m_rates->setEnabled(idle && kind == RateLevels);
    m_maxConcurrency->setEnabled(idle && (kind == RateLevels || kind == SearchRate));
    m_rate->setEnabled(idle && (kind == ConcurrencyLevels || kind == SearchConcurrency) && !ramp);
    m_rampStart->setEnabled(idle && ramp);
    m_rampEnd->setEnabled(idle && ramp);
    m_searchMax->setEnabled(idle && (kind == SearchConcurrency || kind == SearchRate));
}

Result<BenchParams> BenchForm::params(quint16 serverPort) const
{
    using R = Result<BenchParams>;
    BenchParams p = m_kept;
    p.serverPort = serverPort;
    p.api = ServeApi(m_api->currentData().toInt());
    p.dataset = Dataset(m_dataset->currentData().toInt());
    p.inputTokens = m_inputLen->value();
    p.outputTokens = m_outputLen->value();
    p.rangeRatio = m_rangeRatio->value() >= 0 ? m_rangeRatio->value() : -1;
    p.rangeMeaning = RangeMeaning(m_rangeMeaning->currentData().toInt());
    p.datasetPath = m_datasetPath->text().trimmed();
    p.prefixGroups = m_groups->value();
    p.prefixPerGroup = m_perGroup->value();
    p.prefixTokens = m_prefixLen->value();
    p.questionTokens = m_questionLen->value();
    p.uniquePrefix = m_uniquePrefix->isChecked() && p.dataset != Dataset::SharedPrefix;
    const int kind = m_levelKind->currentData().toInt();
    p.search = kind == SearchConcurrency ? SearchKind::Concurrency
        : kind == SearchRate             ? SearchKind::RequestRate
                                         : SearchKind::None;
    p.rates.clear();
    if (kind == ConcurrencyLevels) {
        const auto levels = parseConcurrencies(m_concurrency->text());
        if (!levels)
            return R::failure(tr("Concurrency: %1").arg(levels.error()));
        p.concurrencies = levels.value();
    } else if (kind == RateLevels) {
        const auto rates = parseRates(m_rates->text());
        if (!rates)
            return R::failure(tr("Rates: %1").arg(rates.error()));
        p.rates = rates.value();
    }
    p.maxConcurrency = m_maxConcurrency->value();
    p.requests = p.dataset == Dataset::SharedPrefix ? 0 : m_requests->value();
    p.requestRate = m_rate->value();
    p.burstiness = m_burstiness->value();
    p.rampUp = RampUp(m_rampUp->currentData().toInt());
    p.rampStartRps = m_rampStart->value();
    p.rampEndRps = m_rampEnd->value();
    if (p.rampUp != RampUp::None)
        p.requestRate = 0;
    p.stopOnSaturation = m_stopOnSaturation->isChecked();
    auto ms = [](const QDoubleSpinBox* s) { return s->value() > 0 ? s->value() : noValue(); };
    p.slo = Slo { ms(m_sloTtft), ms(m_sloTpot), ms(m_sloE2e) };
    p.goodputTarget = m_target->value() / 100.0;
    p.searchMax = m_searchMax->value();
    if (const QString e = p.error(); !e.isEmpty())
        return R::failure(e.left(1).toUpper() + e.mid(1));
    return p;
}

void BenchForm::setParams(const BenchParams& p)
{
    // What the form keeps for the next Start: not a replay, and a file read afresh.
    m_kept = p;
    m_kept.replayOf = 0;
    m_kept.datasetSha256.clear();
    m_api->setCurrentIndex(qMax(0, m_api->findData(int(p.api))));
    m_dataset->setCurrentIndex(qMax(0, m_dataset->findData(int(p.dataset))));
    m_inputLen->setValue(p.inputTokens);
    m_outputLen->setValue(p.outputTokens);
    m_rangeRatio->setValue(p.rangeRatio >= 0 ? p.rangeRatio : m_rangeRatio->minimum());
    m_rangeMeaning->setCurrentIndex(qMax(0, m_rangeMeaning->findData(int(p.rangeMeaning))));
    m_datasetPath->setText(p.datasetPath);
    m_groups->setValue(p.prefixGroups);
    m_perGroup->setValue(p.prefixPerGroup);
    m_prefixLen->setValue(p.prefixTokens);
    m_questionLen->setValue(p.questionTokens);
    m_uniquePrefix->setChecked(p.uniquePrefix);
    const int kind = p.search == SearchKind::Concurrency ? SearchConcurrency
        : p.search == SearchKind::RequestRate            ? SearchRate
        : !p.rates.isEmpty()                             ? RateLevels
                                                         : ConcurrencyLevels;
    m_levelKind->setCurrentIndex(qMax(0, m_levelKind->findData(kind)));
    QStringList levels;
    for (int c : p.concurrencies)
        levels << QString::number(c);
    if (!levels.isEmpty())
        m_concurrency->setText(levels.join(u','));
    QStringList rates;
    for (double r : p.rates)
        rates << QString::number(r, 'g', 6);
    if (!rates.isEmpty())
        m_rates->setText(rates.join(u','));
    m_maxConcurrency->setValue(p.maxConcurrency);
    m_requests->setValue(p.requests);
    m_rate->setValue(p.requestRate);
    m_burstiness->setValue(std::isfinite(p.burstiness) ? p.burstiness : m_burstiness->maximum());
    m_rampUp->setCurrentIndex(qMax(0, m_rampUp->findData(int(p.rampUp))));
    m_rampStart->setValue(p.rampStartRps);
    m_rampEnd->setValue(p.rampEndRps);
    m_stopOnSaturation->setChecked(p.stopOnSaturation);
    auto setMs = [](QDoubleSpinBox* s, double v) { s->setValue(hasValue(v) ? v : 0); };
    setMs(m_sloTtft, p.slo.ttftMs);
    setMs(m_sloTpot, p.slo.tpotMs);
    setMs(m_sloE2e, p.slo.e2eMs);
    m_target->setValue(p.goodputTarget * 100);
    m_searchMax->setValue(p.searchMax);
    updateEnabled();
}

} // namespace kf
