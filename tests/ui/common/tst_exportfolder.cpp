// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issue #38 (item 8): exports opened their save dialogs in different folders (a chart's in the
// home folder, the GPU history's and the timeline's in the working directory). One rule now:
// the folder the last export went to, else Documents, else home; every export follows it.
#include "core/gpu/gpumonitorhub.h"
#include "core/hosts/hostconnection.h"
#include "tests/support/testsupport.h"
#include "ui/chart/chartexport.h"
#include "ui/common/exportfolder.h"
#include "ui/gpu/gpupane.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QSettings>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <memory>

using namespace kf;

namespace {

// Answers the next file dialog: notes the folder it opened in, then saves as `path` (or
// cancels when `path` is empty).
void answerNextFileDialog(const QString& path, QString* openedIn)
{
    auto* timer = new QTimer(qApp);
    auto waited = std::make_shared<int>(0);
    timer->setInterval(50);
    QObject::connect(timer, &QTimer::timeout, timer, [timer, waited, path, openedIn] {
        *waited += timer->interval();
        if (auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) {
            *openedIn = QDir(dialog->directory()).absolutePath();
            timer->deleteLater();
            if (path.isEmpty()) {
                dialog->reject();
                return;
            }
            if (auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit")))
                name->setText(path);
            else
                dialog->selectFile(path);
            static_cast<QDialog*>(dialog)->accept();
        } else if (*waited > 30000) {
            timer->deleteLater();
        }
    });
    timer->start();
}

} // namespace

class TestExportFolder : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_home;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("kernelforge-test"));
        QApplication::setApplicationName(QStringLiteral("kernelforge-exportfolder"));
        QSettings().clear();
        m_home = m_tmp.filePath(QStringLiteral("home"));
        QVERIFY(QDir().mkpath(m_home));
        qputenv("HOME", m_home.toLocal8Bit());
        qputenv("XDG_CONFIG_HOME", m_tmp.filePath(QStringLiteral("config")).toLocal8Bit()); // no user-dirs.dirs
    }

    void oneRuleForEveryExport()
    {
        QCOMPARE(exportfolder::folder(), m_home); // no Documents folder: home
        const QString documents = QDir(m_home).filePath(QStringLiteral("Documents"));
        QVERIFY(QDir().mkpath(documents));
        QCOMPARE(exportfolder::folder(), documents);

        // A chart's CSV: its dialog opens in Documents; the file goes elsewhere.
        const QString elsewhere = m_tmp.filePath(QStringLiteral("results"));
        QVERIFY(QDir().mkpath(elsewhere));
        QString openedIn;
        answerNextFileDialog(QDir(elsewhere).filePath(QStringLiteral("chart.csv")), &openedIn);
        QWidget parent;
        const QString written = chartexport::exportCsv(&parent, {}, QStringLiteral("chart.csv"));
        QCOMPARE(openedIn, documents);
        QCOMPARE(written, QDir(elsewhere).filePath(QStringLiteral("chart.csv")));
        QVERIFY(QFile::exists(written));
        QTRY_VERIFY_WITH_TIMEOUT(parent.findChild<QMessageBox*>(QStringLiteral("chartExportMessage")), 10000);
        parent.findChild<QMessageBox*>(QStringLiteral("chartExportMessage"))->close();
        QCOMPARE(exportfolder::folder(), elsewhere);

        // Another export, the GPU pane's history of every field: where the last one went.
        LocalHostConnection host(test::localProfile());
        GpuMonitorHub hub;
        AppContext ctx;
        ctx.gpuMonitors = &hub;
        GpuPane pane(ctx, &host);
        auto* everyField = pane.findChild<QAction*>(QStringLiteral("gpuExportAllFields"));
        QVERIFY(everyField);
        openedIn.clear();
        answerNextFileDialog(QString(), &openedIn); // cancelled: nothing written
        everyField->trigger();
        QCOMPARE(openedIn, elsewhere);

        // The remembered folder is gone: back to Documents, never the working directory.
        QVERIFY(QDir(elsewhere).removeRecursively());
        QCOMPARE(exportfolder::folder(), documents);
    }
};

QTEST_MAIN(TestExportFolder)
#include "tst_exportfolder.moc"
