// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/servebench/referenceresults.h"

#include "core/store/paths.h"
#include "core/util/yamlnode.h"

#include <QFile>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSet>

#include <cmath>

namespace kf {
namespace {

constexpr qint64 kMaxTableBytes = 1 << 20;
constexpr int kMaxRows = 10000;
const QString kBuiltIn = QStringLiteral(":/servebench/reference.yaml");

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
    return readYamlAs<ReferenceTable>(
        yaml, origin,
        [&](const YamlNode& root) {
            ReferenceTable table;
            table.origin = origin;
            if (!root.isMap() || !root.field("results").isList())
                root.fail("results", QStringLiteral("a reference table is a 'results:' list"));
            const QList<YamlNode> rows = root.list("results");
            if (rows.size() > kMaxRows)
                root.fail("results", QStringLiteral("more than %1 rows").arg(kMaxRows));
            for (const YamlNode& row : rows) {
                if (!row.isMap())
                    row.fail(QStringLiteral("a row is a map (model, gpu, gpus, ...)"));
                ReferenceResult r;
                r.model = row.requiredText("model").trimmed();
                r.gpu = row.requiredText("gpu").trimmed();
                r.gpus = row.integer("gpus", 0, 1, 4096);
                r.precision = row.requiredText("precision").trimmed();
                r.inputLen = row.integer("input_len", 0, 1, 1 << 24);
                r.outputLen = row.integer("output_len", 0, 1, 1 << 24);
                r.concurrency = row.integer("concurrency", 0, 1, 1 << 20);
                r.tokensPerS = row.number("tok_s", 0, 0, 1e12);
                r.server = row.text("server").trimmed();
                r.source = row.requiredText("source").trimmed();
                r.note = row.text("note").trimmed();
                for (const char* key : { "gpus", "input_len", "output_len", "concurrency" })
                    if (!row.has(key))
                        row.fail(key, QStringLiteral("is required"));
                if (!(r.tokensPerS > 0))
                    row.fail("tok_s", QStringLiteral("is required: a number above 0"));
                const QString kind = row.text("throughput").trimmed().toLower();
                if (!kind.isEmpty() && kind != QLatin1String("output") && kind != QLatin1String("total"))
                    row.fail("throughput", QStringLiteral("output or total, not '%1'").arg(kind));
                r.totalThroughput = kind == QLatin1String("total");
                table.rows.append(r);
            }
            return table;
        },
        kMaxTableBytes);
}

Result<ReferenceTable> loadReferenceTable()
{
    const QString user = userReferencePath();
    const QString path = QFile::exists(user) ? user : kBuiltIn;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Result<ReferenceTable>::failure(QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
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
