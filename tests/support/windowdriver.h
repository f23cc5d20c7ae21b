// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

// Driving the real window in offscreen UI tests the way a person does: tabs by their title,
// the widgets on screen (the selected host's pane of the shown tab), question boxes answered
// when they pop up. Header-only: only UI tests (linked with kf_ui) include it.

#include "core/demo/demohost.h"
#include "core/gpu/gpumonitorhub.h"
#include "core/hosts/hostmanager.h"
#include "core/sessions/hostsessions.h"
#include "core/ssh/sshhostconnection.h"
#include "ui/common/elidedlabel.h"
#include "ui/common/hostpane.h"
#include "ui/mainwindow.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QRegularExpression>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>
#include <QTextDocument>
#include <QTimer>
#include <QTreeWidget>
#include <QWidget>

#include <memory>

namespace kf::test {

// The window connected to the demo host, as `kernelforge --demo` opens it: the SSH layer's
// connections, one shared GPU monitor hub.
struct DemoWindow
{
    HostManager hosts;
    GpuMonitorHub monitors;
    HostSessions sessions; // each host's servers and running build, as the app has them
    AppContext ctx;
    HostConnection* host = nullptr;
    std::unique_ptr<MainWindow> window;

    // Connects and shows the window; on failure the test has failed (check QTest::currentTestFailed()).
    void open(DemoHost& demo, const QString& name = QStringLiteral("demo-gpu-server"))
    {
        hosts.setFactory(SshHostConnection::factory(nullptr));
        ctx.hosts = &hosts;
        ctx.demo = &demo;
        ctx.gpuMonitors = &monitors;
        ctx.sessions = &sessions;
        host = hosts.add(demo.profile(name));
        QVERIFY(host);
        host->connectToHost();
        QTRY_VERIFY2_WITH_TIMEOUT(host->state() == ConnectionState::Ready, qPrintable(host->stateReason()), 30000);
        showWindow();
        window->selectHost(name);
        QCOMPARE(window->currentHost(), host);
    }
    // A new window on the same hosts (the app restarted; the hosts' servers live on).
    void showWindow()
    {
        window = std::make_unique<MainWindow>(ctx);
        window->resize(1440, 900);
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
    }
};

// Clicks the tab titled `title` ("Server"); returns its page, or null (a test failure follows).
inline QWidget* showTab(QTabWidget* tabs, const QString& title)
{
    for (int i = 0; i < tabs->count(); ++i) {
        if (tabs->tabText(i) == title) {
            tabs->setCurrentWidget(tabs->widget(i));
            return tabs->widget(i);
        }
    }
    qWarning("no tab titled %s", qPrintable(title));
    return nullptr;
}

// The one widget of type T (named `name`, when given) that is root or under it and on screen:
// in a tab of per-host panes, the selected host's.
template <typename T> T* shown(QWidget* root, const QString& name = {})
{
    T* found = nullptr;
    auto all = name.isEmpty() ? root->findChildren<T*>() : root->findChildren<T*>(name);
    if (auto* self = qobject_cast<T*>(root); self && (name.isEmpty() || root->objectName() == name))
        all.prepend(self);
    for (T* w : all) {
        if (!w->isVisible())
            continue;
        if (found) {
            qWarning("more than one %s named '%s' is visible", T::staticMetaObject.className(), qPrintable(name));
            return nullptr;
        }
        found = w;
    }
    return found;
}

// What a label shows a person: rich text rendered to its plain words, plain text as it is.
inline QString shownText(const QLabel* label)
{
    const bool rich = label->textFormat() == Qt::RichText
        || (label->textFormat() == Qt::AutoText && Qt::mightBeRichText(label->text()));
    if (!rich)
        return label->text();
    QTextDocument doc;
    doc.setHtml(label->text());
    return doc.toPlainText();
}

// The visible labels under root that show markup to a person ("&gt; 30 s", "<b>healthy</b>"): an
// escaped text put in a label that Qt decided to show as plain text. Each as "name: shown text".
inline QStringList labelsShowingMarkup(QWidget* root)
{
    static const QRegularExpression markup(QStringLiteral("&(gt|lt|amp|quot|nbsp|#[0-9]+);|</?(b|i|br|a|span|p)\\b"));
    QStringList found;
    for (const QLabel* l : root->findChildren<QLabel*>()) {
        if (l->isVisible() && shownText(l).contains(markup))
            found << l->objectName() + QStringLiteral(": ") + shownText(l);
    }
    return found;
}

// How much of `w` its ancestors up to the window leave visible, across (scrolled out of view
// vertically is not cut; pushed out on the right is).
inline int visibleWidth(const QWidget* w)
{
    int left = 0;
    int right = w->width();
    QPoint offset(0, 0);
    for (const QWidget* a = w; a && !a->isWindow(); a = a->parentWidget()) {
        offset += a->pos();
        const QWidget* parent = a->parentWidget();
        left = qMax(left, -offset.x());
        right = qMin(right, parent->width() - offset.x());
    }
    return qMax(0, right - left);
}

// The visible labels under root whose text a person cannot read whole, each as "name: why":
// a one-line label narrower than its text, a wrapped one shorter than its lines, one cut by
// a parent on the right, an ElidedLabel cut without the whole text in its tooltip.
inline QStringList clippedLabels(QWidget* root)
{
    QStringList found;
    for (const QLabel* l : root->findChildren<QLabel*>()) {
        if (!l->isVisible() || l->text().isEmpty() || !l->pixmap().isNull())
            continue;
        const QString name = (l->objectName().isEmpty() ? QStringLiteral("(label)") : l->objectName())
            + QStringLiteral(" '") + shownText(l).left(60) + QStringLiteral("'");
        if (visibleWidth(l) < l->width()) {
            found << name + QStringLiteral(": %1 of %2 px visible").arg(visibleWidth(l)).arg(l->width());
        } else if (auto* elided = qobject_cast<const ElidedLabel*>(l)) {
            if (elided->isElided() && !elided->effectiveToolTip().contains(l->text()))
                found << name + QStringLiteral(": elided, tooltip '%1'").arg(elided->effectiveToolTip());
        } else if (l->wordWrap()) {
            if (l->height() < l->heightForWidth(l->width()))
                found << name
                        + QStringLiteral(": %1 px tall, its lines need %2")
                              .arg(l->height())
                              .arg(l->heightForWidth(l->width()));
        } else if (l->width() < l->sizeHint().width()) {
            found << name
                    + QStringLiteral(": %1 px wide, its text needs %2").arg(l->width()).arg(l->sizeHint().width());
        }
    }
    return found;
}

// The visible controls under root squeezed below their minimum width or cut by a parent on
// the right (a button whose text no longer fits), each as "class#name: why".
inline QStringList squeezedControls(QWidget* root)
{
    QStringList found;
    for (QWidget* w : root->findChildren<QWidget*>()) {
        const bool control
            = qobject_cast<QAbstractButton*>(w) || qobject_cast<QComboBox*>(w) || qobject_cast<QAbstractSpinBox*>(w);
        if (!control || !w->isVisible() || qobject_cast<QTabBar*>(w->parentWidget()))
            continue; // the tab bar's own scroll buttons come and go
        const QString name = QString::fromLatin1(w->metaObject()->className()) + u'#' + w->objectName();
        if (w->width() < w->minimumSizeHint().width())
            found << name + QStringLiteral(": %1 px wide, needs %2").arg(w->width()).arg(w->minimumSizeHint().width());
        else if (visibleWidth(w) < w->width())
            found << name + QStringLiteral(": %1 of %2 px visible").arg(visibleWidth(w)).arg(w->width());
    }
    return found;
}

// Answers the next question box (a QMessageBox run modally) with `button`, as a person would
// click it; gives up after timeoutMs. The box's text lands in *text when given.
inline void answerNextQuestion(QMessageBox::StandardButton button, QString* text = nullptr, int timeoutMs = 30000)
{
    auto* timer = new QTimer(qApp);
    auto waited = std::make_shared<int>(0);
    timer->setInterval(50);
    QObject::connect(timer, &QTimer::timeout, timer, [timer, waited, button, text, timeoutMs] {
        *waited += timer->interval();
        if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
            if (text)
                *text = box->text();
            if (QAbstractButton* b = box->button(button))
                b->click();
            else
                box->reject();
            timer->deleteLater();
        } else if (*waited > timeoutMs) {
            timer->deleteLater();
        }
    });
    timer->start();
}

// Answers the next file dialog (Qt's own, run modally: chart export) with `path`, as a person
// typing the name and pressing Save; gives up after timeoutMs. The dialog's title lands in
// *title when given.
inline void saveThroughNextFileDialog(const QString& path, QString* title = nullptr, int timeoutMs = 30000)
{
    auto* timer = new QTimer(qApp);
    auto waited = std::make_shared<int>(0);
    timer->setInterval(50);
    QObject::connect(timer, &QTimer::timeout, timer, [timer, waited, path, title, timeoutMs] {
        *waited += timer->interval();
        if (auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) {
            if (title)
                *title = dialog->windowTitle();
            // Typed into the name field: selectFile() would race with the dialog's own
            // (asynchronous) selection of the suggested name once its folder is read.
            if (auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit")))
                name->setText(path);
            else
                dialog->selectFile(path);
            static_cast<QDialog*>(dialog)->accept(); // QFileDialog::accept is protected; it is a slot of QDialog
            timer->deleteLater();
        } else if (*waited > timeoutMs) {
            timer->deleteLater();
        }
    });
    timer->start();
}

// Every tab with the name its screenshots use, in the window's order.
inline QList<std::pair<MainWindow::Tab, QString>> everyTab()
{
    using Tab = MainWindow::Tab;
    return { { Tab::Overview, QStringLiteral("overview") }, { Tab::Patches, QStringLiteral("patches") },
        { Tab::Build, QStringLiteral("build") }, { Tab::Gpus, QStringLiteral("gpus") },
        { Tab::Server, QStringLiteral("server") }, { Tab::Timeline, QStringLiteral("timeline") },
        { Tab::Fleet, QStringLiteral("fleet") } };
}

// What a person waits for in the demo window: the Overview's facts (the replayed GPU model) and
// the built-in patch set planned in Patches, which is left shown. On failure the test has failed.
inline void waitForFactsAndPlan(MainWindow& w)
{
    using Tab = MainWindow::Tab;
    QWidget* overview = w.pane(Tab::Overview);
    QVERIFY(overview);
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (QLabel* l : overview->findChildren<QLabel*>())
                if (l->text().contains(QStringLiteral("NVIDIA H200")))
                    return true;
            return false;
        }(),
        60000);
    w.showTab(Tab::Patches);
    auto* tree = w.pane(Tab::Patches)->findChild<QTreeWidget*>(QStringLiteral("patchTree"));
    QVERIFY(tree);
    QTRY_VERIFY_WITH_TIMEOUT(tree->topLevelItemCount() >= 2, 60000);
}

} // namespace kf::test
