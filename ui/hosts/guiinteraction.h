// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/secretstore.h"
#include "core/hosts/userinteraction.h"

#include <QObject>
#include <QPointer>
#include <QWidget>

#include <mutex>

namespace kf {

// The GUI's answer to the SSH layer's questions (core/hosts/userinteraction.h).
//
// Called on an SSH session thread, which blocks until the person answers: the call is
// marshalled to this object's (the GUI) thread with Qt::BlockingQueuedConnection and shows
// HostKeyDialog / SecretDialog there. Questions from several sessions are asked one at a
// time (m_askMutex), so dialogs never stack on top of each other. Called on the GUI thread
// itself (a synchronous connect from a slot), the dialog is shown directly instead of
// deadlocking.
//
// Lifetime: create it on the GUI thread before any session exists and destroy it after
// every session has stopped (the composition root owns both).
class GuiInteraction : public QObject, public UserInteraction
{
    Q_OBJECT
public:
    // dialogParent: the main window (dialogs are centred on it); may be null or set later.
    explicit GuiInteraction(QWidget* dialogParent = nullptr, QObject* parent = nullptr);
    void setDialogParent(QWidget* parent) { m_dialogParent = parent; }

    // The desktop keychain (SecretStore::createSystem()) unless replaced; null in a build
    // without qtkeychain, and then the dialogs do not offer to remember secrets.
    void setSecretStore(std::shared_ptr<SecretStore> store) { m_secrets = std::move(store); }
    std::shared_ptr<SecretStore> secretStore() const override { return m_secrets; }

    HostKeyDecision askHostKey(const HostKeyInfo& info) override;
    std::optional<SecretAnswer> askSecret(const SecretRequest& request) override;

Q_SIGNALS:
    // Emitted on the GUI thread just before a dialog opens / after it closed (status bar,
    // window raising, tests).
    void questionShown(QWidget* dialog);
    void questionAnswered();

private:
    HostKeyDecision showHostKey(const HostKeyInfo& info);
    std::optional<SecretAnswer> showSecret(const SecretRequest& request);

    QPointer<QWidget> m_dialogParent;
    std::shared_ptr<SecretStore> m_secrets;
    std::mutex m_askMutex; // one question at a time, across session threads
};

} // namespace kf
