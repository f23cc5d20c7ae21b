// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/remotebuild/buildpane.h"

#include "core/hosts/hostconnection.h"
#include "core/hosts/hostprofilestore.h"
#include "core/jobs/remotejob.h"
#include "core/remotebuild/buildstart.h"
#include "core/remotebuild/buildtree.h"
#include "core/remotebuild/ninjalog.h"
#include "core/remotebuild/preflight.h"
#include "core/remotebuild/rootcause.h"
#include "core/server/serverlifecycle.h"
#include "core/sessions/hostsessions.h"
#include "core/store/paths.h"
#include "core/transport/transportpool.h"
#include "core/util/secretregistry.h"
#include "core/util/shellquote.h"
#include "ui/common/flowlayout.h"
#include "ui/common/plaintext.h"
#include "ui/common/preferences.h"
#include "ui/common/treedetail.h"
#include "ui/fleet/rolloutdialog.h"
#include "ui/logview/logview.h"
#include "ui/remotebuild/buildchart.h"
#include "ui/remotebuild/buildfixer.h"
#include "ui/remotebuild/diagnosticsview.h"
#include "ui/remotebuild/memorygateview.h"
#include "ui/remotebuild/profileeditor.h"
#include "ui/remotebuild/remotefileviewer.h"
#include "ui/remotebuild/verifyview.h"

#include <QApplication>
#include <QComboBox>
#include <QDateTime>
#include <QDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QStatusBar>
#include <QSystemTrayIcon>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>

namespace kf {
namespace {

enum Role { JobRole = Qt::UserRole + 1 };

QTreeWidget* makeTree(QWidget* parent, const QStringList& headers)
{
    auto* t = new QTreeWidget(parent);
    t->setHeaderLabels(headers);
    t->setRootIsDecorated(false);
    t->setUniformRowHeights(true);
    t->setAlternatingRowColors(true);
    t->header()->setStretchLastSection(true);
    return t;
}

// A job's state as a person reads it: a finished build that exited non-zero "failed".
QString jobStateText(const JobInfo& j)
{
    if (j.state != JobInfo::State::Finished)
        return toString(j.state);
    if (j.cancelled)
        return QObject::tr("cancelled");
    return j.exitStatus == 0 ? QObject::tr("succeeded") : QObject::tr("failed");
}

const QString kFailedStyle = QStringLiteral("color: #b00020;");
// White on dark reds: the text crosses both the chunk and the groove and reads on each (contrast
// 7:1 and more; dark red text on a red chunk was 1.6:1).
const QString kFailedBarStyle = QStringLiteral(
    "QProgressBar { color: white; background-color: #5c1010; border: 1px solid #5c1010; border-radius: 3px; "
    "text-align: center; } QProgressBar::chunk { background-color: #b00020; }");

// fn(transport) on the SSH worker pool.
template <typename Fn> auto onPool(std::shared_ptr<Transport> transport, Fn fn)
{
    return QtConcurrent::run(transportPool(), [transport, fn] { return fn(*transport); });
}

} // namespace

BuildPane::BuildPane(const AppContext& context, HostConnection* host, QWidget* parent)
    : HostPane(host, parent)
    , m_context(context)
    , m_profiles(new QComboBox(this))
    , m_edit(new QPushButton(tr("Edit…"), this))
    , m_preflight(new QPushButton(tr("Preflight"), this))
    , m_start(new QPushButton(tr("Start build"), this))
    , m_cancel(new QPushButton(tr("Cancel build"), this))
    , m_promote(new QPushButton(tr("Promote…"), this))
    , m_refresh(new QPushButton(tr("Refresh jobs"), this))
    , m_secretName(new QLineEdit(this))
    , m_secretValue(new QLineEdit(this))
    , m_bar(new QProgressBar(this))
    , m_summary(new QLabel(this))
    , m_compare(new QLabel(this))
    , m_chart(new BuildChart(this))
    , m_diags(new DiagnosticsView(this))
    , m_fixer(new BuildFixer(this))
    , m_jobs(makeTree(this, { tr("Job"), tr("State"), tr("Exit"), tr("Profile"), tr("Command") }))
    , m_slowest(makeTree(this, { tr("Seconds"), tr("Output") }))
    , m_checks(makeTree(this, { tr("Result"), tr("Check"), tr("Found"), tr("Fix") }))
    , m_side(new QTabWidget(this))
    , m_verify(new VerifyView(this))
    , m_gate(new MemoryGateView(this))
    , m_log(new LogView(this))
{
    m_profiles->setObjectName(QStringLiteral("profilePicker"));
    // A long profile name does not widen the pane (the list shows it whole).
    m_profiles->setMinimumContentsLength(16);
    m_profiles->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_edit->setObjectName(QStringLiteral("editProfile"));
    m_start->setObjectName(QStringLiteral("startBuild"));
    m_preflight->setObjectName(QStringLiteral("preflight"));
    m_cancel->setObjectName(QStringLiteral("cancelBuild"));
    m_promote->setObjectName(QStringLiteral("promoteBuild"));
    m_promote->setToolTip(tr("Send this verified build to the saved hosts it fits, verified there (the others are "
                             "refused with what differs)"));
    m_checks->setObjectName(QStringLiteral("preflightChecks"));
    m_jobs->setObjectName(QStringLiteral("jobs"));
    m_bar->setFormat(QStringLiteral("%v / %m"));
    m_bar->setObjectName(QStringLiteral("buildProgress"));
    m_bar->hide(); // until a build is followed: an empty bar says nothing
    m_summary->setObjectName(QStringLiteral("buildSummary"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setTextFormat(Qt::PlainText); // the build log's first error, the server's messages
    m_summary->setWordWrap(true);            // a failure's first error can be long; the bar keeps its room
    m_bar->setMinimumWidth(220);
    m_compare->setObjectName(QStringLiteral("buildCompare"));
    m_compare->setTextFormat(Qt::PlainText);
    m_compare->setWordWrap(true);
    m_tick.setInterval(1000);
    connect(&m_tick, &QTimer::timeout, this, [this] { showActivity(false); });

    // The controls wrap onto a second row in a narrow window (a 1024 px one) rather than widen it;
    // each label stays with its field.
    auto* top = new FlowLayout;
    auto* profileBox = new QWidget(this);
    profileBox->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred); // takes the row's spare width
    auto* profileRow = new QHBoxLayout(profileBox);
    profileRow->setContentsMargins(0, 0, 0, 0);
    profileRow->addWidget(new QLabel(tr("Profile:"), profileBox));
    profileRow->addWidget(m_profiles, 1);
    top->addWidget(profileBox);
    for (QPushButton* b : { m_edit, m_preflight, m_start, m_cancel, m_verify->verifyButton(), m_promote })
        top->addWidget(b);
    // A token for the build: masked here, never saved, never on the server's command line.
    m_secretName->setObjectName(QStringLiteral("secretEnvName"));
    m_secretName->setPlaceholderText(QStringLiteral("HF_TOKEN"));
    m_secretName->setMaximumWidth(140);
    m_secretValue->setObjectName(QStringLiteral("secretEnvValue"));
    m_secretValue->setEchoMode(QLineEdit::Password);
    m_secretValue->setPlaceholderText(tr("secret value (not saved)"));
    m_secretValue->setToolTip(tr("Exported to the next build only; it reaches the server in a file only you can read, "
                                 "never its command line, and is redacted from logs."));
    auto* secretBox = new QWidget(this);
    auto* secretRow = new QHBoxLayout(secretBox);
    secretRow->setContentsMargins(0, 0, 0, 0);
    secretRow->addWidget(new QLabel(tr("Secret env:"), secretBox));
    secretRow->addWidget(m_secretName);
    secretRow->addWidget(m_secretValue);
    top->addWidget(secretBox);

    auto* status = new QHBoxLayout;
    status->addWidget(m_bar, 1);
    status->addWidget(m_summary, 2);

    m_side->addTab(m_diags, tr("Diagnostics"));
    auto* jobsBox = new QWidget(this);
    auto* jl = new QVBoxLayout(jobsBox);
    jl->setContentsMargins(0, 0, 0, 0);
    jl->addWidget(m_jobs);
    jl->addWidget(m_refresh);
    m_side->addTab(jobsBox, tr("Jobs"));
    m_side->addTab(m_slowest, tr("Slowest units"));
    m_side->addTab(treeWithDetail(m_checks, QStringLiteral("preflightDetail")), tr("Preflight"));
    m_side->addTab(m_verify, tr("Verification"));
    m_side->addTab(m_gate, tr("Memory gate"));
    m_side->setObjectName(QStringLiteral("buildTabs"));

    auto* upper = new QSplitter(Qt::Horizontal, this);
    upper->addWidget(m_chart);
    upper->addWidget(m_side);
    upper->setStretchFactor(0, 3);
    upper->setStretchFactor(1, 2);
    upper->setSizes({ 600, 400 }); // shares, also in a narrow window (the side is not squeezed to its minimum)
    upper->setCollapsible(0, false);
    auto* vertical = new QSplitter(Qt::Vertical, this);
    vertical->addWidget(upper);
    vertical->addWidget(m_log);
    vertical->setStretchFactor(0, 3);
    vertical->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(status);
    layout->addWidget(m_compare);
    layout->addWidget(vertical, 1);

    connect(m_edit, &QPushButton::clicked, this, &BuildPane::editProfile);
    connect(m_preflight, &QPushButton::clicked, this, &BuildPane::runPreflight);
    connect(m_start, &QPushButton::clicked, this, &BuildPane::startBuild);
    connect(m_cancel, &QPushButton::clicked, this, &BuildPane::cancelBuild);
    connect(m_promote, &QPushButton::clicked, this, &BuildPane::openPromotion);
    connect(m_refresh, &QPushButton::clicked, this, &BuildPane::refreshJobs);
    connect(m_verify, &VerifyView::verifyRequested, this, &BuildPane::verify);
    connect(m_verify, &VerifyView::verified, this, &BuildPane::updateButtons);
    connect(m_diags, &DiagnosticsView::diagnosticActivated, this, &BuildPane::openDiagnostic);
    connect(m_diags, &DiagnosticsView::fixRequested, this, &BuildPane::offerFix);
    connect(m_fixer, &BuildFixer::busyChanged, m_diags, &DiagnosticsView::setFixBusy);
    connect(m_fixer, &BuildFixer::failed, m_summary, &QLabel::setText);
    connect(m_fixer, &BuildFixer::patchReviewRequested, this, &BuildPane::patchFixRequested);
    connect(m_fixer, &BuildFixer::profileAccepted, this, &BuildPane::applyProfileFix);
    connect(m_jobs, &QTreeWidget::itemActivated, this,
        [this](QTreeWidgetItem* item) { attachJob(item->data(0, JobRole).toString()); });
    connect(m_side, &QTabWidget::currentChanged, this, [this](int i) {
        if (m_side->widget(i)->isAncestorOf(m_jobs))
            refreshJobs();
    });
    loadProfiles();
    // The demo server only has the demo project: its profile is the one that builds there.
    if (host->profile().isDemo) {
        auto demo
            = std::find_if(m_profileList.cbegin(), m_profileList.cend(), [](const BuildProfile& p) { return p.demo; });
        if (demo != m_profileList.cend())
            m_profiles->setCurrentIndex(m_profiles->findData(demo->name));
    }
    connect(host, &HostConnection::stateChanged, this, [this](ConnectionState state) {
        updateButtons();
        if (state == ConnectionState::Ready && m_jobs->topLevelItemCount() == 0)
            refreshJobs();
    });
    updateButtons();
    if (host->transport())
        refreshJobs();
}

BuildPane::~BuildPane() = default;

void BuildPane::loadProfiles()
{
    const auto all = loadBuildProfiles();
    m_profileList = all ? *all : builtInBuildProfiles();
    // A user file that cannot be read is never overwritten from here (it would lose its profiles).
    m_profilesError = all ? QString() : all.error();
    if (!m_profilesError.isEmpty())
        m_summary->setText(
            tr("Your build profiles cannot be read (%1); the built-in ones are shown.").arg(m_profilesError));
    const QString current = m_profiles->currentData().toString();
    m_profiles->clear();
    for (const auto& p : m_profileList)
        m_profiles->addItem(p.builtIn ? p.name : p.name + tr(" (yours)"), p.name);
    const int i = m_profiles->findData(current);
    if (i >= 0)
        m_profiles->setCurrentIndex(i);
}

BuildProfile BuildPane::currentProfile() const
{
    return findBuildProfile(m_profileList, m_profiles->currentData().toString()).value_or(BuildProfile());
}

Result<void> BuildPane::saveProfiles(const QList<BuildProfile>& profiles, const QString& select)
{
    if (!m_profilesError.isEmpty())
        return Result<void>::failure(
            tr("%1 cannot be read (%2); fix or move it first.").arg(userBuildProfilesPath(), m_profilesError));
    if (const Result<void> s = saveUserBuildProfiles(profiles); !s)
        return s;
    loadProfiles();
    const int i = m_profiles->findData(select);
    m_profiles->setCurrentIndex(i >= 0 ? i : 0);
    return {};
}

void BuildPane::editProfile()
{
    ProfileEditor dlg(
        currentProfile(), m_profileList,
        [this](const QList<BuildProfile>& all, const QString& select) { return saveProfiles(all, select); }, this);
    if (dlg.exec() == QDialog::Accepted && !dlg.outcome().isEmpty())
        m_summary->setText(dlg.outcome());
}

void BuildPane::updateButtons()
{
    const bool ready = m_host && m_host->state() == ConnectionState::Ready && m_host->transport();
    const QString hint
        = m_host ? tr("Connect to %1 to preflight, build or list its jobs.").arg(m_host->profile().name) : QString();
    if (!ready && !m_session)
        m_summary->setText(hint);
    else if (m_summary->text() == hint)
        m_summary->clear();
    const bool running = m_session && m_session->isRunning();
    m_preflight->setEnabled(ready && !m_startPending);
    m_start->setEnabled(ready && !m_startPending);
    m_refresh->setEnabled(ready);
    m_cancel->setEnabled(ready && running);
    m_verify->verifyButton()->setEnabled(ready && !m_verify->isRunning());
    // Only a build whose verification here passed is promoted (the dialog verifies it again first).
    m_promote->setEnabled(
        ready && !m_verify->isRunning() && m_verify->report() && !m_verify->report()->failed() && m_context.profiles);
}

void BuildPane::openPromotion()
{
    if (!m_host || !m_context.profiles)
        return;
    QList<HostProfile> hosts;
    if (const auto saved = m_context.profiles->load(); saved)
        hosts = saved->profiles;
    const HostProfile here = m_host->profile();
    if (std::none_of(hosts.cbegin(), hosts.cend(), [&](const HostProfile& p) { return p.name == here.name; }))
        hosts.prepend(here);
    auto* dialog = new RolloutDialog(hosts, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAction(QStringLiteral("promote"));
    dialog->setBuildProfile(currentProfile().name);
    dialog->setPromoteFrom(here.name, false);
    dialog->show();
}

void BuildPane::showVerification()
{
    m_side->setCurrentWidget(m_verify);
}

void BuildPane::verify()
{
    verifyProfile(currentProfile());
}

void BuildPane::verifyProfile(const BuildProfile& profile)
{
    if (!m_host || !m_host->transport())
        return;
    m_verify->verify(m_host->transport(), profile);
    m_side->setCurrentWidget(m_verify);
    updateButtons();
}

void BuildPane::refreshJobs()
{
    if (!m_host || !m_host->transport())
        return;
    const QString root = m_jobRoot;
    m_requests.track(onPool(m_host->transport(), [root](Transport& t) { return RemoteJob::list(t, root); }),
        [this](const Result<QList<JobInfo>>& r) {
            m_jobs->clear();
            if (!r) {
                m_summary->setText(tr("Cannot list jobs: %1").arg(r.error()));
                return;
            }
            QList<JobInfo> jobs;
            std::copy_if(r->cbegin(), r->cend(), std::back_inserter(jobs),
                [](const JobInfo& j) { return !isServerJob(j); }); // servers are the Server tab's
            std::sort(jobs.begin(), jobs.end(), [](const auto& a, const auto& b) { return a.id > b.id; });
            for (const JobInfo& j : jobs) {
                auto* item = new QTreeWidgetItem(m_jobs,
                    { j.id, jobStateText(j),
                        j.state == JobInfo::State::Finished ? QString::number(j.exitStatus) : QString(), j.name,
                        j.command });
                if (j.state == JobInfo::State::Finished && j.exitStatus != 0 && !j.cancelled)
                    item->setForeground(1, QColor(0xd9, 0x3f, 0x3f));
                item->setData(0, JobRole, j.id);
                item->setToolTip(4, plainToolTip(j.command));
            }
            for (int c = 0; c < 4; ++c)
                m_jobs->resizeColumnToContents(c);
            Q_EMIT jobsRefreshed(int(jobs.size()));
        });
}

void BuildPane::runPreflight()
{
    preflightThen(false);
}

void BuildPane::preflightThen(bool start)
{
    if (!m_host || !m_host->transport())
        return;
    const BuildProfile p = currentProfile();
    m_checks->clear();
    m_failedChecks.clear();
    m_preflightProfile.clear();
    m_startPending = start;
    if (start)
        m_summary->setText(tr("Checking %1 for %2 before the build (preflight: the files on the server may have "
                              "changed)\u2026")
                               .arg(m_host->profile().name, p.name));
    updateButtons();
    m_requests.track(onPool(m_host->transport(), [p](Transport& t) { return kf::runPreflight(t, p); }),
        [this, p, start](const Result<QList<PreflightCheck>>& r) {
            m_startPending = false;
            updateButtons();
            int failures = 0;
            if (!r) {
                new QTreeWidgetItem(m_checks, { tr("error"), tr("preflight"), r.error() });
                failures = 1;
            } else {
                m_preflightProfile = p.name;
                for (const PreflightCheck& c : *r) {
                    if (c.level == PreflightCheck::Level::Fail)
                        m_failedChecks << c;
                    auto* item = new QTreeWidgetItem(m_checks, { toString(c.level), c.id, c.message, c.fix });
                    const QColor color = c.level == PreflightCheck::Level::Fail ? QColor(0xd9, 0x3f, 0x3f)
                        : c.level == PreflightCheck::Level::Warn                ? QColor(0xc7, 0x8a, 0x00)
                                                                                : QColor(0x2e, 0x8b, 0x57);
                    item->setForeground(0, color);
                    item->setToolTip(3, c.fix);
                    failures += c.level == PreflightCheck::Level::Fail;
                }
            }
            for (int c = 0; c < 3; ++c)
                m_checks->resizeColumnToContents(c);
            Q_EMIT preflightDone(failures);
            if (!start) {
                m_side->setCurrentWidget(m_checks->parentWidget());
                return;
            }
            if (!r) {
                m_summary->setText(tr("Cannot start: preflight could not run: %1").arg(r.error()));
                return;
            }
            if (m_failedChecks.isEmpty())
                startChecked(p);
            else
                confirmOverFailedPreflight(p);
        });
}

void BuildPane::startBuild()
{
    // The checks run again on every start: a patch rolled back or a tool removed since the last
    // preflight shows here, before hours of compiling.
    preflightThen(true);
}

void BuildPane::startChecked(const BuildProfile& p)
{
    if (!m_host || !m_host->transport())
        return;
    BuildStartOptions options;
    options.host = m_host->transport()->describe();
    options.jobRoot = m_jobRoot;
    if (!m_secretValue->text().isEmpty()) {
        const QString name = m_secretName->text().trimmed().isEmpty() ? m_secretName->placeholderText()
                                                                      : m_secretName->text().trimmed();
        if (!isShellName(name)) {
            m_summary->setText(tr("Cannot start: '%1' is not an environment variable name").arg(name));
            return;
        }
        SecretRegistry::add(m_secretValue->text().toUtf8());
        options.secretEnv.insert(name, m_secretValue->text());
    }
    m_startPending = true;
    updateButtons();
    m_requests.track(
        onPool(m_host->transport(), [p, options](Transport& t) { return startRecordedBuild(t, p, options); }),
        [this, name = p.name](const Result<StartedBuild>& r) {
            m_startPending = false;
            updateButtons();
            if (!r) {
                m_summary->setText(tr("Cannot start: %1").arg(r.error()));
                return;
            }
            attachJob(r->job.id, name);
            refreshJobs();
        });
}

void BuildPane::confirmOverFailedPreflight(const BuildProfile& p)
{
    QString list;
    for (const PreflightCheck& c : std::as_const(m_failedChecks))
        list += QStringLiteral("<li><b>%1</b>: %2<br>Fix: %3</li>")
                    .arg(c.id.toHtmlEscaped(), c.message.toHtmlEscaped(), c.fix.toHtmlEscaped());
    // Window-modal and answered through its signal: a question must never hold the event loop.
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Start build"),
        tr("Preflight found %n failing check(s) for %1 on %2:", nullptr, int(m_failedChecks.size()))
                .arg(m_preflightProfile.toHtmlEscaped(), m_host->profile().name.toHtmlEscaped())
            + QStringLiteral("<ul>%1</ul>").arg(list) + tr("The build will most likely fail. Start it anyway?"),
        QMessageBox::Yes | QMessageBox::No, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextFormat(Qt::RichText);
    box->button(QMessageBox::Yes)->setText(tr("Start anyway"));
    box->button(QMessageBox::No)->setText(tr("Fix first"));
    box->setDefaultButton(QMessageBox::No);
    connect(box, &QMessageBox::finished, this, [this, box, p](int) {
        if (box->clickedButton() == box->button(QMessageBox::Yes)) {
            startChecked(p);
            return;
        }
        // Show the first failing check, its fix in full.
        m_summary->setText(tr("Not started: preflight found what would fail the build (the Preflight tab)."));
        m_side->setCurrentWidget(m_checks->parentWidget());
        for (int i = 0; i < m_checks->topLevelItemCount() && !m_failedChecks.isEmpty(); ++i) {
            if (m_checks->topLevelItem(i)->text(1) == m_failedChecks.first().id) {
                m_checks->setCurrentItem(m_checks->topLevelItem(i));
                break;
            }
        }
    });
    box->open();
}

void BuildPane::cancelBuild()
{
    if (!m_session || !m_host || !m_host->transport())
        return;
    const QString id = m_session->jobId();
    if (m_confirmCancel
        && QMessageBox::question(this, tr("Cancel build"),
               tr("Stop build %1 on %2? Every compiler it started is killed.").arg(id, m_host->profile().name))
            != QMessageBox::Yes)
        return;
    const QString root = m_jobRoot;
    m_cancel->setEnabled(false);
    m_requests.track(onPool(m_host->transport(), [id, root](Transport& t) { return RemoteJob::cancel(t, id, root); }),
        [this](const Result<void>& s) {
            if (!s)
                m_summary->setText(s.error());
        });
}

void BuildPane::attachJob(const QString& jobId, const QString& profileName)
{
    if (!m_host || !m_host->transport() || jobId.isEmpty())
        return;
    m_session = std::make_unique<BuildSession>(m_host->transport(), m_host->transport()->describe(), jobId);
    m_session->setJobRoot(m_jobRoot);
    // Which profile started it (the job list has its name): the ETA seed and the history row use it.
    QString name = profileName;
    for (int i = 0; i < m_jobs->topLevelItemCount() && name.isEmpty(); ++i)
        if (m_jobs->topLevelItem(i)->data(0, JobRole).toString() == jobId)
            name = m_jobs->topLevelItem(i)->text(3);
    m_session->setProfile(findBuildProfile(m_profileList, name).value_or(currentProfile()));
    m_diags->clear();
    m_chart->clear();
    if (m_session->profile())
        m_verify->setLaterBuild(jobId, m_session->profile()->name, tr("is running"));
    m_gate->clear();
    m_slowest->clear();
    m_compare->clear();
    m_bar->setRange(0, 1);
    m_bar->setValue(0);
    m_bar->show();
    m_bar->setStyleSheet(QString());
    m_bar->setFormat(QStringLiteral("%v / %m"));
    m_summary->setStyleSheet(QString());
    m_summary->setProperty("failed", false);
    // The full log lives in the cache; a reopened app resumes from its size.
    const QString logPath = paths::cacheDir() + QStringLiteral("/build-logs/")
        + QString(m_host->profile().name).replace(QLatin1Char('/'), QLatin1Char('_')) + QLatin1Char('-') + jobId
        + QStringLiteral(".log");
    QFile::remove(logPath); // the live view replays from the start, so the file restarts too
    if (const Result<void> opened = m_log->openStore(logPath); !opened)
        m_summary->setText(tr("The full log cannot be kept on this machine (%1); the live view still follows the "
                              "build.")
                               .arg(opened.error()));
    connect(m_session.get(), &BuildSession::logReceived, m_log, [this](qint64, const QByteArray& d) {
        m_activity.output(m_clock.elapsed());
        m_log->appendData(d);
    });
    connect(m_session.get(), &BuildSession::progressChanged, this, &BuildPane::onProgress);
    connect(m_session.get(), &BuildSession::diagnosticFound, this, &BuildPane::onDiagnostic);
    connect(m_session.get(), &BuildSession::memorySampled, m_chart, &BuildChart::addMemory);
    connect(m_session.get(), &BuildSession::gateStatusChanged, m_gate, &MemoryGateView::setStatus);
    connect(m_session.get(), &BuildSession::finished, this, &BuildPane::onFinished);
    connect(m_session.get(), &BuildSession::previousRunKnown, this, [this](const BuildRecord&, const QString& text) {
        m_compare->setText(tr("Compared with the previous run: %1").arg(text));
    });
    connect(m_session.get(), &BuildSession::streamInterrupted, this, [this](const QString& why) {
        m_summary->setText(tr("Connection lost (%1); the build keeps running, reconnecting…").arg(why));
    });
    connect(m_session.get(), &BuildSession::failed, this, [this](const QString& e) {
        m_summary->setText(e);
        m_tick.stop();
        updateButtons(); // nothing left to cancel
    });
    m_summary->setText(tr("Following %1…").arg(jobId));
    m_clock.start();
    m_activity = BuildActivity();
    m_activity.attachedMs = 0;
    m_activityText = m_summary->text();
    m_tick.start();
    m_session->attach(0);
    if (m_context.sessions) // the host's running build, for the fleet tiles
        m_context.sessions->setRunningBuild(m_host, m_session.get());
    updateButtons();
}

void BuildPane::onProgress(const BuildProgress& p)
{
    m_chart->addProgress(p);
    if (p.total > 0) {
        m_bar->setRange(0, p.total);
        m_bar->setValue(p.done);
    } else if (p.percent >= 0) {
        m_bar->setRange(0, 100);
        m_bar->setValue(p.percent);
    }
    m_activity.update(p, m_clock.elapsed());
    showActivity(true);
}

void BuildPane::showActivity(bool force)
{
    if (!force && m_summary->text() != m_activityText)
        return; // a message of its own (connection lost, an error) stays until the next progress
    m_activityText = m_activity.text(m_clock.elapsed(), m_quietAfterMs);
    m_summary->setText(m_activityText);
}

void BuildPane::onDiagnostic(const Diagnostic& d)
{
    m_diags->add(d);
}

void BuildPane::onFinished(const JobInfo& info)
{
    const bool ok = info.exitStatus == 0;
    const bool failed = !ok && !info.cancelled;
    const RootCause cause = m_session ? m_session->rootCause() : RootCause();
    const BuildProfile built = m_session && m_session->profile() ? *m_session->profile() : currentProfile();
    std::optional<BuildFix> fix;
    if (failed && cause.retained)
        fix = fixFor(*cause.diagnostic, built);
    m_diags->showEnd(cause, fix, failed);
    const QString head = info.cancelled ? tr("Build %1 cancelled").arg(info.id)
        : ok                            ? tr("Build %1 succeeded").arg(info.id)
                                        : tr("Build %1 failed (exit status %2)").arg(info.id).arg(info.exitStatus);
    // The root cause, with its hint: what the Diagnostics tab shows first.
    QString detail;
    if (failed && cause.retained) {
        detail = tr(". Root cause: %1").arg(diagnosticText(*cause.diagnostic));
        if (cause.diagnostic->hint != Diagnostic::Hint::None)
            detail += (detail.endsWith(QLatin1Char('.')) ? QStringLiteral(" ") : QStringLiteral(". "))
                + tr("Hint: %1").arg(hintText(cause.diagnostic->hint));
    } else if (failed) {
        detail = QStringLiteral(". ") + cause.missing;
    }
    const QString msg = head + detail;
    if (!ok)
        m_verify->setLaterBuild(info.id, built.name, info.cancelled ? tr("was cancelled") : tr("failed"));
    m_tick.stop();
    m_activity.finished = true;
    // What it did, without the running count and ETA of a build that is over.
    const BuildProgress p = m_session ? m_session->progress() : BuildProgress();
    // The job's whole duration on the server, as its history row and the comparison count it.
    const QString done = p.total > 0 ? tr(" (%1/%2 steps, %3)").arg(p.done).arg(p.total).arg(durationText(p.elapsedS))
                                     : tr(" (%1)").arg(durationText(p.elapsedS));
    m_summary->setText(head + done + detail);
    m_summary->setStyleSheet(failed ? kFailedStyle : QString());
    m_summary->setProperty("failed", failed);
    m_summary->setToolTip(plainToolTip(m_summary->text()));
    if (failed) {
        m_bar->setStyleSheet(kFailedBarStyle);
        m_bar->setFormat(tr("failed — %v / %m"));
        m_side->setCurrentWidget(m_diags);
    }
    updateButtons(); // Cancel means nothing once the build is over
    refreshJobs();
    if (ok && !info.cancelled) // what the build produced, against this host's GPUs
        verifyProfile(built);
    notify(tr("KernelForge build"), msg);
    Q_EMIT buildFinished(info, msg);
    // The slowest translation units, from .ninja_log.
    if (m_session && m_host && m_host->transport()) {
        const BuildProfile p = currentProfile();
        m_requests.track(onPool(m_host->transport(),
                             [p](Transport& t) {
                                 const auto tree = resolveBuildTree(t, p);
                                 const auto data = t.readFile((tree ? tree->profile : p).ninjaLogPath());
                                 return data ? parseNinjaLog(*data) : NinjaLog { 0, {}, 0, 0, data.error() };
                             }),
            [this](const NinjaLog& log) {
                if (!log)
                    return;
                m_slowest->clear();
                for (const auto& e : log.slowest(30))
                    new QTreeWidgetItem(
                        m_slowest, { QString::number(double(e.durationMs()) / 1000.0, 'f', 1), e.output });
                m_slowest->resizeColumnToContents(0);
            });
    }
}

QTreeWidget* BuildPane::diagnosticsList() const
{
    return m_diags->list();
}

void BuildPane::offerFix(const BuildFix& fix)
{
    const BuildProfile built = m_session && m_session->profile() ? *m_session->profile() : currentProfile();
    m_fixProfile = built.name;
    m_fixer->offer(m_host ? m_host->transport() : nullptr, fix, built);
}

void BuildPane::applyProfileFix(const BuildProfile& changed)
{
    QList<BuildProfile> next = m_profileList;
    auto it = std::find_if(next.begin(), next.end(), [&](const BuildProfile& b) { return b.name == changed.name; });
    if (it != next.end())
        *it = changed;
    else
        next << changed;
    if (const Result<void> saved = saveProfiles(next, changed.name); !saved) {
        m_summary->setText(tr("Not saved: %1").arg(saved.error()));
        return;
    }
    buildAgainAfterFix();
}

void BuildPane::buildAgainAfterFix()
{
    const int i = m_profiles->findData(m_fixProfile);
    if (i < 0)
        return;
    m_profiles->setCurrentIndex(i);
    startBuild();
}

void BuildPane::openDiagnostic(const Diagnostic& d)
{
    if (d.logLine >= 0)
        m_log->showLine(d.logLine);
    if (d.file.isEmpty() || d.line <= 0 || !m_host || !m_host->transport())
        return;
    // Compiler paths are absolute or relative to the build dir (ninja) / the working dir.
    const BuildProfile p = currentProfile();
    QStringList candidates;
    if (d.file.startsWith(QLatin1Char('/')))
        candidates << d.file;
    else
        candidates << p.buildPath() + QLatin1Char('/') + d.file << p.workingDirectory + QLatin1Char('/') + d.file;
    auto* viewer = new RemoteFileViewer(m_host->transport(), candidates, d.line, this);
    viewer->setAttribute(Qt::WA_DeleteOnClose);
    viewer->show();
}

BuildPane::EndNotice BuildPane::endNotice(bool notifyOnBuildEnd, bool desktopMessages)
{
    if (!notifyOnBuildEnd)
        return EndNotice::None;
    return desktopMessages ? EndNotice::Desktop : EndNotice::StatusBar;
}

void BuildPane::notify(const QString& title, const QString& message)
{
    // Read now, not cached: Edit > Preferences applies without a restart.
    const bool desktop = QSystemTrayIcon::isSystemTrayAvailable() && QSystemTrayIcon::supportsMessages();
    switch (endNotice(Preferences::load().notifyOnBuildEnd, desktop)) {
    case EndNotice::None: break;
    case EndNotice::Desktop: {
        static QSystemTrayIcon* tray = nullptr;
        if (!tray) {
            tray = new QSystemTrayIcon(QIcon(QStringLiteral(":/icons/kernelforge.svg")), qApp);
            tray->show();
        }
        // Desktop notifications read the body as markup (an <img> would load a file): escaped.
        tray->showMessage(title, message.toHtmlEscaped());
        break;
    }
    case EndNotice::StatusBar:
        if (auto* mw = qobject_cast<QMainWindow*>(window()))
            mw->statusBar()->showMessage(message, 30000);
        QApplication::alert(window()); // the taskbar entry asks for attention; nothing when active
        break;
    }
}

} // namespace kf
