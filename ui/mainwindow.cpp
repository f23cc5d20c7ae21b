// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/mainwindow.h"

#include "core/demo/demostart.h"
#include "core/gpu/gpumonitorhub.h"
#include "core/hosts/hostmanager.h"
#include "core/hosts/hostprofilestore.h"
#include "core/log/logging.h"
#include "core/sessions/hostsessions.h"
#include "core/ssh/sshsession.h"
#include "core/timeline/seriesrecorder.h"
#include "core/version.h"
#include "ui/common/elidedlabel.h"
#include "ui/common/emptystate.h"
#include "ui/common/hostpanestack.h"
#include "ui/common/preferences.h"
#include "ui/common/preferencesdialog.h"
#include "ui/diff/diffview.h"
#include "ui/fleet/fleetview.h"
#include "ui/gpu/gpupane.h"
#include "ui/highlight/highlighterinfo.h"
#include "ui/hosts/connectdialog.h"
#include "ui/hosts/hostlistmodel.h"
#include "ui/overview/overviewpane.h"
#include "ui/patch/patchpane.h"
#include "ui/remotebuild/buildpane.h"
#include "ui/server/serverpane.h"
#include "ui/timeline/timelinepane.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QListView>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QStyledItemDelegate>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <memory>

namespace kf {
namespace {

// Sidebar rows as wide as the list, never wider: a long name or "user@host:port · Disconnected"
// is elided (the tooltip has it whole) instead of widening the row under a horizontal scrollbar.
class SidebarDelegate : public QStyledItemDelegate
{
public:
    explicit SidebarDelegate(QListView* view)
        : QStyledItemDelegate(view)
        , m_view(view)
    { }
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        QSize size = QStyledItemDelegate::sizeHint(option, index);
        size.setWidth(std::min(size.width(), std::max(1, m_view->viewport()->width() - 2 * m_view->spacing())));
        return size;
    }

private:
    QListView* m_view;
};

// "&Hosts" -> "Hosts"
QString plainTitle(QString text)
{
    return text.remove(QLatin1Char('&')).remove(QChar(0x2026)).trimmed();
}

} // namespace

MainWindow::MainWindow(const AppContext& context, QWidget* parent)
    : QMainWindow(parent)
    , m_context(context)
    , m_hostModel(new HostListModel(context.hosts, this))
    , m_hostList(new QListView(this))
    , m_tabs(new QTabWidget(this))
    , m_statusHost(new ElidedLabel(this)) // a long name or reason never widens the window
{
    setWindowTitle(QStringLiteral("KernelForge"));
    setObjectName(QStringLiteral("MainWindow"));
    if (!m_context.sessions) {
        // Handed none (tests): one for every view of this window, as the app has one for all.
        m_context.sessions = new HostSessions(this);
        if (m_context.timelineSeries)
            m_context.timelineSeries->watch(m_context.sessions);
    }

    auto* sidebar = new QWidget(this);
    auto* sideLayout = new QVBoxLayout(sidebar);
    sideLayout->setContentsMargins(6, 6, 0, 6);
    auto* hostsLabel = new QLabel(tr("<b>Hosts</b>"), sidebar);
    sideLayout->addWidget(hostsLabel);
    m_hostList->setObjectName(QStringLiteral("hostList"));
    m_hostList->setModel(m_hostModel);
    m_hostList->setSpacing(2);
    m_hostList->setIconSize(QSize(20, 20));
    m_hostList->setSelectionMode(QAbstractItemView::SingleSelection);
    m_hostList->setItemDelegate(new SidebarDelegate(m_hostList));
    m_hostList->setTextElideMode(Qt::ElideRight);
    m_hostList->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_hostList->setResizeMode(QListView::Adjust); // rows are laid out again, to the new width
    sideLayout->addWidget(m_hostList);
    auto* addServer = new QPushButton(tr("Add a server\u2026"), sidebar);
    addServer->setObjectName(QStringLiteral("sidebarAddServer"));
    connect(addServer, &QPushButton::clicked, this, &MainWindow::showConnectDialog);
    sideLayout->addWidget(addServer);

    // One pane per host and tab; what each tab says while no host is selected.
    auto addHostTab = [this](Tab tab, const QString& title, HostPaneStack::Factory factory, const QString& emptyTitle,
                          const QString& emptyText) {
        auto* stack = new HostPaneStack(m_context.hosts, std::move(factory), this);
        stack->emptyState()->setTitle(emptyTitle);
        stack->emptyState()->setText(emptyText);
        m_stacks << stack;
        m_tabPages.insert(tab, stack);
        m_tabs->addTab(stack, title);
    };
    addHostTab(
        Tab::Overview, tr("Overview"),
        [this](HostConnection* host, QWidget* parent) {
            auto* overview = new OverviewPane(m_context, host, parent);
            connect(overview, &OverviewPane::openStep, this, [this](OverviewPane::Step step) {
                switch (step) {
                case OverviewPane::Step::Patches: showTab(Tab::Patches); break;
                case OverviewPane::Step::Build: showTab(Tab::Build); break;
                case OverviewPane::Step::Gpus: showTab(Tab::Gpus); break;
                case OverviewPane::Step::Server: showTab(Tab::Server); break;
                }
            });
            return overview;
        },
        tr("Welcome to KernelForge"),
        tr("Add a server you reach over SSH: import it from ~/.ssh/config or type user@host. A server that takes "
           "only a password (or only an RSA key) gets a key of KernelForge's own. Or try everything first on a "
           "private demo server on this machine."));
    addHostTab(
        Tab::Patches, tr("Patches"),
        [this](HostConnection* host, QWidget* parent) { return new PatchPane(m_context, host, parent); }, tr("Patches"),
        tr("Select a host to plan, apply and roll back patch sets on it."));
    addHostTab(
        Tab::Build, tr("Build"),
        [this](HostConnection* host, QWidget* parent) {
            auto* build = new BuildPane(m_context, host, parent);
            connect(build, &BuildPane::patchFixRequested, this,
                [this, host, build](const BuildFix& fix, const QString& root) { reviewFix(host, build, fix, root); });
            return build;
        },
        tr("Build"), tr("Select a host to preflight, build and follow its jobs."));
    addHostTab(
        Tab::Gpus, tr("GPUs"),
        [this](HostConnection* host, QWidget* parent) { return new GpuPane(m_context, host, parent); }, tr("GPUs"),
        tr("Select a connected host to watch its GPUs. KernelForge runs one long-lived nvidia-smi on it; nothing is "
           "installed."));
    addHostTab(
        Tab::Server, tr("Server"),
        [this](HostConnection* host, QWidget* parent) {
            auto* server = new ServerPane(m_context, host, parent);
            // A server failure the verification explains: the host's Build tab, on its Verification.
            connect(server, &ServerPane::verificationRequested, this, [this, host] {
                showTab(Tab::Build);
                auto* stack = qobject_cast<HostPaneStack*>(m_tabPages.value(Tab::Build));
                if (auto* build = stack ? qobject_cast<BuildPane*>(stack->paneFor(host)) : nullptr)
                    build->showVerification();
            });
            return server;
        },
        tr("SGLang server"), tr("Select a connected host to launch or watch its inference server."));
    addHostTab(
        Tab::Timeline, tr("Timeline"),
        [this](HostConnection* host, QWidget* parent) {
            auto* timeline = new TimelinePane(m_context, host, parent);
            // A marker's "Open in ..." shows the pane the event came from.
            connect(timeline, &TimelinePane::openPane, this,
                [this](const QString& pane) { showTab(tabFromName(pane).value_or(Tab::Overview)); });
            return timeline;
        },
        tr("Timeline"), tr("Select a host to see what KernelForge did and saw on it, and to save or replay a recipe."));
    // The first screen's way forward (the Overview tab says it while no host is selected).
    EmptyState* welcome = m_stacks.first()->emptyState();
    m_addServer = welcome->addAction(tr("Add a server\u2026"), QStringLiteral("addServer"));
    connect(m_addServer, &QPushButton::clicked, this, &MainWindow::showConnectDialog);
    if (m_context.demo)
        connect(welcome->addAction(tr("Try the demo server"), QStringLiteral("tryDemo")), &QPushButton::clicked, this,
            &MainWindow::tryDemo);
    // Every connected host at a glance; not tied to the sidebar's selection.
    auto* fleet = new FleetView(context, this);
    m_tabPages.insert(Tab::Fleet, fleet);
    m_tabs->addTab(fleet, tr("Fleet"));
    connect(fleet, &FleetView::hostActivated, this, [this](HostConnection* host) {
        selectHost(host->profile().name);
        showTab(Tab::Gpus);
    });
    m_tabs->setDocumentMode(true);

    m_split = new QSplitter(this);
    m_split->setObjectName(QStringLiteral("sidebarSplitter"));
    m_split->addWidget(sidebar);
    m_split->addWidget(m_tabs);
    // The sidebar keeps a width where host names are readable (elided, whole in the tooltip),
    // or is collapsed (View > Host Sidebar, Ctrl+B, or dragged away) to give a diff the room.
    sidebar->setObjectName(QStringLiteral("sidebar"));
    sidebar->setMinimumWidth(170);
    m_split->setCollapsible(0, true);
    m_split->setCollapsible(1, false);
    m_split->setStretchFactor(0, 0);
    m_split->setStretchFactor(1, 1);
    m_split->setSizes({ 260, 1100 });
    setCentralWidget(m_split);
    statusBar()->addWidget(m_statusHost, 1);

    connect(
        m_hostList->selectionModel(), &QItemSelectionModel::currentChanged, this, &MainWindow::onCurrentHostChanged);
    connect(m_hostModel, &QAbstractItemModel::dataChanged, this, &MainWindow::updateStatus);
    connect(m_hostList, &QListView::activated, this, [this](const QModelIndex& index) {
        if (auto* h = m_hostModel->connectionAt(index.row()); h && h->state() != ConnectionState::Ready)
            h->connectToHost();
    });

    createMenus();
    restoreSettings();
    updateStatus();
}

MainWindow::~MainWindow() = default;

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* connectAction = file->addAction(tr("&Connect to Server…"), this, &MainWindow::showConnectDialog);
    connectAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* editMenu = menuBar()->addMenu(tr("&Edit"));
    QAction* prefs = editMenu->addAction(tr("&Preferences\u2026"), this, &MainWindow::showPreferences);
    prefs->setObjectName(QStringLiteral("preferences"));
    prefs->setMenuRole(QAction::PreferencesRole); // the application menu on macOS
    // The platform's key where it has one (macOS Cmd+,); elsewhere Ctrl+, as most apps use.
    prefs->setShortcuts(QKeySequence::keyBindings(QKeySequence::Preferences).isEmpty()
            ? QList<QKeySequence> { QKeySequence(Qt::CTRL | Qt::Key_Comma) }
            : QKeySequence::keyBindings(QKeySequence::Preferences));

    // One action per tab, in the order the tabs are shown: Ctrl+1..Ctrl+9.
    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (int i = 0; i < m_tabs->count(); ++i) {
        QWidget* page = m_tabs->widget(i);
        QAction* show = view->addAction(m_tabs->tabText(i), this, [this, page] { m_tabs->setCurrentWidget(page); });
        show->setObjectName(QStringLiteral("showTab-") + tabName(m_tabPages.key(page, Tab::Overview)));
        if (i < 9)
            show->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
    }
    view->addSeparator();
    // Window-wide, so they work from the sidebar too (the tab bar's own Ctrl+Tab needs the focus
    // inside the tabs). Ctrl+Shift+Tab arrives as Backtab on X11.
    QAction* next = view->addAction(tr("&Next Tab"), this, [this] { nextTab(1); });
    next->setObjectName(QStringLiteral("nextTab"));
    next->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Tab));
    QAction* previous = view->addAction(tr("&Previous Tab"), this, [this] { nextTab(-1); });
    previous->setObjectName(QStringLiteral("previousTab"));
    previous->setShortcuts(
        { QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Tab), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Backtab) });
    view->addSeparator();
    // As VS Code's Ctrl+B: the tabs get the whole width (a diff in a small window).
    m_sidebarAction = view->addAction(tr("Host &Sidebar"));
    m_sidebarAction->setObjectName(QStringLiteral("toggleSidebar"));
    m_sidebarAction->setCheckable(true);
    m_sidebarAction->setChecked(true);
    m_sidebarAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    connect(m_sidebarAction, &QAction::toggled, this, &MainWindow::setSidebarShown);
    // Dragged shut or open, the action follows.
    connect(m_split, &QSplitter::splitterMoved, this, [this] {
        const QSignalBlocker quiet(m_sidebarAction);
        m_sidebarAction->setChecked(isSidebarShown());
    });

    QMenu* hosts = menuBar()->addMenu(tr("&Hosts"));
    hosts->addAction(tr("&Connect"), this, [this] {
        if (m_current)
            m_current->connectToHost();
    });
    hosts->addAction(tr("&Disconnect"), this, [this] {
        if (m_current)
            m_current->disconnectFromHost();
    });
    QAction* reconnect = m_reconnectAction = hosts->addAction(tr("&Reconnect on Start"));
    reconnect->setObjectName(QStringLiteral("reconnectOnStart"));
    reconnect->setCheckable(true);
    reconnect->setChecked(reconnectOnStart());
    reconnect->setToolTip(tr("Connect the hosts that were connected when KernelForge was closed"));
    connect(reconnect, &QAction::toggled, this, &MainWindow::setReconnectOnStart);
    hosts->addSeparator();
    // The selected host's actions: in this menu and the sidebar's context menu; Delete in the sidebar removes.
    QAction* edit = hosts->addAction(tr("&Edit Host…"), this, &MainWindow::editHost);
    edit->setObjectName(QStringLiteral("editHost"));
    QAction* duplicate = hosts->addAction(tr("D&uplicate Host…"), this, &MainWindow::duplicateHost);
    duplicate->setObjectName(QStringLiteral("duplicateHost"));
    QAction* remove = hosts->addAction(tr("&Remove Host…"), this, &MainWindow::removeHost);
    remove->setObjectName(QStringLiteral("removeHost"));
    remove->setShortcut(QKeySequence::Delete);
    remove->setShortcutContext(Qt::WidgetShortcut);
    m_hostList->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_hostList->addActions({ edit, duplicate, remove });
    auto enable = [this, edit, duplicate, remove] {
        // This machine is not an SSH destination: it can be removed, not edited.
        const bool ssh = m_current && !m_current->profile().isLocal;
        edit->setEnabled(ssh);
        duplicate->setEnabled(ssh);
        remove->setEnabled(m_current != nullptr);
    };
    connect(m_hostList->selectionModel(), &QItemSelectionModel::currentChanged, this, enable);
    connect(m_context.hosts, &HostManager::hostRemoved, this, enable);
    enable();
    if (m_context.secrets) {
        hosts->addSeparator();
        QAction* forget = hosts->addAction(tr("&Forget Stored Password"), this, [this] {
            if (!m_current || m_current->profile().isLocal)
                return;
            const Result<int> removed = forgetStoredSecrets(*m_context.secrets, m_current->profile());
            const QString dest = m_current->profile().destination();
            statusBar()->showMessage(!removed ? tr("Could not clear the keychain: %1").arg(removed.error())
                    : removed.value() == 0    ? tr("Nothing is stored in the keychain for %1").arg(dest)
                                              : tr("Removed the stored password for %1").arg(dest),
                8000);
        });
        forget->setObjectName(QStringLiteral("forgetStoredPassword"));
    }

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* keys = help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
    keys->setObjectName(QStringLiteral("keyboardShortcuts"));
    help->addAction(tr("&About KernelForge"), this, &MainWindow::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

bool MainWindow::isSidebarShown() const
{
    return m_split->sizes().value(0) > 0;
}

void MainWindow::setSidebarShown(bool shown)
{
    if (shown != isSidebarShown()) {
        QList<int> sizes = m_split->sizes();
        const int total = sizes.value(0) + sizes.value(1);
        // Opened again at the width it had (at least its minimum).
        const int width = shown ? std::max(m_sidebarWidth, m_split->widget(0)->minimumWidth()) : 0;
        if (!shown)
            m_sidebarWidth = sizes.value(0);
        m_split->setSizes({ width, std::max(0, total - width) });
    }
    const QSignalBlocker quiet(m_sidebarAction);
    m_sidebarAction->setChecked(isSidebarShown());
}

void MainWindow::nextTab(int step)
{
    const int n = m_tabs->count();
    if (n > 0)
        m_tabs->setCurrentIndex(((m_tabs->currentIndex() + step) % n + n) % n);
}

QList<ShortcutInfo> MainWindow::shortcuts() const
{
    QList<ShortcutInfo> out;
    const std::function<void(const QMenu*)> walk = [&](const QMenu* menu) {
        for (const QAction* a : menu->actions()) {
            if (a->menu()) {
                walk(a->menu());
            } else if (!a->shortcuts().isEmpty()) {
                QString where = plainTitle(menu->title());
                if (a->shortcutContext() == Qt::WidgetShortcut)
                    where = tr("%1 (in the sidebar)").arg(where);
                out.append({ where, plainTitle(a->text()), a->shortcuts() });
            }
        }
    };
    for (const QAction* a : menuBar()->actions())
        if (a->menu())
            walk(a->menu());
    return out + PatchPane::keyboardShortcuts() + DiffView::keyboardShortcuts();
}

void MainWindow::showShortcuts()
{
    QDialog dialog(this);
    dialog.setObjectName(QStringLiteral("shortcutsDialog"));
    dialog.setWindowTitle(tr("Keyboard Shortcuts"));
    auto* list = new QTreeWidget(&dialog);
    list->setObjectName(QStringLiteral("shortcutList"));
    list->setRootIsDecorated(false);
    list->setHeaderLabels({ tr("Keys"), tr("Action"), tr("Where") });
    for (const ShortcutInfo& s : shortcuts()) {
        QStringList keys;
        for (const QKeySequence& k : s.keys)
            keys << k.toString(QKeySequence::NativeText);
        new QTreeWidgetItem(list, { keys.join(QStringLiteral(", ")), s.what, s.where });
    }
    for (int c = 0; c < 3; ++c)
        list->resizeColumnToContents(c);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(list);
    layout->addWidget(buttons);
    dialog.resize(640, 560);
    dialog.exec();
}

void MainWindow::showPreferences()
{
    PreferencesDialog dialog(Preferences::load(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const Preferences chosen = dialog.preferences();
    chosen.save();
    applyPreferences(chosen);
    statusBar()->showMessage(tr("Preferences saved"), 5000);
}

void MainWindow::applyPreferences(const Preferences& preferences)
{
    if (m_context.gpuMonitors)
        m_context.gpuMonitors->setIntervalMs(preferences.gpuRefreshMs);
    if (m_reconnectAction) {
        const QSignalBlocker quiet(m_reconnectAction); // saved already
        m_reconnectAction->setChecked(preferences.reconnectOnStart);
    }
    Q_EMIT preferencesChanged(preferences);
}

void MainWindow::tryDemo()
{
    if (!m_context.demo)
        return;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const Result<HostConnection*> started = startDemoServer(*m_context.demo, *m_context.hosts);
    QApplication::restoreOverrideCursor();
    if (!started) {
        QMessageBox::warning(
            this, tr("Demo server"), tr("The demo server could not start:\n\n%1").arg(started.error()));
        return;
    }
    selectHost(kDemoHostName);
}

void MainWindow::showConnectDialog()
{
    openHostDialog(m_lastUnsaved, QString());
}

void MainWindow::openHostDialog(const HostProfile& initial, const QString& replacing)
{
    ConnectDialog dialog(m_context.profiles, this); // saves hosts.yaml itself when "Save" is ticked
    dialog.setSecretStore(m_context.secrets);
    dialog.setInteraction(m_context.interaction);
    if (!initial.host.isEmpty()) {
        dialog.setProfile(initial);
        dialog.setSaveRequested(!replacing.isEmpty() && isSaved(replacing));
    }
    if (!replacing.isEmpty())
        dialog.setWindowTitle(tr("Edit %1").arg(replacing));
    // The form stays open while the host connects and says why it failed (Retry); a retry
    // replaces the host the last try made.
    QString replaced = replacing;
    dialog.setConnector([this, &replaced, initial](const HostProfile& profile, bool saved) {
        HostConnection* h = connectFromDialog(profile, saved, initial, replaced);
        replaced = profile.name;
        return h;
    });
    dialog.exec();
}

HostConnection* MainWindow::connectFromDialog(
    HostProfile p, bool saved, const HostProfile& initial, const QString& replacing)
{
    // Edited, the demo server stays the demo server while it points at the same sshd.
    p.isDemo = initial.isDemo && p.host == initial.host && p.port == initial.port;
    m_lastUnsaved = HostProfile();
    if (!replacing.isEmpty() && replacing != p.name) {
        if (saved && isSaved(replacing)) {
            if (const Result<void> r = m_context.profiles->remove(replacing); !r)
                statusBar()->showMessage(tr("Could not remove %1 from the saved hosts: %2").arg(replacing, r.error()));
        }
        m_context.hosts->remove(replacing);
    }
    if (auto* old = m_context.hosts->find(p.name); old && old->profile() != p)
        m_context.hosts->remove(p.name);
    HostConnection* h = m_context.hosts->add(p);
    if (!h)
        return nullptr;
    selectHost(p.name);
    if (!saved && h->state() != ConnectionState::Ready) {
        // Not saved: it stays in the sidebar as the live session it becomes, and only then.
        // A first connection that fails takes it out again; the next dialog starts from it.
        auto watch = std::make_shared<QMetaObject::Connection>();
        *watch = connect(h, &HostConnection::stateChanged, this, [this, h, p, watch](ConnectionState state) {
            if (state == ConnectionState::Ready) {
                disconnect(*watch);
            } else if (state == ConnectionState::Failed) {
                disconnect(*watch);
                statusBar()->showMessage(
                    tr("Could not connect to %1: %2. It was not saved, so it is not kept in the sidebar; Connect "
                       "to Server starts from it again.")
                        .arg(p.destination(), h->stateReason()));
                m_lastUnsaved = p;
                m_context.hosts->remove(p.name);
            }
        });
    }
    h->connectToHost();
    return h;
}

bool MainWindow::isSaved(const QString& name) const
{
    if (!m_context.profiles)
        return false;
    const auto loaded = m_context.profiles->load();
    return loaded && std::any_of(loaded->profiles.cbegin(), loaded->profiles.cend(), [&](const HostProfile& p) {
        return p.name == name;
    });
}

void MainWindow::editHost()
{
    if (m_current)
        openHostDialog(m_current->profile(), m_current->profile().name);
}

void MainWindow::duplicateHost()
{
    if (!m_current)
        return;
    HostProfile copy = m_current->profile();
    copy.name = tr("%1 (copy)").arg(copy.name);
    copy.isDemo = false;
    openHostDialog(copy, QString());
}

void MainWindow::removeHost()
{
    if (!m_current)
        return;
    const QString name = m_current->profile().name;
    const bool saved = isSaved(name);
    const QString question = saved
        ? tr("Remove %1 from the sidebar and from the saved hosts? Its connection is closed; nothing on the server "
             "is touched.")
              .arg(name)
        : tr("Remove %1 from the sidebar? Its connection is closed; nothing on the server is touched.").arg(name);
    if (QMessageBox::question(this, tr("Remove host"), question) != QMessageBox::Yes)
        return;
    if (saved) {
        if (const Result<void> r = m_context.profiles->remove(name); !r) {
            QMessageBox::warning(this, tr("Remove host"), tr("Could not remove %1: %2").arg(name, r.error()));
            return;
        }
    }
    m_context.hosts->remove(name);
    statusBar()->showMessage(tr("Removed %1").arg(name), 8000);
}

void MainWindow::selectHost(const QString& name)
{
    const int row = m_hostModel->rowOf(name);
    if (row >= 0)
        m_hostList->setCurrentIndex(m_hostModel->index(row));
}

void MainWindow::onCurrentHostChanged()
{
    m_current = m_hostModel->connectionAt(m_hostList->currentIndex().row());
    for (HostPaneStack* stack : std::as_const(m_stacks))
        stack->showHost(m_current);
    updateStatus();
}

namespace {
struct TabNameRow
{
    MainWindow::Tab tab;
    const char* name;
};
constexpr TabNameRow kTabNames[] = { { MainWindow::Tab::Overview, "overview" }, { MainWindow::Tab::Patches, "patches" },
    { MainWindow::Tab::Build, "build" }, { MainWindow::Tab::Gpus, "gpus" }, { MainWindow::Tab::Server, "server" },
    { MainWindow::Tab::Timeline, "timeline" }, { MainWindow::Tab::Fleet, "fleet" } };
} // namespace

QString MainWindow::tabName(Tab tab)
{
    for (const TabNameRow& row : kTabNames)
        if (row.tab == tab)
            return QString::fromLatin1(row.name);
    return {};
}

std::optional<MainWindow::Tab> MainWindow::tabFromName(const QString& name)
{
    for (const TabNameRow& row : kTabNames)
        if (name.compare(QLatin1String(row.name), Qt::CaseInsensitive) == 0)
            return row.tab;
    return std::nullopt;
}

QStringList MainWindow::tabNames()
{
    QStringList names;
    for (const TabNameRow& row : kTabNames)
        names << QString::fromLatin1(row.name);
    return names;
}

QWidget* MainWindow::tab(Tab tab) const
{
    return m_tabPages.value(tab);
}

void MainWindow::reviewFix(HostConnection* host, BuildPane* build, const BuildFix& fix, const QString& root)
{
    auto* patches = qobject_cast<PatchPane*>(pane(Tab::Patches, host));
    if (!patches)
        return;
    showTab(Tab::Patches);
    patches->reviewPatch(fix.patchSet, root, fix.id);
    // The next apply on that pane answers the offer: once the fix is written, the build goes on.
    auto once = std::make_shared<QMetaObject::Connection>();
    *once = connect(
        patches, &PatchPane::applyFinished, build, [this, build, once, id = fix.id](const patch::ApplyReport& report) {
            disconnect(*once);
            const bool written
                = std::any_of(report.files.cbegin(), report.files.cend(), [&](const patch::FileApply& f) {
                      return f.outcome == patch::FileApply::Written && f.patchIds.contains(id);
                  });
            if (!report.ok() || !written)
                return;
            showTab(Tab::Build);
            build->buildAgainAfterFix();
        });
}

void MainWindow::showTab(Tab tab)
{
    m_tabs->setCurrentWidget(m_tabPages.value(tab));
}

HostPane* MainWindow::pane(Tab tab, HostConnection* host) const
{
    auto* stack = qobject_cast<HostPaneStack*>(m_tabPages.value(tab));
    return stack ? stack->paneFor(host ? host : m_current.data()) : nullptr;
}

void MainWindow::updateStatus()
{
    if (!m_current) {
        m_statusHost->setText(tr("No host selected"));
        return;
    }
    QString text = m_current->profile().name + QStringLiteral(" — ") + m_current->profile().destination()
        + QStringLiteral(" — ") + toString(m_current->state());
    if (!m_current->stateReason().isEmpty())
        text += QStringLiteral(": ") + m_current->stateReason();
    m_statusHost->setText(text);
}

void MainWindow::showAbout()
{
    QString rows;
    const auto versions
        = componentVersions() + QList<QPair<QString, QString>> { { tr("Highlighter"), highlighterBackendName() } };
    for (const auto& [name, version] : versions)
        rows += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                    .arg(name.toHtmlEscaped(), version.toHtmlEscaped());
    QMessageBox box(this);
    box.setObjectName(QStringLiteral("aboutBox"));
    box.setWindowTitle(tr("About KernelForge"));
    box.setTextFormat(Qt::RichText);
    box.setText(tr("<h3>KernelForge</h3><p>Patch, build and watch LLM inference on your own GPU servers.</p>"
                   "<table cellspacing=4>%1</table><p>License: GPL-3.0-or-later</p>")
                    .arg(rows));
    box.exec();
}

namespace {
const QString kConnectedKey = QStringLiteral("session/connectedHosts");
} // namespace

bool MainWindow::reconnectOnStart()
{
    return Preferences::load().reconnectOnStart;
}

void MainWindow::setReconnectOnStart(bool on)
{
    Preferences p = Preferences::load();
    p.reconnectOnStart = on;
    p.save();
}

void MainWindow::restoreSettings()
{
    QSettings s;
    // Size and place as the last window left them (restoreGeometry keeps it on a screen);
    // the first window opens at 1440x900, or the screen's size when that is smaller.
    if (!restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray())) {
        const QSize room = screen() ? screen()->availableSize() : QSize(1440, 900);
        resize(QSize(1440, 900).boundedTo(room));
    }
    if (const QByteArray split = s.value(QStringLiteral("window/sidebarSplitter")).toByteArray(); !split.isEmpty())
        m_split->restoreState(split);
    m_sidebarWidth = std::max(m_sidebarWidth, m_split->sizes().value(0));
    if (m_sidebarAction)
        setSidebarShown(isSidebarShown());
    if (reconnectOnStart()) {
        for (const QString& name : s.value(kConnectedKey).toStringList()) {
            HostConnection* h = m_context.hosts->find(name);
            if (h && (h->state() == ConnectionState::Disconnected || h->state() == ConnectionState::Failed))
                h->connectToHost();
        }
    }
    // The last host, else the first server; with none but this machine nothing is selected, so
    // the first screen shows how to add one.
    const QString last = s.value(QStringLiteral("window/lastHost")).toString();
    if (!last.isEmpty() && m_hostModel->rowOf(last) >= 0) {
        selectHost(last);
    } else {
        for (int row = 0; row < m_hostModel->rowCount(); ++row) {
            if (HostConnection* h = m_hostModel->connectionAt(row); h && !h->profile().isLocal) {
                m_hostList->setCurrentIndex(m_hostModel->index(row));
                break;
            }
        }
    }
    // The list would select its first row when it gets the focus; the way forward takes it.
    if (!m_current)
        m_addServer->setFocus();
    // A host's tab without its host would show only "Select a host": the first screen instead.
    if (const auto tab = tabFromName(s.value(QStringLiteral("window/lastTab")).toString());
        tab && (m_current || *tab == Tab::Fleet))
        showTab(*tab);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/sidebarSplitter"), m_split->saveState());
    if (m_current)
        s.setValue(QStringLiteral("window/lastHost"), m_current->profile().name);
    else
        s.remove(QStringLiteral("window/lastHost"));
    s.setValue(QStringLiteral("window/lastTab"), tabName(m_tabPages.key(m_tabs->currentWidget(), Tab::Overview)));
    // The demo server is not kept: its sshd and port last as long as the app.
    QStringList connected;
    for (HostConnection* h : m_context.hosts->hosts()) {
        const ConnectionState state = h->state();
        if (!h->profile().isDemo && state != ConnectionState::Disconnected && state != ConnectionState::Failed)
            connected << h->profile().name;
    }
    s.setValue(kConnectedKey, connected);
    event->accept();
}

} // namespace kf
