// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/hostconnection.h"

#include <QPointer>
#include <QWidget>

namespace kf {

// A central tab that works on the host selected in the sidebar (Patches, Build, GPUs, Server).
class HostPane : public QWidget
{
    Q_OBJECT
public:
    using QWidget::QWidget;
    // Called when the selection changes; host may be null (nothing selected).
    virtual void setHost(HostConnection* host) = 0;
};

} // namespace kf
