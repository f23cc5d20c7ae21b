// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/build/buildpane.h"

#include "core/hosts/hostconnection.h"
#include "ui/common/emptystate.h"

#include <QVBoxLayout>

namespace kf {

BuildPane::BuildPane(const AppContext& context, QWidget* parent) : HostPane(parent), m_context(context), m_empty(new EmptyState(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_empty);
    m_empty->setTitle(tr("Remote builds"));
    m_empty->setText(tr("Not built yet: detached builds with a live progress graph arrive with the remote build feature."));
}

void BuildPane::setHost(HostConnection* host) { m_host = host; }

} // namespace kf
