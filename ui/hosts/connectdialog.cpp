// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/hosts/connectdialog.h"

#include "core/hosts/destination.h"
#include "core/hosts/destinationresolver.h"
#include "core/hosts/hostprofilestore.h"
#include "core/hosts/keyinstall.h"
#include "core/hosts/secretstore.h"
#include "core/hosts/sshconfig.h"
#include "core/ssh/sshsession.h"
#include "core/ssh/sshtransport.h"
#include "core/transport/transportpool.h"

#include <QCheckBox>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace kf {

namespace {
constexpr int kProfileRole = Qt::UserRole + 1;
constexpr int kImportedRole = Qt::UserRole + 2;

// Whether the user's ssh configuration defines name (resolveDestination's first rule).
bool definesHost(const QString& home, const QString& name)
{
    SshConfigSources sources;
    sources.homeDir = home;
    const auto files = loadSshConfigs(sources);
    if (!files)
        return false;
    SshLocalContext local = SshLocalContext::current();
    local.homeDir = home;
    const auto r = resolveDestination({ name, {} }, {}, files.value(), local);
    return r && r->source == ResolvedDestination::Source::SshConfig;
}
} // namespace

ConnectDialog::ConnectDialog(HostProfileStore* store, QWidget* parent)
    : QDialog(parent)
    , m_store(store)
    , m_sshHome(QDir::homePath())
    , m_keyPath(keyinstall::defaultKeyPath())
    , m_storedCheckDelay(new QTimer(this))
{
    setObjectName(QStringLiteral("ConnectDialog"));
    setWindowTitle(tr("Connect to a server"));
    auto* layout = new QVBoxLayout(this);
    auto* splitter = new QSplitter(this);
    layout->addWidget(splitter, 1);

    // Left: saved and imported hosts.
    auto* left = new QWidget(splitter);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(new QLabel(tr("Saved hosts"), left));
    m_list = new QListWidget(left);
    m_list->setObjectName(QStringLiteral("profiles"));
    leftLayout->addWidget(m_list, 1);
    m_import = new QPushButton(tr("Import from ~/.ssh/config"), left);
    m_import->setObjectName(QStringLiteral("import"));
    leftLayout->addWidget(m_import);
    splitter->addWidget(left);

    // Right: the profile.
    auto* right = new QWidget(splitter);
    auto* form = new QFormLayout(right);
    form->setContentsMargins(0, 0, 0, 0);
    m_destination = new QLineEdit(right);
    m_destination->setObjectName(QStringLiteral("destination"));
    m_destination->setPlaceholderText(QStringLiteral("user@host:port, or a Host of ~/.ssh/config"));
    form->addRow(tr("&Destination:"), m_destination);
    m_follow = new QCheckBox(right);
    m_follow->setObjectName(QStringLiteral("followSshConfig"));
    m_follow->setToolTip(tr("Read ~/.ssh/config again at every connect, so later edits of it count"));
    m_follow->hide();
    form->addRow(QString(), m_follow);
    m_name = new QLineEdit(right);
    m_name->setObjectName(QStringLiteral("name"));
    m_name->setPlaceholderText(QStringLiteral("shown in the sidebar (default: the host)"));
    form->addRow(tr("&Name:"), m_name);
    m_user = new QLineEdit(right);
    m_user->setObjectName(QStringLiteral("user"));
    m_user->setPlaceholderText(QStringLiteral("your local user name"));
    form->addRow(tr("&User:"), m_user);
    m_host = new QLineEdit(right);
    m_host->setObjectName(QStringLiteral("host"));
    form->addRow(tr("&Host:"), m_host);
    m_port = new QSpinBox(right);
    m_port->setObjectName(QStringLiteral("port"));
    m_port->setRange(1, 65535);
    m_port->setValue(22);
    form->addRow(tr("&Port:"), m_port);
    auto* keys = new QWidget(right);
    auto* keysLayout = new QHBoxLayout(keys);
    keysLayout->setContentsMargins(0, 0, 0, 0);
    m_identities = new QPlainTextEdit(keys);
    m_identities->setObjectName(QStringLiteral("identityFiles"));
    m_identities->setPlaceholderText(QStringLiteral("one private key per line; empty: ssh-agent and ~/.ssh defaults"));
    m_identities->setFixedHeight(m_identities->fontMetrics().lineSpacing() * 3 + 12);
    m_identities->setLineWrapMode(QPlainTextEdit::NoWrap);
    keysLayout->addWidget(m_identities, 1);
    m_browseKey = new QPushButton(tr("Browse\u2026"), keys);
    keysLayout->addWidget(m_browseKey, 0, Qt::AlignTop);
    form->addRow(tr("&Identity files:"), keys);
    m_proxyJump = new QLineEdit(right);
    m_proxyJump->setObjectName(QStringLiteral("proxyJump"));
    m_proxyJump->setPlaceholderText(QStringLiteral("[user@]jumphost[:port], as ssh -J"));
    form->addRow(tr("Proxy&Jump:"), m_proxyJump);
    m_knownHosts = new QLineEdit(right);
    m_knownHosts->setObjectName(QStringLiteral("knownHosts"));
    m_knownHosts->setPlaceholderText(QStringLiteral("~/.ssh/known_hosts"));
    form->addRow(tr("&Known hosts:"), m_knownHosts);
    m_tags = new QLineEdit(right);
    m_tags->setObjectName(QStringLiteral("tags"));
    m_tags->setPlaceholderText(QStringLiteral("comma separated, e.g. lab, h100"));
    form->addRow(tr("&Tags:"), m_tags);
    m_save = new QCheckBox(tr("&Save this host (no password is ever saved)"), right);
    m_save->setObjectName(QStringLiteral("save"));
    m_save->setEnabled(m_store != nullptr);
    form->addRow(QString(), m_save);
    m_origins = new QLabel(right);
    m_origins->setObjectName(QStringLiteral("origins"));
    m_origins->setTextFormat(Qt::PlainText);
    m_origins->setWordWrap(true);
    m_origins->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_origins->hide();
    form->addRow(QString(), m_origins);
    splitter->addWidget(right);
    splitter->setStretchFactor(1, 2);
    m_list->setMinimumWidth(300);
    right->setMinimumWidth(440);
    splitter->setChildrenCollapsible(false);

    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("message"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setTextFormat(Qt::PlainText); // errors carry the server's words (a refused login, a banner)
    m_message->hide();
    layout->addWidget(m_message);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_connect = buttons->addButton(tr("&Connect"), QDialogButtonBox::AcceptRole);
    m_connect->setObjectName(QStringLiteral("connect"));
    m_connect->setDefault(true);
    m_installKey = buttons->addButton(tr("Set up &key login\u2026"), QDialogButtonBox::ActionRole);
    m_installKey->setObjectName(QStringLiteral("installKey"));
    m_installKey->setToolTip(
        tr("For a server that takes only a password, or only an RSA key: make a key of KernelForge's own "
           "(~/.ssh/kernelforge_ed25519) and add it to ~/.ssh/authorized_keys there, like ssh-copy-id"));
    connect(m_installKey, &QPushButton::clicked, this, &ConnectDialog::askHowToInstallKey);
    m_openConfig = buttons->addButton(tr("Open ~/.ssh/c&onfig"), QDialogButtonBox::ActionRole);
    m_openConfig->setObjectName(QStringLiteral("openSshConfig"));
    m_openConfig->setToolTip(tr("Destinations are resolved through your ssh configuration, as ssh resolves them: "
                                "open it in your editor, then Retry"));
    connect(m_openConfig, &QPushButton::clicked, this, &ConnectDialog::openSshConfig);
    // Added last: the button box shows every button again when one is added.
    m_forget = buttons->addButton(tr("&Forget stored password"), QDialogButtonBox::ActionRole);
    m_forget->setObjectName(QStringLiteral("forgetSecret"));
    m_forget->setToolTip(tr("Remove this host's password and its keys' passphrases from the system keychain"));
    m_forget->hide();
    m_openConfig->hide(); // until a connection fails
    connect(m_forget, &QPushButton::clicked, this, [this] { forgetStoredSecrets(); });
    connect(buttons, &QDialogButtonBox::accepted, this, &ConnectDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    connect(m_list, &QListWidget::currentRowChanged, this, &ConnectDialog::onSelectionChanged);
    connect(m_list, &QListWidget::itemDoubleClicked, this, &ConnectDialog::accept);
    connect(m_import, &QPushButton::clicked, this, [this] { importSshConfig(); });
    connect(m_destination, &QLineEdit::textEdited, this, &ConnectDialog::onDestinationEdited);
    connect(m_follow, &QCheckBox::toggled, this, [this](bool on) {
        if (m_syncing)
            return;
        if (on)
            showSshConfig(m_alias);
        setFollowing(on);
        if (!on) // the destination is now the fields' own, not the alias
            updateDestinationFromFields();
    });
    for (QLineEdit* e : { m_user, m_host })
        connect(e, &QLineEdit::textEdited, this, &ConnectDialog::updateDestinationFromFields);
    connect(m_port, &QSpinBox::valueChanged, this, &ConnectDialog::updateDestinationFromFields);
    connect(m_browseKey, &QPushButton::clicked, this, [this] {
        const QString file
            = QFileDialog::getOpenFileName(this, tr("Private key"), QDir::homePath() + QStringLiteral("/.ssh"));
        if (!file.isEmpty())
            m_identities->appendPlainText(file);
    });

    m_storedCheckDelay->setSingleShot(true);
    m_storedCheckDelay->setInterval(300);
    connect(m_storedCheckDelay, &QTimer::timeout, this, &ConnectDialog::checkStoredSecrets);
    // The keys "Forget stored password" removes follow the destination and the identity files.
    connect(m_destination, &QLineEdit::textChanged, m_storedCheckDelay, qOverload<>(&QTimer::start));
    connect(m_identities, &QPlainTextEdit::textChanged, m_storedCheckDelay, qOverload<>(&QTimer::start));

    reloadSaved();
    resize(760, 440);
    m_destination->setFocus();
}

void ConnectDialog::setSecretStore(std::shared_ptr<SecretStore> store)
{
    m_secrets = std::move(store);
    checkStoredSecrets();
}

bool ConnectDialog::isCheckingStoredSecrets() const
{
    return m_storedCheck.isPending() || m_storedCheckDelay->isActive();
}

void ConnectDialog::checkStoredSecrets()
{
    m_storedCheckDelay->stop();
    m_storedCheck.cancel();
    const HostProfile p = profile();
    if (!m_secrets || p.host.isEmpty()) {
        m_forget->hide();
        return;
    }
    // A keychain read may wait for the desktop's unlock prompt: never on the GUI thread.
    auto work = [store = m_secrets, p] { return hasStoredSecrets(*store, p); };
    m_storedCheck = m_jobs.track(QtConcurrent::run(transportPool(), work), [this](const Result<bool>& stored) {
        // A keychain that cannot be read keeps the button: forgetting then says why.
        m_forget->setVisible(!stored || stored.value());
    });
}

int ConnectDialog::forgetStoredSecrets()
{
    const HostProfile p = profile();
    if (!m_secrets || p.host.isEmpty())
        return 0;
    const Result<int> removed = kf::forgetStoredSecrets(*m_secrets, p);
    if (!removed)
        showMessage(tr("Could not clear the keychain: ") + removed.error(), true);
    else if (removed.value() == 0)
        showMessage(tr("Nothing is stored in the keychain for %1.").arg(p.destination()), false);
    else
        showMessage(
            tr("Removed %1 stored secret(s) for %2 from the keychain.").arg(removed.value()).arg(p.destination()),
            false);
    checkStoredSecrets();
    return removed.ok() ? removed.value() : 0;
}

void ConnectDialog::askHowToInstallKey()
{
    const HostProfile p = profile();
    if (p.host.isEmpty()) {
        showMessage(tr("Which server? Type user@host first."), true);
        return;
    }
    QMessageBox box(this);
    box.setObjectName(QStringLiteral("keyInstallChoice"));
    box.setWindowTitle(tr("Set up key login"));
    box.setIcon(QMessageBox::Question);
    box.setText(tr("KernelForge makes a key of its own, %1, unless it exists, and adds it to "
                   "~/.ssh/authorized_keys on %2. How do you log in there now?")
                    .arg(QDir::toNativeSeparators(m_keyPath), p.destination()));
    box.setInformativeText(QStringLiteral(
        "With a password: KernelForge logs in as Connect does (keys that work first); the password is asked once and "
        "never stored.\nWith an RSA key: KernelForge's SSH library "
        "(libssh2 1.10) cannot sign with RSA for OpenSSH 8.8 and newer, so the system's ssh logs in with the "
        "identity files above (a key with a passphrase must be in ssh-agent)."));
    QPushButton* password = box.addButton(tr("With a &password"), QMessageBox::AcceptRole);
    password->setObjectName(QStringLiteral("viaPassword"));
    QPushButton* systemSsh = box.addButton(tr("With my &RSA key (system ssh)"), QMessageBox::AcceptRole);
    systemSsh->setObjectName(QStringLiteral("viaSystemSsh"));
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(password);
    box.exec();
    if (box.clickedButton() == password)
        installKey(false);
    else if (box.clickedButton() == systemSsh)
        installKey(true);
}

bool ConnectDialog::isInstallingKey() const
{
    return m_install.isPending();
}

void ConnectDialog::installKey(bool viaSystemSsh)
{
    const HostProfile p = profile();
    if (p.host.isEmpty() || isInstallingKey())
        return;
    m_installKey->setEnabled(false);
    m_connect->setEnabled(false);
    showMessage(tr("Logging in to %1 %2 to add the key\u2026")
                    .arg(p.destination(), viaSystemSsh ? QStringLiteral("with the system ssh") : QString())
                    .simplified(),
        false);
    // The worker gets copies only; the interaction outlives every dialog (the app owns it).
    auto work = [p, keyPath = m_keyPath, interaction = m_interaction, viaSystemSsh]() -> Result<QString> {
        const Result<keyinstall::LocalKey> key = keyinstall::ensureKey(keyPath);
        if (!key)
            return Result<QString>::failure(key.error());
        Result<keyinstall::InstallReport> report = Result<keyinstall::InstallReport>::failure(QString());
        if (viaSystemSsh) {
            report = keyinstall::installKeyWithSystemSsh(p, key->publicKeyLine);
        } else {
            SshConnectOptions o;
            o.interaction = interaction;
            o.reconnect = false;
            const auto t = SshTransport::connect(p, o);
            if (!t) {
                QString why = t.error();
                if (why.contains(QLatin1String("RSA keys need libssh2")))
                    why += QStringLiteral(". Choose \u201cWith my RSA key (system ssh)\u201d instead.");
                return Result<QString>::failure(why);
            }
            report = keyinstall::installKey(*t.value(), key->publicKeyLine);
        }
        if (!report)
            return Result<QString>::failure(report.error());
        return QString((key->created ? tr("Made the key %1; ").arg(key->privateKeyPath) : QString()) + report->message);
    };
    m_install = m_jobs.track(QtConcurrent::run(transportPool(), work), [this](const Result<QString>& r) {
        m_installKey->setEnabled(true);
        m_connect->setEnabled(true);
        if (!r) {
            showMessage(tr("Key login was not set up: ") + r.error(), true);
            Q_EMIT keyInstallFinished(false, r.error());
            return;
        }
        m_identities->setPlainText(m_keyPath);
        QString text = r.value()
            + QStringLiteral(".\nThis host now logs in with %1; Connect (and Save) to keep it.").arg(m_keyPath);
        text[0] = text[0].toUpper();
        showMessage(text, false);
        Q_EMIT keyInstallFinished(true, text);
    });
}

void ConnectDialog::reloadSaved()
{
    m_list->clear();
    if (!m_store)
        return;
    const auto loaded = m_store->load();
    if (!loaded) {
        showMessage(loaded.error(), true);
        return;
    }
    for (const HostProfile& p : loaded->profiles)
        addListEntry(p, false);
    if (!loaded->warnings.isEmpty())
        showMessage(loaded->warnings.join(QLatin1Char('\n')), false);
}

void ConnectDialog::addListEntry(const HostProfile& profile, bool imported)
{
    auto* item = new QListWidgetItem(m_list);
    QString text = profile.name;
    if (profile.name != profile.destination() && !profile.isLocal)
        text += QStringLiteral("  \u2014  ") + profile.destination();
    if (imported)
        text += QStringLiteral("  (from ~/.ssh/config)");
    item->setText(text);
    item->setData(kProfileRole, QVariant::fromValue(profile));
    item->setData(kImportedRole, imported);
    item->setToolTip(profile.proxyJump.isEmpty() ? profile.destination()
                                                 : profile.destination() + QStringLiteral(" via ") + profile.proxyJump);
}

int ConnectDialog::importSshConfig()
{
    const auto imported = HostProfileStore::importFromSshConfig(m_sshHome);
    if (!imported) {
        showMessage(imported.error(), true);
        return 0;
    }
    QStringList present;
    for (int i = 0; i < m_list->count(); ++i)
        present << m_list->item(i)->data(kProfileRole).value<HostProfile>().name;
    int added = 0;
    for (const HostProfile& p : imported->profiles) {
        if (present.contains(p.name))
            continue;
        addListEntry(p, true);
        ++added;
    }
    QString text = added == 0
        ? tr("No new hosts in %1/.ssh/config.").arg(m_sshHome)
        : QStringLiteral("%1 host(s) imported from %2/.ssh/config; pick one and tick \u201cSave\u201d to keep it.")
              .arg(added)
              .arg(m_sshHome);
    if (!imported->problems.isEmpty()) {
        constexpr int kShown = 4;
        text
            += QStringLiteral("\nNot understood:\n  ") + imported->problems.mid(0, kShown).join(QStringLiteral("\n  "));
        if (imported->problems.size() > kShown)
            text += QStringLiteral("\n  \u2026and %1 more").arg(imported->problems.size() - kShown);
    }
    showMessage(text, false);
    return added;
}

void ConnectDialog::onSelectionChanged()
{
    QListWidgetItem* item = m_list->currentItem();
    if (!item)
        return;
    setProfile(item->data(kProfileRole).value<HostProfile>());
    // An imported entry is not saved yet: offer to keep it. A saved one is updated in place.
    m_save->setChecked(m_store != nullptr);
}

void ConnectDialog::setProfile(const HostProfile& p)
{
    m_syncing = true;
    m_name->setText(p.name);
    m_host->setText(p.host);
    m_port->setValue(p.port);
    m_user->setText(p.user);
    m_identities->setPlainText(p.identityFiles.join(QLatin1Char('\n')));
    m_proxyJump->setText(p.proxyJump);
    m_knownHosts->setText(p.knownHostsFile);
    m_tags->setText(p.tags.join(QStringLiteral(", ")));
    m_syncing = false;
    updateDestinationFromFields();
    // A host that follows the file shows what the file says now, not what was saved.
    m_alias = p.sshConfigAlias;
    if (!m_alias.isEmpty())
        showSshConfig(m_alias);
    setFollowing(!m_alias.isEmpty());
}

bool ConnectDialog::showSshConfig(const QString& alias)
{
    SshConfigSources sources;
    sources.homeDir = m_sshHome;
    const auto files = loadSshConfigs(sources);
    if (!files) {
        showMessage(files.error(), true);
        return false;
    }
    HostProfile p;
    p.sshConfigAlias = alias;
    SshLocalContext local = SshLocalContext::current();
    local.homeDir = m_sshHome;
    const auto followed = followSshConfig(p, files.value(), local);
    if (!followed) {
        showMessage(followed.error(), true);
        return false;
    }
    const HostProfile& f = followed->profile;
    const SshHostConfig& c = followed->config;
    m_syncing = true;
    if (m_name->text().trimmed().isEmpty())
        m_name->setText(alias);
    m_host->setText(f.host);
    m_port->setValue(f.port);
    m_user->setText(f.user);
    m_identities->setPlainText(f.identityFiles.join(QLatin1Char('\n')));
    m_proxyJump->setText(f.proxyJump);
    m_knownHosts->setText(f.knownHostsFile);
    m_destination->setText(alias);
    m_syncing = false;
    // Where each value came from, as `kernelforge-cli hosts resolve --explain` says it.
    const QString home = m_sshHome.endsWith(QLatin1Char('/')) ? m_sshHome : m_sshHome + QLatin1Char('/');
    auto where = [&](const char* key) {
        const auto it = c.origins.constFind(QString::fromLatin1(key));
        if (it == c.origins.constEnd())
            return QStringLiteral("default");
        QString place = it->place();
        if (place.startsWith(home))
            place = QStringLiteral("~/") + place.mid(home.size());
        return place;
    };
    QStringList lines { tr("From your ssh configuration (Host %1):").arg(alias),
        QStringLiteral("  HostName %1 — %2").arg(f.host, where("hostname")),
        QStringLiteral("  User %1 — %2").arg(f.user.isEmpty() ? tr("(yours)") : f.user, where("user")),
        QStringLiteral("  Port %1 — %2").arg(f.port).arg(where("port")) };
    for (qsizetype i = 0; i < c.identityFiles.size(); ++i) {
        QString place = c.identityOrigins.value(i).place();
        if (place.startsWith(home))
            place = QStringLiteral("~/") + place.mid(home.size());
        lines << QStringLiteral("  IdentityFile %1 — %2").arg(c.identityFiles[i], place);
    }
    if (!c.proxyJump.isEmpty())
        lines << QStringLiteral("  ProxyJump %1 — %2 (connects via %3)")
                     .arg(c.proxyJump, where("proxyjump"), f.proxyJump);
    for (const SshConfigNote& n : followed->notes)
        lines << QStringLiteral("  Note: ") + n.toString();
    m_origins->setText(lines.join(QLatin1Char('\n')));
    m_host->setToolTip(where("hostname"));
    m_user->setToolTip(where("user"));
    m_port->setToolTip(where("port"));
    m_proxyJump->setToolTip(where("proxyjump"));
    return true;
}

void ConnectDialog::setFollowing(bool follow)
{
    m_syncing = true;
    m_follow->setVisible(!m_alias.isEmpty());
    m_follow->setText(tr("&Follow ~/.ssh/config (Host %1)").arg(m_alias));
    m_follow->setChecked(follow && !m_alias.isEmpty());
    m_syncing = false;
    const bool on = m_follow->isChecked();
    // What the file decides is shown, not edited here; untick to make the values this profile's own.
    for (QLineEdit* e : { m_host, m_user, m_proxyJump, m_knownHosts })
        e->setReadOnly(on);
    m_port->setReadOnly(on);
    m_identities->setReadOnly(on);
    m_browseKey->setEnabled(!on);
    m_origins->setVisible(on);
    if (!on)
        for (QWidget* w : std::initializer_list<QWidget*> { m_host, m_user, m_port, m_proxyJump })
            w->setToolTip(QString());
}

void ConnectDialog::onDestinationEdited(const QString& text)
{
    if (m_syncing)
        return;
    const auto d = parseDestination(text.trimmed());
    if (!d) {
        if (!text.trimmed().isEmpty())
            showMessage(d.error() + QStringLiteral(". Write the destination as user@host or user@host:port."), true);
        // The fields show what would be connected to: nothing, not the last valid prefix ("root@bad").
        m_syncing = true;
        m_user->clear();
        m_host->clear();
        m_port->setValue(22);
        m_syncing = false;
        return;
    }
    m_message->hide();
    // A bare name the ssh configuration defines is that Host, as ssh would read it.
    if (d->user.isEmpty() && !d->port && definesHost(m_sshHome, d->host)) {
        m_alias = d->host;
        if (showSshConfig(m_alias)) {
            setFollowing(true);
            return;
        }
    }
    if (!m_alias.isEmpty()) {
        m_alias.clear();
        setFollowing(false);
    }
    m_syncing = true;
    m_user->setText(d->user);
    m_host->setText(d->host);
    m_port->setValue(d->port.value_or(22));
    m_syncing = false;
}

void ConnectDialog::updateDestinationFromFields()
{
    if (m_syncing)
        return;
    m_syncing = true;
    Destination d { m_user->text().trimmed(), m_host->text().trimmed(), quint16(m_port->value()), {} };
    if (d.port == 22 && !d.host.contains(QLatin1Char(':')))
        d.port.reset();
    m_destination->setText(d.host.isEmpty() ? QString() : formatDestination(d));
    m_syncing = false;
}

HostProfile ConnectDialog::profile() const
{
    HostProfile p;
    p.host = m_host->text().trimmed();
    p.port = quint16(m_port->value());
    p.user = m_user->text().trimmed();
    p.name = m_name->text().trimmed().isEmpty() ? p.host : m_name->text().trimmed();
    for (const QString& line : m_identities->toPlainText().split(QLatin1Char('\n'))) {
        if (!line.trimmed().isEmpty())
            p.identityFiles << line.trimmed();
    }
    p.proxyJump = m_proxyJump->text().trimmed();
    p.knownHostsFile = m_knownHosts->text().trimmed();
    if (m_follow->isChecked())
        p.sshConfigAlias = m_alias;
    for (const QString& t : m_tags->text().split(QLatin1Char(','))) {
        if (!t.trimmed().isEmpty())
            p.tags << t.trimmed();
    }
    return p;
}

bool ConnectDialog::saveRequested() const
{
    return m_save->isChecked() && m_store;
}

void ConnectDialog::setSaveRequested(bool save)
{
    m_save->setChecked(save && m_store);
}

void ConnectDialog::openSshConfig()
{
    const QString dir = m_sshHome + QStringLiteral("/.ssh");
    const QString path = dir + QStringLiteral("/config");
    if (!QFileInfo::exists(path)) {
        // ssh refuses a config others can write: the folder 0700, the file 0600, as ssh-keygen makes them.
        if (!QFileInfo::exists(dir)
            && (!QDir().mkpath(dir)
                || !QFile::setPermissions(dir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner))) {
            showMessage(tr("Could not make %1.").arg(dir), true);
            return;
        }
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::NewOnly)
            || !f.setPermissions(QFile::ReadOwner | QFile::WriteOwner)) {
            showMessage(tr("Could not make %1: %2").arg(path, f.errorString()), true);
            return;
        }
    }
    if (!QDesktopServices::openUrl(QUrl::fromLocalFile(path)))
        showMessage(tr("No program here opens %1: edit it in your editor, then Retry.").arg(path), true);
}

void ConnectDialog::showMessage(const QString& text, bool error)
{
    m_message->setText(text);
    m_message->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
    m_message->setProperty("isError", error);
    m_message->show();
}

void ConnectDialog::accept()
{
    if (m_connecting)
        return; // a double click while the last Connect still waits

    // The destination field is what the person reads: it must parse, and the fields follow it.
    // (While it is being typed, the fields keep the last valid prefix, e.g. "root@bad".)
    const QString typed = m_destination->text().trimmed();
    if (!typed.isEmpty()) {
        const auto d = parseDestination(typed);
        if (!d) {
            showMessage(d.error() + QStringLiteral(". Write the destination as user@host or user@host:port."), true);
            m_destination->setFocus();
            return;
        }
        onDestinationEdited(typed);
    }
    const HostProfile p = profile();
    if (p.host.isEmpty()) {
        showMessage(tr("Which server? Type user@host, or pick a saved host."), true);
        return;
    }
    // The fields pass the check a typed destination passes (one parser for both ways in).
    const auto fields = parseDestination(formatDestination({ p.user, p.host, p.port, {} }));
    if (!fields || fields->user != p.user || fields->host != p.host) {
        showMessage(fields ? QStringLiteral("bad host name '%1'").arg(p.host) : fields.error(), true);
        return;
    }
    if (saveRequested()) {
        if (const Result<void> s = m_store->upsert(p); !s) {
            showMessage(tr("Could not save the host: ") + s.error(), true);
            return;
        }
    }
    if (!m_connector) {
        QDialog::accept();
        return;
    }
    waitForConnection(m_connector(p, saveRequested()));
}

void ConnectDialog::waitForConnection(HostConnection* host)
{
    disconnect(m_connectingWatch);
    m_connecting = host;
    if (!host || host->state() == ConnectionState::Ready) {
        QDialog::accept();
        return;
    }
    m_connectingWatch = connect(host, &HostConnection::stateChanged, this, &ConnectDialog::onConnectionState);
    // Still Disconnected: the session thread has not said anything yet (its states arrive queued).
    onConnectionState(host->state() == ConnectionState::Disconnected ? ConnectionState::Connecting : host->state(),
        host->stateReason());
}

void ConnectDialog::onConnectionState(ConnectionState state, const QString& reason)
{
    if (!m_connecting)
        return;
    const QString destination = m_connecting->profile().destination();
    switch (state) {
    case ConnectionState::Ready:
        disconnect(m_connectingWatch);
        QDialog::accept();
        return;
    case ConnectionState::Failed:
    case ConnectionState::Disconnected:
        disconnect(m_connectingWatch);
        m_connecting = nullptr;
        m_connect->setEnabled(true);
        m_connect->setText(tr("&Retry"));
        m_connect->setToolTip(tr("Connect again with what the form says now"));
        m_openConfig->show();
        showMessage(tr("Could not connect to %1: %2.\nCheck the destination and the port, then Retry; the form "
                       "keeps what you typed.")
                        .arg(destination, reason.isEmpty() ? tr("the connection was closed") : reason),
            true);
        Q_EMIT connectFailed(reason);
        return;
    case ConnectionState::Connecting:
    case ConnectionState::HostKeyPrompt:
    case ConnectionState::Authenticating:
    case ConnectionState::Reconnecting:
        m_connect->setEnabled(false);
        showMessage(tr("Connecting to %1\u2026").arg(destination), false);
        return;
    }
}

} // namespace kf
