// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "ui/appcontext.h"
#include "ui/common/hostpane.h"

namespace kf {

class EmptyState;

class BuildPane : public HostPane
{
    Q_OBJECT
public:
    explicit BuildPane(const AppContext& context, QWidget* parent = nullptr);
    void setHost(HostConnection* host) override;

private:
    AppContext m_context;
    QPointer<HostConnection> m_host;
    EmptyState* m_empty;
};

} // namespace kf
