// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "ui/appcontext.h"
#include "ui/common/hostpane.h"

class QLabel;
class QVBoxLayout;

namespace kf {

class ServerFactsWidget;

// The first tab: where one host stands (connection state, what to do next, its facts) and,
// for a new user, the walk through the whole story on the demo server: review the
// patches, apply, preflight, build, watch the GPUs, launch the server, roll back.
class OverviewPane : public HostPane
{
    Q_OBJECT
public:
    enum class Step { Patches, Build, Gpus, Server };

    OverviewPane(const AppContext& context, HostConnection* host, QWidget* parent = nullptr);

Q_SIGNALS:
    // The user clicked a step; the window switches to that tab.
    void openStep(kf::OverviewPane::Step step);

private:
    void refresh();

    AppContext m_context;
    QLabel* m_title;
    QLabel* m_state;
    QWidget* m_tour;
    QVBoxLayout* m_extra; // host-specific cards (server facts) go here
    ServerFactsWidget* m_facts = nullptr;
    bool m_factsLoaded = false;
};

} // namespace kf
