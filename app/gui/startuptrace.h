// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QObject>
#include <QPointer>

class QAbstractItemView;
class QWidget;

namespace kf {

// KF_STARTUP_TRACE=1: two lines on stdout for benchmarks (tests/bench/bench_start.cpp), off by
// default and then nothing is installed:
//   first-paint <ms> monotonic-ns <ns>    the main window's first frame was painted and flushed
//   hosts-listed <ms> monotonic-ns <ns>   the sidebar's list painted with every host in it
// <ms> counts from the process start in /proc/self/stat (the kernel's start time, in clock ticks
// of 10 ms, against CLOCK_BOOTTIME); <ns> is CLOCK_MONOTONIC at that moment, so a launcher can
// subtract its own clock read just before it started the process. Each moment is taken by a
// zero-time timer posted from the first such paint event, so it runs after the whole frame.
class StartupTrace : public QObject
{
public:
    // Watches window, and list until it paints with at least listRows rows in its model.
    static void installIfAsked(QWidget* window, QAbstractItemView* list, int listRows);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    StartupTrace(QWidget* window, QAbstractItemView* list, int listRows);
    void mark(const char* what);

    QPointer<QWidget> m_window;
    QPointer<QAbstractItemView> m_list;
    int m_listRows = 0;
    bool m_painted = false;
    bool m_listed = false;
};

} // namespace kf
