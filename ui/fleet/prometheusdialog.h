// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"
#include "ui/appcontext.h"

#include <QDialog>

#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;

namespace kf {

namespace fleet {
class PromClient;
}

// Where the fleet's Prometheus is: URL, an optional bearer token (kept in the system keychain
// when ticked, under "prometheus-token:<url>"; never in the settings file) and optionally a
// connected host to reach it through (an SSH tunnel). "Test" runs `up` once. The URL and the
// tunnel host are remembered (QSettings fleet/prometheus/*).
class PrometheusDialog : public QDialog
{
    Q_OBJECT
public:
    explicit PrometheusDialog(const AppContext& context, QWidget* parent = nullptr);
    ~PrometheusDialog() override;
    // The client for the accepted settings (null before accept).
    std::shared_ptr<fleet::PromClient> client() const { return m_client; }

    void accept() override;

private:
    Result<std::shared_ptr<fleet::PromClient>> makeClient() const;
    AppContext m_context;
    QLineEdit* m_url;
    QLineEdit* m_token;
    QLineEdit* m_caFile; // https: a CA file besides the system's
    QCheckBox* m_store;
    QComboBox* m_via;
    QLabel* m_result;
    std::shared_ptr<fleet::PromClient> m_client;
};

} // namespace kf
