// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/fleet/rolloutdialog.h"

#include "core/deploy/promotestep.h"
#include "core/deploy/recipestep.h"
#include "core/fleet/buildstartstep.h"
#include "core/fleet/patchstep.h"
#include "core/fleet/preflightstep.h"
#include "core/fleet/reviewplan.h"
#include "core/transport/transportpool.h"

#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QThread>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace kf {

using namespace fleet;

namespace {
QColor stateColor(HostRunState s)
{
    switch (s) {
    case HostRunState::Succeeded: return QColor(0x2c, 0xa0, 0x2c);
    case HostRunState::Failed: return QColor(0xd6, 0x27, 0x28);
    case HostRunState::Refused: return QColor(0xc0, 0x70, 0x00);
    case HostRunState::Skipped: return QColor(128, 128, 128);
    default: return {};
    }
}
} // namespace

RolloutDialog::~RolloutDialog()
{
    m_stop->store(true);
}

RolloutDialog::RolloutDialog(const QList<HostProfile>& hosts, QWidget* parent)
    : QDialog(parent)
    , m_hosts(hosts)
{
    setObjectName(QStringLiteral("rolloutDialog"));
    setWindowTitle(tr("Roll out to %n host(s)", nullptr, int(hosts.size())));
    resize(1000, 640);
    for (int i = 0; i < hosts.size(); ++i) {
        m_runs.append({ hosts.at(i), HostRunState::Waiting, {}, i + 1 });
        m_logs.append(QString());
    }
    auto* outer = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    m_action = new QComboBox(this);
    m_action->setObjectName(QStringLiteral("rolloutAction"));
    m_action->addItem(tr("Patch: plan"), QStringLiteral("patch-plan"));
    m_action->addItem(tr("Patch: apply the reviewed plan"), QStringLiteral("patch-apply"));
    m_action->addItem(tr("Build: preflight"), QStringLiteral("preflight"));
    m_action->addItem(tr("Build: start"), QStringLiteral("build"));
    m_action->addItem(tr("Recipe: replay on each host"), QStringLiteral("recipe"));
    m_action->addItem(tr("Promote: a verified build from one host to the others"), QStringLiteral("promote"));
    m_set = new QLineEdit(QStringLiteral("builtin:sgl-kernel-sm120-cuda13"), this);
    m_root = new QLineEdit(QStringLiteral("sgl-kernel"), this);
    m_profile = new QComboBox(this);
    if (const auto profiles = loadBuildProfiles(); profiles)
        for (const BuildProfile& p : profiles.value())
            m_profile->addItem(p.name);
    m_recipe = new QLineEdit(this);
    m_recipe->setObjectName(QStringLiteral("rolloutRecipe"));
    m_recipe->setPlaceholderText(tr("recipe.yaml (kernelforge-cli recipe export)"));
    auto* sourceRow = new QHBoxLayout;
    m_source = new QComboBox(this);
    m_source->setObjectName(QStringLiteral("rolloutSource"));
    for (const HostProfile& h : hosts)
        m_source->addItem(h.name);
    m_caches = new QCheckBox(tr("with the warm JIT caches of its last healthy server"), this);
    m_caches->setObjectName(QStringLiteral("rolloutCaches"));
    m_caches->setToolTip(tr("flashinfer, Triton, DeepGEMM and inductor caches, seeded where their key (GPUs, torch, "
                            "CUDA, Python ABI, library versions, model and arguments) matches"));
    m_buildInstead = new QCheckBox(tr("build it where it does not fit"), this);
    m_buildInstead->setObjectName(QStringLiteral("rolloutBuildInstead"));
    m_buildInstead->setToolTip(tr("A host whose fingerprint differs builds the profile itself (its folder as it "
                                  "stands) and verifies, instead of being refused"));
    sourceRow->addWidget(m_source, 1);
    sourceRow->addWidget(m_caches);
    sourceRow->addWidget(m_buildInstead);
    auto* batchRow = new QHBoxLayout;
    m_batch = new QSpinBox(this);
    m_batch->setRange(1, qMax(1, int(hosts.size())));
    m_batch->setValue(qMin(4, qMax(1, int(hosts.size()))));
    m_continue = new QCheckBox(tr("continue after a failed batch"), this);
    batchRow->addWidget(m_batch);
    batchRow->addWidget(m_continue);
    m_skipUnhealthy = new QCheckBox(tr("skip hosts with an unhealthy GPU"), this);
    m_skipUnhealthy->setObjectName(QStringLiteral("rolloutSkipUnhealthy"));
    m_skipUnhealthy->setToolTip(tr("Check each host's GPUs first (Xid events, ECC, pending row remaps, PCIe, "
                                   "NVLink) and skip a host where one fails"));
    batchRow->addWidget(m_skipUnhealthy);
    batchRow->addStretch();
    form->addRow(tr("Action"), m_action);
    form->addRow(tr("Patch set"), m_set);
    form->addRow(tr("Root on each host"), m_root);
    form->addRow(tr("Build profile"), m_profile);
    form->addRow(tr("Deployment recipe"), m_recipe);
    form->addRow(tr("Promote from"), sourceRow);
    form->addRow(tr("Hosts at a time"), batchRow);
    outer->addLayout(form);
    auto* split = new QSplitter(Qt::Vertical, this);
    m_table = new QTableWidget(int(hosts.size()), 4, split);
    m_table->setObjectName(QStringLiteral("rolloutTable"));
    m_table->setHorizontalHeaderLabels({ tr("Host"), tr("Batch"), tr("State"), tr("Result") });
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_log = new QPlainTextEdit(split);
    m_log->setObjectName(QStringLiteral("rolloutLog"));
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(20000);
    outer->addWidget(split, 1);
    auto* bottom = new QHBoxLayout;
    m_summary = new QLabel(this);
    m_summary->setTextFormat(Qt::PlainText); // hosts' and recipes' words
    m_start = new QPushButton(tr("Start"), this);
    m_start->setObjectName(QStringLiteral("rolloutStart"));
    m_start->setEnabled(!hosts.isEmpty());
    auto* close = new QPushButton(tr("Close"), this);
    bottom->addWidget(m_summary, 1);
    bottom->addWidget(m_start);
    bottom->addWidget(close);
    outer->addLayout(bottom);
    if (hosts.isEmpty())
        m_summary->setText(tr("No host with a profile is shown: add profiles (fleet import) or change the filter."));
    auto refreshBatches = [this] {
        if (m_running)
            return;
        for (int i = 0; i < m_runs.size(); ++i)
            onChanged(i, { m_runs.at(i).profile, HostRunState::Waiting, {}, i / m_batch->value() + 1 });
    };
    // Only the fields the chosen action reads are editable.
    auto fitFields = [this] {
        const QString a = m_action->currentData().toString();
        m_set->setEnabled(a.startsWith(u"patch"));
        m_root->setEnabled(a.startsWith(u"patch"));
        m_profile->setEnabled(a == u"preflight" || a == u"build" || a == u"promote");
        m_recipe->setEnabled(a == u"recipe");
        m_source->setEnabled(a == u"promote");
        m_caches->setEnabled(a == u"promote");
        m_buildInstead->setEnabled(a == u"promote" || a == u"recipe");
    };
    connect(m_action, &QComboBox::currentIndexChanged, this, fitFields);
    fitFields();
    connect(m_batch, &QSpinBox::valueChanged, this, refreshBatches);
    refreshBatches();
    connect(m_table, &QTableWidget::currentCellChanged, this,
        [this](int row) { m_log->setPlainText(row >= 0 ? m_logs.value(row) : QString()); });
    connect(m_start, &QPushButton::clicked, this, &RolloutDialog::start);
    connect(close, &QPushButton::clicked, this, &QDialog::close);
}

void RolloutDialog::setDifferentPlanAnswer(std::function<bool(const QString&, const QString&)> answer)
{
    m_differentAnswer = std::move(answer);
}

void RolloutDialog::setRecipe(const QString& path)
{
    m_recipe->setText(path);
}

void RolloutDialog::setAction(const QString& action)
{
    m_action->setCurrentIndex(qMax(0, m_action->findData(action)));
}

void RolloutDialog::setPatch(const QString& set, const QString& root)
{
    m_set->setText(set);
    m_root->setText(root);
}

void RolloutDialog::setBuildProfile(const QString& name)
{
    m_profile->setCurrentText(name);
}

void RolloutDialog::setPromoteFrom(const QString& host, bool withCaches)
{
    m_source->setCurrentText(host);
    m_caches->setChecked(withCaches);
}

void RolloutDialog::setBatch(int size, bool continueOnError)
{
    m_batch->setValue(size);
    m_continue->setChecked(continueOnError);
}

void RolloutDialog::onChanged(int host, const HostRun& run)
{
    if (host < 0 || host >= m_runs.size())
        return;
    m_runs[host] = run;
    const QStringList cells { run.profile.name, run.batch > 0 ? QString::number(run.batch) : QString(),
        hostRunStateName(run.state), run.summary };
    for (int c = 0; c < cells.size(); ++c) {
        auto* item = m_table->item(host, c);
        if (!item)
            m_table->setItem(host, c, item = new QTableWidgetItem);
        item->setText(cells.at(c));
        if (c == 2)
            item->setForeground(stateColor(run.state).isValid() ? QBrush(stateColor(run.state)) : palette().text());
    }
}

void RolloutDialog::onLog(int host, const QString& line)
{
    if (host < 0 || host >= m_logs.size())
        return;
    m_logs[host] += line + u'\n';
    if (m_table->currentRow() == host)
        m_log->appendPlainText(line);
}

bool RolloutDialog::askDifferent(int host, const QString& why)
{
    const QString name = m_hosts.value(host).name;
    if (m_differentAnswer)
        return m_differentAnswer(name, why);
    return QMessageBox::question(this, tr("Plan differs on %1").arg(name),
               tr("%1\n\nApply this host's plan anyway?").arg(why), QMessageBox::Yes | QMessageBox::No, QMessageBox::No)
        == QMessageBox::Yes;
}

void RolloutDialog::start()
{
    if (m_running || m_hosts.isEmpty())
        return;
    const QString action = m_action->currentData().toString();
    std::shared_ptr<deploy::Step> step;
    if (action.startsWith(u"patch")) {
        const auto set = patch::loadPatchSet(m_set->text().trimmed());
        if (!set) {
            m_summary->setText(set.error());
            return;
        }
        auto ps = std::make_shared<PatchStep>(set.value(), m_root->text().trimmed(), action == u"patch-apply");
        if (action == u"patch-apply") {
            // Review first: the first host's plan, planned now, is what the others must match.
            m_summary->setText(tr("planning on %1 for review…").arg(m_hosts.first().name));
            m_start->setEnabled(false);
            m_running = true;
            const HostProfile review = m_hosts.first();
            const Connector connector = m_connector;
            auto stop = m_stop;
            auto future = QtConcurrent::run(
                transportPool(), [set = set.value(), root = m_root->text().trimmed(), review, connector, stop] {
                    RolloutOptions o;
                    o.connect = connector;
                    return planForReview(review, set, root, o, {}, stop.get());
                });
            auto* watcher = new QFutureWatcher<ReviewedPlan>(this);
            connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, ps] {
                watcher->deleteLater();
                m_running = false;
                m_start->setEnabled(true);
                const ReviewedPlan r = watcher->result();
                if (!r.fingerprint) {
                    m_summary->setText(tr("review plan on %1 failed: %2").arg(r.run.profile.name, r.run.summary));
                    return;
                }
                QString files;
                for (auto it = r.fingerprint->files.cbegin(); it != r.fingerprint->files.cend(); ++it)
                    files += QStringLiteral("  %1\n").arg(it.key());
                const QString summary = tr("Plan %1 on %2 changes:\n%3\nApply it to %n host(s), in batches of %4?",
                    nullptr, int(m_hosts.size()))
                                            .arg(r.fingerprint->hash(), r.run.profile.name, files)
                                            .arg(m_batch->value());
                const bool go = m_reviewAnswer
                    ? m_reviewAnswer(summary)
                    : QMessageBox::question(this, tr("Review the plan"), summary) == QMessageBox::Yes;
                if (!go) {
                    m_summary->setText(tr("not applied"));
                    return;
                }
                ps->setReviewed(*r.fingerprint);
                run(ps);
            });
            watcher->setFuture(future);
            return;
        }
        step = ps;
    } else if (action == u"promote") {
        startPromotion();
        return;
    } else if (action == u"recipe") {
        const auto recipe = deploy::readDeployRecipe(m_recipe->text().trimmed());
        if (!recipe) {
            m_summary->setText(recipe.error());
            return;
        }
        deploy::RecipeOptions options;
        options.buildWhenRefused = m_buildInstead->isChecked();
        // A promote section's source: one of this rollout's hosts, else hosts.yaml's.
        options.connectSource = [hosts = m_hosts, connector = m_connector ? m_connector : Connector(connectQuietly)](
                                    const QString& name) -> Result<std::shared_ptr<Transport>> {
            for (const HostProfile& h : hosts)
                if (h.name == name)
                    return connector(h);
            return connectByName(QString(), name);
        };
        step = std::make_shared<deploy::RecipeStep>(recipe.value(), options);
    } else {
        const auto profiles = loadBuildProfiles();
        const auto bp = profiles ? findBuildProfile(profiles.value(), m_profile->currentText()) : std::nullopt;
        if (!bp) {
            m_summary->setText(tr("no build profile %1").arg(m_profile->currentText()));
            return;
        }
        if (action == u"preflight")
            step = std::make_shared<PreflightStep>(*bp);
        else
            step = std::make_shared<BuildStartStep>(*bp);
    }
    run(step);
}

void RolloutDialog::startPromotion()
{
    const auto profiles = loadBuildProfiles();
    const auto bp = profiles ? findBuildProfile(profiles.value(), m_profile->currentText()) : std::nullopt;
    const int source = m_source->currentIndex();
    if (!bp || source < 0 || m_hosts.size() < 2) {
        m_summary->setText(!bp ? tr("no build profile %1").arg(m_profile->currentText())
                               : tr("a promotion needs a source and at least one other host"));
        return;
    }
    m_running = true;
    m_start->setEnabled(false);
    for (QString& l : m_logs)
        l.clear();
    m_log->clear();
    m_table->setCurrentCell(source, 0);
    onChanged(source, { m_hosts.at(source), HostRunState::Running, tr("verifying the build to promote"), 0 });
    m_summary->setText(tr("verifying %1 on %2…").arg(bp->name, m_hosts.at(source).name));
    QPointer<RolloutDialog> self(this);
    deploy::PromotionSource from;
    from.hostName = m_hosts.at(source).name;
    from.profile = *bp;
    from.withCaches = m_caches->isChecked();
    from.stop = m_stop.get();
    from.log = [self, source](const QString& line) {
        QMetaObject::invokeMethod(
            self.data(),
            [self, source, line] {
                if (self)
                    self->onLog(source, line);
            },
            Qt::QueuedConnection);
    };
    const Connector connector = m_connector ? m_connector : Connector(connectQuietly);
    auto future = QtConcurrent::run(transportPool(),
        [connector, from, host = m_hosts.at(source), stop = m_stop]() -> Result<deploy::PromotionArtifact> {
            const auto t = connector(host);
            if (!t)
                return Result<deploy::PromotionArtifact>::failure(t.error());
            return deploy::preparePromotion(*t.value(), from);
        });
    auto* watcher = new QFutureWatcher<Result<deploy::PromotionArtifact>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, source] {
        watcher->deleteLater();
        m_running = false;
        m_start->setEnabled(true);
        const auto artifact = watcher->result();
        if (!artifact) {
            onChanged(source, { m_hosts.at(source), HostRunState::Failed, artifact.error(), 0 });
            m_summary->setText(tr("nothing promoted: %1").arg(artifact.error()));
            return;
        }
        onChanged(source,
            { m_hosts.at(source), HostRunState::Skipped,
                tr("the source: %1 %2 (%3)").arg(artifact->kindName(), artifact->fileName, artifact->verifySummary),
                0 });
        deploy::PromoteOptions options;
        options.buildWhenRefused = m_buildInstead->isChecked();
        run(std::make_shared<deploy::PromoteStep>(artifact.value(), options), source);
    });
    watcher->setFuture(future);
}

void RolloutDialog::run(std::shared_ptr<deploy::Step> step, int skipRow)
{
    m_running = true;
    m_start->setEnabled(false);
    QList<int> rows; // the rollout's host i is the table's row rows[i]
    QList<HostProfile> hosts;
    for (int r = 0; r < m_hosts.size(); ++r)
        if (r != skipRow) {
            rows << r;
            hosts << m_hosts.at(r);
        }
    for (int r : std::as_const(rows))
        m_logs[r].clear();
    if (skipRow < 0)
        m_log->clear();
    m_summary->setText(tr("running %1…").arg(step->name()));
    RolloutOptions o;
    o.batchSize = m_batch->value();
    o.continueOnError = m_continue->isChecked();
    o.skipUnhealthy = m_skipUnhealthy->isChecked();
    o.connect = m_connector;
    // The worker reaches the dialog only through queued calls on a guarded pointer.
    QPointer<RolloutDialog> self(this);
    RolloutCallbacks cb;
    cb.changed = [self, rows](int i, const HostRun& r) {
        QMetaObject::invokeMethod(
            self.data(),
            [self, row = rows.value(i, -1), r] {
                if (self)
                    self->onChanged(row, r);
            },
            Qt::QueuedConnection);
    };
    cb.log = [self, rows](int i, const QString& line) {
        QMetaObject::invokeMethod(
            self.data(),
            [self, row = rows.value(i, -1), line] {
                if (self)
                    self->onLog(row, line);
            },
            Qt::QueuedConnection);
    };
    cb.confirmDifferent = [self, rows](int i, const QString& why) {
        bool yes = false;
        if (self)
            QMetaObject::invokeMethod(
                self.data(), [&] { yes = self && self->askDifferent(rows.value(i, -1), why); },
                Qt::BlockingQueuedConnection);
        return yes;
    };
    auto stop = m_stop;
    auto future = QtConcurrent::run(
        transportPool(), [hosts, step, o, cb, stop] { return runRollout(hosts, *step, o, cb, stop.get()); });
    auto* watcher = new QFutureWatcher<QList<HostRun>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, rows] {
        watcher->deleteLater();
        const QList<HostRun> runs = watcher->result();
        int ok = 0;
        for (int i = 0; i < runs.size(); ++i) {
            onChanged(rows.value(i, -1), runs.at(i));
            ok += runs.at(i).state == HostRunState::Succeeded;
        }
        m_running = false;
        m_start->setEnabled(true);
        m_summary->setText(tr("%1 of %2 host(s) succeeded").arg(ok).arg(runs.size()));
        Q_EMIT finished();
    });
    watcher->setFuture(future);
}

void RolloutDialog::closeEvent(QCloseEvent* event)
{
    if (m_running
        && QMessageBox::question(this, tr("Rollout running"),
               tr("Stop after the running batch? Hosts already running finish their step."))
            != QMessageBox::Yes) {
        event->ignore();
        return;
    }
    m_stop->store(true);
    QDialog::closeEvent(event);
}

} // namespace kf
