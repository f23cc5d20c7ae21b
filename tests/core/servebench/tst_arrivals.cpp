// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issue #35: request arrivals as vLLM's get_request() draws them. The gaps of a Poisson and a
// gamma (burstiness) schedule pass a Kolmogorov-Smirnov test against their distribution, with
// a fixed seed (deterministic: the same draws every run); the same test rejects the wrong
// distribution, so it has the power to fail. The normalisation to n / rate, the ramps'
// rates and the constant-gap limit are checked by hand.
#include "core/servebench/arrivals.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace kf;

namespace {

// The regularized lower incomplete gamma function P(a, x) (series and continued fraction, as
// Numerical Recipes' gammp): the gamma distribution's CDF is P(shape, x / scale).
double gammaP(double a, double x)
{
    if (x <= 0)
        return 0;
    const double lnPrefix = -x + a * std::log(x) - std::lgamma(a);
    if (x < a + 1) {
        double sum = 1.0 / a;
        double term = sum;
        for (int n = 1; n < 1000; ++n) {
            term *= x / (a + n);
            sum += term;
            if (std::abs(term) < std::abs(sum) * 1e-15)
                break;
        }
        return sum * std::exp(lnPrefix);
    }
    // Lentz's continued fraction for Q = 1 - P.
    double b = x + 1 - a;
    double c = 1.0 / 1e-300;
    double d = 1.0 / b;
    double h = d;
    for (int i = 1; i < 1000; ++i) {
        const double an = -i * (i - a);
        b += 2;
        d = an * d + b;
        if (std::abs(d) < 1e-300)
            d = 1e-300;
        c = b + an / c;
        if (std::abs(c) < 1e-300)
            c = 1e-300;
        d = 1.0 / d;
        const double del = d * c;
        h *= del;
        if (std::abs(del - 1) < 1e-15)
            break;
    }
    return 1.0 - std::exp(lnPrefix) * h;
}

// The Kolmogorov-Smirnov statistic of the sample against the CDF.
template <typename Cdf> double ksStatistic(QList<double> sample, Cdf cdf)
{
    std::sort(sample.begin(), sample.end());
    const double n = double(sample.size());
    double d = 0;
    for (qsizetype i = 0; i < sample.size(); ++i) {
        const double f = cdf(sample[i]);
        d = std::max({ d, std::abs(double(i + 1) / n - f), std::abs(f - double(i) / n) });
    }
    return d;
}

// The critical value at alpha = 0.01 for n samples (large-sample approximation).
double ksCritical(qsizetype n)
{
    return 1.628 / std::sqrt(double(n));
}

} // namespace

class TestArrivals : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void gapsFollowTheirDistribution_data()
    {
        QTest::addColumn<double>("burstiness");
        QTest::newRow("Poisson (burstiness 1)") << 1.0;
        QTest::newRow("bursty (0.5)") << 0.5;
        QTest::newRow("even (4)") << 4.0;
    }
    void gapsFollowTheirDistribution()
    {
        QFETCH(double, burstiness);
        const int n = 4000;
        const double rate = 20;
        const QList<double> due = arrivalTimes({ rate, burstiness }, n, 7);
        QCOMPARE(due.size(), n);
        QVERIFY(std::is_sorted(due.cbegin(), due.cend()));
        // vLLM's normalisation: the last request is due at exactly n / rate.
        QVERIFY(std::abs(due.last() - n / rate) < 1e-9);
        const QList<double> gaps = arrivalGaps(due);
        // Gamma(shape = B, scale = 1 / (rate x B)); the normalisation rescales by a factor close
        // to 1, well inside the test's tolerance at this n.
        const double scale = 1.0 / (rate * burstiness);
        const double d = ksStatistic(gaps, [&](double x) { return gammaP(burstiness, x / scale); });
        QVERIFY2(d < ksCritical(n), qPrintable(QStringLiteral("KS D = %1 >= %2").arg(d).arg(ksCritical(n))));
        // The mean gap is 1 / rate by construction, and the spread is the gamma's: cv = 1 / sqrt(B).
        double sum = 0;
        double sq = 0;
        for (double g : gaps) {
            sum += g;
            sq += g * g;
        }
        const double mean = sum / n;
        const double cv = std::sqrt(sq / n - mean * mean) / mean;
        QVERIFY(std::abs(mean - 1 / rate) < 1e-9);
        QVERIFY2(
            std::abs(cv - 1 / std::sqrt(burstiness)) < 0.1 / std::sqrt(burstiness), qPrintable(QString::number(cv)));
    }

    // The same test rejects gaps of another shape: it can fail.
    void theTestRejectsTheWrongDistribution()
    {
        const int n = 4000;
        const double rate = 20;
        const QList<double> gaps = arrivalGaps(arrivalTimes({ rate, 4.0 }, n, 7));
        const double d = ksStatistic(gaps, [&](double x) { return 1 - std::exp(-rate * x); });
        QVERIFY2(d > 3 * ksCritical(n), qPrintable(QString::number(d)));
    }

    void sameSeedSameSchedule()
    {
        QCOMPARE(arrivalTimes({ 5, 0.7 }, 100, 3), arrivalTimes({ 5, 0.7 }, 100, 3));
        QVERIFY(arrivalTimes({ 5, 0.7 }, 100, 3) != arrivalTimes({ 5, 0.7 }, 100, 4));
    }

    void allAtOnceAndConstantGaps()
    {
        QCOMPARE(arrivalTimes({ 0, 1 }, 5, 1), (QList<double> { 0, 0, 0, 0, 0 }));
        const QList<double> even = arrivalTimes({ 4, std::numeric_limits<double>::infinity() }, 4, 1);
        // vLLM: burstiness inf means gaps of exactly 1 / rate (the first one included).
        QCOMPARE(even, (QList<double> { 0.25, 0.5, 0.75, 1.0 }));
    }

    void ramps()
    {
        const ArrivalShape linear { 0, 1, RampUp::Linear, 2, 22 };
        QCOMPARE(arrivalRate(linear, 0, 11), 2.0);
        QCOMPARE(arrivalRate(linear, 5, 11), 12.0); // p = 0.5
        QCOMPARE(arrivalRate(linear, 10, 11), 22.0);
        const ArrivalShape exponential { 0, 1, RampUp::Exponential, 1, 16 };
        QCOMPARE(arrivalRate(exponential, 0, 5), 1.0);
        QCOMPARE(arrivalRate(exponential, 2, 5), 4.0); // 1 x 16^(2/4)
        QCOMPARE(arrivalRate(exponential, 4, 5), 16.0);
        // No normalisation with a ramp (vLLM rescales only a fixed rate): gaps shrink along it.
        const QList<double> gaps = arrivalGaps(arrivalTimes(linear, 3000, 5));
        double early = 0;
        double late = 0;
        for (int i = 0; i < 500; ++i) {
            early += gaps[i];
            late += gaps[gaps.size() - 1 - i];
        }
        // The mean gap at the start is about 1 / 2.8 s, at the end about 1 / 21 s.
        QVERIFY2(early > 4 * late, qPrintable(QStringLiteral("%1 vs %2").arg(early).arg(late)));
        QVERIFY(arrivalShapeError(linear).isEmpty());
        QVERIFY(!arrivalShapeError({ 0, 1, RampUp::Linear, 0, 5 }).isEmpty());
        QVERIFY(!arrivalShapeError({ 3, 0 }).isEmpty());
    }

    void summaries()
    {
        QCOMPARE(arrivalSummary({ 4, 1 }), QStringLiteral("Poisson 4 requests/s"));
        QCOMPARE(arrivalSummary({ 4, 0.5 }), QStringLiteral("gamma (burstiness 0.5) 4 requests/s"));
        QCOMPARE(arrivalSummary({ 0, 1 }), QStringLiteral("all requests at once"));
        QCOMPARE(arrivalSummary({ 0, 1, RampUp::Exponential, 1, 20 }),
            QStringLiteral("exponential ramp 1 -> 20 requests/s, Poisson"));
    }
};

QTEST_GUILESS_MAIN(TestArrivals)
#include "tst_arrivals.moc"
