// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/hostconnection.h"
#include "core/hosts/hostprofile.h"
#include "core/util/jobtracker.h"

#include <QDialog>
#include <QPointer>

#include <functional>
#include <memory>

class QCheckBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTimer;

namespace kf {

class HostProfileStore;
class SecretStore;
class UserInteraction;

// "Connect to a server": pick a saved profile (hosts.yaml), import the hosts of
// ~/.ssh/config, or type an ad-hoc user@host:port; set identity files, ProxyJump and the
// known_hosts file; optionally save the profile. A typed destination goes through
// kf::parseDestination (core/hosts/destination.h), as the CLI's do; a name the ssh configuration
// defines (a Host alias) is resolved as ssh resolves it. A host imported from, or typed as an
// alias of, ~/.ssh/config follows the file ("Follow ~/.ssh/config"): its fields show what the
// file says now, read-only, each with the file:line it came from, and connecting reads the file
// again (HostProfile::sshConfigAlias); unticked, the fields are the profile's own. "Set up key login" installs
// KernelForge's own key on the server (core/hosts/keyinstall.h), logging in once with the password
// or, for an RSA key libssh2 cannot use, through the system's ssh; the form then uses that key.
// The dialog only edits profiles; the caller connects (HostManager::add(profile())->connectToHost()),
// through a connector when it has one: then Connect keeps the form open until the host is ready,
// and a failure is shown in the form, plainly, with Retry (as VS Code's Remote-SSH keeps the host).
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

    // Connects the host the form describes (saved: "Save" was ticked and it is saved); returns
    // its connection, or null when there is nothing to wait for.
    using Connector = std::function<HostConnection*(const HostProfile& profile, bool saved)>;
    // With a connector, Connect waits in the form: it closes once the host is ready; a failed
    // connection says why here and Connect becomes Retry. Cancel closes it at any time (a
    // connection under way goes on).
    void setConnector(Connector connector) { m_connector = std::move(connector); }
    // The connection Connect waits for; null when none.
    HostConnection* connecting() const { return m_connecting; }

    // Runs the import now (the button's action); returns how many new entries were listed.
    int importSshConfig();

    // The keychain behind "Forget stored password", which shows only while the keychain holds a
    // secret of the form's host (hidden while null, e.g. without qtkeychain); it must outlive the
    // dialog and every read the dialog starts on a worker.
    void setSecretStore(std::shared_ptr<SecretStore> store);
    // The button's action: removes the stored password of the form's user@host:port and the
    // stored passphrases of its identity files; says what it did. Returns how many were removed.
    int forgetStoredSecrets();
    // Whether the keychain is still being asked whether to show the button.
    bool isCheckingStoredSecrets() const;

    // Who is asked for the password and an unknown host key while installing a key (the GUI's
    // interaction); null: nobody, so only keys and the system ssh can log in.
    void setInteraction(UserInteraction* interaction) { m_interaction = interaction; }
    // The key "Set up key login" installs (default ~/.ssh/kernelforge_ed25519, made when missing).
    void setKeyPath(const QString& path) { m_keyPath = path; }
    // The button's work once the way to log in is chosen: in the background; keyInstallFinished
    // follows, and on success the form's identity files are the key.
    void installKey(bool viaSystemSsh);
    bool isInstallingKey() const;

    // Widgets, for tests and for the window's own shortcuts.
    QListWidget* profileList() const { return m_list; }
    QLineEdit* destinationField() const { return m_destination; }
    QPushButton* connectButton() const { return m_connect; }
    QPushButton* importButton() const { return m_import; }
    QPushButton* forgetButton() const { return m_forget; }
    QPushButton* installKeyButton() const { return m_installKey; }
    // Shown once a connection failed (as VS Code's Remote-SSH offers Open config): opens the
    // ssh configuration destinations are resolved through (<ssh home>/.ssh/config, made 0600
    // when missing) with the desktop's editor; then Retry reads it again.
    QPushButton* openSshConfigButton() const { return m_openConfig; }
    void openSshConfig();
    QLabel* messageLabel() const { return m_message; }
    QCheckBox* followButton() const { return m_follow; }
    QLabel* originsLabel() const { return m_origins; }

Q_SIGNALS:
    void keyInstallFinished(bool ok, const QString& message);
    // A connection started by Connect failed; the form shows `reason` and offers Retry.
    void connectFailed(const QString& reason);

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
    void askHowToInstallKey();
    // Fills the fields from the ssh configuration's reading of alias (follow mode) and says
    // where each value came from; false when the configuration cannot be read.
    bool showSshConfig(const QString& alias);
    void setFollowing(bool follow);
    // Whether the keychain holds a secret of the form's host, read on a worker: the Forget
    // button follows.
    void checkStoredSecrets();
    void waitForConnection(HostConnection* host);
    void onConnectionState(ConnectionState state, const QString& reason);

    HostProfileStore* m_store;
    // Shared with the worker that checks it: a check in flight outlives this dialog.
    std::shared_ptr<SecretStore> m_secrets;
    QPushButton* m_forget;
    QPushButton* m_openConfig;
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
    QCheckBox* m_follow;
    QLabel* m_origins;
    QString m_alias; // the ssh configuration's Host the form shows, when any
    QLabel* m_message;
    QPushButton* m_connect;
    bool m_syncing = false; // guards the destination <-> fields round trip
    UserInteraction* m_interaction = nullptr;
    QString m_keyPath;
    QPushButton* m_installKey;
    RequestHandle m_install;
    RequestHandle m_storedCheck;
    QTimer* m_storedCheckDelay; // one keychain read once the typing pauses, not one a key
    Connector m_connector;
    QPointer<HostConnection> m_connecting;
    QMetaObject::Connection m_connectingWatch;
    JobTracker m_jobs { this };
};

} // namespace kf
