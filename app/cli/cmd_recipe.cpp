// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// kernelforge-cli recipe export|apply: deployment recipes (core/deploy): what worked on one host,
// replayed on another.
#include "app/cli/cli.h"
#include "app/cli/flagtable.h"
#include "app/cli/interrupttrap.h"
#include "app/cli/sshoptions.h"

#include "core/deploy/recipeexport.h"
#include "core/deploy/reciperunner.h"
#include "core/fleet/rollout.h"
#include "core/remotebuild/buildsession.h"
#include "core/timeline/hostkey.h"
#include "core/transport/localtransport.h"
#include "core/util/envfile.h"
#include "core/util/secretregistry.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace {

using namespace kf;
using deploy::RecipeRunner;

void usage(QTextStream& s)
{
    s << "Usage: kernelforge-cli recipe export ([ssh options] [user@]host | --local) [-o FILE] [--name NAME]\n"
      << "       kernelforge-cli recipe apply [--dry-run] RECIPE.yaml ([ssh options] user@host | --local)\n"
      << "                                    [--env K=V]... [--env-file FILE] [--env-from-profile NAME]\n"
      << "                                    [--job-root DIR] [--launch-timeout S] [--json]\n"
      << "                                    [--build-if-refused] [--hosts-file FILE]\n\n"
      << "  export  what worked on a host, from this machine's history (no connection): the tool versions\n"
      << "          last seen as expectations, the standing patch apply with its hunk choices, the last\n"
      << "          successful build (environment NAMES only, never values) or the promotion after it (the\n"
      << "          artifact by name and SHA-256: apply installs that one), the last passing verification\n"
      << "          and the last server launch that answered healthy. YAML on stdout (or -o FILE); what\n"
      << "          was left out and why on stderr.\n"
      << "  apply   replays it on another host, step by step: facts (differences first), plan, apply, build\n"
      << "          (detached: `build attach JOB` follows it from elsewhere), verify, launch; stops at the\n"
      << "          first step that fails, with the reason. Every step goes into that host's timeline.\n"
      << "          --dry-run: facts and plan only, nothing changes; it shows the build's command, CMAKE_ARGS,\n"
      << "          build dir and every environment name with where its value would come from.\n"
      << "  --env K=V, --env-file FILE   values for the build's environment names; only these are used\n"
      << "  --env-from-profile NAME      also take values for the recipe's names from your build profile NAME;\n"
      << "          without it no value of yours reaches the build (a recipe may come from someone else)\n"
      << "  --launch-timeout S           how long the server may take to answer /health (default 600)\n"
      << "  --build-if-refused           a recipe that promotes a build (promote:) builds it where it does not fit\n"
      << "  --hosts-file FILE            where the promotion's source is found when this machine's cache lacks\n"
      << "                               its artifact (default: hosts.yaml)\n"
      << "  --json  one JSON object per line and event: step, message, build_started, finished\n"
      << "SSH: -p PORT -i KEY -J JUMP --known-hosts FILE --accept-new [--no-reconnect] [--timeout S]\n"
      << "Exit status: 0 done; 1 a step failed (or the export found nothing); 2 bad usage or recipe;\n"
      << "255 connection, host key or login failed.\n";
    s.flush();
}

void printJson(const QJsonObject& o)
{
    cli::out() << QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)) << '\n' << Qt::flush;
}

const QString kExportMe = QStringLiteral("kernelforge-cli recipe export");
const QString kApplyMe = QStringLiteral("kernelforge-cli recipe apply");

int runExport(QStringList args)
{
    QString output, name;
    bool local = false;
    // Our own options first, so their values are never taken for the destination.
    cli::FlagTable flags;
    flags.addPath("-o", &output).addPath("--output", &output).add("--name", &name).add("--local", &local);
    if (const auto taken = flags.take(args); !taken)
        return cli::usageError(kExportMe, taken.error());
    QString host = QStringLiteral("local");
    if (!local) {
        const auto taken = cli::takeSshOptions(args);
        if (!taken || taken->hasRemotePath)
            return cli::usageError(kExportMe, !taken ? taken.error() : QStringLiteral("a destination takes no :PATH"));
        host = timeline::hostKey(taken->profile());
    }
    if (!args.isEmpty())
        return cli::usageError(kExportMe, QStringLiteral("unexpected arguments: ") + args.join(QLatin1Char(' ')));
    const auto exported = deploy::exportRecipe(host, name);
    if (!exported) {
        cli::err() << "kernelforge-cli recipe export: " << exported.error() << '\n';
        return 1;
    }
    for (const QString& note : exported->notes)
        cli::err() << "kernelforge-cli recipe export: " << note << '\n';
    const deploy::DeployRecipe& r = exported->recipe;
    if (r.facts.isEmpty() && !r.patches && !r.build && !r.server) {
        cli::err() << "kernelforge-cli recipe export: nothing recorded for " << host << " to put in a recipe\n";
        return 1;
    }
    const QByteArray yaml = deploy::serializeDeployRecipe(r);
    if (output.isEmpty()) {
        cli::out() << QString::fromUtf8(yaml) << Qt::flush;
        return 0;
    }
    QSaveFile f(output);
    if (!f.open(QIODevice::WriteOnly) || f.write(yaml) < 0 || !f.commit()) {
        cli::err() << "kernelforge-cli recipe export: cannot write " << output << ": " << f.errorString() << '\n';
        return 1;
    }
    cli::err() << "kernelforge-cli recipe export: " << host << " -> " << output << '\n';
    return 0;
}

int runApply(QStringList args)
{
    deploy::RecipeOptions options;
    QString hostsFile;
    bool json = false;
    bool local = false;
    cli::FlagTable flags;
    flags.add("--dry-run", &options.dryRun)
        .add("--json", &json)
        .add("--local", &local)
        .addPath("--job-root", &options.jobRoot)
        .add("--launch-timeout", &options.launchTimeoutS, 1, "seconds > 0")
        .add("--env",
            [&](const QString& v) {
                const qsizetype eq = v.indexOf(QLatin1Char('='));
                if (eq <= 0)
                    return Result<void>::failure(QStringLiteral("--env needs K=V"));
                SecretRegistry::add(v.mid(eq + 1).toUtf8());
                options.env.insert(v.left(eq), v.mid(eq + 1));
                return Result<void>();
            })
        .add("--env-file",
            [&](const QString& v) {
                const auto file = readEnvFile(cli::cleanPath(v));
                if (!file)
                    return file.withoutValue();
                options.env.insert(file.value());
                return Result<void>();
            })
        .add("--env-from-profile", &options.envFromProfile)
        .add("--build-if-refused", &options.buildWhenRefused)
        .addPath("--hosts-file", &hostsFile);
    if (const auto taken = flags.take(args); !taken)
        return cli::usageError(kApplyMe, taken.error());
    // A promote section's source, by its name in hosts.yaml, when this machine's cache lacks it.
    options.connectSource = [hostsFile](const QString& name) { return fleet::connectByName(hostsFile, name); };
    // The recipe is the first word that names a file here (the destination is user@host).
    qsizetype recipeAt = -1;
    for (qsizetype i = 0; i < args.size() && recipeAt < 0; ++i)
        if (!args[i].startsWith(QLatin1Char('-')) && QFile::exists(args[i]))
            recipeAt = i;
    if (recipeAt < 0)
        return cli::usageError(
            kApplyMe, QStringLiteral("which RECIPE.yaml? (no such file among %1)").arg(args.join(QLatin1Char(' '))));
    const QString path = args.takeAt(recipeAt);
    const auto recipe = deploy::readDeployRecipe(path);
    if (!recipe)
        return cli::usageError(kApplyMe, recipe.error());
    if (!options.envFromProfile.isEmpty()) {
        const auto all = loadBuildProfiles();
        if (!all)
            return cli::usageError(kApplyMe, all.error());
        if (!findBuildProfile(all.value(), options.envFromProfile))
            return cli::usageError(kApplyMe,
                QStringLiteral("--env-from-profile: no build profile named '%1' (see 'kernelforge-cli build profiles')")
                    .arg(options.envFromProfile));
    }
    std::shared_ptr<Transport> transport;
    if (local) {
        transport = std::make_shared<LocalTransport>();
    } else {
        const auto taken = cli::takeSshOptions(args);
        if (!taken || taken->hasRemotePath)
            return cli::usageError(kApplyMe, !taken ? taken.error() : QStringLiteral("a destination takes no :PATH"));
        if (!args.isEmpty())
            return cli::usageError(kApplyMe, QStringLiteral("unexpected arguments: ") + args.join(QLatin1Char(' ')));
        auto connected = cli::connectForCli(*taken);
        if (!connected) {
            cli::err() << "kernelforge-cli recipe apply: " << connected.error() << '\n';
            return cli::kExitConnection;
        }
        transport = connected.value();
    }

    RecipeRunner runner(transport, recipe.value(), options);
    int rc = 1;
    QTextStream& o = cli::out();
    QObject::connect(
        &runner, &RecipeRunner::phaseStarted, &runner, [&](deploy::RecipePhase phase, const QString& what) {
            if (json)
                printJson({ { QStringLiteral("event"), QStringLiteral("step_started") },
                    { QStringLiteral("step"), deploy::recipePhaseName(phase) }, { QStringLiteral("what"), what } });
            else
                o << deploy::phaseStartedLine(phase, what) << '\n' << Qt::flush;
        });
    QObject::connect(&runner, &RecipeRunner::message, &runner, [&](const QString& line) {
        if (json)
            printJson({ { QStringLiteral("event"), QStringLiteral("message") }, { QStringLiteral("text"), line } });
        else
            o << line << '\n' << Qt::flush;
    });
    QObject::connect(&runner, &RecipeRunner::phaseFinished, &runner,
        [&](deploy::RecipePhase phase, deploy::StepStatus status, const QString& reason) {
            if (json)
                printJson({ { QStringLiteral("event"), QStringLiteral("step") },
                    { QStringLiteral("step"), deploy::recipePhaseName(phase) },
                    { QStringLiteral("status"), deploy::stepStatusName(status) },
                    { QStringLiteral("reason"), reason } });
            else
                o << deploy::phaseFinishedLine(phase, status, reason) << '\n' << Qt::flush;
        });
    QObject::connect(&runner, &RecipeRunner::buildStarted, &runner, [&](const QString& job) {
        if (json)
            printJson({ { QStringLiteral("event"), QStringLiteral("build_started") }, { QStringLiteral("job"), job } });
    });
    QElapsedTimer lastProgress;
    QObject::connect(&runner, &RecipeRunner::buildProgress, &runner, [&](const BuildProgress& p) {
        if (json || (lastProgress.isValid() && lastProgress.elapsed() < 5000 && p.done != p.total))
            return;
        lastProgress.start();
        cli::err() << "[kernelforge] " << p.done << '/' << p.total << " steps\n" << Qt::flush;
    });
    // Ctrl-C: an apply in flight finishes its file, nothing more starts, the summary follows.
    cli::InterruptTrap trap;
    trap.watch(&runner, [&] { runner.interrupt(); });
    QObject::connect(&runner, &RecipeRunner::finished, &runner, [&](bool ok, const QString& reason) {
        rc = ok ? 0 : trap.interrupted() ? cli::kExitInterrupted : 1;
        if (json)
            printJson({ { QStringLiteral("event"), QStringLiteral("finished") }, { QStringLiteral("ok"), ok },
                { QStringLiteral("reason"), reason } });
        else
            o << (ok ? "Done: " : "Stopped: ") << reason << '\n' << Qt::flush;
        QCoreApplication::exit(rc);
    });
    runner.start();
    const int loop = runner.isRunning() ? QCoreApplication::exec() : rc;
    if (cli::connectionGivenUp())
        return cli::kExitConnection;
    return loop == cli::kExitConnection ? loop : rc;
}

int runRecipe(const QStringList& argsIn)
{
    QStringList args = argsIn;
    if (args.isEmpty() || args.first() == QLatin1String("--help") || args.first() == QLatin1String("-h")) {
        usage(args.isEmpty() ? cli::err() : cli::out());
        return args.isEmpty() ? cli::kExitUsage : 0;
    }
    const QString sub = args.takeFirst();
    if (sub == QLatin1String("export"))
        return runExport(args);
    if (sub == QLatin1String("apply"))
        return runApply(args);
    return cli::usageError(
        QStringLiteral("kernelforge-cli recipe"), QStringLiteral("unknown subcommand '%1'").arg(sub), usage);
}

const cli::Registration reg { "recipe", "Export what worked on a host as a deployment recipe; replay it on another",
    &runRecipe };

} // namespace
