// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/fleet/prometheusdialog.h"

#include "core/fleet/promclient.h"
#include "core/hosts/hostconnection.h"
#include "core/hosts/hostmanager.h"
#include "core/hosts/secretstore.h"
#include "core/transport/localtransport.h"
#include "core/transport/transportpool.h"
#include "core/util/jobtracker.h"
#include "core/util/secretregistry.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QtConcurrent>

namespace kf {

using namespace fleet;

namespace {
QString tokenKey(const QString& url)
{
    return QStringLiteral("prometheus-token:") + url;
}
} // namespace

PrometheusDialog::~PrometheusDialog() = default;

PrometheusDialog::PrometheusDialog(const AppContext& context, QWidget* parent)
    : QDialog(parent)
    , m_context(context)
{
    setWindowTitle(tr("Prometheus server"));
    setObjectName(QStringLiteral("prometheusDialog"));
    auto* form = new QFormLayout(this);
    QSettings settings;
    m_url = new QLineEdit(settings.value(QStringLiteral("fleet/prometheus/url")).toString(), this);
    m_url->setObjectName(QStringLiteral("prometheusUrl"));
    m_url->setPlaceholderText(QStringLiteral("http://prometheus.lab:9090 or https://\u2026"));
    m_caFile = new QLineEdit(settings.value(QStringLiteral("fleet/prometheus/caFile")).toString(), this);
    m_caFile->setObjectName(QStringLiteral("prometheusCaFile"));
    m_caFile->setPlaceholderText(tr("https: a CA certificate file (PEM), if the system does not know its CA"));
    m_token = new QLineEdit(this);
    m_token->setObjectName(QStringLiteral("prometheusToken"));
    m_token->setEchoMode(QLineEdit::Password);
    m_token->setPlaceholderText(tr("bearer token (optional)"));
    m_store = new QCheckBox(tr("Store the token in the system keychain"), this);
    m_store->setEnabled(context.secrets != nullptr);
    m_via = new QComboBox(this);
    m_via->setObjectName(QStringLiteral("prometheusVia"));
    m_via->addItem(tr("this machine (direct)"), QString());
    if (context.hosts)
        for (HostConnection* c : context.hosts->hosts())
            m_via->addItem(tr("SSH tunnel through %1").arg(c->profile().name), c->profile().name);
    const int via = m_via->findData(settings.value(QStringLiteral("fleet/prometheus/via")).toString());
    m_via->setCurrentIndex(qMax(0, via));
    m_result = new QLabel(this);
    m_result->setTextFormat(Qt::PlainText); // Prometheus' errors
    m_result->setObjectName(QStringLiteral("prometheusResult"));
    m_result->setWordWrap(true);
    form->addRow(tr("URL"), m_url);
    form->addRow(tr("CA file"), m_caFile);
    form->addRow(tr("Token"), m_token);
    form->addRow(QString(), m_store);
    form->addRow(tr("Reach it from"), m_via);
    form->addRow(m_result);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    auto* test = buttons->addButton(tr("Test"), QDialogButtonBox::ActionRole);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &PrometheusDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &PrometheusDialog::reject);
    auto* tracker = new JobTracker(this);
    connect(this, &QObject::destroyed, this, [tracker] { delete tracker; });
    connect(test, &QPushButton::clicked, this, [this, tracker] {
        const auto made = makeClient();
        if (!made) {
            m_result->setText(made.error());
            return;
        }
        const auto client = made.value();
        m_result->setText(tr("asking %1…").arg(client->describe()));
        tracker->track(
            QtConcurrent::run(transportPool(),
                [client] {
                    const auto r = client->query(QStringLiteral("count(up == 1)"));
                    return r ? QStringLiteral("%1 target(s) up").arg(r->series.isEmpty() ? 0 : r->series.first().value)
                             : r.error();
                }),
            [this](const QString& text) { m_result->setText(text); });
    });
}

Result<std::shared_ptr<PromClient>> PrometheusDialog::makeClient() const
{
    auto endpoint = PromEndpoint::parse(m_url->text().trimmed());
    if (!endpoint)
        return endpoint.withoutValue();
    QByteArray token = m_token->text().toUtf8();
    if (token.isEmpty() && m_context.secrets) {
        // A token stored before (the keychain may ask to be unlocked; this is a person's click).
        if (const auto stored = m_context.secrets->read(tokenKey(endpoint->url())); stored && stored.value())
            token = *stored.value();
    }
    endpoint.value().bearerToken = token;
    if (const QString ca = m_caFile->text().trimmed(); !ca.isEmpty()) {
        if (!endpoint->tls)
            return Result<std::shared_ptr<PromClient>>::failure(tr("A CA file is for an https URL."));
        endpoint.value().caFile = ca;
    }
    std::shared_ptr<Transport> via = std::make_shared<LocalTransport>();
    if (const QString host = m_via->currentData().toString(); !host.isEmpty() && m_context.hosts) {
        HostConnection* c = m_context.hosts->find(host);
        if (!c || c->state() != ConnectionState::Ready || !c->transport())
            return Result<std::shared_ptr<PromClient>>::failure(
                tr("%1 is not connected: connect it first to tunnel through it").arg(host));
        via = c->transport();
    }
    return std::make_shared<PromClient>(via, endpoint.value());
}

void PrometheusDialog::accept()
{
    const auto made = makeClient();
    if (!made) {
        m_result->setText(made.error());
        return;
    }
    m_client = made.value();
    QSettings settings;
    settings.setValue(QStringLiteral("fleet/prometheus/url"), m_client->endpoint().url());
    settings.setValue(QStringLiteral("fleet/prometheus/via"), m_via->currentData().toString());
    settings.setValue(QStringLiteral("fleet/prometheus/caFile"), m_caFile->text().trimmed());
    if (m_store->isChecked() && m_context.secrets && !m_token->text().isEmpty()) {
        QByteArray token = m_token->text().toUtf8();
        if (const auto stored = m_context.secrets->write(tokenKey(m_client->endpoint().url()), token); !stored) {
            m_result->setText(tr("could not store the token: %1").arg(stored.error()));
            wipe(token);
            return;
        }
        wipe(token);
    }
    m_token->clear();
    QDialog::accept();
}

} // namespace kf
