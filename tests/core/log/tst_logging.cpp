// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/log/logging.h"
#include "core/util/secretregistry.h"
#include "tests/support/testsupport.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

class TestLogging : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void writesFileAndNeverTheSecret()
    {
        QTemporaryDir dir;
        kf::log::Options o;
        o.directory = dir.path();
        o.level = spdlog::level::debug;
        o.toStderr = false;
        kf::log::init(o);
        const QByteArray secret = "hunter2-correct-horse";
        kf::SecretRegistry::add(secret);
        kf::log::ssh()->info("authenticating with password {} for alice", QString::fromUtf8(secret));
        kf::log::build()->warn("running sshpass -p {} ssh gpu1", QString::fromUtf8(secret));
        kf::log::patch()->error("plain line without secrets");
        kf::log::flush();

        QFile f(kf::log::logFilePath());
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
        const QByteArray text = f.readAll();
        QVERIFY(!text.contains(secret));
        QVERIFY(text.contains("authenticating with password *** for alice"));
        QVERIFY(text.contains(" ssh ")); // logger names appear
        QVERIFY(text.contains(" patch "));
        QVERIFY(text.contains("plain line without secrets"));
        kf::SecretRegistry::remove(secret);
    }

    void levelFilters()
    {
        QTemporaryDir dir;
        kf::log::Options o;
        o.directory = dir.path();
        o.level = spdlog::level::warn;
        o.toStderr = false;
        kf::log::init(o);
        kf::log::monitor()->info("invisible-info-line");
        kf::log::monitor()->warn("visible-warn-line");
        kf::log::flush();
        QFile f(kf::log::logFilePath());
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY(!text.contains("invisible-info-line"));
        QVERIFY(text.contains("visible-warn-line"));
    }

    void qtWarningsReachSpdlog()
    {
        QTemporaryDir dir;
        kf::log::Options o;
        o.directory = dir.path();
        o.toStderr = false;
        kf::log::init(o);
        kf::log::installQtMessageHandler();
        qWarning("a qt warning with token=abc123def");
        kf::log::flush();
        qInstallMessageHandler(nullptr);
        QFile f(kf::log::logFilePath());
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY(text.contains("a qt warning with token=***"));
        QVERIFY(!text.contains("abc123def"));
    }

    void redact_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("expected");
        QTest::newRow("password=") << "login password=s3cr3t! now"
                                   << "login password=*** now";
        QTest::newRow("--password") << "tool --password 'a b c' x"
                                    << "tool --password *** x";
        QTest::newRow("passphrase:") << "Passphrase: xyz"
                                     << "Passphrase: ***";
        QTest::newRow("sshpass") << "sshpass -p pw123 ssh h"
                                 << "sshpass -p *** ssh h";
        QTest::newRow("harmless") << "cmake -DX=ON -j8"
                                  << "cmake -DX=ON -j8";
    }
    void redact()
    {
        QFETCH(QString, input);
        QFETCH(QString, expected);
        QCOMPARE(kf::redact(input), expected);
    }

    void registeredSecretsAreReplacedLongestFirst()
    {
        kf::SecretRegistry::add("abcd");
        kf::SecretRegistry::add("abcdefgh");
        QCOMPARE(kf::redact(QStringLiteral("x abcdefgh y abcd")), QStringLiteral("x *** y ***"));
        kf::SecretRegistry::clear();
        QCOMPARE(kf::redact(QStringLiteral("x abcdefgh")), QStringLiteral("x abcdefgh"));
    }

    void wipeClears()
    {
        QByteArray s("topsecret");
        kf::wipe(s);
        QVERIFY(s.isEmpty());
        QString q = QStringLiteral("topsecret");
        kf::wipe(q);
        QVERIFY(q.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestLogging)
#include "tst_logging.moc"
