// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/hostconnection.h"

#include <QPointer>
#include <QWidget>

namespace kf {

// A central tab's view of ONE host (Overview, Patches, Build, GPUs, Server). The window keeps
// one pane per host and tab (HostPaneStack), so a pane is bound to its host for its whole
// life: what it shows and every action it offers belong to that host, and its history stays
// while the app runs. m_host becomes null only when the host is deleted (the pane goes too).
class HostPane : public QWidget
{
    Q_OBJECT
public:
    HostPane(HostConnection* host, QWidget* parent)
        : QWidget(parent)
        , m_host(host)
    { }
    HostConnection* host() const { return m_host; }
    // The sidebar selects this pane's host (true) or another one (false). Panes of hosts not
    // selected stop their periodic polls; streams that keep history (GPU samples, a build's
    // log) go on.
    virtual void setActive(bool active) { m_active = active; }
    bool isActive() const { return m_active; }

protected:
    const QPointer<HostConnection> m_host;

private:
    bool m_active = false;
};

} // namespace kf
