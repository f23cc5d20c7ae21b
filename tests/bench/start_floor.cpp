// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// bench_start's floor: the least a Qt Widgets program does to show one window of the app's size
// (a main window with a label). It prints "first-paint <ms> monotonic-ns <ns>" the way
// KF_STARTUP_TRACE=1 makes kernelforge print it (app/gui/startuptrace.h): from a zero-time timer
// posted by the window's first paint event, <ms> from the process start in /proc/self/stat.
#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QMainWindow>
#include <QTimer>

#include <cstdio>
#include <ctime>
#include <unistd.h>

namespace {

double processStartMs()
{
    QFile f(QStringLiteral("/proc/self/stat"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray s = f.readAll();
    // Fields after "(comm) ": [19] is the start time in clock ticks since boot.
    return s.mid(s.lastIndexOf(')') + 2).split(' ').value(19).toDouble() * 1e3 / double(sysconf(_SC_CLK_TCK));
}

class Window : public QMainWindow
{
protected:
    bool event(QEvent* e) override
    {
        if (e->type() == QEvent::Paint && !m_painted) {
            m_painted = true;
            QTimer::singleShot(0, this, [] {
                timespec boot {}, mono {};
                clock_gettime(CLOCK_BOOTTIME, &boot);
                clock_gettime(CLOCK_MONOTONIC, &mono);
                const double sinceStart = double(boot.tv_sec) * 1e3 + double(boot.tv_nsec) / 1e6 - processStartMs();
                printf("first-paint %.1f monotonic-ns %lld\n", sinceStart,
                    static_cast<long long>(mono.tv_sec) * 1000000000LL + static_cast<long long>(mono.tv_nsec));
                fflush(stdout);
            });
        }
        return QMainWindow::event(e);
    }

private:
    bool m_painted = false;
};

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    Window window;
    window.setCentralWidget(new QLabel(QStringLiteral("floor"), &window));
    window.resize(1440, 900);
    window.show();
    return QApplication::exec();
}
