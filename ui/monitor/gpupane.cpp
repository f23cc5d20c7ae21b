// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/monitor/gpupane.h"

#include "core/hosts/hostconnection.h"
#include "ui/common/emptystate.h"

#include <QVBoxLayout>

namespace kf {

GpuPane::GpuPane(const AppContext& context, QWidget* parent) : HostPane(parent), m_context(context), m_empty(new EmptyState(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_empty);
    m_empty->setTitle(tr("GPUs"));
    m_empty->setText(tr("Not built yet: live per-GPU charts from nvidia-smi arrive with the monitoring feature."));
}

void GpuPane::setHost(HostConnection* host) { m_host = host; }

} // namespace kf
