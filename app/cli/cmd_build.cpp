// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// kernelforge-cli build: start, attach, status, cancel and list detached builds; preflight; profiles.
#include "app/cli/cli.h"
#include "app/cli/flagtable.h"
#include "app/cli/sshoptions.h"
#include "app/cli/texttable.h"

#include "core/jobs/remotejob.h"
#include "core/remotebuild/buildfix.h"
#include "core/remotebuild/buildprofile.h"
#include "core/remotebuild/buildsession.h"
#include "core/remotebuild/buildstart.h"
#include "core/remotebuild/preflight.h"
#include "core/remotebuild/rootcause.h"
#include "core/util/envfile.h"
#include "core/util/secretregistry.h"
#include "core/util/shellquote.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>

namespace {

using namespace kf;

void usage(QTextStream& s)
{
    s << "Usage: kernelforge-cli build SUBCOMMAND [OPTIONS] (--local | [ssh options] user@host)\n\n"
      << "  start (--profile NAME | --command CMD) [--dir DIR] [--env K=V]... [--env-file FILE] [--name LABEL]\n"
      << "        [--cmake-arg -DX=Y]... [--max-jobs N] [--no-memory-gate]\n"
      << "                                   start a detached build; prints the job id. Environment values never\n"
      << "                                   reach the server's command line; --env shows them in this machine's\n"
      << "                                   ps, --env-file (K=V lines, # comments) does not: use it for tokens.\n"
      << "                                   Compiles wait until their memory fits (the memory gate, seeded with\n"
      << "                                   the peaks earlier runs learned); --no-memory-gate turns it off\n"
      << "  attach JOB [--from OFFSET] [--profile NAME]\n"
      << "                                   stream progress and log; exits with the build's exit status\n"
      << "  status JOB                       state, exit status, log size\n"
      << "  cancel JOB                       stop the build's whole process group\n"
      << "  list                             the host's jobs, running and finished\n"
      << "  preflight --profile NAME         check tools, versions, memory and disk before a build\n"
      << "  profiles                         list build profiles (built-in and yours)\n\n"
      << "Options: --json (one JSON object per line and event), --job-root DIR (default ~/.cache/kernelforge/jobs)\n"
      << "SSH: -p PORT -i KEY -J JUMP --known-hosts FILE --accept-new [--no-reconnect] [--timeout S] user@host\n"
      << "A dropped connection is logged in again (1 s doubling to 30 s) and attach resumes at the byte it had;\n"
      << "--no-reconnect stops instead, --timeout S (default 300) bounds how long the server may stay unreachable.\n"
      << "--local runs on this machine.\n";
    s.flush();
}

void printJson(const QJsonObject& o)
{
    cli::out() << QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)) << '\n';
    cli::out().flush();
}

QJsonObject jobJson(const JobInfo& j)
{
    return { { QStringLiteral("event"), QStringLiteral("job") }, { QStringLiteral("job"), j.id },
        { QStringLiteral("name"), j.name }, { QStringLiteral("state"), toString(j.state) },
        { QStringLiteral("exit_status"),
            j.state == JobInfo::State::Finished ? QJsonValue(j.exitStatus) : QJsonValue() },
        { QStringLiteral("pid"), j.pid },
        { QStringLiteral("started"), j.started.isValid() ? j.started.toString(Qt::ISODate) : QString() },
        { QStringLiteral("ended"), j.ended.isValid() ? j.ended.toString(Qt::ISODate) : QString() },
        { QStringLiteral("log_bytes"), j.logSize }, { QStringLiteral("cancelled"), j.cancelled },
        { QStringLiteral("command"), j.command }, { QStringLiteral("dir"), j.workingDirectory } };
}

QJsonArray unitsJson(const QList<GateUnit>& units)
{
    QJsonArray a;
    for (const GateUnit& u : units)
        a.append(QJsonObject { { QStringLiteral("unit"), u.unit }, { QStringLiteral("kind"), u.kind },
            { QStringLiteral("expected_kb"), u.expectedKb }, { QStringLiteral("rss_kb"), u.rssKb },
            { QStringLiteral("peak_kb"), u.peakKb }, { QStringLiteral("alone"), u.exclusive },
            { QStringLiteral("wall_ms"), u.wallMs }, { QStringLiteral("status"), u.status } });
    return a;
}

// The memory gate's ledger as one event: counts, the memory it works within, its units.
QJsonObject gateJson(const GateStatus& g)
{
    return { { QStringLiteral("event"), QStringLiteral("gate") }, { QStringLiteral("done"), g.done },
        { QStringLiteral("retried"), g.retried }, { QStringLiteral("failed"), g.failed },
        { QStringLiteral("limit_kb"), g.limitKb }, { QStringLiteral("available_kb"), g.availableKb },
        { QStringLiteral("reserve_kb"), g.reserveKb }, { QStringLiteral("limit"), g.source },
        { QStringLiteral("running"), unitsJson(g.running) }, { QStringLiteral("waiting"), unitsJson(g.waiting) },
        { QStringLiteral("recent"), unitsJson(g.recent) } };
}

QString formatSeconds(double s)
{
    if (s < 0)
        return QStringLiteral("?");
    const qint64 t = qint64(s + 0.5);
    if (t >= 3600)
        return QStringLiteral("%1h%2m").arg(t / 3600).arg((t % 3600) / 60, 2, 10, QLatin1Char('0'));
    if (t >= 60)
        return QStringLiteral("%1m%2s").arg(t / 60).arg(t % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1s").arg(t);
}

// A diagnostic as attach --json prints it.
QJsonObject diagnosticJson(const Diagnostic& d)
{
    return { { QStringLiteral("severity"), toString(d.severity) }, { QStringLiteral("kind"), toString(d.kind) },
        { QStringLiteral("file"), d.file }, { QStringLiteral("line"), d.line }, { QStringLiteral("column"), d.column },
        { QStringLiteral("message"), d.message }, { QStringLiteral("hint"), toString(d.hint) },
        { QStringLiteral("hint_text"), hintText(d.hint) }, { QStringLiteral("log_line"), d.logLine } };
}

int attach(const cli::Target& target, const QString& id, qint64 from, bool json, const QString& root,
    const std::optional<BuildProfile>& profile)
{
    BuildSession session(target.transport, target.hostKey, id);
    session.setJobRoot(root);
    session.setMemoryInterval(json ? 5000 : 0);
    if (profile)
        session.setProfile(*profile);
    QEventLoop loop;
    int exitStatus = cli::kExitConnection;
    QElapsedTimer lastProgress;
    QObject::connect(&session, &BuildSession::logReceived, &loop, [&](qint64 offset, const QByteArray& data) {
        if (json) {
            printJson({ { QStringLiteral("event"), QStringLiteral("log") }, { QStringLiteral("offset"), offset },
                { QStringLiteral("text"), QString::fromUtf8(data) } });
        } else {
            cli::out().flush();
            std::fwrite(data.constData(), 1, size_t(data.size()), stdout);
            std::fflush(stdout);
        }
    });
    QObject::connect(&session, &BuildSession::progressChanged, &loop, [&](const BuildProgress& p) {
        if (json) {
            printJson({ { QStringLiteral("event"), QStringLiteral("progress") }, { QStringLiteral("done"), p.done },
                { QStringLiteral("total"), p.total }, { QStringLiteral("running"), p.running },
                { QStringLiteral("percent"), p.percent },
                { QStringLiteral("rate"), p.rate >= 0 ? QJsonValue(p.rate) : QJsonValue() },
                { QStringLiteral("eta_s"), p.etaS >= 0 ? QJsonValue(p.etaS) : QJsonValue() },
                { QStringLiteral("elapsed_s"), p.elapsedS } });
        } else if (p.total > 0 && (!lastProgress.isValid() || lastProgress.elapsed() > 2000 || p.done == p.total)) {
            lastProgress.start();
            cli::err() << "[kernelforge] " << p.done << '/' << p.total << " steps";
            if (p.rate >= 0)
                cli::err() << ", " << QString::number(p.rate, 'f', 2) << " steps/s";
            cli::err() << ", ETA " << formatSeconds(p.etaS) << '\n';
            cli::err().flush();
        }
    });
    const BuildProfile built = profile.value_or(BuildProfile());
    QObject::connect(&session, &BuildSession::diagnosticFound, &loop, [&](const Diagnostic& d) {
        if (json) {
            QJsonObject o = diagnosticJson(d);
            o.insert(QStringLiteral("event"), QStringLiteral("diagnostic"));
            if (const auto fix = fixFor(d, built))
                o.insert(QStringLiteral("fix"), toJson(*fix));
            printJson(o);
        } else if (d.hint != Diagnostic::Hint::None) {
            cli::err() << "[kernelforge] hint: " << hintText(d.hint) << '\n';
            cli::err().flush();
        }
    });
    QObject::connect(&session, &BuildSession::memorySampled, &loop, [&](const MemorySample& m) {
        if (json)
            printJson({ { QStringLiteral("event"), QStringLiteral("memory") },
                { QStringLiteral("available_kb"), m.availableKb }, { QStringLiteral("total_kb"), m.totalKb },
                { QStringLiteral("limit"), m.source }, { QStringLiteral("cgroup"), m.cgroup },
                { QStringLiteral("oom_kills"), m.oomKills >= 0 ? QJsonValue(m.oomKills) : QJsonValue() } });
    });
    QObject::connect(&session, &BuildSession::gateStatusChanged, &loop, [&](const GateStatus& g) {
        if (json)
            printJson(gateJson(g));
    });
    QObject::connect(&session, &BuildSession::streamInterrupted, &loop, [&](const QString& why) {
        if (json)
            printJson(
                { { QStringLiteral("event"), QStringLiteral("interrupted") }, { QStringLiteral("reason"), why } });
        else
            cli::err() << "[kernelforge] log stream interrupted (" << why << "), the build keeps running; "
                       << (cli::reconnectEnabled() ? "resuming when the connection is back\n"
                                                   : "not reconnecting (--no-reconnect)\n")
                       << Qt::flush;
    });
    QObject::connect(&session, &BuildSession::finished, &loop, [&](const JobInfo& info) {
        exitStatus = info.exitStatus;
        const bool failed = info.exitStatus != 0 && !info.cancelled;
        const RootCause cause = session.rootCause();
        const std::optional<BuildFix> fix
            = failed && cause.retained ? fixFor(*cause.diagnostic, built) : std::optional<BuildFix>();
        if (json) {
            QJsonObject o { { QStringLiteral("event"), QStringLiteral("finished") },
                { QStringLiteral("exit_status"), info.exitStatus }, { QStringLiteral("cancelled"), info.cancelled },
                { QStringLiteral("errors"),
                    int(std::count_if(session.diagnostics().begin(), session.diagnostics().end(),
                        [](const Diagnostic& d) { return d.severity == Diagnostic::Severity::Error; })) },
                { QStringLiteral("elapsed_s"), session.progress().elapsedS } };
            if (failed) {
                // The diagnostic that explains it (the Build tab's first row), its fix when one is known.
                o.insert(QStringLiteral("root_cause"),
                    cause.retained ? QJsonValue(diagnosticJson(*cause.diagnostic)) : QJsonValue());
                if (!cause.retained)
                    o.insert(QStringLiteral("no_root_cause"), cause.missing);
                if (fix)
                    o.insert(QStringLiteral("fix"), toJson(*fix));
            }
            printJson(o);
        } else {
            cli::err() << "[kernelforge] build " << id << (info.cancelled ? " cancelled" : " finished")
                       << ": exit status " << info.exitStatus << '\n';
            if (failed && cause.retained)
                cli::err() << "[kernelforge] root cause: " << diagnosticText(*cause.diagnostic) << '\n';
            else if (failed)
                cli::err() << "[kernelforge] " << cause.missing << '\n';
            if (fix)
                cli::err() << "[kernelforge] fix: " << fix->title << " (" << toString(fix->kind) << ' ' << fix->id
                           << ")\n";
            cli::err().flush();
        }
        loop.quit();
    });
    QObject::connect(&session, &BuildSession::failed, &loop, [&](const QString& e) {
        cli::err() << "kernelforge-cli build: " << e << '\n' << Qt::flush;
        exitStatus = 1; // no such job: not a connection failure
        loop.quit();
    });
    session.attach(from);
    loop.exec();
    if (cli::connectionGivenUp()) // the connection watch said why
        return cli::kExitConnection;
    return exitStatus;
}

// Everything a build subcommand may be given; each subcommand's flag table says which it takes.
struct BuildArgs
{
    bool json = false;
    QString root; // --job-root
    QString profileName;
    QString command;
    QString dir;
    QString name;
    int maxJobs = -1; // -1: not given (0 unsets the profile's)
    bool noMemoryGate = false;
    qint64 from = 0;
    QMap<QString, QString> env;
    QStringList cmakeArgs;
};

// A subcommand's input once its flags, profile, job and target are read.
struct Call
{
    const BuildArgs& args;
    std::optional<BuildProfile> profile;
    QString jobId;
    cli::Target target;
};

int startBuild(const Call& c)
{
    const BuildArgs& a = c.args;
    BuildProfile p;
    if (c.profile)
        p = *c.profile;
    else
        p.name = a.name.isEmpty() ? QStringLiteral("command") : a.name;
    if (!a.command.isEmpty())
        p.command = a.command;
    if (!a.dir.isEmpty())
        p.workingDirectory = a.dir;
    if (!a.name.isEmpty())
        p.name = a.name;
    if (a.maxJobs >= 0)
        p.maxJobs = a.maxJobs;
    if (a.noMemoryGate)
        p.memoryGate = false;
    for (auto it = a.env.cbegin(); it != a.env.cend(); ++it)
        p.env.insert(it.key(), it.value());
    p.cmakeArgs << a.cmakeArgs;
    for (const QString& moved : moveCMakeOnlyEnv(p))
        cli::err() << "kernelforge-cli build: " << moved
                   << " only works as a CMake definition; passing it in CMAKE_ARGS\n";
    BuildStartOptions options;
    options.host = c.target.hostKey;
    options.jobRoot = a.root;
    const auto started = startRecordedBuild(*c.target.transport, p, options);
    if (!started) {
        cli::err() << "kernelforge-cli build: " << started.error() << '\n' << Qt::flush;
        return 1;
    }
    if (!started->treeNote.isEmpty())
        cli::err() << "kernelforge-cli build: " << started->treeNote << '\n';
    if (!started->historyError.isEmpty())
        cli::err() << "kernelforge-cli build start: warning: the build is not in this machine's history: "
                   << started->historyError << '\n';
    if (a.json) {
        QJsonObject o = jobJson(started->job);
        o[QStringLiteral("event")] = QStringLiteral("started");
        printJson(o);
    } else {
        cli::out() << started->job.id << '\n';
    }
    return 0;
}

int attachBuild(const Call& c)
{
    return attach(c.target, c.jobId, c.args.from, c.args.json, c.args.root, c.profile);
}

int showStatus(const Call& c)
{
    const auto info = RemoteJob::info(*c.target.transport, c.jobId, c.args.root);
    if (!info) {
        cli::err() << "kernelforge-cli build: " << info.error() << '\n' << Qt::flush;
        return 1;
    }
    if (c.args.json) {
        printJson(jobJson(*info));
    } else {
        cli::out() << "job " << info->id << ": " << toString(info->state);
        if (info->state == JobInfo::State::Finished)
            cli::out() << ", exit status " << info->exitStatus << (info->cancelled ? " (cancelled)" : "");
        cli::out() << ", log " << info->logSize << " bytes\n";
    }
    return 0;
}

int cancelBuild(const Call& c)
{
    const Result<void> s = RemoteJob::cancel(*c.target.transport, c.jobId, c.args.root);
    if (!s) {
        cli::err() << "kernelforge-cli build: " << s.error() << '\n' << Qt::flush;
        return 1;
    }
    if (c.args.json)
        printJson({ { QStringLiteral("event"), QStringLiteral("cancelled") }, { QStringLiteral("job"), c.jobId } });
    else
        cli::out() << "cancelled " << c.jobId << '\n';
    return 0;
}

int listBuilds(const Call& c)
{
    const auto jobs = RemoteJob::list(*c.target.transport, c.args.root);
    if (!jobs) {
        cli::err() << "kernelforge-cli build: " << jobs.error() << '\n' << Qt::flush;
        return 1;
    }
    if (c.args.json) {
        for (const auto& j : *jobs)
            printJson(jobJson(j));
        return 0;
    }
    if (jobs->isEmpty()) {
        cli::err() << "no builds on " << c.target.label << '\n' << Qt::flush;
        return 0;
    }
    cli::TextTable table({ QStringLiteral("JOB"), QStringLiteral("STATE"), QStringLiteral("EXIT"),
        QStringLiteral("STARTED"), QStringLiteral("NAME"), QStringLiteral("COMMAND") });
    for (const auto& j : *jobs)
        table.addRow({ j.id, toString(j.state),
            j.state == JobInfo::State::Finished ? QString::number(j.exitStatus) : QStringLiteral("-"),
            j.started.isValid() ? j.started.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"))
                                : QStringLiteral("-"),
            j.name, j.command });
    table.print(cli::out());
    return 0;
}

int preflight(const Call& c)
{
    BuildProfile profile = *c.profile;
    if (!c.args.dir.isEmpty())
        profile.workingDirectory = c.args.dir;
    const auto checks = runPreflight(*c.target.transport, profile);
    if (!checks) {
        cli::err() << "kernelforge-cli build: " << checks.error() << '\n' << Qt::flush;
        return cli::kExitConnection;
    }
    bool failed = false;
    for (const auto& check : *checks) {
        failed = failed || check.level == PreflightCheck::Level::Fail;
        if (c.args.json)
            printJson({ { QStringLiteral("event"), QStringLiteral("check") },
                { QStringLiteral("level"), toString(check.level) }, { QStringLiteral("id"), check.id },
                { QStringLiteral("message"), check.message }, { QStringLiteral("fix"), check.fix } });
        else
            cli::out() << toString(check.level).toUpper().leftJustified(5) << check.id.leftJustified(14)
                       << check.message
                       << (check.fix.isEmpty() ? QString() : QStringLiteral("\n                   fix: ") + check.fix)
                       << '\n';
    }
    return failed ? 1 : 0;
}

int listProfiles(bool json)
{
    const auto all = loadBuildProfiles();
    if (!all) {
        cli::err() << "kernelforge-cli build: " << all.error() << '\n' << Qt::flush;
        return 1;
    }
    cli::TextTable table(
        { QStringLiteral("PROFILE"), QStringLiteral("KIND"), QStringLiteral("DIR"), QStringLiteral("COMMAND") });
    for (const auto& p : *all) {
        if (json)
            printJson({ { QStringLiteral("event"), QStringLiteral("profile") }, { QStringLiteral("name"), p.name },
                { QStringLiteral("command"), p.command }, { QStringLiteral("dir"), p.workingDirectory },
                { QStringLiteral("built_in"), p.builtIn } });
        else
            table.addRow({ p.name, p.builtIn ? QStringLiteral("built-in") : QStringLiteral("yours"), p.workingDirectory,
                p.command });
    }
    if (!json)
        table.print(cli::out());
    return 0;
}

void noFlags(cli::FlagTable&, BuildArgs&) { }

void startFlags(cli::FlagTable& t, BuildArgs& a)
{
    t.add("--profile", &a.profileName)
        .add("--command", &a.command)
        .addPath("--dir", &a.dir)
        .add("--name", &a.name)
        .add("--max-jobs", &a.maxJobs, 0, "a number of jobs")
        .add("--no-memory-gate", &a.noMemoryGate)
        .add("--cmake-arg", &a.cmakeArgs)
        .add("--env",
            [&a](const QString& v) -> Result<void> {
                const qsizetype eq = v.indexOf(QLatin1Char('='));
                if (eq <= 0)
                    return Result<void>::failure(QStringLiteral("--env needs K=V"));
                SecretRegistry::add(v.mid(eq + 1).toUtf8());
                a.env.insert(v.left(eq), v.mid(eq + 1));
                return {};
            })
        .add("--env-file", [&a](const QString& v) -> Result<void> {
            const auto file = readEnvFile(cli::cleanPath(v));
            if (!file)
                return file.withoutValue();
            a.env.insert(file.value());
            return {};
        });
}

void attachFlags(cli::FlagTable& t, BuildArgs& a)
{
    t.add("--from", &a.from, 0, "a byte offset").add("--profile", &a.profileName);
}

void preflightFlags(cli::FlagTable& t, BuildArgs& a)
{
    t.add("--profile", &a.profileName).addPath("--dir", &a.dir);
}

// The subcommands: the flags each takes (besides --json, and --job-root and the target's for
// those with a target), whether a JOB comes first, and what runs it.
struct Subcommand
{
    const char* name;
    void (*flags)(cli::FlagTable&, BuildArgs&);
    bool needsJob;
    int (*run)(const Call&); // null: no target (profiles)
};

const Subcommand kSubcommands[] = {
    { "start", startFlags, false, startBuild },
    { "attach", attachFlags, true, attachBuild },
    { "status", noFlags, true, showStatus },
    { "cancel", noFlags, true, cancelBuild },
    { "list", noFlags, false, listBuilds },
    { "preflight", preflightFlags, false, preflight },
    { "profiles", noFlags, false, nullptr },
};

int runBuild(const QStringList& argsIn)
{
    QStringList args = argsIn;
    if (args.isEmpty() || args.first() == QLatin1String("--help") || args.first() == QLatin1String("-h")) {
        usage(args.isEmpty() ? cli::err() : cli::out());
        return args.isEmpty() ? cli::kExitUsage : 0;
    }
    const QString sub = args.takeFirst();
    const QString me = QStringLiteral("kernelforge-cli build");
    const Subcommand* cmd = nullptr;
    for (const Subcommand& c : kSubcommands)
        if (sub == QLatin1String(c.name))
            cmd = &c;
    if (!cmd) {
        cli::err() << me << ": unknown subcommand '" << sub << "'\n";
        usage(cli::err());
        return cli::kExitUsage;
    }

    // Every usage error is found before anything connects.
    BuildArgs a;
    cli::FlagTable flags;
    flags.add("--json", &a.json);
    if (cmd->run)
        flags.addPath("--job-root", &a.root);
    cmd->flags(flags, a);
    if (const auto taken = flags.take(args); !taken)
        return cli::usageError(me, taken.error());
    if (args.contains(QStringLiteral("--help")) || args.contains(QStringLiteral("-h"))) {
        usage(cli::out());
        return 0;
    }
    if (!cmd->run) {
        if (!args.isEmpty())
            return cli::usageError(me, QStringLiteral("unexpected arguments: ") + args.join(QLatin1Char(' ')));
        return listProfiles(a.json);
    }
    std::optional<BuildProfile> profile;
    if (!a.profileName.isEmpty()) {
        const auto all = loadBuildProfiles();
        if (!all) {
            cli::err() << me << ": " << all.error() << '\n' << Qt::flush;
            return 1;
        }
        profile = findBuildProfile(*all, a.profileName);
        if (!profile)
            return cli::usageError(
                me, QStringLiteral("no profile named '%1' (see 'kernelforge-cli build profiles')").arg(a.profileName));
    }
    const QString meSub = me + QLatin1Char(' ') + sub;
    if (sub == QLatin1String("start") && !profile && a.command.isEmpty())
        return cli::usageError(meSub, QStringLiteral("--profile NAME or --command CMD is required"));
    if (sub == QLatin1String("preflight") && !profile)
        return cli::usageError(meSub, QStringLiteral("--profile NAME is required"));
    QString jobId;
    if (cmd->needsJob) {
        if (args.isEmpty() || args.first().startsWith(QLatin1Char('-')))
            return cli::usageError(meSub, QStringLiteral("which JOB?"));
        jobId = args.takeFirst();
        if (!jobs::isValidJobId(jobId)) { // no job folder can have that name
            cli::err() << meSub << ": no such job '" << jobId << "'\n" << Qt::flush;
            return 1;
        }
    }
    const auto target = cli::takeTargetOptions(args);
    if (!target)
        return cli::usageError(me, target.error());
    if (!args.isEmpty())
        return cli::usageError(me, QStringLiteral("unexpected arguments: ") + args.join(QLatin1Char(' ')));

    const auto opened = cli::openTarget(*target);
    if (!opened)
        return cli::connectionError(me, opened.error());
    return cmd->run({ a, profile, jobId, *opened });
}

const kf::cli::Registration reg { "build", "Start, follow, cancel and list detached remote builds; preflight checks",
    &runBuild };

} // namespace
