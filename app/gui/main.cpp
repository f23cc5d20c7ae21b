// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Composition root of the GUI: builds the services, hands them to the window.
#include "core/demo/demohost.h"
#include "core/demo/demostart.h"
#include "core/gpu/gpumonitorhub.h"
#include "core/hosts/hostmanager.h"
#include "core/hosts/hostprofilestore.h"
#include "core/log/logging.h"
#include "core/sessions/hostsessions.h"
#include "core/ssh/sshhostconnection.h"
#include "core/timeline/seriesrecorder.h"
#include "core/transport/transportpool.h"
#include "core/version.h"
#include "ui/appcontext.h"
#include "ui/common/preferences.h"
#include "ui/highlight/highlighterinfo.h"
#include "ui/hosts/guiinteraction.h"
#include "ui/mainwindow.h"

#include "app/gui/startuptrace.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>
#include <QThreadPool>
#include <QTimer>

#include <cstdio>
#include <optional>

namespace {

struct Options
{
    QCommandLineOption version { QStringLiteral("version"), QStringLiteral("Print versions and exit.") };
    QCommandLineOption demo { QStringLiteral("demo"),
        QStringLiteral("Start the built-in demo server (a private sshd on 127.0.0.1) and connect to it.") };
    QCommandLineOption verbose { QStringLiteral("verbose"), QStringLiteral("Log at debug level.") };
    QCommandLineOption level { QStringLiteral("log-level"),
        QStringLiteral("trace, debug, info, warn (default), error, critical, off."), QStringLiteral("level") };
    QCommandLineOption screenshot { QStringLiteral("screenshot"),
        QStringLiteral(
            "Save a PNG of the window to <file> after --screenshot-delay ms, then quit (docs, headless checks)."),
        QStringLiteral("file") };
    QCommandLineOption screenshotDelay { QStringLiteral("screenshot-delay"),
        QStringLiteral("Milliseconds before the screenshot (default 3000)."), QStringLiteral("ms"),
        QStringLiteral("3000") };
    QCommandLineOption tab { QStringLiteral("tab"),
        QStringLiteral("Open on this tab: %1.").arg(kf::MainWindow::tabNames().join(QStringLiteral(", "))),
        QStringLiteral("name") };

    void addTo(QCommandLineParser& parser) const
    {
        parser.setApplicationDescription(
            QStringLiteral("Patch, build and watch LLM inference on your own GPU servers."));
        parser.addHelpOption();
        parser.addOptions({ version, demo, verbose, level, screenshot, screenshotDelay, tab });
    }
};

void setApplicationNames()
{
    QCoreApplication::setOrganizationName(QStringLiteral("kernelforge"));
    QCoreApplication::setApplicationName(QStringLiteral("kernelforge"));
    QCoreApplication::setApplicationVersion(QStringLiteral(KF_VERSION_STRING));
}

// What the command line decides before any window system is needed: --help, --version and
// errors print and exit anywhere (QApplication aborts without a display). Options of Qt's own
// (-platform, -style, ...) are left to QApplication: an unknown option is judged only there.
std::optional<int> answerWithoutDisplay(int argc, char** argv)
{
    QCoreApplication pre(argc, argv);
    setApplicationNames();
    const Options o;
    QCommandLineParser parser;
    o.addTo(parser);
    static_cast<void>(parser.parse(QCoreApplication::arguments()));
    if (parser.isSet(QStringLiteral("help-all")))
        parser.process(pre); // prints the help with Qt's options and exits 0
    if (parser.isSet(QStringLiteral("help"))) {
        fputs(parser.helpText().toUtf8().constData(), stdout);
        return 0;
    }
    if (parser.isSet(o.version)) {
        const QString report = kf::versionReport(
            QStringLiteral("kernelforge"), { { QStringLiteral("Highlighter"), kf::highlighterBackendName() } });
        fputs(report.toUtf8().constData(), stdout);
        return 0;
    }
    if (parser.isSet(o.tab) && !kf::MainWindow::tabFromName(parser.value(o.tab))) {
        fprintf(stderr, "kernelforge: no tab named '%s' (one of: %s)\n", qPrintable(parser.value(o.tab)),
            qPrintable(kf::MainWindow::tabNames().join(QStringLiteral(", "))));
        return 2;
    }
    spdlog::level::level_enum unused = spdlog::level::warn;
    if (parser.isSet(o.level) && !kf::log::parseLevel(parser.value(o.level), &unused)) {
        fprintf(stderr, "kernelforge: unknown log level '%s'\n", qPrintable(parser.value(o.level)));
        return 2;
    }
    return std::nullopt;
}

} // namespace

int main(int argc, char** argv)
{
    if (const std::optional<int> rc = answerWithoutDisplay(argc, argv))
        return *rc;

    QApplication app(argc, argv);
    setApplicationNames();
    QApplication::setApplicationDisplayName(QStringLiteral("KernelForge"));
    QApplication::setDesktopFileName(QStringLiteral("io.github.kernelforge.KernelForge"));

    const Options o;
    QCommandLineParser parser;
    o.addTo(parser);
    parser.process(app); // Qt's own options are gone from the arguments now: anything unknown is an error

    kf::log::Options logOptions;
    if (parser.isSet(o.verbose))
        logOptions.level = spdlog::level::debug;
    if (parser.isSet(o.level))
        static_cast<void>(kf::log::parseLevel(parser.value(o.level), &logOptions.level)); // checked above
    kf::log::init(logOptions);
    kf::log::installQtMessageHandler();
    kf::log::app()->info("KernelForge {} starting", KF_VERSION_STRING);

    // Declared first so it outlives every SSH session that may still ask it something.
    kf::GuiInteraction interaction;
    kf::DemoHost demoHost; // started by --demo or the first screen's "Try the demo server"
    kf::HostManager hosts;
    hosts.setFactory(kf::SshHostConnection::factory(&interaction));
    kf::GpuMonitorHub gpuMonitors;
    gpuMonitors.setIntervalMs(kf::Preferences::load().gpuRefreshMs); // Edit > Preferences changes it live
    kf::timeline::SeriesRecorder timelineSeries;                     // every host's GPU series, kept for the Timeline
    timelineSeries.watch(&gpuMonitors);
    kf::HostProfileStore profileStore;
    kf::AppContext context;
    context.hosts = &hosts;
    context.profiles = &profileStore;
    context.gpuMonitors = &gpuMonitors;
    context.timelineSeries = &timelineSeries;
    kf::HostSessions sessions; // each host's servers and running build, read by every view of the host
    timelineSeries.watch(&sessions);
    context.sessions = &sessions;
    context.secrets = interaction.secretStore();
    context.interaction = &interaction;
    context.demo = &demoHost;

    kf::HostProfile local;
    local.name = QStringLiteral("This machine");
    local.isLocal = true;
    if (auto* h = hosts.add(local))
        h->connectToHost();

    if (auto saved = profileStore.load()) {
        for (const kf::HostProfile& p : saved->profiles)
            hosts.add(p);
    } else {
        kf::log::app()->warn("saved hosts: {}", saved.error());
    }

    if (parser.isSet(o.demo)) {
        if (const auto s = kf::startDemoServer(demoHost, hosts); !s) {
            QMessageBox::critical(nullptr, QStringLiteral("KernelForge"),
                QStringLiteral("The demo server could not start:\n\n") + s.error());
            return 1;
        }
    }

    kf::MainWindow window(context);
    interaction.setDialogParent(&window);
    QObject::connect(&interaction, &kf::GuiInteraction::questionShown, &window, [&window] {
        window.raise();
        window.activateWindow();
    });
    if (parser.isSet(o.demo))
        window.selectHost(kf::kDemoHostName);
    // The window's size and place are its own (MainWindow: the last ones, else 1440x900).
    if (parser.isSet(o.tab))
        window.showTab(*kf::MainWindow::tabFromName(parser.value(o.tab))); // checked above
    // KF_STARTUP_TRACE=1: first paint and the filled host list on stdout (tests/bench/bench_start).
    kf::StartupTrace::installIfAsked(
        &window, window.findChild<QAbstractItemView*>(QStringLiteral("hostList")), int(hosts.hosts().size()));
    window.show();
    if (parser.isSet(o.screenshot)) {
        const QString file = parser.value(o.screenshot);
        QTimer::singleShot(parser.value(o.screenshotDelay).toInt(), &window, [&window, file] {
            if (!window.grab().save(file))
                fprintf(stderr, "kernelforge: cannot write %s\n", qPrintable(file));
            QApplication::quit();
        });
    }
    const int rc = QApplication::exec();
    // No SSH session may outlive the application object, nor the interaction it may still ask
    // (docs/design/rules.md, Threading): calls still running on worker threads hold their host's session, and
    // return at once once it is disconnected.
    for (kf::HostConnection* h : hosts.hosts())
        h->disconnectFromHost();
    kf::transportPool()->waitForDone();
    kf::log::flush();
    return rc;
}
