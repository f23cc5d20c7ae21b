// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/hosts/hostconnection.h"

#include "core/transport/localtransport.h"

namespace kf {

LocalHostConnection::LocalHostConnection(HostProfile profile, QObject* parent)
    : HostConnection(std::move(profile), parent)
    , m_transport(std::make_shared<LocalTransport>())
{ }

} // namespace kf
