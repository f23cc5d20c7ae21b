// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"
#include "ui/appcontext.h"
#include "ui/common/hostpane.h"

#include <QPointer>

class QLabel;

namespace kf {

class RecipeDialog;
class TimelineView;

// The Timeline tab: its host's deployment timeline (TimelineView) and what to do with
// it: export a report to attach to a bug report (self-contained HTML, or PNG + JSON), save what
// worked as a deployment recipe, apply a recipe to a host.
class TimelinePane : public HostPane
{
    Q_OBJECT
public:
    TimelinePane(const AppContext& context, HostConnection* host, QWidget* parent = nullptr);

    TimelineView* view() const { return m_view; }
    // The window's events and measurements: HTML (FILE.html) or a picture with its events
    // beside it (FILE.png + FILE.json, one event per line).
    Result<void> exportReport(const QString& path);
    // The host's recipe (core/deploy/recipeexport.h); returns what was left out and why.
    Result<QStringList> saveRecipe(const QString& path);
    // Opens the dialog that replays a recipe on a host (this one preselected).
    RecipeDialog* openRecipe(const QString& path);

Q_SIGNALS:
    // The pane an event came from: "patches", "build", "server", "overview".
    void openPane(const QString& pane);

private:
    AppContext m_context;
    QLabel* m_title;
    QLabel* m_message;
    TimelineView* m_view;
};

} // namespace kf
