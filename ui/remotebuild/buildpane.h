// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/remotebuild/buildactivity.h"
#include "core/remotebuild/buildfix.h"
#include "core/remotebuild/buildprofile.h"
#include "core/remotebuild/buildsession.h"
#include "core/remotebuild/preflight.h"
#include "core/util/jobtracker.h"
#include "ui/appcontext.h"
#include "ui/common/hostpane.h"

#include <QElapsedTimer>
#include <QTimer>

#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QTabWidget;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace kf {

class BuildChart;
class BuildFixer;
class DiagnosticsView;
class LogView;
class MemoryGateView;
class VerifyView;

// The Build tab of one host: pick or edit a profile, preflight, start/cancel a detached build,
// follow it (progress chart with ETA and the memory it may use, diagnostics, its memory gate,
// the log), list the host's
// build jobs (servers are the Server tab's) and reattach, compare with the previous run,
// notify when it ends, verify what a successful build produced (VerifyView; also on demand).
class BuildPane : public HostPane
{
    Q_OBJECT
public:
    BuildPane(const AppContext& context, HostConnection* host, QWidget* parent = nullptr);
    ~BuildPane() override;

    // For tests and the CLI-like flows: follow an existing job (started by profileName: empty, the
    // job list's name for it, else the selected profile).
    void attachJob(const QString& jobId, const QString& profileName = {});
    void setJobRoot(const QString& root) { m_jobRoot = root; }
    // Offscreen tests answer the cancel confirmation themselves.
    void setConfirmCancel(bool on) { m_confirmCancel = on; }
    BuildSession* session() const { return m_session.get(); }
    LogView* logView() const { return m_log; }
    BuildChart* chart() const { return m_chart; }
    QTreeWidget* diagnosticsList() const;
    DiagnosticsView* diagnosticsView() const { return m_diags; }
    BuildFixer* fixer() const { return m_fixer; }
    QTreeWidget* jobList() const { return m_jobs; }
    VerifyView* verifyView() const { return m_verify; }
    MemoryGateView* gateView() const { return m_gate; }
    QComboBox* profilePicker() const { return m_profiles; }
    // How long a running build may print nothing before the summary says so (tests shorten it).
    void setQuietAfterMs(qint64 ms) { m_quietAfterMs = ms; }
    // How a build's end is announced: nothing (Preferences: off), a desktop notification where the
    // platform shows one, else the window's status bar and the taskbar's alert.
    enum class EndNotice { None, Desktop, StatusBar };
    static EndNotice endNotice(bool notifyOnBuildEnd, bool desktopMessages);
    // One secret environment variable for the next start (a token): masked, never saved.
    QLineEdit* secretEnvName() const { return m_secretName; }
    QLineEdit* secretEnvValue() const { return m_secretValue; }

public Q_SLOTS:
    void refreshJobs();
    void runPreflight();
    // Verifies the selected profile's folder (a build that succeeds verifies its own profile's).
    void verify();
    // Brings the Verification forward (the last result, or Verify to run one).
    void showVerification();
    // Runs preflight again (the server may have changed since the last one), asks when a check
    // fails, then starts the selected profile's build.
    void startBuild();
    void cancelBuild();
    // After a fix the build was offered for was applied: the same profile again, same build folder.
    void buildAgainAfterFix();

Q_SIGNALS:
    // A diagnosed error has a patch that fixes it: the window opens its review (root: the patch root).
    void patchFixRequested(const kf::BuildFix& fix, const QString& root);
    // A followed build ended (also shown as a desktop notification or in the status bar).
    void buildFinished(const kf::JobInfo& info, const QString& message);
    void jobsRefreshed(int count);
    void preflightDone(int failures);

private:
    void loadProfiles();
    void editProfile();
    // Writes the user's profiles (refused while their file cannot be read), reloads, selects `select`.
    Result<void> saveProfiles(const QList<BuildProfile>& profiles, const QString& select);
    BuildProfile currentProfile() const;
    void onProgress(const BuildProgress& p);
    // The summary line from m_activity, unless another message replaced it since.
    void showActivity(bool force);
    void onDiagnostic(const Diagnostic& d);
    void onFinished(const JobInfo& info);
    void openDiagnostic(const Diagnostic& d);
    void updateButtons();
    void verifyProfile(const BuildProfile& profile);
    // Promote…: the rollout dialog's promotion from this host, over the saved hosts.
    void openPromotion();
    // Preflight for the selected profile; start: then start it (asking over failures).
    void preflightThen(bool start);
    void startChecked(const BuildProfile& profile);
    // Asks (window-modal, answered through its signal) before a build over failed preflight checks,
    // listing them with their fixes; "Fix first" shows the Preflight tab.
    void confirmOverFailedPreflight(const BuildProfile& profile);
    void offerFix(const BuildFix& fix);
    // Saves a fix's profile change and builds again.
    void applyProfileFix(const BuildProfile& changed);
    void notify(const QString& title, const QString& message);

    AppContext m_context;
    QList<BuildProfile> m_profileList;
    QString m_profilesError; // why the user's profiles file cannot be read; empty: it can
    QString m_jobRoot;
    QList<PreflightCheck> m_failedChecks; // the last preflight's failures...
    QString m_preflightProfile;           // ...for this profile
    QString m_fixProfile;                 // the profile whose build a fix was offered for
    bool m_startPending = false;          // a start's preflight or job start is under way
    bool m_confirmCancel = true;
    JobTracker m_requests { this };
    std::unique_ptr<BuildSession> m_session;
    BuildActivity m_activity;
    QElapsedTimer m_clock;  // m_activity's clock
    QTimer m_tick;          // says the elapsed time again every second while a build runs
    QString m_activityText; // what showActivity() last wrote
    qint64 m_quietAfterMs = BuildActivity::kQuietAfterMs;

    QComboBox* m_profiles;
    QPushButton* m_edit;
    QPushButton* m_preflight;
    QPushButton* m_start;
    QPushButton* m_cancel;
    QPushButton* m_promote;
    QPushButton* m_refresh;
    QLineEdit* m_secretName;
    QLineEdit* m_secretValue;
    QProgressBar* m_bar;
    QLabel* m_summary;
    QLabel* m_compare;
    BuildChart* m_chart;
    DiagnosticsView* m_diags;
    BuildFixer* m_fixer;
    QTreeWidget* m_jobs;
    QTreeWidget* m_slowest;
    QTreeWidget* m_checks;
    QTabWidget* m_side;
    VerifyView* m_verify;
    MemoryGateView* m_gate;
    LogView* m_log;
};

} // namespace kf
