// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "ui/appcontext.h"

#include <QList>
#include <QMainWindow>
#include <QPointer>

class QLabel;
class QListView;
class QTabWidget;

namespace kf {

class HostConnection;
class HostListModel;
class HostPane;

// Host sidebar on the left, one tab per feature in the centre (each a HostPane working on
// the selected host), connection state in the status bar.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(const AppContext& context, QWidget* parent = nullptr);
    ~MainWindow() override;

    HostConnection* currentHost() const { return m_current; }
    void selectHost(const QString& name);
    QTabWidget* tabs() const { return m_tabs; }
    QListView* hostList() const { return m_hostList; }

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createMenus();
    void onCurrentHostChanged();
    void updateStatus();
    void showAbout();
    void showConnectDialog();
    void restoreSettings();

    AppContext m_context;
    HostListModel* m_hostModel;
    QListView* m_hostList;
    QTabWidget* m_tabs;
    QList<HostPane*> m_panes;
    QLabel* m_statusHost;
    QPointer<HostConnection> m_current;
};

} // namespace kf
