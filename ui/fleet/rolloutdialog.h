// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/fleet/rollout.h"

#include <QDialog>

#include <atomic>
#include <functional>
#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace kf {

// A fleet-wide action (core/fleet/rollout) on the hosts the Fleet view shows: one row per
// host with its batch, live state and summary, and the selected row's log. For a patch
// apply the first host's plan is shown for review first; a host whose plan then differs
// is asked about (Apply anyway / Skip), never applied silently. A promotion verifies the
// build on the host chosen as its source first (core/deploy/promotestep.h), then runs on the
// others; a host whose fingerprint differs is refused with the differences in its row.
class RolloutDialog : public QDialog
{
    Q_OBJECT
public:
    explicit RolloutDialog(const QList<HostProfile>& hosts, QWidget* parent = nullptr);
    ~RolloutDialog() override;

    // Tests: how a different plan is answered (default: a question box), and how hosts are
    // connected (default: SSH with keys or the agent, no prompts).
    void setDifferentPlanAnswer(std::function<bool(const QString& host, const QString& why)> answer);
    void setConnector(fleet::Connector connector) { m_connector = std::move(connector); }
    // Tests: the review question's answer (default: a question box with the plan).
    void setReviewAnswer(std::function<bool(const QString& summary)> answer) { m_reviewAnswer = std::move(answer); }

    // "patch-plan", "patch-apply", "preflight", "build", "recipe", "promote"
    void setAction(const QString& action);
    void setPatch(const QString& set, const QString& root);
    void setBuildProfile(const QString& name);
    void setRecipe(const QString& path); // a deployment recipe's YAML file
    void setBatch(int size, bool continueOnError);
    // promote: the host whose verified build goes to the others, with its warm JIT caches or not.
    void setPromoteFrom(const QString& host, bool withCaches);
    void start();
    bool isRunning() const { return m_running; }
    QList<fleet::HostRun> runs() const { return m_runs; }
    QString logOf(int host) const { return m_logs.value(host); }
    QTableWidget* table() const { return m_table; }

Q_SIGNALS:
    void finished();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void onChanged(int host, const fleet::HostRun& run);
    void onLog(int host, const QString& line);
    // On every host but skipRow (the promotion's source).
    void run(std::shared_ptr<deploy::Step> step, int skipRow = -1);
    // promote: the build verified and fetched from the source on a worker, then run().
    void startPromotion();
    bool askDifferent(int host, const QString& why);
    QList<HostProfile> m_hosts;
    QList<fleet::HostRun> m_runs;
    QList<QString> m_logs;
    QComboBox* m_action;
    QLineEdit* m_set;
    QLineEdit* m_root;
    QComboBox* m_profile;
    QLineEdit* m_recipe;
    QComboBox* m_source;
    QCheckBox* m_caches;
    QCheckBox* m_buildInstead;
    QSpinBox* m_batch;
    QCheckBox* m_continue;
    QCheckBox* m_skipUnhealthy;
    QPushButton* m_start;
    QTableWidget* m_table;
    QPlainTextEdit* m_log;
    QLabel* m_summary;
    bool m_running = false;
    std::shared_ptr<std::atomic<bool>> m_stop = std::make_shared<std::atomic<bool>>(false);
    std::function<bool(const QString&, const QString&)> m_differentAnswer;
    std::function<bool(const QString&)> m_reviewAnswer;
    fleet::Connector m_connector;
};

} // namespace kf
