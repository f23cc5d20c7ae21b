// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/patch/patchpane.h"

#include "core/hosts/hostconnection.h"
#include "ui/common/emptystate.h"

#include <QVBoxLayout>

namespace kf {

PatchPane::PatchPane(const AppContext& context, QWidget* parent) : HostPane(parent), m_context(context), m_empty(new EmptyState(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_empty);
    m_empty->setTitle(tr("Patch review"));
    m_empty->setText(tr("Not built yet: reviewing sgl-kernel patches against the files on the server arrives with the patch review feature."));
}

void PatchPane::setHost(HostConnection* host) { m_host = host; }

} // namespace kf
