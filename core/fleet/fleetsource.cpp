// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/fleet/fleetsource.h"

#include "core/transport/transportpool.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QtConcurrent>

namespace kf::fleet {

namespace {
constexpr qint64 kTargetsEveryMs = 60000;
constexpr double kDefaultScrapeIntervalS = 15; // Prometheus' own default
} // namespace

Result<FleetSnapshot> refreshFleet(PromClient& client, RefreshState& state, qint64 nowMs)
{
    QStringList problems;
    if (state.scrapeIntervalS <= 0 || nowMs - state.targetsAtMs >= kTargetsEveryMs) {
        const auto targets = client.targets();
        if (targets) {
            state.targetErrors.clear();
            double interval = 0;
            for (const PromTarget& t : targets.value()) {
                if (!t.lastError.isEmpty())
                    state.targetErrors.insert(t.labels.value(QStringLiteral("instance")), t.lastError);
                // The longest interval of any job: a host is stale only after 3 of its own.
                interval = qMax(interval, t.scrapeIntervalS);
            }
            state.scrapeIntervalS = interval > 0 ? interval : kDefaultScrapeIntervalS;
            state.targetsAtMs = nowMs;
        } else {
            problems << QStringLiteral("targets: ") + targets.error();
            if (state.scrapeIntervalS <= 0)
                state.scrapeIntervalS = kDefaultScrapeIntervalS;
        }
    }
    QElapsedTimer wall;
    wall.start();
    QHash<QString, PromQueryResult> answers;
    QString firstError;
    for (const FleetQuery& q : fleetQueries()) {
        auto r = client.query(q.promql, nowMs);
        if (r) {
            answers.insert(q.family, std::move(r.value()));
        } else {
            problems << q.family + QStringLiteral(": ") + r.error();
            if (firstError.isEmpty())
                firstError = r.error();
            if (r.kind() == ErrorKind::Permanent || answers.isEmpty())
                break; // refused, or the server is not there: the other families will not do better
        }
    }
    if (answers.isEmpty())
        return Result<FleetSnapshot>::failure(firstError);
    AssembleOptions o;
    o.nowMs = nowMs;
    o.scrapeIntervalS = state.scrapeIntervalS;
    o.rules = state.rules;
    o.targetErrors = state.targetErrors;
    o.previous = &state.previous;
    FleetSnapshot snap = assembleFleet(answers, o);
    snap.queryWallMs = wall.elapsed();
    snap.problems = problems;
    state.previous = snap.hosts;
    return snap;
}

FleetSource::FleetSource(std::shared_ptr<PromClient> client, QObject* parent)
    : QObject(parent)
    , m_client(std::move(client))
    , m_state(std::make_shared<RefreshState>())
{
    qRegisterMetaType<kf::fleet::FleetSnapshot>();
    m_timer.setInterval(5000);
    connect(&m_timer, &QTimer::timeout, this, &FleetSource::refreshNow);
}

FleetSource::~FleetSource()
{
    m_tracker.cancelAll();
}

void FleetSource::start()
{
    m_timer.start();
    refreshNow();
}

void FleetSource::stop()
{
    m_timer.stop();
    m_tracker.cancelAll();
    // A refresh still running keeps the old state; the next start begins afresh, so two
    // workers never share one.
    m_state = std::make_shared<RefreshState>();
}

void FleetSource::refreshNow()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_request.isPending())
        return; // a slow server: skip this tick
    // The worker gets its own copies (docs/STYLE.md, Threads): the client and the state, which
    // only one refresh at a time touches.
    auto client = m_client;
    auto state = m_state;
    state->rules = m_rules;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    m_request = m_tracker.track(
        QtConcurrent::run(transportPool(), [client, state, now] { return refreshFleet(*client, *state, now); }),
        [this](const Result<FleetSnapshot>& r) {
            if (!r) {
                Q_EMIT refreshFailed(r.error());
                return;
            }
            m_snapshot = r.value();
            Q_EMIT snapshotReady(m_snapshot);
        });
}

} // namespace kf::fleet
