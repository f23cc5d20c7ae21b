// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/userinteraction.h"

#include <QDialog>

#include <optional>

class QCheckBox;
class QLineEdit;

namespace kf {

// Asks for a password, a key passphrase or a keyboard-interactive answer. Masked unless
// the server says the answer may echo. "Remember in the system keychain" is offered only
// when request.offerKeychain is set, and is never ticked by default; "keep for this session
// (not stored)" likewise when request.offerKeepForSession is set. A reconnect says so.
class SecretDialog : public QDialog
{
    Q_OBJECT
public:
    explicit SecretDialog(const SecretRequest& request, QWidget* parent = nullptr);
    ~SecretDialog() override;

    // The answer once accepted (the field is cleared as it is taken); nullopt when cancelled.
    // Call once: a second call returns nullopt.
    std::optional<SecretAnswer> takeAnswer();

    QLineEdit* secretField() const { return m_field; }
    QCheckBox* keychainBox() const { return m_keychain; }             // null when not offered
    QCheckBox* keepForSessionBox() const { return m_keepForSession; } // null when not offered

private:
    QLineEdit* m_field;
    QCheckBox* m_keychain = nullptr;
    QCheckBox* m_keepForSession = nullptr;
};

} // namespace kf
