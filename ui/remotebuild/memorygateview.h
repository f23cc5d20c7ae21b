// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/remotebuild/memorygate.h"

#include <QWidget>

class QLabel;
class QTreeWidget;

namespace kf {

// The Build pane's view of the memory gate (core/remotebuild/memorygate.h) of the followed
// build: one line saying what it is doing and within what memory, and a row per unit it knows:
// compiling (expected peak, RSS now, peak so far), waiting for memory (expected peak, how long
// it has waited), and the last finished ones with their measured peaks. Fed by
// BuildSession::gateStatusChanged.
class MemoryGateView : public QWidget
{
    Q_OBJECT
public:
    explicit MemoryGateView(QWidget* parent = nullptr);

    void clear();
    void setStatus(const GateStatus& status);
    QLabel* summary() const { return m_summary; }
    QTreeWidget* units() const { return m_units; }

private:
    QLabel* m_summary;
    QTreeWidget* m_units;
};

} // namespace kf
