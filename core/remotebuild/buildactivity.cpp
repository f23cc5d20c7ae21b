// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/buildactivity.h"

#include <algorithm>

namespace kf {

QString durationText(double seconds)
{
    if (seconds < 0)
        return QStringLiteral("?");
    const qint64 t = qint64(seconds + 0.5);
    if (t >= 3600)
        return QStringLiteral("%1 h %2 min").arg(t / 3600).arg((t % 3600) / 60);
    if (t >= 60)
        return QStringLiteral("%1 min %2 s").arg(t / 60).arg(t % 60);
    return QStringLiteral("%1 s").arg(t);
}

void BuildActivity::update(const BuildProgress& p, qint64 nowMs)
{
    if (stepStartedMs < 0 || p.done != progress.done || p.description != progress.description)
        stepStartedMs = nowMs;
    progress = p;
    progressAtMs = nowMs;
}

double BuildActivity::elapsedSeconds(qint64 nowMs) const
{
    if (progressAtMs < 0)
        return attachedMs < 0 ? 0.0 : double(std::max<qint64>(0, nowMs - attachedMs)) / 1000.0;
    if (finished)
        return progress.elapsedS;
    return progress.elapsedS + double(std::max<qint64>(0, nowMs - progressAtMs)) / 1000.0;
}

QString BuildActivity::text(qint64 nowMs, qint64 quietAfterMs) const
{
    const BuildProgress& p = progress;
    QString text;
    if (p.total > 0)
        text = QStringLiteral("%1/%2 steps").arg(std::max(0, p.done)).arg(p.total);
    else if (p.percent >= 0)
        text = QStringLiteral("%1%").arg(p.percent);
    else
        text = finished ? QStringLiteral("no steps seen") : QStringLiteral("starting");
    if (!finished && p.running > 0)
        text += QStringLiteral(", %1 running").arg(p.running);
    if (!finished && p.rate > 0)
        text += QStringLiteral(", %1 steps/min").arg(p.rate * 60, 0, 'f', 1);
    text += QStringLiteral(", elapsed %1").arg(durationText(elapsedSeconds(nowMs)));
    if (finished)
        return text;
    text += QStringLiteral(", ETA %1").arg(p.etaS >= 0 ? durationText(p.etaS) : QStringLiteral("unknown"));
    const qint64 quietSince = std::max(lastOutputMs, attachedMs);
    if (quietSince >= 0 && nowMs - quietSince >= quietAfterMs) {
        // Ninja prints a step's line when the step ends (output is a pipe): what runs now began then.
        text += QStringLiteral(" \u00b7 ");
        if (stepStartedMs >= 0)
            text += QStringLiteral("step running %1, ").arg(durationText(double(nowMs - stepStartedMs) / 1000.0));
        text += QStringLiteral("no output for %1").arg(durationText(double(nowMs - quietSince) / 1000.0));
    }
    return text;
}

} // namespace kf
