// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/hostprofile.h"

#include <QDialog>

class QCheckBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace kf {

class HostProfileStore;
class SecretStore;

// "Connect to a server": pick a saved profile (hosts.yaml), import the hosts of
// ~/.ssh/config, or type an ad-hoc user@host:port; set identity files, ProxyJump and the
// known_hosts file; optionally save the profile. A typed destination goes through
// kf::parseDestination (core/hosts/destination.h), as the CLI's do. The dialog only edits profiles: the
// caller connects (HostManager::add(profile())->connectToHost()).
class ConnectDialog : public QDialog
{
    Q_OBJECT
public:
    // store may be null: then nothing can be saved and the list starts empty.
    explicit ConnectDialog(HostProfileStore* store, QWidget* parent = nullptr);

    // Where "Import from ~/.ssh/config" looks (default: the user's home). For tests.
    void setSshHomeDir(const QString& home) { m_sshHome = home; }

    // The profile as the form describes it now.
    HostProfile profile() const;
    void setProfile(const HostProfile& profile);
    bool saveRequested() const;
    void setSaveRequested(bool save);

    // Runs the import now (the button's action); returns how many new entries were listed.
    int importSshConfig();

    // The keychain behind "Forget stored password" (hidden while null, e.g. without qtkeychain);
    // it must outlive the dialog.
    void setSecretStore(SecretStore* store);
    // The button's action: removes the stored password of the form's user@host:port and the
    // stored passphrases of its identity files; says what it did. Returns how many were removed.
    int forgetStoredSecrets();

    // Widgets, for tests and for the window's own shortcuts.
    QListWidget* profileList() const { return m_list; }
    QLineEdit* destinationField() const { return m_destination; }
    QPushButton* connectButton() const { return m_connect; }
    QPushButton* importButton() const { return m_import; }
    QPushButton* forgetButton() const { return m_forget; }
    QLabel* messageLabel() const { return m_message; }

public Q_SLOTS:
    // Validates, saves when asked (an error keeps the dialog open), then accepts.
    void accept() override;

private:
    void reloadSaved();
    void addListEntry(const HostProfile& profile, bool imported);
    void onSelectionChanged();
    void onDestinationEdited(const QString& text);
    void updateDestinationFromFields();
    void showMessage(const QString& text, bool error);

    HostProfileStore* m_store;
    SecretStore* m_secrets = nullptr;
    QPushButton* m_forget;
    QString m_sshHome;
    QListWidget* m_list;
    QPushButton* m_import;
    QLineEdit* m_destination;
    QLineEdit* m_name;
    QLineEdit* m_host;
    QSpinBox* m_port;
    QLineEdit* m_user;
    QPlainTextEdit* m_identities;
    QPushButton* m_browseKey;
    QLineEdit* m_proxyJump;
    QLineEdit* m_knownHosts;
    QLineEdit* m_tags;
    QCheckBox* m_save;
    QLabel* m_message;
    QPushButton* m_connect;
    bool m_syncing = false; // guards the destination <-> fields round trip
};

} // namespace kf
