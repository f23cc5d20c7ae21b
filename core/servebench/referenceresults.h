// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/servebench/benchrun.h"
#include "core/util/result.h"

#include <QByteArray>
#include <QList>
#include <QString>

// Published serving results (model, GPUs, precision, server version, input/output lengths,
// concurrency, tok/s, source URL), shown next to a level of the user's run only when the
// workload matches. The built-in table is resources/servebench/reference.yaml (its header
// says the format, the matching rule and how figures are normalised); a user's copy in
// paths::configDir()/servebench-reference.yaml replaces it once it exists.
namespace kf {

struct ReferenceResult
{
    QString model;
    QString gpu; // "H100", "B200"
    int gpus = 0;
    QString precision;
    QString server; // "vLLM 0.16.0"
    int inputLen = 0;
    int outputLen = 0;
    int concurrency = 0;
    bool totalThroughput = false; // tok_s counts input + output tokens; else output only
    double tokensPerS = 0;        // aggregate over all gpus
    QString source;
    QString note;
    double tokensPerSPerGpu() const { return gpus > 0 ? tokensPerS / gpus : 0; }
};

struct ReferenceTable
{
    QList<ReferenceResult> rows;
    QString origin; // the file read (":/servebench/reference.yaml" for the built-in one)
};

QString userReferencePath();
// The user's copy when it exists, else the built-in table.
Result<ReferenceTable> loadReferenceTable();
// Bounded: at most 1 MiB and 10000 rows; every row needs model, gpu, gpus > 0, precision,
// input_len, output_len, concurrency > 0, tok_s > 0 and source; throughput is output or total.
Result<ReferenceTable> parseReferenceTable(const QByteArray& yaml, const QString& origin);
// Writes the built-in table to userReferencePath() unless a copy exists; returns that path.
Result<QString> ensureUserReferenceCopy();

struct ReferenceMatch
{
    ReferenceResult reference;
    double ours = 0;       // the level's throughput of the same kind (output or total), aggregate
    double oursPerGpu = 0; // ours / the run's GPU count (0 when unknown)
    double ratio = 0;      // ours / reference
};
// Why a row does not match ("precision FP8 vs BF16"); empty when it matches.
QString referenceMismatch(const ReferenceResult& ref, const BenchRun& run, const LevelStats& level);
QList<ReferenceMatch> matchReferences(const ReferenceTable& table, const BenchRun& run, const LevelStats& level);

} // namespace kf
