// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

// What a benchmark result needs beside its numbers to be cited and reproduced: what ran, on
// what, built how. Kept with every run (bench_runs.context, JSON) and compared between runs
// (`server bench compare`, the Compare view): a replay of the same workload on another host
// or build differs here and nowhere else.
//
// The build and the verification are read from this machine's history as those features
// write it (core/remotebuild/buildhistory: the newest build of the host that started before
// the run; core/timeline: its newest verify.result event, whose details carry the libraries
// and their SASS/PTX targets), and kept as JSON objects copied whole: whatever those records
// grow to hold (build provenance) comes along without a change here.
namespace kf {

class Transport;

struct BenchContext
{
    QString kernelforgeVersion;
    QString driver;           // nvidia-smi's driver_version on the host
    QJsonObject serverArgs;   // /server_info (SGLang's server arguments), secrets left out
    QJsonObject build;        // {"id", "job_id", "profile", "result", "started", "ended", "spec": {...}}
    QJsonObject verification; // {"time", "details": the verify.result details}
    double otherRunning = -1; // the server's running / waiting requests before anything was sent
    double otherQueued = -1;  // (-1: /metrics did not say)

    bool isEmpty() const;
};

QJsonObject toJson(const BenchContext& c);
BenchContext benchContextFromJson(const QJsonObject& o);

// /server_info as kept: top-level scalars and small lists only, at most 400 keys, strings cut at
// 2000 characters, and nothing whose key names a secret (api_key, token, password, secret,
// auth...): SGLang lists its --api-key among the arguments.
QJsonObject keptServerArgs(const QJsonObject& serverInfo);

// Blocking (worker thread): the newest build and verification of `host` (the history's host
// key) from this machine's history, as of `beforeMs` (ms since the epoch). A history that
// cannot be read leaves them empty (a benchmark never stops for it).
void readBuildContext(BenchContext& context, const QString& host, qint64 beforeMs);
// Blocking: nvidia-smi's driver version on the host; empty when it has none.
QString queryDriverVersion(Transport& transport);

// One line each, for people: "KernelForge 0.9.0", "driver 580.95.05", "build #12 sgl-kernel
// (succeeded, 2026-12-04 10:02 UTC)", "verified 2026-12-04 10:05 UTC: PASS; common_ops:
// sm_90a sm_120a", "server: tp_size 8, ...", "other load before the run: 3 running, 0 waiting".
QStringList contextLines(const BenchContext& c);
// The libraries' targets ("common_ops: sm_90a sm_120a"), from the verification; empty if none.
QString libraryArches(const BenchContext& c);
// What differs between two runs' contexts ("build #12 vs #15", "driver 580.95 vs 575.51",
// "server argument chunked_prefill_size 8192 vs 4096").
QStringList contextDifferences(const BenchContext& a, const BenchContext& b);

} // namespace kf
