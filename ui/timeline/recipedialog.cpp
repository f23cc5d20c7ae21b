// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/timeline/recipedialog.h"

#include "core/deploy/reciperunner.h"
#include "core/fleet/rollout.h"
#include "core/hosts/hostconnection.h"
#include "core/hosts/hostmanager.h"
#include "core/remotebuild/buildsession.h"
#include "core/util/envfile.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace kf {

using deploy::RecipeRunner;

RecipeDialog::RecipeDialog(
    const AppContext& context, const QString& recipePath, HostConnection* target, QWidget* parent)
    : QDialog(parent)
    , m_context(context)
    , m_path(recipePath)
    , m_hosts(new QComboBox(this))
    , m_envFile(new QLineEdit(this))
    , m_envFromProfile(new QCheckBox(this))
    , m_buildInstead(new QCheckBox(this))
    , m_log(new QPlainTextEdit(this))
    , m_status(new QLabel(this))
    , m_dryRun(new QPushButton(tr("Dry run"), this))
    , m_apply(new QPushButton(tr("Apply"), this))
{
    setObjectName(QStringLiteral("RecipeDialog"));
    setWindowTitle(tr("Apply recipe to host"));
    resize(820, 560);
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout();
    auto* file = new QLabel(recipePath, this);
    file->setTextFormat(Qt::PlainText);
    file->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(tr("Recipe"), file);
    m_hosts->setObjectName(QStringLiteral("recipeHost"));
    if (context.hosts)
        for (HostConnection* h : context.hosts->hosts())
            m_hosts->addItem(QStringLiteral("%1 (%2)").arg(h->profile().name, h->profile().destination()),
                QVariant::fromValue(static_cast<QObject*>(h)));
    form->addRow(tr("Host"), m_hosts);
    auto* envRow = new QHBoxLayout();
    m_envFile->setObjectName(QStringLiteral("recipeEnvFile"));
    m_envFile->setPlaceholderText(tr("K=V lines for the build's environment names (tokens): never stored"));
    auto* browse = new QPushButton(tr("Browse\u2026"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Environment file"));
        if (!f.isEmpty())
            m_envFile->setText(f);
    });
    envRow->addWidget(m_envFile, 1);
    envRow->addWidget(browse);
    form->addRow(tr("Environment file"), envRow);
    // Opt-in, by name: a recipe from someone else never takes a value of the user's unasked.
    m_envFromProfile->setObjectName(QStringLiteral("recipeEnvFromProfile"));
    m_buildInstead->setObjectName(QStringLiteral("recipeBuildInstead"));
    const auto recipe = deploy::readDeployRecipe(recipePath);
    if (recipe && recipe->build && !recipe->build->envNames.isEmpty()) {
        m_buildName = recipe->build->profile.name;
        m_envFromProfile->setText(tr("Take values for %1 from my build profile \u201c%2\u201d")
                                      .arg(recipe->build->envNames.join(QStringLiteral(", ")), m_buildName));
    }
    m_envFromProfile->setVisible(!m_buildName.isEmpty());
    form->addRow(QString(), m_envFromProfile);
    // A recipe that carries a promoted build installs it where it fits; asked, it builds elsewhere.
    if (recipe && recipe->promote)
        m_buildInstead->setText(tr("Build it on the host if %1's build (%2) does not fit there")
                                    .arg(recipe->promote->from, recipe->promote->file));
    m_buildInstead->setVisible(recipe && recipe->promote);
    form->addRow(QString(), m_buildInstead);
    layout->addLayout(form);
    m_log->setObjectName(QStringLiteral("recipeLog"));
    m_log->setReadOnly(true);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_log->setPlaceholderText(tr("A dry run compares the host's tool versions with the recipe's (differences first) "
                                 "and plans the patches; nothing changes. Apply then patches, builds (detached), "
                                 "verifies and launches, stopping at the first step that fails."));
    layout->addWidget(m_log, 1);
    m_status->setObjectName(QStringLiteral("recipeStatus"));
    m_status->setTextFormat(Qt::PlainText); // the recipe's and the host's words
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    auto* buttons = new QDialogButtonBox(this);
    m_dryRun->setObjectName(QStringLiteral("recipeDryRun"));
    m_apply->setObjectName(QStringLiteral("recipeApply"));
    buttons->addButton(m_dryRun, QDialogButtonBox::ActionRole);
    buttons->addButton(m_apply, QDialogButtonBox::ActionRole);
    buttons->addButton(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_dryRun, &QPushButton::clicked, this, [this] { run(true); });
    connect(m_apply, &QPushButton::clicked, this, [this] { run(false); });
    layout->addWidget(buttons);
    setTarget(target);
}

RecipeDialog::~RecipeDialog() = default;

void RecipeDialog::setTarget(HostConnection* host)
{
    const int i = m_hosts->findData(QVariant::fromValue(static_cast<QObject*>(host)));
    if (i >= 0)
        m_hosts->setCurrentIndex(i);
}

HostConnection* RecipeDialog::target() const
{
    return qobject_cast<HostConnection*>(m_hosts->currentData().value<QObject*>());
}

void RecipeDialog::setEnvFile(const QString& path)
{
    m_envFile->setText(path);
}

bool RecipeDialog::isRunning() const
{
    return m_runner && m_runner->isRunning();
}

QString RecipeDialog::logText() const
{
    return m_log->toPlainText();
}

void RecipeDialog::append(const QString& line)
{
    m_log->appendPlainText(line);
}

void RecipeDialog::updateButtons()
{
    m_dryRun->setEnabled(!isRunning());
    m_apply->setEnabled(!isRunning());
    m_hosts->setEnabled(!isRunning());
}

bool RecipeDialog::run(bool dryRun)
{
    if (isRunning())
        return false;
    m_log->clear();
    auto refuse = [this](const QString& why) {
        append(why);
        m_status->setText(why);
        return false;
    };
    const auto recipe = deploy::readDeployRecipe(m_path);
    if (!recipe)
        return refuse(recipe.error());
    deploy::RecipeOptions options;
    options.dryRun = dryRun;
    if (!m_envFile->text().trimmed().isEmpty()) {
        const auto env = readEnvFile(m_envFile->text().trimmed());
        if (!env)
            return refuse(env.error());
        options.env = env.value();
    }
    if (m_envFromProfile->isChecked())
        options.envFromProfile = m_buildName;
    options.buildWhenRefused = m_buildInstead->isChecked();
    options.connectSource = [](const QString& name) { return fleet::connectByName(QString(), name); };
    HostConnection* host = target();
    if (!host || host->state() != ConnectionState::Ready || !host->transport())
        return refuse(tr("Connect to the host first."));
    m_runner = std::make_unique<RecipeRunner>(host->transport(), recipe.value(), options);
    connect(m_runner.get(), &RecipeRunner::phaseStarted, this, [this](deploy::RecipePhase phase, const QString& what) {
        append(deploy::phaseStartedLine(phase, what));
        m_status->setText(what);
    });
    connect(m_runner.get(), &RecipeRunner::message, this, &RecipeDialog::append);
    connect(m_runner.get(), &RecipeRunner::phaseFinished, this,
        [this](deploy::RecipePhase phase, deploy::StepStatus status, const QString& reason) {
            append(deploy::phaseFinishedLine(phase, status, reason));
        });
    connect(m_runner.get(), &RecipeRunner::buildProgress, this, [this](const BuildProgress& p) {
        if (p.total > 0)
            m_status->setText(tr("Building: %1/%2 steps").arg(p.done).arg(p.total));
    });
    connect(m_runner.get(), &RecipeRunner::finished, this, [this](bool ok, const QString& reason) {
        append((ok ? tr("Done: ") : tr("Stopped: ")) + reason);
        m_status->setText((ok ? tr("Done: ") : tr("Stopped: ")) + reason);
        updateButtons();
        Q_EMIT replayFinished(ok, reason);
    });
    append(tr("%1 %2 on %3").arg(dryRun ? tr("Dry run of") : tr("Applying"), m_path, host->profile().destination()));
    m_runner->start();
    updateButtons();
    return true;
}

void RecipeDialog::reject()
{
    if (m_runner)
        m_runner->cancel(); // a detached build or server keeps running on the host
    QDialog::reject();
}

} // namespace kf
