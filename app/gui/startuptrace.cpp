// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "startuptrace.h"

#include "core/util/procfs.h"

#include <QAbstractItemView>
#include <QCoreApplication>
#include <QEvent>
#include <QTimer>
#include <QWidget>

#include <cstdio>
#include <ctime>
#include <unistd.h>

namespace kf {
namespace {

double bootMs()
{
    timespec ts {};
    clock_gettime(CLOCK_BOOTTIME, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

// The kernel's start time of this process, in ms of CLOCK_BOOTTIME (resolution: one clock tick).
double processStartMs()
{
    const QList<QByteArray> f = procfs::statFields(qint64(getpid()));
    return f.size() > 19 ? f[19].toDouble() * 1e3 / double(sysconf(_SC_CLK_TCK)) : -1;
}

} // namespace

void StartupTrace::installIfAsked(QWidget* window, QAbstractItemView* list, int listRows)
{
    if (qEnvironmentVariableIntValue("KF_STARTUP_TRACE") != 1)
        return;
    new StartupTrace(window, list, listRows); // parented to the window
}

StartupTrace::StartupTrace(QWidget* window, QAbstractItemView* list, int listRows)
    : QObject(window)
    , m_window(window)
    , m_list(list)
    , m_listRows(listRows)
{
    window->installEventFilter(this);
    if (list)
        list->viewport()->installEventFilter(this);
    else
        m_listed = true;
}

bool StartupTrace::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() != QEvent::Paint)
        return false;
    if (!m_painted && watched == m_window) {
        m_painted = true;
        m_window->removeEventFilter(this);
        QTimer::singleShot(0, this, [this] { mark("first-paint"); });
    } else if (!m_listed && m_list && watched == m_list->viewport() && m_list->model()
        && m_list->model()->rowCount() >= m_listRows) {
        m_listed = true;
        m_list->viewport()->removeEventFilter(this);
        QTimer::singleShot(0, this, [this] { mark("hosts-listed"); });
    }
    return false;
}

void StartupTrace::mark(const char* what)
{
    const double sinceStart = bootMs() - processStartMs();
    timespec mono {};
    clock_gettime(CLOCK_MONOTONIC, &mono);
    printf("%s %.1f monotonic-ns %lld\n", what, sinceStart,
        static_cast<long long>(mono.tv_sec) * 1000000000LL + static_cast<long long>(mono.tv_nsec));
    fflush(stdout);
}

} // namespace kf
