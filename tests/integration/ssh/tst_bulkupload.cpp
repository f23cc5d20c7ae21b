// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// bulkUpload against the real sshd of the demo host: parallel sessions, a stop and a cut
// connection that a second call resumes, a corrupted chunk caught by the hash, a changed
// source and a garbage state file discarded. The demo's home is a local folder, so the test
// reads and damages the server's files directly.
#include "core/ssh/bulkupload.h"
#include "core/ssh/sshsession.h"
#include "core/ssh/sshtransport.h"
#include "tests/support/testsupport.h"

#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <sys/stat.h>

using namespace kf;

namespace {

constexpr qint64 kMiB = 1024 * 1024;

std::shared_ptr<SshTransport> connectOrFail(const DemoHost& demo)
{
    auto t = SshTransport::connect(demo.profile());
    if (!t) {
        qWarning("connect failed: %s", qPrintable(t.error()));
        return nullptr;
    }
    return t.value();
}

QByteArray randomBytes(qint64 size, quint32 seed)
{
    QByteArray data(qsizetype((size + 3) / 4 * 4), Qt::Uninitialized);
    QRandomGenerator rng(seed);
    rng.fillRange(reinterpret_cast<quint32*>(data.data()), data.size() / 4);
    data.resize(qsizetype(size));
    return data;
}

QByteArray sha256Hex(const QByteArray& data)
{
    return QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex();
}

// The chunk indices the state file on the server records (-1 entries: none or unreadable).
QList<qint64> recordedChunks(const QString& statePath)
{
    QFile f(statePath);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QList<qint64> out;
    for (const QJsonValue& v : QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("done")).toArray())
        out << v.toInteger();
    return out;
}

// Files in dir whose names say they are leftovers of a transfer.
QStringList leftovers(const QString& dir)
{
    QStringList out;
    for (const QString& n : QDir(dir).entryList(QDir::Files | QDir::Hidden))
        if (n.contains(QLatin1String(".kfpart")) || n.contains(QLatin1String(".kf-tmp-")))
            out << n;
    return out;
}

// Whether the server's state file records `chunks` chunks, waiting for it (polling the demo's
// disk, at most a minute) when `wait`.
bool recorded(const QString& statePath, int chunks, bool wait)
{
    QDeadlineTimer deadline(wait ? 60000 : 0);
    while (recordedChunks(statePath).size() < chunks) {
        if (deadline.hasExpired())
            return false;
        QThread::msleep(10);
    }
    return true;
}

// Options that stop the upload once the server's state file records `chunks` chunks: a
// deterministic point, whatever the parallel sessions do. Past 3/4 of the bytes (with 4
// sessions of 4 MiB chunks, at least 14 MiB of a 40 MiB file are then in landed chunks, which
// the state file is bound to record) the stop waits for the record.
BulkUploadOptions stopAfterRecorded(const QString& statePath, int chunks)
{
    BulkUploadOptions o;
    o.sessions = 4;
    o.chunkBytes = 4 * kMiB;
    auto done = std::make_shared<std::atomic<qint64>>(0);
    auto total = std::make_shared<std::atomic<qint64>>(-1);
    o.progress = [done, total](qint64 d, qint64 t) {
        *done = d;
        *total = t;
    };
    auto stopped = std::make_shared<std::atomic<bool>>(false);
    o.stopRequested = [statePath, chunks, stopped, done, total] {
        if (!*stopped && recorded(statePath, chunks, *total > 0 && *done >= *total * 3 / 4))
            *stopped = true;
        return stopped->load();
    };
    return o;
}

} // namespace

class TestBulkUpload : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { qunsetenv("SSH_AUTH_SOCK"); }

    void fortyMiBOverFourSessions()
    {
        KF_START_DEMO_HOST(demo);
        auto t = connectOrFail(demo);
        QVERIFY(t);
        QVERIFY(t->mkpath(QStringLiteral("~/up")).ok());
        QTemporaryDir dir;
        const QByteArray data = randomBytes(40 * kMiB + 12345, 1);
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("big.bin")), data));
        BulkUploadOptions o;
        o.sessions = 4;
        o.chunkBytes = 4 * kMiB;
        o.write.mode = 0640;
        std::atomic<qint64> lastDone { -1 };
        std::atomic<bool> pastTotal { false };
        o.progress = [&](qint64 done, qint64 total) {
            if (done > total || total != 40 * kMiB + 12345)
                pastTotal = true;
            lastDone = done;
        };
        const auto r = bulkUpload(*t, dir.filePath(QStringLiteral("big.bin")), QStringLiteral("~/up/big.bin"), o);
        QVERIFY2(r.ok(), qPrintable(r.error()));
        QCOMPARE(r->sha256, sha256Hex(data));
        QCOMPARE(r->total, qint64(data.size()));
        QCOMPARE(r->sent, qint64(data.size()));
        QCOMPARE(r->resumed, qint64(0));
        QCOMPARE(r->sessions, 4);
        QCOMPARE(lastDone.load(), qint64(data.size()));
        QVERIFY(!pastTotal);
        const QString remote = demo.homeDir() + QStringLiteral("/up/big.bin");
        QVERIFY(test::readFile(remote) == data);
        QCOMPARE(leftovers(demo.homeDir() + QStringLiteral("/up")), QStringList());
        struct stat st
        { };
        QCOMPARE(::stat(QFile::encodeName(remote).constData(), &st), 0);
        QCOMPARE(st.st_mode & 07777, mode_t(0640));
    }

    void stoppedUploadResumes()
    {
        KF_START_DEMO_HOST(demo);
        auto t = connectOrFail(demo);
        QVERIFY(t);
        QTemporaryDir dir;
        const QString local = dir.filePath(QStringLiteral("wheel.whl"));
        const QByteArray data = randomBytes(40 * kMiB, 2);
        QVERIFY(test::writeFile(local, data));
        const QString remote = demo.homeDir() + QStringLiteral("/wheel.whl");
        QVERIFY(test::writeFile(remote, "the old wheel"));

        const auto stopped = bulkUpload(
            *t, local, QStringLiteral("wheel.whl"), stopAfterRecorded(remote + QStringLiteral(".kfpart.json"), 3));
        QVERIFY(!stopped.ok());
        QVERIFY2(stopped.error().contains(QLatin1String("interrupted")), qPrintable(stopped.error()));
        QVERIFY(QFile::exists(remote + QStringLiteral(".kfpart")));
        QVERIFY(recordedChunks(remote + QStringLiteral(".kfpart.json")).size() >= 3);
        QCOMPARE(test::readFile(remote), QByteArray("the old wheel"));

        BulkUploadOptions o;
        o.chunkBytes = 4 * kMiB;
        const auto r = bulkUpload(*t, local, QStringLiteral("wheel.whl"), o);
        QVERIFY2(r.ok(), qPrintable(r.error()));
        QVERIFY(r->resumed >= 3 * 4 * kMiB);
        QVERIFY(r->sent < r->total);
        QCOMPARE(r->sent + r->resumed, qint64(data.size()));
        QCOMPARE(r->sha256, sha256Hex(data));
        QVERIFY(test::readFile(remote) == data);
        QCOMPARE(leftovers(demo.homeDir()), QStringList());
    }

    void cutConnectionResumes()
    {
        KF_START_DEMO_HOST(demo);
        auto t = connectOrFail(demo);
        QVERIFY(t);
        QTemporaryDir dir;
        const QString local = dir.filePath(QStringLiteral("cache.tar"));
        const QByteArray data = randomBytes(40 * kMiB, 3);
        QVERIFY(test::writeFile(local, data));
        const QString remote = demo.homeDir() + QStringLiteral("/cache.tar");
        BulkUploadOptions o;
        o.chunkBytes = 4 * kMiB;
        std::atomic<bool> dropped { false };
        // Past a third, and once the server records a chunk: the link goes, as a network failure.
        o.progress = [&](qint64 done, qint64 total) {
            if (done > total / 3 && !dropped
                && recorded(remote + QStringLiteral(".kfpart.json"), 1, done >= total * 3 / 4)
                && !dropped.exchange(true))
                demo.dropConnections();
        };
        const auto cut = bulkUpload(*t, local, QStringLiteral("cache.tar"), o);
        QVERIFY(dropped);
        QVERIFY(!cut.ok());
        qInfo("the cut upload: %s", qPrintable(cut.error()));
        QVERIFY(!QFile::exists(remote));
        QVERIFY(QFile::exists(remote + QStringLiteral(".kfpart")));

        t.reset();
        auto again = connectOrFail(demo);
        QVERIFY(again);
        o.progress = {};
        const auto r = bulkUpload(*again, local, QStringLiteral("cache.tar"), o);
        QVERIFY2(r.ok(), qPrintable(r.error()));
        QVERIFY(r->resumed > 0);
        QCOMPARE(r->sent + r->resumed, qint64(data.size()));
        QCOMPARE(r->sha256, sha256Hex(data));
        QVERIFY(test::readFile(remote) == data);
        QCOMPARE(leftovers(demo.homeDir()), QStringList());
    }

    void corruptedChunkIsCaught()
    {
        KF_START_DEMO_HOST(demo);
        auto t = connectOrFail(demo);
        QVERIFY(t);
        QTemporaryDir dir;
        const QString local = dir.filePath(QStringLiteral("model.bin"));
        const QByteArray data = randomBytes(40 * kMiB, 4);
        QVERIFY(test::writeFile(local, data));
        const QString remote = demo.homeDir() + QStringLiteral("/model.bin");
        const QString part = remote + QStringLiteral(".kfpart");
        const QString state = part + QStringLiteral(".json");
        QVERIFY(!bulkUpload(*t, local, QStringLiteral("model.bin"), stopAfterRecorded(state, 1)).ok());
        const QList<qint64> recorded = recordedChunks(state);
        QVERIFY(!recorded.isEmpty());

        // Bytes of a recorded chunk change on the server: the resume keeps the chunk, the hash
        // of the whole tells.
        const qint64 at = recorded.first() * 4 * kMiB + 1000;
        {
            QFile f(part);
            QVERIFY(f.open(QIODevice::ReadWrite));
            QVERIFY(f.seek(at));
            QCOMPARE(f.write(QByteArray(16, 'X')), qint64(16));
        }
        QByteArray damaged = data;
        damaged.replace(qsizetype(at), 16, QByteArray(16, 'X'));

        BulkUploadOptions o;
        o.chunkBytes = 4 * kMiB;
        const auto bad = bulkUpload(*t, local, QStringLiteral("model.bin"), o);
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error().contains(QString::fromLatin1(sha256Hex(data))), qPrintable(bad.error()));
        QVERIFY2(bad.error().contains(QString::fromLatin1(sha256Hex(damaged))), qPrintable(bad.error()));
        QVERIFY(!QFile::exists(remote));
        QVERIFY(!QFile::exists(part));
        QVERIFY(!QFile::exists(state));

        const auto r = bulkUpload(*t, local, QStringLiteral("model.bin"), o);
        QVERIFY2(r.ok(), qPrintable(r.error()));
        QCOMPARE(r->resumed, qint64(0));
        QCOMPARE(r->sent, qint64(data.size()));
        QVERIFY(test::readFile(remote) == data);
    }

    void changedSourceAndGarbageStateAreDiscarded()
    {
        KF_START_DEMO_HOST(demo);
        auto t = connectOrFail(demo);
        QVERIFY(t);
        QTemporaryDir dir;
        const QString local = dir.filePath(QStringLiteral("src.bin"));
        QVERIFY(test::writeFile(local, randomBytes(40 * kMiB, 5)));
        const QString remote = demo.homeDir() + QStringLiteral("/src.bin");
        const QString part = remote + QStringLiteral(".kfpart");
        const QString state = part + QStringLiteral(".json");
        QVERIFY(!bulkUpload(*t, local, QStringLiteral("src.bin"), stopAfterRecorded(state, 1)).ok());
        QVERIFY(!recordedChunks(state).isEmpty());

        // Same size, other bytes: nothing of the partial upload may be kept.
        const QByteArray changed = randomBytes(40 * kMiB, 6);
        QVERIFY(test::writeFile(local, changed));
        BulkUploadOptions o;
        o.chunkBytes = 4 * kMiB;
        auto r = bulkUpload(*t, local, QStringLiteral("src.bin"), o);
        QVERIFY2(r.ok(), qPrintable(r.error()));
        QCOMPARE(r->resumed, qint64(0));
        QCOMPARE(r->sha256, sha256Hex(changed));
        QVERIFY(test::readFile(remote) == changed);

        // Garbage state files beside a partial file: discarded, never trusted.
        QJsonObject outOfRange;
        outOfRange.insert(QStringLiteral("version"), 1);
        outOfRange.insert(QStringLiteral("size"), changed.size());
        outOfRange.insert(QStringLiteral("sha256"), QString::fromLatin1(sha256Hex(changed)));
        outOfRange.insert(QStringLiteral("chunkBytes"), 4 * kMiB);
        outOfRange.insert(QStringLiteral("done"), QJsonArray { 0, 1, 99999999 });
        const QList<QByteArray> garbage { QByteArray("{\"version\":1,\"size\":"), QByteArray(2 * kMiB, '['),
            QByteArray("\xff\xfe\x00 not json", 12), QJsonDocument(outOfRange).toJson() };
        for (const QByteArray& g : garbage) {
            QVERIFY(test::writeFile(part, randomBytes(8 * kMiB, 7)));
            QVERIFY(test::writeFile(state, g));
            r = bulkUpload(*t, local, QStringLiteral("src.bin"), o);
            QVERIFY2(r.ok(), qPrintable(r.error()));
            QCOMPARE(r->resumed, qint64(0));
            QVERIFY(test::readFile(remote) == changed);
            QCOMPARE(leftovers(demo.homeDir()), QStringList());
        }
    }

    void emptyAndSmallFiles()
    {
        KF_START_DEMO_HOST(demo);
        auto t = connectOrFail(demo);
        QVERIFY(t);
        QTemporaryDir dir;
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("empty")), {}));
        auto r = bulkUpload(*t, dir.filePath(QStringLiteral("empty")), QStringLiteral("empty"));
        QVERIFY2(r.ok(), qPrintable(r.error()));
        QCOMPARE(r->total, qint64(0));
        QCOMPARE(r->sha256, sha256Hex({}));
        QCOMPARE(r->sessions, 0);
        QVERIFY(QFile::exists(demo.homeDir() + QStringLiteral("/empty")));
        QCOMPARE(QFileInfo(demo.homeDir() + QStringLiteral("/empty")).size(), qint64(0));

        const QByteArray small = randomBytes(100 * 1024 + 7, 8);
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("small")), small));
        BulkUploadOptions o;
        o.sessions = 1;
        r = bulkUpload(*t, dir.filePath(QStringLiteral("small")), QStringLiteral("small"), o);
        QVERIFY2(r.ok(), qPrintable(r.error()));
        QCOMPARE(r->sessions, 1);
        QCOMPARE(r->sent, qint64(small.size()));
        QCOMPARE(r->sha256, sha256Hex(small));
        QVERIFY(test::readFile(demo.homeDir() + QStringLiteral("/small")) == small);
        QCOMPARE(leftovers(demo.homeDir()), QStringList());
    }
};

QTEST_GUILESS_MAIN(TestBulkUpload)
#include "tst_bulkupload.moc"
