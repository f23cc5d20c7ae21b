// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/userinteraction.h"

#include <QDialog>

class QPushButton;

namespace kf {

// What OpenSSH asks with StrictHostKeyChecking=ask, as a dialog.
//  - Unknown key: key type and SHA256 fingerprint; "Accept once", "Accept and save"
//    (appends to info.knownHostsFile), "Cancel" (the default button: Enter never trusts).
//  - Changed or revoked key: a hard warning naming the file and line of the old entry and
//    how to remove it after checking with the server's administrator. There is NO button
//    that accepts: the only way on is to edit known_hosts deliberately.
class HostKeyDialog : public QDialog
{
    Q_OBJECT
public:
    explicit HostKeyDialog(const HostKeyInfo& info, QWidget* parent = nullptr);

    // Reject unless one of the accept buttons was clicked (always Reject for Changed/Revoked).
    HostKeyDecision decision() const { return m_decision; }

    // Null when the case has no such button (tests check exactly this).
    QPushButton* acceptOnceButton() const { return m_acceptOnce; }
    QPushButton* acceptAndSaveButton() const { return m_acceptAndSave; }
    QPushButton* cancelButton() const { return m_cancel; }

    // "[127.0.0.1]:2222" or "gpu1": how known_hosts names the host.
    static QString hostPattern(const QString& host, quint16 port);

private:
    HostKeyInfo m_info;
    HostKeyDecision m_decision = HostKeyDecision::Reject;
    QPushButton* m_acceptOnce = nullptr;
    QPushButton* m_acceptAndSave = nullptr;
    QPushButton* m_cancel = nullptr;
};

} // namespace kf
