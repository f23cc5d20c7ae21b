// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/patch/applier.h"
#include "core/patch/patchplan.h"
#include "core/patch/review.h"
#include "core/util/jobtracker.h"
#include "ui/appcontext.h"
#include "ui/common/hostpane.h"
#include "ui/common/shortcutinfo.h"

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
// live files (off the GUI thread), review files, patches and their hunks with their status
// and "why", accept or reject whole patches and single hunks, apply the selection safely,
// and roll back earlier applies from the history. The decisions live in one patch::Review;
// the tree, the diff view, the summary and the Apply dialog all read it.
// Keys anywhere in the pane: n / F7 next hunk, p / Shift+F7 previous (across patches and
// files; the tree and the Why pane follow); in the diff Space / a / r toggle, accept,
// reject the current hunk, in the tree Space ticks the current patch or hunk.
class PatchPane : public HostPane
{
    Q_OBJECT
public:
    PatchPane(const AppContext& context, HostConnection* host, QWidget* parent = nullptr);
    // The pane's own keys (n / p and F7), from the table its shortcuts are made from.
    static QList<ShortcutInfo> keyboardShortcuts();

    // Plans `setSpec` (builtin:NAME, a .yaml or a diff) on `root` of the current host.
    void plan(const QString& setSpec, const QString& root);
    // Plans it and opens the review on one patch: only its hunks accepted, it selected (a build's
    // diagnosis offered it as the fix).
    void reviewPatch(const QString& setSpec, const QString& root, const QString& patchId);
    // Shows a finished plan (also what plan() ends with). A new plan of the same set, root
    // and host keeps the decisions whose hunks are unchanged (patch::Review).
    void showPlan(const patch::SetPlan& plan);
    const patch::Review& review() const { return m_review; }
    // What "Apply selected" would write for `file` (accepted patches and hunks).
    QByteArray resultFor(const QString& file) const;
    void setPatchAccepted(int patchIndex, bool accepted);
    // Selects the file's first patch in the tree (and shows it).
    void selectFile(const QString& file);
    // Selects a patch (hunk >= 0: that hunk of it) in the tree, the diff and the Why pane.
    void selectPatch(int patchIndex, int hunk = -1);
    // Moves to the next / previous hunk of the plan (what n and p do).
    void nextHunk();
    void previousHunk();
    // The patch and hunk the diff shows (-1 when it shows a whole file).
    int shownPatch() const { return m_shownPatch; }
    DiffView* diffView() const { return m_diff; }
    // Replaces the confirmation dialogs (tests); return true to go ahead.
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
    void rebuildTree();
    // The Status column's width: its usual words fit, whatever the review says now.
    int statusColumnWidth() const;
    void updateTree();
    void reviewChanged();
    void showPatch(int patchIndex);
    void showFile(const QString& file);
    void takeDiffDecisions();
    void followDiffHunk(int hunk);
    void moveHunk(int step);
    void showWhy(int patchIndex);
    // A file row's Why: each of its patches with its state and reason, and why it is there.
    void showFileWhy(const QString& file);
    void setBusy(bool busy, const QString& message);
    void setOutcome(const QString& message);
    // writeBroken: also offer the override of the syntax check, and say whether it was ticked.
    bool confirm(const QString& title, const QString& text, const QString& action, bool* writeBroken = nullptr);
    void rollBackSelected();
    QList<qint64> selectedHistoryIds() const;

    AppContext m_context;
    QMetaObject::Connection m_autoPlan; // demo host: plan once it is Ready
    std::function<bool(const QString&)> m_confirm;
    JobTracker m_requests { this };        // plan / apply / rollback requests
    JobTracker m_historyRequests { this }; // history loads (they run beside a re-plan)
    bool m_busy = false;

    patch::Review m_review;
    QString m_setSpec;
    QString m_focusPatch;  // reviewPatch(): the patch the next plan opens on
    int m_shownPatch = -1; // what the diff shows: a patch, or (-1) the whole of m_shownFile
    QString m_shownFile;
    bool m_syncing = false; // the views are being updated from m_review

    QComboBox* m_setBox;
    QLineEdit* m_rootEdit;
    QPushButton* m_planButton;
    QPushButton* m_applyButton;
    QPushButton* m_modeButton;
    QLabel* m_statusLabel;
    QLabel* m_outcomeLabel; // what the last apply or rollback did, until the next one
    QTreeWidget* m_tree;
    DiffView* m_diff;
    QTextBrowser* m_why;
    QTableWidget* m_history;
    QPushButton* m_rollbackButton;
};

} // namespace kf
