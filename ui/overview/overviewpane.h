// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "ui/appcontext.h"
#include "ui/common/hostpane.h"

class QLabel;
class QVBoxLayout;

namespace kf {

class ServerFactsWidget;

// The first tab: where the selected host stands (connection state, what to do next) and,
// for a new user, the walk through the whole story on the demo server: review the
// patches, apply, preflight, build, watch the GPUs, launch the server, roll back.
class OverviewPane : public HostPane
{
    Q_OBJECT
public:
    enum class Step { Patches, Build, Gpus, Server };

    explicit OverviewPane(const AppContext& context, QWidget* parent = nullptr);
    void setHost(HostConnection* host) override;

Q_SIGNALS:
    // The user clicked a step; the window switches to that tab.
    void openStep(kf::OverviewPane::Step step);

private:
    void refresh();

    AppContext m_context;
    QPointer<HostConnection> m_host;
    QLabel* m_title;
    QLabel* m_state;
    QWidget* m_tour;
    QVBoxLayout* m_extra; // host-specific cards (server facts) go here
    ServerFactsWidget* m_facts = nullptr;
    bool m_factsLoaded = false;
};

} // namespace kf
