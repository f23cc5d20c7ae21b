// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/servebench/arrivals.h"

#include <cmath>
#include <random>

namespace kf {

QString rampUpName(RampUp ramp)
{
    switch (ramp) {
    case RampUp::Linear: return QStringLiteral("linear");
    case RampUp::Exponential: return QStringLiteral("exponential");
    case RampUp::None: break;
    }
    return QStringLiteral("none");
}

std::optional<RampUp> rampUpFromName(const QString& name)
{
    for (RampUp r : { RampUp::None, RampUp::Linear, RampUp::Exponential })
        if (name == rampUpName(r))
            return r;
    return std::nullopt;
}

QString arrivalShapeError(const ArrivalShape& s)
{
    if (!(s.burstiness > 0))
        return QStringLiteral("burstiness must be > 0 (1: Poisson)");
    if (s.ramp == RampUp::None)
        return std::isfinite(s.rate) && s.rate >= 0 ? QString()
                                                    : QStringLiteral("the request rate must be a number >= 0");
    if (!(s.rampStart > 0) || !(s.rampEnd > 0) || !std::isfinite(s.rampStart) || !std::isfinite(s.rampEnd))
        return QStringLiteral("a ramp-up needs a start and an end rate > 0 (requests/s)");
    return {};
}

double arrivalRate(const ArrivalShape& s, int index, int count)
{
    const double p = double(index) / double(std::max(count - 1, 1));
    switch (s.ramp) {
    case RampUp::Linear: return s.rampStart + (s.rampEnd - s.rampStart) * p;
    case RampUp::Exponential: return s.rampStart * std::pow(s.rampEnd / s.rampStart, p);
    case RampUp::None: break;
    }
    return s.rate > 0 ? s.rate : 0;
}

QList<double> arrivalTimes(const ArrivalShape& s, int count, quint32 seed)
{
    QList<double> due;
    if (count <= 0)
        return due;
    due.reserve(count);
    if (s.allAtOnce() || !arrivalShapeError(s).isEmpty()) {
        due.fill(0.0, count);
        return due;
    }
    std::mt19937 rng(seed);
    double t = 0;
    for (int i = 0; i < count; ++i) {
        const double rate = arrivalRate(s, i, count);
        if (std::isinf(s.burstiness)) {
            t += 1.0 / rate;
        } else {
            std::gamma_distribution<double> gap(s.burstiness, 1.0 / (rate * s.burstiness));
            t += gap(rng);
        }
        due.append(t);
    }
    if (s.ramp == RampUp::None && due.last() > 0) {
        const double factor = (double(count) / s.rate) / due.last();
        for (double& d : due)
            d *= factor;
    }
    return due;
}

QList<double> arrivalGaps(const QList<double>& due)
{
    QList<double> gaps;
    gaps.reserve(due.size());
    double previous = 0;
    for (double d : due) {
        gaps.append(d - previous);
        previous = d;
    }
    return gaps;
}

QString arrivalKind(const ArrivalShape& s)
{
    if (std::isinf(s.burstiness))
        return QStringLiteral("evenly spaced");
    if (s.burstiness == 1)
        return QStringLiteral("Poisson");
    return QStringLiteral("gamma (burstiness %1)").arg(s.burstiness, 0, 'g', 4);
}

QString arrivalSummary(const ArrivalShape& s)
{
    auto rate = [](double r) { return QString::number(r, 'g', 4); };
    const QString kind = arrivalKind(s);
    if (s.ramp != RampUp::None)
        return QStringLiteral("%1 ramp %2 -> %3 requests/s, %4")
            .arg(rampUpName(s.ramp), rate(s.rampStart), rate(s.rampEnd), kind);
    if (!(s.rate > 0))
        return QStringLiteral("all requests at once");
    return QStringLiteral("%1 %2 requests/s").arg(kind, rate(s.rate));
}

} // namespace kf
