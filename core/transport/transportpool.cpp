// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/transport/transportpool.h"

#include <QThreadPool>

namespace kf {

QThreadPool* transportPool()
{
    // Never destroyed: in a program that did not drain it (a test) workers may still be
    // finishing calls while static objects go away.
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;
        p->setObjectName(QStringLiteral("kf-transport"));
        p->setMaxThreadCount(kTransportPoolThreads);
        p->setExpiryTimeout(30000);
        return p;
    }();
    return pool;
}

} // namespace kf
