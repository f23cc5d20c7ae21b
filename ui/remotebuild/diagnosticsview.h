// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/remotebuild/buildfix.h"
#include "core/remotebuild/rootcause.h"

#include <QWidget>

#include <optional>

class QLabel;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace kf {

// The Build tab's Diagnostics: what a followed build's log said, most telling first (causes,
// then the summaries that follow them, then warnings and notes, each in log order: rootCause.h),
// so the first row is the root cause. Above the list, once the build failed, the root cause in
// full with its hint (wrapped: readable without scrolling sideways), or the honest "no root cause
// in the log" with where to look, and the fix KernelForge knows for it (a button); below it the
// selected row in full.
class DiagnosticsView : public QWidget
{
    Q_OBJECT
public:
    explicit DiagnosticsView(QWidget* parent = nullptr);

    void clear();
    void add(const Diagnostic& d);
    // The build ended: shows the root cause (failed builds) and selects its row; fix: the one offered.
    void showEnd(const RootCause& cause, const std::optional<BuildFix>& fix, bool failed);
    // Offering the fix is running (prepared on the server) or done: the button says so.
    void setFixBusy(bool busy);

    QTreeWidget* list() const { return m_list; }
    QLabel* rootCauseLabel() const { return m_cause; }
    QPushButton* fixButton() const { return m_fix; }
    const std::optional<BuildFix>& fix() const { return m_offered; }

Q_SIGNALS:
    // A row was activated (double click, Return): show it in the log and the source.
    void diagnosticActivated(const kf::Diagnostic& d);
    void fixRequested(const kf::BuildFix& fix);

private:
    QTreeWidget* m_list;
    QLabel* m_cause;
    QPushButton* m_fix;
    std::optional<BuildFix> m_offered;
};

} // namespace kf
