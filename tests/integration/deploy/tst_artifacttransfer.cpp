// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// How a promotion moves its artifact (core/deploy/artifactfiles.h) over a real sshd: a transfer
// cut halfway is resumed by the next send (only the rest goes), the file takes its name only
// with the right SHA-256, a third send finds it there and sends nothing; and fetching it back
// into a local cache keeps a copy whose hash is right and refuses one whose hash is not.
#include "core/deploy/artifactfiles.h"
#include "core/ssh/bulkupload.h"
#include "core/ssh/sshtransport.h"
#include "tests/support/testsupport.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

using namespace kf;
using namespace kf::deploy;

class TestArtifactTransfer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aCutTransferResumes()
    {
        KF_START_DEMO_HOST(demo);
        auto t = SshTransport::connect(demo.profile());
        QVERIFY2(t, qPrintable(t.error()));
        QTemporaryDir dir;
        const QString local = dir.filePath(QStringLiteral("build-files.tar"));
        QByteArray data(40 << 20, Qt::Uninitialized);
        QRandomGenerator(36).fillRange(reinterpret_cast<quint32*>(data.data()), data.size() / 4);
        QVERIFY(test::writeFile(local, data));
        const auto sha = localSha256(local);
        QVERIFY(sha);
        const QString remote = kRemotePromoteDir + QStringLiteral("/build-files.tar");
        QVERIFY(t.value()->mkpath(kRemotePromoteDir, 0700));

        // The first transfer is cut once the server's state records a chunk as written (as a Ctrl-C
        // or a lost link would cut it then); past 3/4 of the bytes the progress waits for that
        // record, so the cut never depends on how fast the chunks go.
        const QString state = demo.homeDir() + QLatin1Char('/') + remote + QStringLiteral(".kfpart.json");
        auto recorded = [&] {
            return !QJsonDocument::fromJson(test::readFile(state))
                        .object()
                        .value(QStringLiteral("done"))
                        .toArray()
                        .isEmpty();
        };
        BulkUploadOptions cut;
        cut.sessions = 1;
        cut.progress = [&](qint64 d, qint64 total) {
            for (QDeadlineTimer wait(60000); d > total * 3 / 4 && !recorded() && !wait.hasExpired();)
                QThread::msleep(20);
        };
        cut.stopRequested = recorded;
        QVERIFY(!bulkUpload(*t.value(), local, remote, cut));
        QVERIFY(!QFileInfo::exists(demo.homeDir() + QLatin1Char('/') + remote)); // no half file under the name

        const auto resumed = sendArtifact(*t.value(), local, sha.value(), QStringLiteral("build-files.tar"));
        QVERIFY2(resumed, qPrintable(resumed.error()));
        QVERIFY(!resumed->alreadyThere);
        QVERIFY2(resumed->resumed > 0 && resumed->sent < data.size() && resumed->resumed + resumed->sent == data.size(),
            qPrintable(QStringLiteral("resumed %1, sent %2").arg(resumed->resumed).arg(resumed->sent)));
        QCOMPARE(test::readFile(demo.homeDir() + QLatin1Char('/') + remote), data);
        QCOMPARE(remoteSha256(*t.value(), remote).value(), sha.value());

        const auto again = sendArtifact(*t.value(), local, sha.value(), QStringLiteral("build-files.tar"));
        QVERIFY(again && again->alreadyThere && again->sent == 0);

        // A send whose expected hash is not the file's is refused; nothing replaces the good file.
        const QByteArray wrong(64, 'a');
        QVERIFY(!sendArtifact(*t.value(), local, wrong, QStringLiteral("other.tar")));
        QVERIFY(!QFileInfo::exists(
            demo.homeDir() + QStringLiteral("/") + kRemotePromoteDir + QStringLiteral("/other.tar")));
    }

    void fetchKeepsOnlyTheRightHash()
    {
        KF_START_DEMO_HOST(demo);
        auto t = SshTransport::connect(demo.profile());
        QVERIFY2(t, qPrintable(t.error()));
        QVERIFY(test::writeFile(demo.homeDir() + QStringLiteral("/dist/x.whl"), QByteArray(3 << 20, 'w')));
        const auto sha = remoteSha256(*t.value(), QStringLiteral("dist/x.whl"));
        QVERIFY(sha);
        QTemporaryDir cache;
        const auto got = fetchArtifact(
            *t.value(), QStringLiteral("dist/x.whl"), sha.value(), cache.path(), QStringLiteral("x.whl"));
        QVERIFY2(got, qPrintable(got.error()));
        QCOMPARE(localSha256(got.value()).value(), sha.value());
        const auto refused = fetchArtifact(
            *t.value(), QStringLiteral("dist/x.whl"), QByteArray(64, 'b'), cache.path(), QStringLiteral("x.whl"));
        QVERIFY(!refused);
        QVERIFY2(refused.error().contains(QStringLiteral("not used")), qPrintable(refused.error()));
        QCOMPARE(QDir(cache.path()).entryList(QDir::Files).size(), 1); // only the good copy
    }
};

QTEST_GUILESS_MAIN(TestArtifactTransfer)
#include "tst_artifacttransfer.moc"
