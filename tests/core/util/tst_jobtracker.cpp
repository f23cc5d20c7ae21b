// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// JobTracker (core/util/jobtracker.h): results arrive on the context's thread, only for
// current requests, never after a cancel or once the context is gone.
#include "core/util/jobtracker.h"

#include <QPromise>
#include <QSignalSpy>
#include <QThreadPool>
#include <QtConcurrent>
#include <QtTest>

#include <atomic>
#include <memory>
#include <semaphore>

using namespace kf;

namespace {

// A future the test finishes by hand, so nothing depends on when a worker runs.
struct ManualFuture
{
    QPromise<int> promise;
    QFuture<int> future() { return promise.future(); }
    void finish(int value)
    {
        promise.start();
        promise.addResult(value);
        promise.finish();
    }
};

} // namespace

class TestJobTracker : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void deliversOnTheContextThread()
    {
        QObject context;
        JobTracker tracker(&context);
        QThread* seen = nullptr;
        int value = 0;
        const RequestHandle h = tracker.track(QtConcurrent::run([] { return 42; }), [&](int v) {
            seen = QThread::currentThread();
            value = v;
        });
        QTRY_COMPARE(value, 42);
        QCOMPARE(seen, context.thread());
        QVERIFY(!h.isPending());
    }

    void cancelAllDropsEarlierRequestsOnly()
    {
        QObject context;
        JobTracker tracker(&context);
        ManualFuture first, second;
        QList<int> got;
        tracker.track(first.future(), [&](int v) { got << v; });
        tracker.cancelAll(); // e.g. the pane switched hosts
        const RequestHandle h2 = tracker.track(second.future(), [&](int v) { got << v; });
        first.finish(1);
        second.finish(2);
        QTRY_VERIFY(!h2.isPending());
        QCoreApplication::processEvents(); // the stale one's slot has run too (same queue)
        QCOMPARE(got, QList<int> { 2 });
    }

    void workersSeeTheCancel()
    {
        // The token a worker holds flips when its requests are cancelled, and only then; the
        // next requests get a fresh one; the tracker's end cancels its last ones.
        QObject context;
        auto tracker = std::make_unique<JobTracker>(&context);
        const JobTracker::StopToken first = tracker->stopToken();
        QVERIFY(!first->load());
        QCOMPARE(tracker->stopToken(), first); // one token per generation
        std::atomic<int> rounds { 0 };
        std::binary_semaphore started { 0 };
        QFuture<int> worker = QtConcurrent::run([first, &rounds, &started] {
            started.release();
            while (!first->load()) {
                ++rounds;
                QThread::msleep(1);
            }
            return int(rounds);
        });
        started.acquire();
        tracker->cancelAll();
        QVERIFY(first->load());
        worker.waitForFinished(); // returns only because the worker saw the cancel
        const JobTracker::StopToken second = tracker->stopToken();
        QVERIFY(second != first);
        QVERIFY(!second->load());
        tracker.reset();
        QVERIFY(second->load());
    }
    void cancelOneHandle()
    {
        QObject context;
        JobTracker tracker(&context);
        ManualFuture a, b;
        QList<int> got;
        RequestHandle ha = tracker.track(a.future(), [&](int v) { got << v; });
        const RequestHandle hb = tracker.track(b.future(), [&](int v) { got << v; });
        QVERIFY(ha.isPending());
        ha.cancel();
        QVERIFY(!ha.isPending());
        a.finish(1);
        b.finish(2);
        QTRY_VERIFY(!hb.isPending());
        QCOMPARE(got, QList<int> { 2 });
    }

    void voidFutures()
    {
        QObject context;
        JobTracker tracker(&context);
        bool called = false;
        tracker.track(QtConcurrent::run([] {}), [&] { called = true; });
        QTRY_VERIFY(called);
    }

    // The context (a pane) is destroyed while its worker still runs: nothing is called, nothing
    // crashes, and the worker's result is simply dropped.
    void contextDestroyedFirst()
    {
        auto called = std::make_shared<std::atomic<bool>>(false);
        std::binary_semaphore release(0);
        QFuture<int> future;
        {
            QObject context;
            JobTracker tracker(&context);
            future = QtConcurrent::run([&release] {
                release.acquire();
                return 7;
            });
            tracker.track(future, [called](int) { *called = true; });
        }
        release.release();
        future.waitForFinished();
        QCoreApplication::processEvents();
        QVERIFY(!*called);
    }

    // A tracker that is a member dies before its owner's QObject base (and the watchers it
    // owns): a result arriving in between must not touch the dead tracker.
    void trackerDestroyedBeforeItsContext()
    {
        QObject context;
        ManualFuture f;
        bool called = false;
        {
            JobTracker tracker(&context);
            tracker.track(f.future(), [&](int) { called = true; });
        }
        f.finish(3);
        QTest::qWait(0);
        QCoreApplication::processEvents();
        QVERIFY(!called);
    }
};

QTEST_GUILESS_MAIN(TestJobTracker)
#include "tst_jobtracker.moc"
