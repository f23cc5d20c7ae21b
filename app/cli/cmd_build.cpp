// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// kernelforge-cli build: start, attach, status, cancel and list detached builds; preflight; profiles.
#include "app/cli/cli.h"

#include "core/jobs/remotejob.h"
#include "core/log/redact.h"
#include "core/remotebuild/buildprofile.h"
#include "core/remotebuild/buildsession.h"
#include "core/remotebuild/preflight.h"
#include "core/timeline/eventstore.h"
#include "core/transport/localtransport.h"
#include "core/util/envfile.h"
#include "core/util/loginshell.h"
#include "core/util/shellquote.h"

#if __has_include("app/cli/sshoptions.h")
#include "app/cli/sshoptions.h"
#define KF_CLI_HAS_SSH 1
#endif

#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>

namespace {

using namespace kf;

constexpr int kUsage = 2;

void usage(QTextStream& s)
{
    s << "Usage: kernelforge-cli build SUBCOMMAND [OPTIONS] (--local | [ssh options] user@host)\n\n"
      << "  start (--profile NAME | --command CMD) [--dir DIR] [--env K=V]... [--env-file FILE] [--name LABEL]\n"
      << "        [--cmake-arg -DX=Y]... [--max-jobs N]\n"
      << "                                   start a detached build; prints the job id. Environment values never\n"
      << "                                   reach the server's command line; --env shows them in this machine's\n"
      << "                                   ps, --env-file (K=V lines, # comments) does not: use it for tokens\n"
      << "  attach JOB [--from OFFSET] [--profile NAME]\n"
      << "                                   stream progress and log; exits with the build's exit status\n"
      << "  status JOB                       state, exit status, log size\n"
      << "  cancel JOB                       stop the build's whole process group\n"
      << "  list                             the host's jobs, running and finished\n"
      << "  preflight --profile NAME         check tools, versions, memory and disk before a build\n"
      << "  profiles                         list build profiles (built-in and yours)\n\n"
      << "Options: --json (one JSON object per line and event), --job-root DIR (default ~/.cache/kernelforge/jobs)\n"
#ifdef KF_CLI_HAS_SSH
      << "SSH: -p PORT -i KEY -J JUMP --known-hosts FILE --accept-new [--no-reconnect] [--timeout S] user@host\n"
      << "A dropped connection is logged in again (1 s doubling to 30 s) and attach resumes at the byte it had;\n"
      << "--no-reconnect stops instead, --timeout S (default 300) bounds how long the server may stay unreachable.\n"
#endif
      << "--local runs on this machine.\n";
    s.flush();
}

struct Target
{
    std::shared_ptr<Transport> transport;
    QString host;
};

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

// Takes a value option ("--x V"); returns false (with a message) if the value is missing.
bool takeValue(QStringList& args, int i, QString* value)
{
    if (i + 1 >= args.size()) {
        cli::err() << "kernelforge-cli build: " << args[i] << " needs a value\n";
        return false;
    }
    *value = args[i + 1];
    args.remove(i, 2);
    return true;
}

Result<Target> connectTarget(QStringList& args, bool local)
{
    if (local)
        return Target { std::make_shared<LocalTransport>(), QStringLiteral("local") };
#ifdef KF_CLI_HAS_SSH
    cli::SshCliOptions opts;
    QString error;
    if (!cli::takeSshOptions(args, &opts, &error))
        return Result<Target>::failure(error);
    auto t = cli::connectForCli(opts);
    if (!t)
        return Result<Target>::failure(t.error());
    // The history key, as every history table names a host (docs/DESIGN.md, Timeline).
    return Target { *t, (*t)->describe() };
#else
    Q_UNUSED(args);
    return Result<Target>::failure(QStringLiteral("this build has no SSH support yet: use --local"));
#endif
}

int attach(const Target& target, const QString& id, qint64 from, bool json, const QString& root,
    const std::optional<BuildProfile>& profile)
{
    BuildSession session(target.transport, target.host, id);
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
        } else if (!lastProgress.isValid() || lastProgress.elapsed() > 2000 || p.done == p.total) {
            lastProgress.start();
            cli::err() << "[kernelforge] " << p.done << '/' << p.total << " steps";
            if (p.rate >= 0)
                cli::err() << ", " << QString::number(p.rate, 'f', 2) << " steps/s";
            cli::err() << ", ETA " << formatSeconds(p.etaS) << '\n';
            cli::err().flush();
        }
    });
    QObject::connect(&session, &BuildSession::diagnosticFound, &loop, [&](const Diagnostic& d) {
        if (json) {
            printJson({ { QStringLiteral("event"), QStringLiteral("diagnostic") },
                { QStringLiteral("severity"), toString(d.severity) }, { QStringLiteral("kind"), toString(d.kind) },
                { QStringLiteral("file"), d.file }, { QStringLiteral("line"), d.line },
                { QStringLiteral("column"), d.column }, { QStringLiteral("message"), d.message },
                { QStringLiteral("hint"), toString(d.hint) }, { QStringLiteral("hint_text"), hintText(d.hint) },
                { QStringLiteral("log_line"), d.logLine } });
        } else if (d.hint != Diagnostic::Hint::None) {
            cli::err() << "[kernelforge] hint: " << hintText(d.hint) << '\n';
            cli::err().flush();
        }
    });
    QObject::connect(&session, &BuildSession::memorySampled, &loop, [&](const MemorySample& m) {
        if (json)
            printJson({ { QStringLiteral("event"), QStringLiteral("memory") },
                { QStringLiteral("available_kb"), m.availableKb }, { QStringLiteral("total_kb"), m.totalKb } });
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
        if (json) {
            printJson({ { QStringLiteral("event"), QStringLiteral("finished") },
                { QStringLiteral("exit_status"), info.exitStatus }, { QStringLiteral("cancelled"), info.cancelled },
                { QStringLiteral("errors"),
                    int(std::count_if(session.diagnostics().begin(), session.diagnostics().end(),
                        [](const Diagnostic& d) { return d.severity == Diagnostic::Severity::Error; })) } });
        } else {
            cli::err() << "[kernelforge] build " << id << (info.cancelled ? " cancelled" : " finished")
                       << ": exit status " << info.exitStatus << '\n'
                       << Qt::flush;
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

int runBuild(const QStringList& argsIn)
{
    QStringList args = argsIn;
    if (args.isEmpty() || args.first() == QLatin1String("--help") || args.first() == QLatin1String("-h")) {
        usage(args.isEmpty() ? cli::err() : cli::out());
        return args.isEmpty() ? kUsage : 0;
    }
    const QString sub = args.takeFirst();
    bool json = false;
    bool local = false;
    QString root;
    QString profileName;
    QString command;
    QString dir;
    QString name;
    QString fromText;
    QString maxJobs;
    QMap<QString, QString> env;
    QStringList cmakeArgs;
    for (int i = 0; i < args.size();) {
        const QString a = args[i];
        QString v;
        if (a == QLatin1String("--json")) {
            json = true;
            args.removeAt(i);
        } else if (a == QLatin1String("--local")) {
            local = true;
            args.removeAt(i);
        } else if (a == QLatin1String("--job-root")) {
            if (!takeValue(args, i, &root))
                return kUsage;
        } else if (a == QLatin1String("--profile")) {
            if (!takeValue(args, i, &profileName))
                return kUsage;
        } else if (a == QLatin1String("--command")) {
            if (!takeValue(args, i, &command))
                return kUsage;
        } else if (a == QLatin1String("--dir")) {
            if (!takeValue(args, i, &dir))
                return kUsage;
        } else if (a == QLatin1String("--name")) {
            if (!takeValue(args, i, &name))
                return kUsage;
        } else if (a == QLatin1String("--from")) {
            if (!takeValue(args, i, &fromText))
                return kUsage;
        } else if (a == QLatin1String("--max-jobs")) {
            if (!takeValue(args, i, &maxJobs))
                return kUsage;
        } else if (a == QLatin1String("--cmake-arg")) {
            if (!takeValue(args, i, &v))
                return kUsage;
            cmakeArgs << v;
        } else if (a == QLatin1String("--env")) {
            if (!takeValue(args, i, &v))
                return kUsage;
            const qsizetype eq = v.indexOf(QLatin1Char('='));
            if (eq <= 0) {
                cli::err() << "kernelforge-cli build: --env needs K=V\n" << Qt::flush;
                return kUsage;
            }
            SecretRegistry::add(v.mid(eq + 1).toUtf8());
            env.insert(v.left(eq), v.mid(eq + 1));
        } else if (a == QLatin1String("--env-file")) {
            if (!takeValue(args, i, &v))
                return kUsage;
            const auto file = readEnvFile(v);
            if (!file) {
                cli::err() << "kernelforge-cli build: " << file.error() << '\n' << Qt::flush;
                return kUsage;
            }
            env.insert(file.value());
        } else {
            ++i;
        }
    }

    std::optional<BuildProfile> profile;
    if (!profileName.isEmpty()) {
        const auto all = loadBuildProfiles();
        if (!all) {
            cli::err() << "kernelforge-cli build: " << all.error() << '\n' << Qt::flush;
            return 1;
        }
        profile = findBuildProfile(*all, profileName);
        if (!profile) {
            cli::err() << "kernelforge-cli build: no profile named '" << profileName
                       << "' (see 'kernelforge-cli build profiles')\n"
                       << Qt::flush;
            return kUsage;
        }
    }

    if (sub == QLatin1String("profiles")) {
        const auto all = loadBuildProfiles();
        if (!all) {
            cli::err() << "kernelforge-cli build: " << all.error() << '\n' << Qt::flush;
            return 1;
        }
        for (const auto& p : *all) {
            if (json)
                printJson({ { QStringLiteral("event"), QStringLiteral("profile") }, { QStringLiteral("name"), p.name },
                    { QStringLiteral("command"), p.command }, { QStringLiteral("dir"), p.workingDirectory },
                    { QStringLiteral("built_in"), p.builtIn } });
            else
                cli::out() << p.name.leftJustified(26) << p.workingDirectory.leftJustified(24) << p.command << '\n';
        }
        return 0;
    }

    const QStringList known { QStringLiteral("start"), QStringLiteral("attach"), QStringLiteral("status"),
        QStringLiteral("cancel"), QStringLiteral("list"), QStringLiteral("preflight") };
    if (!known.contains(sub)) {
        cli::err() << "kernelforge-cli build: unknown subcommand '" << sub << "'\n";
        usage(cli::err());
        return kUsage;
    }
    const bool needsJob
        = sub == QLatin1String("attach") || sub == QLatin1String("status") || sub == QLatin1String("cancel");
    QString jobId;
    if (needsJob) {
        if (args.isEmpty() || args.first().startsWith(QLatin1Char('-'))) {
            cli::err() << "kernelforge-cli build " << sub << ": which JOB?\n" << Qt::flush;
            return kUsage;
        }
        jobId = args.takeFirst();
        if (!jobs::isValidJobId(jobId)) { // no job folder can have that name
            cli::err() << "kernelforge-cli build " << sub << ": no such job '" << jobId << "'\n" << Qt::flush;
            return 1;
        }
    }
    auto target = connectTarget(args, local);
    if (!target) {
        cli::err() << "kernelforge-cli build: " << target.error() << '\n' << Qt::flush;
        return cli::kExitConnection;
    }
    if (!args.isEmpty()) {
        cli::err() << "kernelforge-cli build: unexpected arguments: " << args.join(QLatin1Char(' ')) << '\n'
                   << Qt::flush;
        return kUsage;
    }
    Transport& t = *target->transport;

    if (sub == QLatin1String("start")) {
        BuildProfile p;
        if (profile) {
            p = *profile;
        } else if (command.isEmpty()) {
            cli::err() << "kernelforge-cli build start: --profile NAME or --command CMD is required\n" << Qt::flush;
            return kUsage;
        } else {
            p.name = name.isEmpty() ? QStringLiteral("command") : name;
        }
        if (!command.isEmpty())
            p.command = command;
        if (!dir.isEmpty())
            p.workingDirectory = dir;
        if (!name.isEmpty())
            p.name = name;
        if (!maxJobs.isEmpty())
            p.maxJobs = maxJobs.toInt();
        for (auto it = env.cbegin(); it != env.cend(); ++it)
            p.env.insert(it.key(), it.value());
        p.cmakeArgs << cmakeArgs;
        for (const QString& moved : moveCMakeOnlyEnv(p))
            cli::err() << "kernelforge-cli build: " << moved
                       << " only works as a CMake definition; passing it in CMAKE_ARGS\n";
        JobSpec spec = p.toJobSpec();
        spec.root = root;
        const auto started = RemoteJob::start(t, spec);
        if (!started) {
            cli::err() << "kernelforge-cli build: " << started.error() << '\n' << Qt::flush;
            return 1;
        }
        BuildRecord rec;
        rec.jobId = started->id;
        rec.profile = p.name;
        rec.host = target->host;
        rec.started = started->started.isValid() ? started->started : QDateTime::currentDateTimeUtc();
        rec.spec = buildSpec(p);
        rec.actor = timeline::defaultActor();
        if (const auto saved = buildhistory::save(rec); !saved)
            cli::err() << "kernelforge-cli build start: warning: the build is not in this machine's history: "
                       << saved.error() << '\n';
        if (json) {
            QJsonObject o = jobJson(*started);
            o[QStringLiteral("event")] = QStringLiteral("started");
            printJson(o);
        } else {
            cli::out() << started->id << '\n';
        }
        return 0;
    }
    if (sub == QLatin1String("attach")) {
        bool ok = true;
        const qint64 from = fromText.isEmpty() ? 0 : fromText.toLongLong(&ok);
        if (!ok || from < 0) {
            cli::err() << "kernelforge-cli build attach: --from needs a byte offset\n" << Qt::flush;
            return kUsage;
        }
        return attach(*target, jobId, from, json, root, profile);
    }
    if (sub == QLatin1String("status")) {
        const auto info = RemoteJob::info(t, jobId, root);
        if (!info) {
            cli::err() << "kernelforge-cli build: " << info.error() << '\n' << Qt::flush;
            return 1;
        }
        if (json) {
            printJson(jobJson(*info));
        } else {
            cli::out() << "job " << info->id << ": " << toString(info->state);
            if (info->state == JobInfo::State::Finished)
                cli::out() << ", exit status " << info->exitStatus << (info->cancelled ? " (cancelled)" : "");
            cli::out() << ", log " << info->logSize << " bytes\n";
        }
        return 0;
    }
    if (sub == QLatin1String("cancel")) {
        const Result<void> s = RemoteJob::cancel(t, jobId, root);
        if (!s) {
            cli::err() << "kernelforge-cli build: " << s.error() << '\n' << Qt::flush;
            return 1;
        }
        if (json)
            printJson({ { QStringLiteral("event"), QStringLiteral("cancelled") }, { QStringLiteral("job"), jobId } });
        else
            cli::out() << "cancelled " << jobId << '\n';
        return 0;
    }
    if (sub == QLatin1String("list")) {
        const auto jobs = RemoteJob::list(t, root);
        if (!jobs) {
            cli::err() << "kernelforge-cli build: " << jobs.error() << '\n' << Qt::flush;
            return 1;
        }
        for (const auto& j : *jobs) {
            if (json)
                printJson(jobJson(j));
            else
                cli::out() << j.id.leftJustified(24) << toString(j.state).leftJustified(10)
                           << (j.state == JobInfo::State::Finished ? QString::number(j.exitStatus)
                                                                   : QStringLiteral("-"))
                                  .leftJustified(5)
                           << j.name.leftJustified(24) << j.command << '\n';
        }
        return 0;
    }
    // preflight
    if (!profile) {
        cli::err() << "kernelforge-cli build preflight: --profile NAME is required\n" << Qt::flush;
        return kUsage;
    }
    if (!dir.isEmpty())
        profile->workingDirectory = dir;
    const auto checks = runPreflight(t, *profile);
    if (!checks) {
        cli::err() << "kernelforge-cli build: " << checks.error() << '\n' << Qt::flush;
        return cli::kExitConnection;
    }
    bool failed = false;
    for (const auto& c : *checks) {
        failed = failed || c.level == PreflightCheck::Level::Fail;
        if (json)
            printJson({ { QStringLiteral("event"), QStringLiteral("check") },
                { QStringLiteral("level"), toString(c.level) }, { QStringLiteral("id"), c.id },
                { QStringLiteral("message"), c.message }, { QStringLiteral("fix"), c.fix } });
        else
            cli::out() << toString(c.level).toUpper().leftJustified(5) << c.id.leftJustified(14) << c.message
                       << (c.fix.isEmpty() ? QString() : QStringLiteral("\n                   fix: ") + c.fix) << '\n';
    }
    return failed ? 1 : 0;
}

const kf::cli::Registration reg { "build", "Start, follow, cancel and list detached remote builds; preflight checks",
    &runBuild };

} // namespace
