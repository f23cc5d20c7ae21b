// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/servebench/referenceresults.h"

#include "core/store/paths.h"

#include <QFile>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSet>

#include <yaml-cpp/yaml.h>

#include <cmath>

namespace kf {
namespace {

constexpr qint64 kMaxTableBytes = 1 << 20;
constexpr int kMaxRows = 10000;
const QString kBuiltIn = QStringLiteral(":/servebench/reference.yaml");

QString text(const YAML::Node& row, const char* key)
{
    const YAML::Node v = row[key];
    return v && v.IsScalar() ? QString::fromStdString(v.as<std::string>()).trimmed() : QString();
}

double number(const YAML::Node& row, const char* key)
{
    const YAML::Node v = row[key];
    if (!v || !v.IsScalar())
        return -1;
    bool ok = false;
    const double d = QString::fromStdString(v.as<std::string>()).trimmed().toDouble(&ok);
    return ok && std::isfinite(d) && d >= 0 && d < 1e12 ? d : -1;
}

QSet<QString> words(const QString& s)
{
    static const QRegularExpression split(QStringLiteral("[\\s/_-]+"));
    QSet<QString> out;
    for (const QString& w : s.toLower().split(split, Qt::SkipEmptyParts))
        out.insert(w);
    return out;
}

bool within(double ours, int theirs, double tolerance)
{
    return theirs > 0 && std::isfinite(ours) && std::abs(ours - theirs) <= tolerance * theirs;
}

} // namespace

QString userReferencePath()
{
    return paths::configDir() + QStringLiteral("/servebench-reference.yaml");
}

Result<ReferenceTable> parseReferenceTable(const QByteArray& yaml, const QString& origin)
{
    using R = Result<ReferenceTable>;
    if (yaml.size() > kMaxTableBytes)
        return R::failure(QStringLiteral("reference table %1: larger than 1 MiB").arg(origin));
    ReferenceTable table;
    table.origin = origin;
    try {
        const YAML::Node root = YAML::Load(yaml.toStdString());
        const YAML::Node list = root["results"];
        if (!list || !list.IsSequence())
            return R::failure(QStringLiteral("reference table %1: no 'results:' list").arg(origin));
        if (list.size() > size_t(kMaxRows))
            return R::failure(QStringLiteral("reference table %1: more than %2 rows").arg(origin).arg(kMaxRows));
        int n = 0;
        for (const YAML::Node& row : list) {
            ++n;
            if (!row.IsMap())
                return R::failure(QStringLiteral("reference table %1: row %2 is not a map").arg(origin).arg(n));
            ReferenceResult r;
            r.model = text(row, "model");
            r.gpu = text(row, "gpu");
            r.precision = text(row, "precision");
            r.server = text(row, "server");
            r.source = text(row, "source");
            r.note = text(row, "note");
            const double gpus = number(row, "gpus");
            const double in = number(row, "input_len");
            const double out = number(row, "output_len");
            const double conc = number(row, "concurrency");
            r.tokensPerS = number(row, "tok_s");
            const QString kind = text(row, "throughput").toLower();
            QStringList missing;
            for (const auto& [ok, name] :
                { std::pair { !r.model.isEmpty(), "model" }, { !r.gpu.isEmpty(), "gpu" }, { gpus >= 1, "gpus" },
                    { !r.precision.isEmpty(), "precision" }, { in >= 1, "input_len" }, { out >= 1, "output_len" },
                    { conc >= 1, "concurrency" }, { r.tokensPerS > 0, "tok_s" }, { !r.source.isEmpty(), "source" } })
                if (!ok)
                    missing << QLatin1String(name);
            if (!missing.isEmpty())
                return R::failure(QStringLiteral("reference table %1: row %2: missing or invalid %3")
                                      .arg(origin)
                                      .arg(n)
                                      .arg(missing.join(QStringLiteral(", "))));
            if (!kind.isEmpty() && kind != QLatin1String("output") && kind != QLatin1String("total"))
                return R::failure(QStringLiteral("reference table %1: row %2: throughput is output or total, not %3")
                                      .arg(origin)
                                      .arg(n)
                                      .arg(kind));
            r.gpus = int(gpus);
            r.inputLen = int(in);
            r.outputLen = int(out);
            r.concurrency = int(conc);
            r.totalThroughput = kind == QLatin1String("total");
            table.rows.append(r);
        }
    } catch (const YAML::Exception& e) {
        return R::failure(QStringLiteral("reference table %1: %2").arg(origin, QString::fromStdString(e.what())));
    }
    return table;
}

Result<ReferenceTable> loadReferenceTable()
{
    const QString user = userReferencePath();
    const QString path = QFile::exists(user) ? user : kBuiltIn;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Result<ReferenceTable>::failure(QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
    if (f.size() > kMaxTableBytes)
        return Result<ReferenceTable>::failure(QStringLiteral("reference table %1: larger than 1 MiB").arg(path));
    return parseReferenceTable(f.read(kMaxTableBytes + 1), path);
}

Result<QString> ensureUserReferenceCopy()
{
    const QString user = userReferencePath();
    if (QFile::exists(user))
        return user;
    QFile in(kBuiltIn);
    if (!in.open(QIODevice::ReadOnly))
        return Result<QString>::failure(QStringLiteral("cannot read the built-in reference table"));
    QSaveFile out(user);
    if (!out.open(QIODevice::WriteOnly) || out.write(in.readAll()) < 0 || !out.commit())
        return Result<QString>::failure(QStringLiteral("cannot write %1: %2").arg(user, out.errorString()));
    return user;
}

QString referenceMismatch(const ReferenceResult& ref, const BenchRun& run, const LevelStats& level)
{
    const QSet<QString> ours = words(run.facts.model + QLatin1Char(' ') + run.facts.modelPath);
    for (const QString& w : words(ref.model))
        if (!ours.contains(w))
            return QStringLiteral("model %1 vs %2").arg(ref.model, run.facts.model);
    if (!words(run.facts.gpuName).contains(ref.gpu.toLower()))
        return QStringLiteral("GPU %1 vs %2")
            .arg(ref.gpu, run.facts.gpuName.isEmpty() ? QStringLiteral("?") : run.facts.gpuName);
    if (ref.gpus != run.facts.gpuCount)
        return QStringLiteral("%1 GPUs vs %2").arg(ref.gpus).arg(run.facts.gpuCount);
    if (ref.precision.compare(run.facts.precision, Qt::CaseInsensitive) != 0)
        return QStringLiteral("precision %1 vs %2")
            .arg(ref.precision, run.facts.precision.isEmpty() ? QStringLiteral("unknown") : run.facts.precision);
    const double in = level.inputTokensEstimated || !std::isfinite(level.meanInputTokens) ? run.params.inputTokens
                                                                                          : level.meanInputTokens;
    const double out = level.outputTokensEstimated || !std::isfinite(level.meanOutputTokens) ? run.params.outputTokens
                                                                                             : level.meanOutputTokens;
    if (!within(in, ref.inputLen, 0.10))
        return QStringLiteral("input %1 tokens vs %2").arg(ref.inputLen).arg(qRound(in));
    if (!within(out, ref.outputLen, 0.10))
        return QStringLiteral("output %1 tokens vs %2").arg(ref.outputLen).arg(qRound(out));
    if (ref.concurrency != level.concurrency)
        return QStringLiteral("concurrency %1 vs %2").arg(ref.concurrency).arg(level.concurrency);
    return {};
}

QList<ReferenceMatch> matchReferences(const ReferenceTable& table, const BenchRun& run, const LevelStats& level)
{
    QList<ReferenceMatch> out;
    for (const ReferenceResult& ref : table.rows) {
        if (!referenceMismatch(ref, run, level).isEmpty())
            continue;
        ReferenceMatch m;
        m.reference = ref;
        m.ours = ref.totalThroughput ? level.totalThroughput : level.outputThroughput;
        m.oursPerGpu = run.facts.gpuCount > 0 ? m.ours / run.facts.gpuCount : 0;
        m.ratio = ref.tokensPerS > 0 ? m.ours / ref.tokensPerS : 0;
        out.append(m);
    }
    return out;
}

} // namespace kf
