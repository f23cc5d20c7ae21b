// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/novalue.h"

#include <QJsonObject>
#include <QtGlobal>

// What a benchmark run samples besides its requests: the host's GPU stream and the server's
// /metrics, one point per GPU per sample and one per poll, times in ms since the epoch.
namespace kf {

struct GpuSample;
struct ServerStatus;

struct GpuPoint
{
    qint64 timeMs = 0;
    int gpu = 0;
    double utilPercent = noValue();
    double powerW = noValue();
    double memUsedMiB = noValue();
    double smClockMhz = noValue();
    double memClockMhz = noValue();
    quint64 reasons = 0; // clock event (throttle) reasons, throttlereasons.h
    bool hasReasons = false;
    // GPM (Hopper and newer, core/gpu/gpmdmon.h): what "utilization" hides; no value without GPM.
    double smActivePercent = noValue();
    double tensorActivePercent = noValue();
    double dramActivePercent = noValue();
};
// The point of one GPU of a sample block dated timeMs.
GpuPoint gpuPoint(const GpuSample& sample, qint64 timeMs);

struct MetricsPoint
{
    qint64 timeMs = 0;
    double running = noValue();
    double queued = noValue();
    double genThroughput = noValue();
    double kvUsage = noValue();
    double cacheHitRate = noValue();
    double promptTokensTotal = noValue();
    double generationTokensTotal = noValue();
    double cachedTokensTotal = noValue(); // SGLang's cached_tokens_total, vLLM's prefix_cache_hits_total
};
// One /metrics poll as a point (noValue() throughout when it had no metrics).
MetricsPoint metricsPoint(const ServerStatus& status);
QJsonObject toJson(const MetricsPoint& p); // {"time": ms, "running", ...}, null for no value
MetricsPoint metricsPointFromJson(const QJsonObject& o);

} // namespace kf
