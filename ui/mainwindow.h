// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/hostprofile.h"
#include "ui/appcontext.h"
#include "ui/common/preferences.h"
#include "ui/common/shortcutinfo.h"

#include <QList>
#include <QMainWindow>
#include <QMap>
#include <QPointer>

#include <optional>

class QAction;
class QLabel;
class QListView;
class QPushButton;
class QSplitter;
class QTabWidget;

namespace kf {

class BuildPane;
struct BuildFix;
class HostConnection;
class HostListModel;
class HostPane;
class HostPaneStack;

// Host sidebar on the left, one tab per feature in the centre, connection state in the
// status bar. Each host-bound tab holds one pane per host (HostPaneStack) and shows the
// selected host's; the Fleet tab shows every host.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    enum class Tab { Overview, Patches, Build, Gpus, Server, Timeline, Fleet };
    // A tab's stable name: `kernelforge --tab NAME`, and the pane a timeline event came from.
    static QString tabName(Tab tab);
    static std::optional<Tab> tabFromName(const QString& name); // any case; nullopt: no such tab
    static QStringList tabNames();

    explicit MainWindow(const AppContext& context, QWidget* parent = nullptr);
    ~MainWindow() override;

    HostConnection* currentHost() const { return m_current; }
    void selectHost(const QString& name);
    QTabWidget* tabs() const { return m_tabs; }
    QListView* hostList() const { return m_hostList; }
    QWidget* tab(Tab tab) const;
    void showTab(Tab tab);
    // The pane of a host-bound tab for `host` (null: the selected host); null until the host
    // was first selected, and for the Fleet tab.
    HostPane* pane(Tab tab, HostConnection* host = nullptr) const;
    // Whether a new window connects the hosts that were connected when the last one closed
    // (QSettings; on by default). The last host and tab are selected again either way.
    static bool reconnectOnStart();
    static void setReconnectOnStart(bool on);
    // The host sidebar (View > Host Sidebar, Ctrl+B); collapsed, the tabs get the whole width.
    // Kept with the window's geometry (QSettings window/sidebarSplitter).
    bool isSidebarShown() const;
    void setSidebarShown(bool shown);
    // Every shortcut the app defines: the menus' actions (read from the actions themselves) and
    // the views' own keys (from the tables they handle keys with). Help > Keyboard Shortcuts.
    QList<ShortcutInfo> shortcuts() const;
    void showShortcuts();
    // Edit > Preferences; OK saves and applies at once (applyPreferences).
    void showPreferences();
    // What changed takes effect: the GPU streams' interval, the Hosts menu's reconnect switch.
    // Units, the chart window and build notifications are read where they are used.
    void applyPreferences(const Preferences& preferences);

Q_SIGNALS:
    void preferencesChanged(const kf::Preferences& preferences);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createMenus();
    // A build's diagnosis offered a patch: its review opens in the host's Patches tab, and once
    // that patch is applied the build goes on (BuildPane::buildAgainAfterFix).
    void reviewFix(HostConnection* host, BuildPane* build, const BuildFix& fix, const QString& root);
    void onCurrentHostChanged();
    void updateStatus();
    void showAbout();
    void showConnectDialog();
    void nextTab(int step);
    // "Try the demo server": startDemoServer (as --demo does), then selects it.
    void tryDemo();
    // The connect dialog filled with `initial`; on Connect, the host it describes replaces
    // `replacing` (Edit; empty: a new host) and connects.
    void openHostDialog(const HostProfile& initial, const QString& replacing);
    // The dialog's Connect: the host `p` describes replaces `replacing` and connects.
    HostConnection* connectFromDialog(HostProfile p, bool saved, const HostProfile& initial, const QString& replacing);
    bool isSaved(const QString& name) const;
    void editHost();
    void duplicateHost();
    void removeHost();
    void restoreSettings();

    AppContext m_context;
    HostListModel* m_hostModel;
    QListView* m_hostList;
    QTabWidget* m_tabs;
    QMap<Tab, QWidget*> m_tabPages;
    QList<HostPaneStack*> m_stacks;
    QLabel* m_statusHost;
    QPushButton* m_addServer; // the first screen's "Add a server"
    QAction* m_reconnectAction = nullptr;
    QAction* m_sidebarAction = nullptr;
    QSplitter* m_split = nullptr;
    int m_sidebarWidth = 260; // the sidebar's width before it was collapsed
    QPointer<HostConnection> m_current;
    HostProfile m_lastUnsaved; // an unsaved host that failed to connect: the next dialog starts from it
};

} // namespace kf
