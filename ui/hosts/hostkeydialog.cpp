// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/hosts/hostkeydialog.h"

#include "core/util/shellquote.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace kf {

namespace {

QLineEdit* monoField(const QString& text, QWidget* parent)
{
    // A read-only line edit: selectable and copyable, so the fingerprint can be compared
    // character by character or pasted into a chat with the administrator.
    auto* e = new QLineEdit(text, parent);
    e->setReadOnly(true);
    e->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    e->setMinimumWidth(e->fontMetrics().horizontalAdvance(text) + 24);
    e->setCursorPosition(0);
    return e;
}

QString esc(const QString& s)
{
    return s.toHtmlEscaped();
}

} // namespace

QString HostKeyDialog::hostPattern(const QString& host, quint16 port)
{
    return port == 22 ? host : QLatin1Char('[') + host + QStringLiteral("]:") + QString::number(port);
}

HostKeyDialog::HostKeyDialog(const HostKeyInfo& info, QWidget* parent)
    : QDialog(parent)
    , m_info(info)
{
    const bool unknown = info.kind == HostKeyInfo::Kind::Unknown;
    const QString where = hostPattern(info.host, info.port);
    setObjectName(QStringLiteral("HostKeyDialog"));
    setModal(true);

    auto* layout = new QVBoxLayout(this);
    auto* header = new QHBoxLayout;
    auto* icon = new QLabel(this);
    const QStyle::StandardPixmap pix = unknown ? QStyle::SP_MessageBoxQuestion : QStyle::SP_MessageBoxCritical;
    icon->setPixmap(style()->standardIcon(pix).pixmap(48, 48));
    icon->setAlignment(Qt::AlignTop);
    header->addWidget(icon);
    auto* title = new QLabel(this);
    title->setObjectName(QStringLiteral("title"));
    title->setWordWrap(true);
    QFont tf = title->font();
    tf.setBold(true);
    tf.setPointSizeF(tf.pointSizeF() * 1.25);
    title->setFont(tf);
    header->addWidget(title, 1);
    layout->addLayout(header);

    auto* text = new QLabel(this);
    text->setObjectName(QStringLiteral("explanation"));
    text->setWordWrap(true);
    text->setTextFormat(Qt::RichText);
    text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(text);

    auto* keyBox = new QFrame(this);
    keyBox->setFrameShape(QFrame::StyledPanel);
    auto* form = new QFormLayout(keyBox);
    form->addRow(tr("Host:"), monoField(where, keyBox));
    form->addRow(tr("Key type:"), monoField(info.keyType, keyBox));
    auto* fp = monoField(info.fingerprint, keyBox);
    fp->setObjectName(QStringLiteral("fingerprint"));
    form->addRow(unknown ? tr("Fingerprint:") : tr("Offered key:"), fp);
    layout->addWidget(keyBox);

    auto* buttons = new QDialogButtonBox(this);
    if (unknown) {
        setWindowTitle(tr("Unknown host key"));
        title->setText(tr("Is this really %1?").arg(where));
        text->setText(tr("<p>KernelForge has not connected to <b>%1</b> before, so it cannot tell whether this "
                         "server is the one you mean. Compare the fingerprint below with the one the server's "
                         "administrator gives you (on the server: <code>ssh-keygen -lf "
                         "/etc/ssh/ssh_host_ed25519_key.pub</code>).</p>"
                         "<p><i>Accept and save</i> adds the key to <code>%2</code>, the way OpenSSH does, so "
                         "<code>ssh</code> trusts it too. <i>Accept once</i> trusts it for this connection only.</p>")
                          .arg(esc(where), esc(info.knownHostsFile)));
        m_acceptOnce = buttons->addButton(tr("Accept &once"), QDialogButtonBox::AcceptRole);
        m_acceptOnce->setObjectName(QStringLiteral("acceptOnce"));
        m_acceptAndSave = buttons->addButton(tr("Accept and &save"), QDialogButtonBox::AcceptRole);
        m_acceptAndSave->setObjectName(QStringLiteral("acceptAndSave"));
        m_cancel = buttons->addButton(QDialogButtonBox::Cancel);
        m_cancel->setObjectName(QStringLiteral("cancel"));
        connect(m_acceptOnce, &QPushButton::clicked, this, [this] {
            m_decision = HostKeyDecision::AcceptOnce;
            accept();
        });
        connect(m_acceptAndSave, &QPushButton::clicked, this, [this] {
            m_decision = HostKeyDecision::AcceptAndSave;
            accept();
        });
        connect(m_cancel, &QPushButton::clicked, this, &QDialog::reject);
    } else {
        const bool revoked = info.kind == HostKeyInfo::Kind::Revoked;
        const QString entry = info.oldEntryFile + QLatin1Char(':') + QString::number(info.oldEntryLine);
        setWindowTitle(revoked ? tr("Revoked host key") : tr("Host key changed"));
        title->setText(revoked ? tr("The host key of %1 is revoked. Connection refused.").arg(where)
                               : tr("WARNING: the host key of %1 has changed. Connection refused.").arg(where));
        title->setStyleSheet(QStringLiteral("color: #b00020;"));
        keyBox->setStyleSheet(QStringLiteral("QFrame { border: 2px solid #b00020; border-radius: 4px; }"
                                             " QLineEdit, QLabel { border: none; }"));
        const QString removeCommand = QStringLiteral("ssh-keygen -R ") + shellQuote(where) + QStringLiteral(" -f ")
            + shellQuote(info.oldEntryFile);
        QString why;
        if (revoked) {
            why = QStringLiteral(
                "<p>The key this server offers is marked <code>@revoked</code> in <b>%1</b>. A revoked key "
                "must never be trusted again, whoever offers it.</p>")
                      .arg(esc(entry));
        } else {
            const QString oldType = info.oldKeyType.isEmpty() ? QStringLiteral("the") : esc(info.oldKeyType);
            why = tr("<p>The server offered a different key than the %1 key recorded for it in <b>%2</b>. "
                     "Someone could be intercepting this connection (a man-in-the-middle attack), or the "
                     "server was reinstalled and got a new key.</p>")
                      .arg(oldType, esc(entry));
        }
        const QString stopped = tr("<p>KernelForge stopped before logging in: no password, passphrase or "
                                   "key was sent and nothing ran on the server.</p>");
        if (revoked) {
            // No way around a revocation from here: the server has to offer another key.
            text->setText(why + stopped
                + tr("<p>Tell the server's administrator: the server must be given a new host "
                     "key.</p>"));
        } else {
            text->setText(why + stopped
                + tr("<p>Only if the server's administrator confirms the new key: remove the old "
                     "entry with the command below, connect again and compare the new "
                     "fingerprint.</p>"));
            auto* remove = monoField(removeCommand, keyBox);
            remove->setObjectName(QStringLiteral("removeCommand"));
            form->addRow(tr("Remove with:"), remove);
        }
        m_cancel = buttons->addButton(QDialogButtonBox::Close);
        m_cancel->setObjectName(QStringLiteral("close"));
        connect(m_cancel, &QPushButton::clicked, this, &QDialog::reject);
    }
    // Enter must never trust a key by accident.
    for (QPushButton* b : buttons->findChildren<QPushButton*>()) {
        b->setAutoDefault(false);
        b->setDefault(false);
    }
    m_cancel->setDefault(true);
    m_cancel->setFocus();
    layout->addWidget(buttons);
    // A minimum on the dialog itself would stop the layout from enforcing its own minimum
    // (long fingerprints and paths); width comes from the text instead.
    text->setMinimumWidth(520);
    layout->setSizeConstraint(QLayout::SetMinimumSize);
}

} // namespace kf
