// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "app/cli/interrupttrap.h"

#include <csignal>

namespace kf::cli {
namespace {

// What a signal handler may touch: lock-free atomics.
std::atomic<bool> g_stop { false };
std::atomic<int> g_signal { 0 };
struct sigaction g_previousInt;
struct sigaction g_previousTerm;

extern "C" void onSignal(int signal)
{
    g_signal.store(signal);
    g_stop.store(true);
}

} // namespace

InterruptTrap::InterruptTrap()
{
    g_stop.store(false);
    g_signal.store(0);
    struct sigaction action = {};
    action.sa_handler = &onSignal;
    sigemptyset(&action.sa_mask);
    // The first signal asks; the handler is reset by it, so a second one ends the process.
    action.sa_flags = SA_RESETHAND | SA_RESTART;
    sigaction(SIGINT, &action, &g_previousInt);
    sigaction(SIGTERM, &action, &g_previousTerm);
}

InterruptTrap::~InterruptTrap()
{
    sigaction(SIGINT, &g_previousInt, nullptr);
    sigaction(SIGTERM, &g_previousTerm, nullptr);
}

const std::atomic<bool>* InterruptTrap::stopFlag() const
{
    return &g_stop;
}

bool InterruptTrap::interrupted() const
{
    return g_stop.load();
}

QString InterruptTrap::signalName() const
{
    switch (g_signal.load()) {
    case SIGINT: return QStringLiteral("SIGINT");
    case SIGTERM: return QStringLiteral("SIGTERM");
    default: return {};
    }
}

void InterruptTrap::watch(QObject* context, std::function<void()> onInterrupt)
{
    m_poll.setInterval(100);
    QObject::connect(&m_poll, &QTimer::timeout, context, [this, onInterrupt = std::move(onInterrupt)] {
        if (!g_stop.load())
            return;
        m_poll.stop();
        onInterrupt();
    });
    m_poll.start();
}

} // namespace kf::cli
