// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/patch/applier.h"
#include "core/patch/patchplan.h"
#include "core/util/jobtracker.h"
#include "ui/appcontext.h"
#include "ui/common/hostpane.h"

#include <QMap>

#include <functional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;
class QTextBrowser;
class QTreeWidget;
class QTreeWidgetItem;

namespace kf {

class DiffView;

// Patch review: pick a set and the source root on the pane's host, plan it against the
// live files (off the GUI thread), review files and patches with their status and "why",
// accept or reject whole patches and single hunks, apply the selection safely, and roll
// back earlier applies from the history.
class PatchPane : public HostPane
{
    Q_OBJECT
public:
    PatchPane(const AppContext& context, HostConnection* host, QWidget* parent = nullptr);

    // Plans `setSpec` (builtin:NAME, a .yaml or a diff) on `root` of the current host.
    void plan(const QString& setSpec, const QString& root);
    // Shows a finished plan (also what plan() ends with).
    void showPlan(const patch::SetPlan& plan);
    // What "Apply selected" would write for `file` (accepted patches and hunks).
    QByteArray resultFor(const QString& file) const;
    void setPatchAccepted(int patchIndex, bool accepted);
    void selectFile(const QString& file);
    DiffView* diffView() const { return m_diff; }
    // Replaces the confirmation dialog (tests); return true to go ahead.
    void setConfirmHandler(std::function<bool(const QString& summary)> handler) { m_confirm = std::move(handler); }
    QString summaryText() const;
    void applySelected();
    void refreshHistory();
    bool isBusy() const { return m_busy; }

Q_SIGNALS:
    void planShown(int patchCount);
    void applyFinished(const kf::patch::ApplyReport& report);
    void historyLoaded(int rows);

private:
    struct FileState
    {
        QString proposed;  // original + accepted patches
        QList<bool> hunks; // accepted hunks of original -> proposed
    };
    void rebuildTree();
    void recomputeFile(const QString& file);
    void showFile(const QString& file);
    void saveCurrentHunks();
    void showWhy(int patchIndex);
    void setBusy(bool busy, const QString& message);
    void rollBackSelected();

    AppContext m_context;
    QMetaObject::Connection m_autoPlan; // demo host: plan once it is Ready
    std::function<bool(const QString&)> m_confirm;
    JobTracker m_requests { this };        // plan / apply / rollback requests
    JobTracker m_historyRequests { this }; // history loads (they run beside a re-plan)
    bool m_busy = false;

    patch::SetPlan m_plan;
    QString m_setSpec;
    QList<bool> m_patchAccepted;
    QMap<QString, FileState> m_files;
    QString m_currentFile;

    QComboBox* m_setBox;
    QLineEdit* m_rootEdit;
    QPushButton* m_planButton;
    QPushButton* m_applyButton;
    QPushButton* m_modeButton;
    QLabel* m_statusLabel;
    QTreeWidget* m_tree;
    DiffView* m_diff;
    QTextBrowser* m_why;
    QTableWidget* m_history;
    QPushButton* m_rollbackButton;
};

} // namespace kf
