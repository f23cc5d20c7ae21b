// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/hostconnection.h"

#include <QList>
#include <QObject>

#include <functional>
#include <memory>

namespace kf {

// Owns every HostConnection of the session (saved hosts, the demo host, ad-hoc ones).
// The composition root installs the factory that turns a profile into a connection
// (SSH for remote profiles, LocalHostConnection for isLocal ones).
class HostManager : public QObject
{
    Q_OBJECT
public:
    using Factory = std::function<HostConnection*(const HostProfile&, QObject* parent)>;

    explicit HostManager(QObject* parent = nullptr);
    void setFactory(Factory factory) { m_factory = std::move(factory); }

    // Returns the existing connection of that name, or creates one.
    HostConnection* add(const HostProfile& profile);
    void remove(const QString& name);
    HostConnection* find(const QString& name) const;
    QList<HostConnection*> hosts() const { return m_hosts; }

Q_SIGNALS:
    void hostAdded(kf::HostConnection* host);
    void hostRemoved(const QString& name);

private:
    Factory m_factory;
    QList<HostConnection*> m_hosts; // children of this
};

} // namespace kf
