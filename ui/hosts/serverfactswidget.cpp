// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/hosts/serverfactswidget.h"

#include "core/sglkernel/serverhints.h"
#include "core/transport/transport.h"
#include "core/transport/transportpool.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace kf {

ServerFactsWidget::ServerFactsWidget(QWidget* parent)
    : QFrame(parent)
{
    setObjectName(QStringLiteral("ServerFactsWidget"));
    setFrameShape(QFrame::StyledPanel);
    auto* layout = new QVBoxLayout(this);
    auto* header = new QHBoxLayout;
    m_title = new QLabel(tr("Server facts"), this);
    QFont f = m_title->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.15);
    m_title->setFont(f);
    header->addWidget(m_title);
    header->addStretch(1);
    m_retry = new QPushButton(tr("Refresh"), this);
    m_retry->setObjectName(QStringLiteral("retry"));
    m_retry->setEnabled(false);
    header->addWidget(m_retry);
    layout->addLayout(header);

    m_status = new QLabel(this);
    m_status->setTextFormat(Qt::PlainText); // the facts script's error is the server's text
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setWordWrap(true);
    layout->addWidget(m_status);

    m_rowsHost = new QWidget(this);
    m_rows = new QFormLayout(m_rowsHost);
    m_rows->setContentsMargins(0, 0, 0, 0);
    m_rows->setLabelAlignment(Qt::AlignRight | Qt::AlignTop);
    layout->addWidget(m_rowsHost);

    m_hints = new QLabel(this);
    m_hints->setObjectName(QStringLiteral("hints"));
    m_hints->setWordWrap(true);
    m_hints->setTextFormat(Qt::RichText);
    layout->addWidget(m_hints);

    connect(m_retry, &QPushButton::clicked, this, [this] {
        if (m_transport)
            load(m_transport);
    });
    clear();
}

void ServerFactsWidget::clearRows()
{
    while (m_rows->rowCount() > 0)
        m_rows->removeRow(0);
    m_hints->clear();
    m_hints->hide();
    m_error.clear();
    m_status->setStyleSheet({});
}

void ServerFactsWidget::clear()
{
    m_requests.cancelAll();
    m_transport.reset();
    m_hasFacts = false;
    m_facts = {};
    clearRows();
    m_status->setText(tr("Connect to the host to see what it has."));
    m_status->show();
    m_retry->setEnabled(false);
}

void ServerFactsWidget::setLoading()
{
    clearRows();
    m_status->setStyleSheet({});
    m_status->setText(tr("Gathering facts\u2026"));
    m_status->show();
    m_retry->setEnabled(false);
}

void ServerFactsWidget::load(std::shared_ptr<Transport> transport)
{
    if (!transport) {
        clear();
        return;
    }
    m_transport = transport;
    m_requests.cancelAll(); // a newer load() makes the previous one stale
    setLoading();
    // The worker gets its own shared_ptr: the transport outlives the run even if the host
    // is removed meanwhile. `this` is never captured by the worker (docs/STYLE.md).
    m_requests.track(QtConcurrent::run(transportPool(), [transport] { return collectServerFacts(*transport); }),
        [this](const Result<ServerFacts>& r) {
            if (r)
                setFacts(r.value());
            else
                setError(r.error());
        });
}

void ServerFactsWidget::setFacts(const ServerFacts& facts)
{
    clearRows();
    m_facts = facts;
    m_hasFacts = true;
    m_status->hide();
    for (const auto& [label, value] : facts.rows()) {
        auto* v = new QLabel(value, m_rowsHost);
        v->setTextFormat(Qt::PlainText);
        v->setWordWrap(true); // a long path or error wraps instead of widening the window
        v->setTextInteractionFlags(Qt::TextSelectableByMouse);
        v->setObjectName(QStringLiteral("value:") + label);
        if (value == QLatin1String("not found"))
            v->setEnabled(false); // greyed: absent, not an error
        m_rows->addRow(label + QLatin1Char(':'), v);
    }
    const QStringList hints = sglkernel::serverHints(facts);
    if (!hints.isEmpty()) {
        QString html = tr("<b>For an sgl-kernel build</b><ul style=\"margin-left:12px; -qt-list-indent:0\">");
        for (const QString& h : hints)
            html += tr("<li>") + h.toHtmlEscaped() + tr("</li>");
        m_hints->setText(html + tr("</ul>"));
        m_hints->show();
    }
    m_retry->setText(tr("Refresh"));
    m_retry->setEnabled(m_transport != nullptr);
    Q_EMIT factsLoaded(facts);
}

void ServerFactsWidget::setError(const QString& message)
{
    clearRows();
    m_hasFacts = false;
    m_error = message;
    m_status->setText(tr("Could not gather the facts: ") + message);
    m_status->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_status->show();
    m_retry->setText(tr("Retry"));
    m_retry->setEnabled(m_transport != nullptr);
    Q_EMIT loadFailed(message);
}

} // namespace kf
