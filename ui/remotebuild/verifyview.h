// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/remotebuild/buildprofile.h"
#include "core/util/jobtracker.h"
#include "core/verify/verifyreport.h"

#include <QWidget>

#include <memory>
#include <optional>

class QLabel;
class QPushButton;
class QTextBrowser;
class QTreeWidget;

namespace kf {

class Transport;

// The Build pane's post-build verification (core/verify): what a build produced and whether it
// can run on this host. One row per check (the folder, the libraries, the GPUs, each
// library's SASS/PTX targets against the GPUs' compute capability, import sgl_kernel with the
// torch ABI / CUDA / FA3 failures explained, FA3 present as the profile's flags say, wheels),
// PASS / WARN / FAIL in colour, and the selected row in full with its fix. A headline says
// whether a server launch would fail (VerifyReport::launchBlockers(), which the Server pane
// refuses Launch on), and a line says which builds made the libraries (provenance) and, once a
// later build runs or fails, that the result is of the libraries before it. Each run is recorded
// in the host's timeline (verifyAndRecord, as `kernelforge-cli verify` does).
class VerifyView : public QWidget
{
    Q_OBJECT
public:
    explicit VerifyView(QWidget* parent = nullptr);

    // The "Verify" button (the pane places it beside Start build); clicking it asks for a run.
    QPushButton* verifyButton() const { return m_button; }
    // Verifies the profile's folder (its working_dir) with its environment on a worker
    // (transportPool, JobTracker); a run started before is dropped.
    void verify(std::shared_ptr<Transport> transport, const BuildProfile& profile);
    bool isRunning() const { return m_running; }
    // The last report shown (none before the first run, or when it could not run).
    const std::optional<VerifyReport>& report() const { return m_report; }
    QTreeWidget* checkList() const { return m_checks; }
    QLabel* headline() const { return m_headline; }
    // A build began (or ended without success) since the result shown: the result stays in view but
    // is marked as the libraries before that build, not as the current state.
    void setLaterBuild(const QString& jobId, const QString& profile, const QString& state);
    // The line under the headline that names what the result belongs to.
    QLabel* provenanceLine() const { return m_provenance; }

Q_SIGNALS:
    void verifyRequested();
    // A run ended: ok false when a check failed or the verification could not run.
    void verified(bool ok);

private:
    void showReport(const VerifyReport& report);
    void showDetail();

    QPushButton* m_button;
    QLabel* m_headline;
    QLabel* m_provenance;
    QTreeWidget* m_checks;
    QTextBrowser* m_detail;
    std::optional<VerifyReport> m_report;
    bool m_running = false;
    JobTracker m_requests { this };
};

} // namespace kf
