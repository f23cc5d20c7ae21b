// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/hosts/secretdialog.h"

#include "core/util/secretregistry.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace kf {

SecretDialog::SecretDialog(const SecretRequest& request, QWidget* parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("SecretDialog"));
    setModal(true);
    auto* layout = new QVBoxLayout(this);
    auto* text = new QLabel(this);
    text->setObjectName(QStringLiteral("explanation"));
    text->setWordWrap(true);
    text->setTextFormat(Qt::PlainText);
    QString fieldLabel;
    switch (request.kind) {
    case SecretRequest::Kind::Password:
        setWindowTitle(tr("Password"));
        text->setText(request.reconnecting
                ? tr("The connection to %1 was lost. Reconnecting needs the password again.").arg(request.destination)
                : tr("Password for %1").arg(request.destination));
        fieldLabel = tr("Password:");
        break;
    case SecretRequest::Kind::Passphrase:
        setWindowTitle(tr("Key passphrase"));
        text->setText(
            (request.reconnecting ? tr("The connection to %2 was lost. Reconnecting needs the passphrase "
                                       "of the key %1 again.")
                                  : tr("The key %1 is protected by a passphrase.\nIt is needed to log in to %2."))
                .arg(request.keyFile, request.destination));
        fieldLabel = tr("Passphrase:");
        break;
    case SecretRequest::Kind::KeyboardInteractive:
        setWindowTitle(tr("Login question"));
        // The server's own words: it may ask for a one-time code, not a password.
        text->setText(QStringLiteral("%1 asks:").arg(request.destination));
        fieldLabel = request.prompt.trimmed().isEmpty() ? tr("Answer:") : request.prompt.trimmed();
        break;
    }
    layout->addWidget(text);

    auto* form = new QFormLayout;
    m_field = new QLineEdit(this);
    m_field->setObjectName(QStringLiteral("secret"));
    m_field->setEchoMode(request.echo ? QLineEdit::Normal : QLineEdit::Password);
    // No input method history, no autocompletion, no drag out of the field.
    m_field->setAttribute(Qt::WA_InputMethodEnabled, request.echo);
    m_field->setDragEnabled(false);
    form->addRow(fieldLabel, m_field);
    layout->addLayout(form);

    if (request.offerKeychain) {
        m_keychain = new QCheckBox(tr("Remember in the system keychain"), this);
        m_keychain->setObjectName(QStringLiteral("keychain"));
        m_keychain->setChecked(false);
        m_keychain->setToolTip(tr("Stored by the desktop's keychain (Secret Service / KWallet), never in "
                                  "KernelForge's own files."));
        layout->addWidget(m_keychain);
    }
    if (request.offerKeepForSession) {
        m_keepForSession
            = new QCheckBox(tr("Keep this %1 for this session (not stored)")
                                .arg(request.kind == SecretRequest::Kind::Passphrase    ? QStringLiteral("passphrase")
                                        : request.kind == SecretRequest::Kind::Password ? QStringLiteral("password")
                                                                                        : QStringLiteral("answer")),
                this);
        m_keepForSession->setObjectName(QStringLiteral("keepForSession"));
        m_keepForSession->setChecked(false);
        m_keepForSession->setToolTip(tr("Held in memory until the connection is closed, so that a "
                                        "reconnect after a network drop needs nobody at the screen. "
                                        "Never written anywhere."));
        layout->addWidget(m_keepForSession);
    }

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Log in"));
    buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("ok"));
    buttons->button(QDialogButtonBox::Cancel)->setObjectName(QStringLiteral("cancel"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    m_field->setFocus();
    m_field->setMinimumWidth(300);
    text->setMinimumWidth(380);
    layout->setSizeConstraint(QLayout::SetMinimumSize);
}

SecretDialog::~SecretDialog()
{
    // QLineEdit keeps its own copy; clear it so the text does not linger in a dead widget.
    m_field->clear();
}

std::optional<SecretAnswer> SecretDialog::takeAnswer()
{
    if (result() != QDialog::Accepted)
        return std::nullopt;
    SecretAnswer answer;
    QString text = m_field->text();
    answer.secret = text.toUtf8();
    wipe(text);
    answer.storeInKeychain = m_keychain && m_keychain->isChecked();
    answer.keepForSession = m_keepForSession && m_keepForSession->isChecked();
    m_field->clear();
    setResult(QDialog::Rejected); // taken once
    return answer;
}

} // namespace kf
