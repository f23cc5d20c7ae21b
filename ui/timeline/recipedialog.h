// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "ui/appcontext.h"

#include <QDialog>

#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace kf {

class HostConnection;
namespace deploy {
class RecipeRunner;
}

// "Apply recipe to host": a deployment recipe (core/deploy) replayed on a host of the
// window, as `kernelforge-cli recipe apply` does it (RecipeRunner): a dry run first (facts,
// differences first, and the plan), then Apply (facts, plan, apply, build, verify, launch),
// every step's outcome in the log and in that host's timeline. Closing the dialog stops
// following; a build or server already started keeps running on the host. The build's
// environment values come from the environment file, and from the user's build profile of the
// recipe's build name only when its checkbox (unticked at first) is ticked.
class RecipeDialog : public QDialog
{
    Q_OBJECT
public:
    RecipeDialog(
        const AppContext& context, const QString& recipePath, HostConnection* target, QWidget* parent = nullptr);
    ~RecipeDialog() override;

    void setTarget(HostConnection* host);
    HostConnection* target() const;
    void setEnvFile(const QString& path);
    // Starts the replay (dry: facts and plan only). False, with the reason in the log, when it
    // cannot start (a bad recipe or environment file, a host that is not connected).
    bool run(bool dryRun);
    bool isRunning() const;
    QString logText() const;

Q_SIGNALS:
    void replayFinished(bool ok, const QString& reason);

protected:
    void reject() override;

private:
    void append(const QString& line);
    void updateButtons();

    AppContext m_context;
    QString m_path;
    QComboBox* m_hosts;
    QLineEdit* m_envFile;
    QCheckBox* m_envFromProfile;
    QCheckBox* m_buildInstead;
    QString m_buildName; // the recipe's build profile name, read when the dialog opens
    QPlainTextEdit* m_log;
    QLabel* m_status;
    QPushButton* m_dryRun;
    QPushButton* m_apply;
    std::unique_ptr<deploy::RecipeRunner> m_runner;
};

} // namespace kf
