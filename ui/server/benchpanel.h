// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/servebench/benchrun.h"
#include "core/servebench/referenceresults.h"
#include "core/util/jobtracker.h"

#include <QPointer>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace kf {

class BenchForm;
class BenchResultView;
class HostConnection;
class ServeBench;

// The Server pane's Benchmark page: a serving-benchmark sweep against the server on the
// pane's port of its host (core/servebench's ServeBench, the object `kernelforge-cli server
// bench` drives), its parameters (BenchForm), Start and Cancel (every request closed: the
// server aborts them), live progress per level, the result (BenchResultView), and the runs
// stored for this host: pick one to see it, two to compare them, replay one (its workload
// against this host's server as it is now), remove runs. Their buttons sit above the list, so
// they are in view in a small window. A finished run is stored by ServeBench itself
// (benchstore), which is what the host's timeline shows.
// Stored runs and the reference table are read on the transport pool through JobTracker.
class BenchPanel : public QWidget
{
    Q_OBJECT
public:
    BenchPanel(HostConnection* host, QWidget* parent = nullptr);
    ~BenchPanel() override;

    void setServerPort(quint16 port);
    // The fields as parameters; an error names the field that is wrong.
    Result<BenchParams> params() const;
    void setParams(const BenchParams& params);
    void start();
    void cancel();
    bool isRunning() const;
    // The current or last sweep (null before the first Start).
    ServeBench* bench() const { return m_bench.get(); }
    // Re-reads the stored runs of this host (runsListed() when done).
    void refreshRuns();
    // Loads and shows the stored run (runShown() when done).
    void showStoredRun(qint64 id);
    // Loads both and shows them side by side, the older as A (comparisonShown() when done).
    void compareRuns(qint64 a, qint64 b);
    // Asks (the confirm handler), then removes them; runsListed() follows.
    void removeRuns(const QList<qint64>& ids);
    // Loads the stored run and runs its workload again on this host and port (runFinished()).
    void replayRun(qint64 id);
    // Replaces the Remove confirmation dialog (tests); return true to go ahead.
    void setConfirmHandler(std::function<bool(const QString& question)> handler) { m_confirm = std::move(handler); }
    QList<qint64> listedRuns() const;
    BenchResultView* resultView() const { return m_result; }

Q_SIGNALS:
    void runFinished(const kf::BenchRun& run);
    void runsListed();
    void runShown(qint64 id);
    void comparisonShown(qint64 a, qint64 b);

private:
    void updateActions();
    void startWith(const BenchParams& params);
    void onFinished(const BenchRun& run);
    QList<qint64> selectedRuns() const;
    QString hostKey() const;

    QPointer<HostConnection> m_host;
    quint16 m_port = 30000;
    BenchForm* m_form;
    QPushButton* m_start;
    QPushButton* m_cancel;
    QLabel* m_hint;  // why Start is not offered
    QLabel* m_state; // what the sweep does now
    QTreeWidget* m_levels;
    QTreeWidget* m_runs;
    QPushButton* m_compare;
    QPushButton* m_replay;
    QPushButton* m_remove;
    BenchResultView* m_result;
    std::unique_ptr<ServeBench> m_bench;
    std::optional<ReferenceTable> m_refs;
    qint64 m_shownId = 0; // the stored run in the result view (0: none, or the live one)
    std::function<bool(const QString&)> m_confirm;
    JobTracker m_store { this }; // stored runs: the newest list wins
    JobTracker m_loads { this }; // a run or a comparison to show: the newest pick wins
    RequestHandle m_listing;
};

} // namespace kf
