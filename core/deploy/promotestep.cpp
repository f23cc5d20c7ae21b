// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/deploy/promotestep.h"

#include "core/deploy/artifactfiles.h"
#include "core/deploy/buildtoend.h"

#include "core/events/eventlog.h"
#include "core/hosts/serverfacts.h"
#include "core/remotebuild/buildhistory.h"
#include "core/remotebuild/preflight.h"
#include "core/ssh/sshtransport.h"
#include "core/verify/provenance.h"
#include "core/verify/verifyrun.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>

namespace kf::deploy {
namespace {

// The host's clock, seconds since the epoch (history rows are on the server's clock).
QDateTime serverNow(Transport& t)
{
    CommandSpec spec;
    spec.command = QStringLiteral("date +%s");
    spec.maxOutputBytes = 4096;
    const ExecResult r = t.exec(spec, 60000);
    bool ok = false;
    const qint64 s = r.stdOut.trimmed().toLongLong(&ok);
    return r.ok() && ok ? QDateTime::fromSecsSinceEpoch(s, Qt::UTC) : QDateTime::currentDateTimeUtc();
}

QString shortHash(const QByteArray& sha)
{
    return QString::fromLatin1(sha.left(12));
}

} // namespace

QString PromotionArtifact::kindName() const
{
    return kind == Kind::Wheel ? QStringLiteral("wheel") : QStringLiteral("files");
}

QJsonObject PromotionArtifact::toJson() const
{
    return { { QStringLiteral("kind"), kindName() }, { QStringLiteral("file"), fileName },
        { QStringLiteral("sha256"), QString::fromLatin1(sha256) }, { QStringLiteral("size"), double(size) },
        { QStringLiteral("files"), QJsonArray::fromStringList(files) }, { QStringLiteral("source"), sourceHost },
        { QStringLiteral("source_name"), sourceName }, { QStringLiteral("build_job"), buildJob },
        { QStringLiteral("profile"), profile.name }, { QStringLiteral("fingerprint"), fingerprint.toJson() },
        { QStringLiteral("source_verification"), verifySummary },
        { QStringLiteral("caches"), caches ? QJsonValue(caches->toJson()) : QJsonValue() } };
}

PromotionArtifact PromotionArtifact::fromJson(const QJsonObject& o)
{
    PromotionArtifact a;
    a.kind = o.value(QLatin1String("kind")).toString() == QLatin1String("wheel") ? Kind::Wheel : Kind::Files;
    a.fileName = o.value(QLatin1String("file")).toString();
    a.sha256 = o.value(QLatin1String("sha256")).toString().toLatin1();
    a.size = qint64(o.value(QLatin1String("size")).toDouble());
    for (const QJsonValue& v : o.value(QLatin1String("files")).toArray())
        a.files << v.toString();
    a.sourceHost = o.value(QLatin1String("source")).toString();
    a.sourceName = o.value(QLatin1String("source_name")).toString();
    a.buildJob = o.value(QLatin1String("build_job")).toString();
    a.profile.name = o.value(QLatin1String("profile")).toString();
    a.fingerprint = BuildFingerprint::fromJson(o.value(QLatin1String("fingerprint")).toObject());
    a.verifySummary = o.value(QLatin1String("source_verification")).toString();
    if (const QJsonValue c = o.value(QLatin1String("caches")); c.isObject())
        a.caches = JitCacheArtifact::fromJson(c.toObject());
    return a;
}

Result<PromotionArtifact> cachedPromotion(const QString& cacheDir, const QString& fileName, const QByteArray& sha256,
    const BuildProfile& profile, const QString& cachesFile, const QByteArray& cachesSha256)
{
    using R = Result<PromotionArtifact>;
    const auto found = findCachedArtifact(cacheDir, fileName, sha256);
    if (!found)
        return found.withoutValue();
    PromotionArtifact a = PromotionArtifact::fromJson(found->manifest);
    if (a.sha256 != sha256 || a.fileName != fileName)
        return R::failure(QStringLiteral("%1.json describes another artifact (%2, SHA-256 %3)")
                              .arg(found->localPath, a.fileName, QString::fromLatin1(a.sha256.left(12))));
    a.localPath = found->localPath;
    a.profile = profile;
    a.caches.reset();
    if (!cachesSha256.isEmpty()) {
        const auto caches = findCachedArtifact(cacheDir, cachesFile, cachesSha256);
        if (!caches)
            return R::failure(QStringLiteral("the JIT caches: %1").arg(caches.error()));
        JitCacheArtifact c = JitCacheArtifact::fromJson(caches->manifest);
        c.localPath = caches->localPath;
        a.caches = c;
    }
    return a;
}

Result<PromotionArtifact> preparePromotion(Transport& source, const PromotionSource& o)
{
    using R = Result<PromotionArtifact>;
    const auto say = [&](const QString& line) {
        if (o.log)
            o.log(line);
    };
    const QString host = o.hostName.isEmpty() ? source.describe() : o.hostName;
    say(QStringLiteral("facts of %1").arg(host));
    const auto facts = collectServerFacts(source, 120000, preflightProbe(o.profile));
    if (!facts)
        return R::failure(QStringLiteral("facts of %1: %2").arg(host, facts.error()));
    say(QStringLiteral("verifying the build of %1 on %2").arg(o.profile.name, host));
    VerifyRequest request;
    request.profile = o.profile;
    const auto report = verifyAndRecord(source, request);
    if (!report)
        return R::failure(QStringLiteral("cannot verify the build on %1: %2").arg(host, report.error()));
    if (report->failed())
        return R::failure(QStringLiteral("the build on %1 does not pass verification (%2): nothing to promote")
                              .arg(host, report->summary()));
    if (o.stop && o.stop->load())
        return R::failure(QStringLiteral("interrupted: nothing was sent"));

    PromotionArtifact a;
    a.profile = o.profile;
    a.sourceHost = source.describe();
    a.sourceName = host;
    a.buildJob = report->makers().value(0);
    a.verifySummary = report->summary();
    QList<CudaTarget> targets;
    for (const VerifyLibrary& lib : report->libraries)
        targets += lib.targets;
    // The environment the libraries were built in is the one their build recorded when it
    // started; one that changed since (a torch upgraded after the build) is refused: the
    // libraries were made for the old one.
    const BuildEnvironment now = BuildEnvironment::of(facts.value());
    BuildEnvironment built = now;
    QJsonObject recorded;
    if (!a.buildJob.isEmpty())
        if (const auto maker = buildhistory::find(source.describe(), a.buildJob); maker && maker.value())
            recorded = maker.value()->spec.value(QLatin1String("environment")).toObject();
    if (!recorded.isEmpty()) {
        built = BuildEnvironment::fromJson(recorded);
        const QStringList changes = environmentChanges(built, now);
        if (!changes.isEmpty())
            return R::failure(QStringLiteral("%1 changed since its build (job %2): %3; build again before promoting")
                                  .arg(host, a.buildJob, changes.join(QStringLiteral("; "))));
    } else {
        say(QStringLiteral("the build's history row does not say what it was built with (an older build): %1's "
                           "facts now stand for it")
                .arg(host));
    }
    a.fingerprint = fingerprintOf(built, targets, {}, o.profile.name);

    QList<VerifyWheel> wheels;
    for (const VerifyWheel& w : report->wheels)
        if (w.error.isEmpty())
            wheels << w;
    QString remote;
    if (wheels.size() > 1) {
        QStringList names;
        for (const VerifyWheel& w : wheels)
            names << QFileInfo(w.path).fileName();
        return R::failure(QStringLiteral("%1 wheels beside the build on %2 (%3): which one the build made is not "
                                         "known; remove the others")
                              .arg(wheels.size())
                              .arg(host, names.join(QStringLiteral(", "))));
    }
    if (wheels.size() == 1) {
        a.kind = PromotionArtifact::Kind::Wheel;
        remote = wheels.first().path;
        a.fileName = QFileInfo(remote).fileName();
    } else {
        const QString folder = absoluteBuildFolder(o.profile.workingDirectory, report->home);
        for (const VerifyLibrary& lib : report->libraries)
            if (lib.origin == QLatin1String("build") && !folder.isEmpty() && isInsideFolder(lib.path, folder))
                a.files << QDir(folder).relativeFilePath(lib.path);
        if (a.files.isEmpty())
            return R::failure(QStringLiteral("the build on %1 left no wheel and no library under %2: nothing to "
                                             "promote")
                                  .arg(host, o.profile.workingDirectory));
        a.fileName = (a.buildJob.isEmpty() ? QStringLiteral("build") : a.buildJob) + QStringLiteral("-files.tar");
        remote = kRemotePromoteDir + QLatin1Char('/') + a.fileName;
        say(QStringLiteral("packing %1 librar%2 on %3")
                .arg(a.files.size())
                .arg(a.files.size() == 1 ? QStringLiteral("y") : QStringLiteral("ies"), host));
        CommandSpec pack;
        pack.command
            = QStringLiteral("d=$1; o=$2; shift 2; mkdir -p \"${o%/*}\" && tar -C \"$d\" -cf \"$o.tmp\" -- \"$@\""
                             " && mv -f \"$o.tmp\" \"$o\"");
        pack.arguments = QStringList { folder, remote } + a.files;
        pack.maxOutputBytes = 256 * 1024;
        const ExecResult packed = source.exec(pack, 1800000);
        if (!packed.ok())
            return R::failure(QStringLiteral("cannot pack the libraries on %1: %2").arg(host, commandFailure(packed)));
    }
    const QString cache = localPromoteDir(o.cacheDir);
    say(QStringLiteral("fetching %1 from %2").arg(a.fileName, host));
    if (const auto fetched = fetchArtifactInto(a, source, remote, cache); !fetched)
        return R::failure(fetched.error());
    if (o.withCaches) {
        auto caches = captureJitCaches(source, host, cache, o.log, o.stop);
        if (!caches)
            return caches.withoutValue();
        a.caches = caches.value();
    }
    say(QStringLiteral("%1 %2 (%3 bytes, SHA-256 %4) from %5; %6")
            .arg(a.kindName(), a.fileName)
            .arg(a.size)
            .arg(shortHash(a.sha256), host, a.verifySummary));
    return a;
}

PromoteStep::PromoteStep(PromotionArtifact artifact, PromoteOptions options)
    : m_artifact(std::move(artifact))
    , m_options(std::move(options))
{ }

namespace {

class Promotion
{
public:
    Promotion(const PromotionArtifact& a, const PromoteOptions& o, Transport& t, const StepContext& ctx)
        : m_a(a)
        , m_o(o)
        , m_t(t)
        , m_ctx(ctx)
    { }

    StepResult run()
    {
        m_ctx.say(QStringLiteral("facts of %1").arg(m_ctx.hostName));
        const auto facts = collectServerFacts(m_t, 120000, preflightProbe(m_a.profile));
        if (!facts)
            return end(StepStatus::Failed, QStringLiteral("facts: %1").arg(facts.error()));
        const QStringList refusals = promotionRefusals(m_a.fingerprint, facts.value(), m_ctx.hostName);
        for (const QString& r : refusals)
            m_ctx.say(QStringLiteral("differs: ") + r);
        m_reasons = refusals;
        if (!refusals.isEmpty() && !m_o.buildWhenRefused)
            return end(StepStatus::Refused,
                QStringLiteral("refused, the build does not fit: %1").arg(refusals.join(QStringLiteral("; "))));
        if (m_ctx.stopped())
            return end(StepStatus::Failed, QStringLiteral("interrupted: nothing was sent"));
        QString how;
        if (refusals.isEmpty()) {
            if (const QString failed = transferAndInstall(); !failed.isEmpty())
                return end(StepStatus::Failed, failed);
            how = QStringLiteral("promoted %1 from %2 (SHA-256 %3)")
                      .arg(m_a.fileName, m_a.sourceName, shortHash(m_a.sha256));
        } else {
            // Asked to: the host builds the profile itself, as the source did (its folder as it
            // stands: a recipe applies the patches first).
            m_ctx.say(QStringLiteral("building %1 on %2 instead").arg(m_a.profile.name, m_ctx.hostName));
            BuildToEndOptions options;
            options.jobRoot = m_o.jobRoot;
            const BuildToEnd built = buildToEnd(m_t, m_ctx, m_a.profile, options);
            m_job = built.job;
            m_builtInstead = true;
            if (built.status != StepStatus::Ok)
                return end(StepStatus::Failed,
                    QStringLiteral("the build does not fit, and building it on %1 instead failed: %2")
                        .arg(m_ctx.hostName, built.reason));
            how = QStringLiteral("built on %1 instead (the build does not fit: %2): %3")
                      .arg(m_ctx.hostName, refusals.join(QStringLiteral("; ")), built.reason);
        }

        if (m_o.verify) {
            m_ctx.say(QStringLiteral("verifying on %1").arg(m_ctx.hostName));
            VerifyRequest request;
            request.profile = m_a.profile;
            const auto report = verifyAndRecord(m_t, request);
            if (!report)
                return end(StepStatus::Failed, QStringLiteral("verify: %1").arg(report.error()));
            m_verifySummary = report->summary();
            if (report->failed())
                return end(StepStatus::Failed,
                    QStringLiteral("%1, but the verification failed: %2")
                        .arg(m_builtInstead ? QStringLiteral("built") : QStringLiteral("installed"), m_verifySummary));
        }
        QString caches;
        if (m_a.caches) {
            m_ctx.say(QStringLiteral("JIT caches: checking their key"));
            m_caches = seedJitCaches(m_t, facts.value(), *m_a.caches, m_ctx);
            for (const QString& r : std::as_const(m_caches->reasons))
                m_ctx.say(QStringLiteral("JIT caches differ: ") + r);
            if (m_caches->status == StepStatus::Failed)
                return end(StepStatus::Failed,
                    QStringLiteral("%1, but %2")
                        .arg(m_builtInstead ? QStringLiteral("built") : QStringLiteral("build promoted"),
                            m_caches->summary));
            caches = QStringLiteral("; ") + m_caches->summary;
        }
        return end(StepStatus::Ok,
            how + (m_verifySummary.isEmpty() ? QString() : QStringLiteral("; ") + m_verifySummary) + caches);
    }

private:
    // The artifact sent (resumable, hash-checked) and installed; empty: done, else why not.
    QString transferAndInstall()
    {
        m_ctx.say(QStringLiteral("sending %1 (%2 bytes)").arg(m_a.fileName).arg(m_a.size));
        const auto sent = sendArtifact(m_t, m_a.localPath, m_a.sha256, m_a.fileName, m_ctx.stop);
        if (!sent)
            return QStringLiteral("transfer: %1").arg(sent.error());
        if (sent->resumed > 0)
            m_ctx.say(QStringLiteral("resumed an interrupted transfer: %1 bytes were already there, %2 sent")
                          .arg(sent->resumed)
                          .arg(sent->sent));
        if (sent->alreadyThere)
            m_ctx.say(
                QStringLiteral("%1 is already on %2 (same SHA-256): not sent again").arg(m_a.fileName, m_ctx.hostName));
        if (m_ctx.stopped())
            return QStringLiteral("interrupted after the transfer: nothing was installed");
        if (const QString failed = install(sent->remotePath); !failed.isEmpty())
            return QStringLiteral("install: %1").arg(failed);
        return {};
    }

    // Unpacks or pip-installs the artifact; a row in the host's build history covers it. Empty: done.
    QString install(const QString& remote)
    {
        CommandSpec spec;
        spec.env = m_a.profile.env;
        spec.maxOutputBytes = 4 * 1024 * 1024;
        if (m_a.kind == PromotionArtifact::Kind::Files) {
            // -m: the files' times are the install's, so provenance finds the install's row.
            spec.command = QStringLiteral("mkdir -p -- \"$1\" && tar -xmf \"$2\" -C \"$1\"");
            spec.arguments
                = { m_a.profile.workingDirectory.startsWith(QLatin1String("~/")) ? m_a.profile.workingDirectory.mid(2)
                                                                                 : m_a.profile.workingDirectory,
                      remote };
        } else {
            spec.command = QStringLiteral("python3 -m pip install --no-deps --force-reinstall --no-index -- \"$1\"");
            spec.arguments = { remote };
        }
        m_ctx.say(QStringLiteral("installing (%1)").arg(m_a.kindName()));
        BuildRecord row;
        row.host = m_t.describe();
        row.profile = m_a.profile.name;
        row.started = serverNow(m_t);
        row.jobId = QStringLiteral("promoted-%1-%2")
                        .arg(row.started.toString(QStringLiteral("yyyyMMdd-HHmmss")), shortHash(m_a.sha256).left(8));
        QJsonObject spec0 = buildSpec(m_a.profile);
        spec0.insert(QStringLiteral("promoted_from"), m_a.toJson());
        // What the libraries were built with is what they stay built with (a later promotion from
        // this host holds it against its targets).
        spec0.insert(QStringLiteral("environment"), m_a.fingerprint.environment.toJson());
        row.spec = spec0;
        const ExecResult r = m_t.exec(spec, 3600000);
        row.ended = serverNow(m_t);
        row.exitStatus = r.exitCode;
        row.result = buildResultFor(r.ok() ? 0 : qMax(1, r.exitCode), false);
        if (!r.ok())
            row.firstError = QString::fromUtf8(r.stdErr.trimmed().split('\n').value(0)).left(300);
        if (const auto saved = buildhistory::save(row); !saved)
            m_ctx.say(QStringLiteral("warning: the install is not in the build history: %1").arg(saved.error()));
        m_job = row.jobId;
        if (r.ok())
            return {};
        if (!r.error.isEmpty())
            return r.error;
        return QStringLiteral("exit status %1: %2")
            .arg(r.exitCode)
            .arg(QString::fromUtf8(r.stdErr.trimmed().right(600)));
    }

    StepResult end(StepStatus status, const QString& summary)
    {
        timeline::Event e;
        e.host = m_t.describe();
        e.kind = timeline::kind::BuildPromoted;
        e.summary = QStringLiteral("Build %1 from %2: %3").arg(m_a.profile.name, m_a.sourceName, summary);
        QJsonObject d = m_a.toJson();
        d.remove(QStringLiteral("files"));
        // "built": the target did not fit and built the profile itself (install_job is its build).
        d.insert(QStringLiteral("status"),
            m_builtInstead && status == StepStatus::Ok ? QStringLiteral("built") : stepStatusName(status));
        d.insert(QStringLiteral("reasons"), QJsonArray::fromStringList(m_reasons));
        d.insert(QStringLiteral("install_job"), m_job);
        d.insert(QStringLiteral("verification"), m_verifySummary);
        if (m_a.caches) {
            QJsonObject c = m_a.caches->toJson();
            c.insert(QStringLiteral("status"), m_caches ? stepStatusName(m_caches->status) : QStringLiteral("skipped"));
            c.insert(
                QStringLiteral("reasons"), QJsonArray::fromStringList(m_caches ? m_caches->reasons : QStringList()));
            d.insert(QStringLiteral("caches"), c);
        }
        e.details = d;
        timeline::recordOrWarn(e);
        return { status, summary };
    }

    const PromotionArtifact& m_a;
    const PromoteOptions& m_o;
    Transport& m_t;
    const StepContext& m_ctx;
    QStringList m_reasons;
    QString m_job;
    QString m_verifySummary;
    std::optional<SeedOutcome> m_caches;
    bool m_builtInstead = false;
};

} // namespace

StepResult PromoteStep::run(Transport& transport, const StepContext& context)
{
    return Promotion(m_artifact, m_options, transport, context).run();
}

} // namespace kf::deploy
