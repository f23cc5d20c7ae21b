// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/serverfacts.h"
#include "core/util/jobtracker.h"

#include <QFrame>

#include <memory>

class QFormLayout;
class QLabel;
class QPushButton;

namespace kf {

class Transport;

// The "server facts" card of a host's overview: OS, CPUs, RAM, disk, GPUs, tool versions
// and what they mean for an sgl-kernel build (sglkernel::serverHints). Shows "gathering...",
// the facts, or an error with a Retry button.
class ServerFactsWidget : public QFrame
{
    Q_OBJECT
public:
    explicit ServerFactsWidget(QWidget* parent = nullptr);

    // Runs the facts script through the transport on a worker thread (QtConcurrent) and
    // shows the result. A newer load() or clear() makes older results be dropped
    // (JobTracker), so switching hosts quickly never shows the wrong host's card.
    void load(std::shared_ptr<Transport> transport);
    void clear();

    void setLoading();
    void setFacts(const ServerFacts& facts);
    void setError(const QString& message);

    bool hasFacts() const { return m_hasFacts; }
    const ServerFacts& facts() const { return m_facts; }
    QString errorText() const { return m_error; }

Q_SIGNALS:
    void factsLoaded(const kf::ServerFacts& facts);
    void loadFailed(const QString& message);

private:
    void clearRows();

    QLabel* m_title;
    QLabel* m_status;
    QWidget* m_rowsHost;
    QFormLayout* m_rows;
    QLabel* m_hints;
    QPushButton* m_retry;
    std::shared_ptr<Transport> m_transport;
    JobTracker m_requests { this };
    ServerFacts m_facts;
    bool m_hasFacts = false;
    QString m_error;
};

} // namespace kf
