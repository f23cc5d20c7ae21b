// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/server/serverpane.h"

#include "core/hosts/hostconnection.h"
#include "ui/common/emptystate.h"

#include <QVBoxLayout>

namespace kf {

ServerPane::ServerPane(const AppContext& context, QWidget* parent) : HostPane(parent), m_context(context), m_empty(new EmptyState(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_empty);
    m_empty->setTitle(tr("SGLang server"));
    m_empty->setText(tr("Not built yet: launching SGLang and watching its /metrics arrive with the server monitoring feature."));
}

void ServerPane::setHost(HostConnection* host) { m_host = host; }

} // namespace kf
