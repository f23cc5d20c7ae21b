// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "tests/support/testsupport.h"

#include <QDirIterator>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

class TestCliBuild : public QObject
{
    Q_OBJECT
    QTemporaryDir m_home;
    QStringList env() const
    {
        return { QStringLiteral("HOME=") + m_home.path(), QStringLiteral("XDG_CONFIG_HOME="),
            QStringLiteral("XDG_STATE_HOME="), QStringLiteral("XDG_CACHE_HOME=") };
    }

    QList<QJsonObject> events(const QByteArray& out)
    {
        QList<QJsonObject> list;
        for (const QByteArray& line : out.split('\n'))
            if (!line.isEmpty())
                list << QJsonDocument::fromJson(line).object();
        return list;
    }

private Q_SLOTS:
    void startAttachJsonAndExitStatus()
    {
        const QString cmd = QStringLiteral("echo \"[kf 1/3 1 0.2] cc a.o\"; sleep 0.3; echo \"[kf 2/3 1 0.6] cc b.o\"; "
                                           "echo \"src/b.cpp:7:3: error: expected ';'\"; echo \"nvcc error   : 'cicc' "
                                           "died due to signal 9 (Kill signal)\"; "
                                           "echo \"[kf 3/3 0 1.0] link\"; echo \"env=$FOO\"; exit 5");
        const auto start = kf::test::runCli(
            { QStringLiteral("build"), QStringLiteral("start"), QStringLiteral("--local"), QStringLiteral("--command"),
                cmd, QStringLiteral("--dir"), m_home.path(), QStringLiteral("--env"), QStringLiteral("FOO=bar baz") },
            60000, env());
        QVERIFY2(start.exitCode == 0, start.err.constData());
        const QString id = QString::fromUtf8(start.out.trimmed());
        QVERIFY(QRegularExpression(QStringLiteral("^\\d{8}-\\d{6}-[0-9a-f]{4}$")).match(id).hasMatch());

        const auto attach = kf::test::runCli({ QStringLiteral("build"), QStringLiteral("attach"), id,
                                                 QStringLiteral("--json"), QStringLiteral("--local") },
            60000, env());
        QCOMPARE(attach.exitCode, 5);
        const auto ev = events(attach.out);
        QVERIFY(!ev.isEmpty());
        QString log;
        QList<QJsonObject> progress, diags;
        for (const auto& e : ev) {
            const QString kind = e.value(QStringLiteral("event")).toString();
            if (kind == QLatin1String("log"))
                log += e.value(QStringLiteral("text")).toString();
            else if (kind == QLatin1String("progress"))
                progress << e;
            else if (kind == QLatin1String("diagnostic"))
                diags << e;
        }
        QCOMPARE(ev.last().value(QStringLiteral("event")).toString(), QStringLiteral("finished"));
        QCOMPARE(ev.last().value(QStringLiteral("exit_status")).toInt(), 5);
        QVERIFY(log.contains(QStringLiteral("env=bar baz\n")));
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.last().value(QStringLiteral("done")).toInt(), 3);
        QCOMPARE(progress.last().value(QStringLiteral("total")).toInt(), 3);
        QVERIFY(progress.last().contains(QStringLiteral("rate")));
        QVERIFY(progress.last().contains(QStringLiteral("eta_s")));
        QCOMPARE(diags.size(), 2);
        QCOMPARE(diags[0].value(QStringLiteral("file")).toString(), QStringLiteral("src/b.cpp"));
        QCOMPARE(diags[0].value(QStringLiteral("line")).toInt(), 7);
        QCOMPARE(diags[0].value(QStringLiteral("column")).toInt(), 3);
        QCOMPARE(diags[0].value(QStringLiteral("severity")).toString(), QStringLiteral("error"));
        QCOMPARE(diags[1].value(QStringLiteral("kind")).toString(), QStringLiteral("oom"));

        const auto status = kf::test::runCli(
            { QStringLiteral("build"), QStringLiteral("status"), id, QStringLiteral("--local") }, 60000, env());
        QCOMPARE(status.exitCode, 0);
        QVERIFY2(status.out.contains("finished, exit status 5"), status.out.constData());
        const auto list = kf::test::runCli(
            { QStringLiteral("build"), QStringLiteral("list"), QStringLiteral("--local"), QStringLiteral("--json") },
            60000, env());
        QCOMPARE(list.exitCode, 0);
        QVERIFY(list.out.contains(id.toUtf8()));
        const auto table = kf::test::runCli(
            { QStringLiteral("build"), QStringLiteral("list"), QStringLiteral("--local") }, 60000, env());
        QCOMPARE(table.exitCode, 0);
        QVERIFY2(table.out.startsWith("JOB "), table.out.constData());
        const QList<QByteArray> rows = table.out.trimmed().split('\n');
        const qsizetype exitAt = rows.first().indexOf("EXIT");
        QVERIFY2(
            rows.last().startsWith(id.toUtf8()) && rows.last().mid(exitAt).startsWith("5 "), table.out.constData());

        // Plain attach replays the log on stdout, byte for byte.
        const auto plain = kf::test::runCli(
            { QStringLiteral("build"), QStringLiteral("attach"), id, QStringLiteral("--local") }, 60000, env());
        QCOMPARE(plain.exitCode, 5);
        QCOMPARE(QString::fromUtf8(plain.out), log);
    }

    void envFileFeedsTheBuildAndNoLog()
    {
        const QString envFile = m_home.filePath(QStringLiteral("build.env"));
        QFile f(envFile);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("# tokens\nexport HF_TOKEN=\"hf_0123456789abcdef\"\n\nPLAIN=a b\n");
        f.close();
        const auto start = kf::test::runCli(
            { QStringLiteral("--verbose"), QStringLiteral("build"), QStringLiteral("start"), QStringLiteral("--local"),
                QStringLiteral("--command"), QStringLiteral("printf '%s|%s' \"$HF_TOKEN\" \"$PLAIN\" > seen-env"),
                QStringLiteral("--dir"), m_home.path(), QStringLiteral("--env-file"), envFile },
            60000, env());
        QVERIFY2(start.exitCode == 0, start.err.constData());
        const QString id = QString::fromUtf8(start.out.trimmed());
        const auto attach = kf::test::runCli(
            { QStringLiteral("build"), QStringLiteral("attach"), id, QStringLiteral("--local") }, 60000, env());
        QCOMPARE(attach.exitCode, 0);
        QCOMPARE(
            kf::test::readFile(m_home.filePath(QStringLiteral("seen-env"))), QByteArray("hf_0123456789abcdef|a b"));
        QVERIFY(!start.err.contains("hf_0123456789abcdef"));
        QDirIterator logs(m_home.path() + QStringLiteral("/.local/state"), QDir::Files, QDirIterator::Subdirectories);
        while (logs.hasNext())
            QVERIFY2(!kf::test::readFile(logs.next()).contains("hf_0123456789abcdef"), qPrintable(logs.filePath()));

        f.open(QIODevice::WriteOnly);
        f.write("not a pair\n");
        f.close();
        const auto bad = kf::test::runCli(
            { QStringLiteral("build"), QStringLiteral("start"), QStringLiteral("--local"), QStringLiteral("--command"),
                QStringLiteral("true"), QStringLiteral("--env-file"), envFile },
            60000, env());
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("build.env:1: not a K=V line"), bad.err.constData());
    }

    void cancelAndErrors()
    {
        const auto start
            = kf::test::runCli({ QStringLiteral("build"), QStringLiteral("start"), QStringLiteral("--local"),
                                   QStringLiteral("--command"), QStringLiteral("sleep 120") },
                60000, env());
        QVERIFY2(start.exitCode == 0, start.err.constData());
        const QString id = QString::fromUtf8(start.out.trimmed());
        const auto cancel = kf::test::runCli(
            { QStringLiteral("build"), QStringLiteral("cancel"), id, QStringLiteral("--local") }, 60000, env());
        QVERIFY2(cancel.exitCode == 0, cancel.err.constData());
        const auto attach = kf::test::runCli({ QStringLiteral("build"), QStringLiteral("attach"), id,
                                                 QStringLiteral("--local"), QStringLiteral("--json") },
            60000, env());
        QVERIFY(attach.exitCode != 0);
        QVERIFY(attach.out.contains("\"cancelled\":true"));

        QCOMPARE(kf::test::runCli(
                     { QStringLiteral("build"), QStringLiteral("start"), QStringLiteral("--local") }, 60000, env())
                     .exitCode,
            2);
        QCOMPARE(kf::test::runCli({ QStringLiteral("build"), QStringLiteral("frobnicate") }, 60000, env()).exitCode, 2);
        QCOMPARE(kf::test::runCli({ QStringLiteral("build"), QStringLiteral("start"), QStringLiteral("--local"),
                                      QStringLiteral("--profile"), QStringLiteral("nope") },
                     60000, env())
                     .exitCode,
            2);
        const auto missing = kf::test::runCli({ QStringLiteral("build"), QStringLiteral("attach"),
                                                  QStringLiteral("no-such-job"), QStringLiteral("--local") },
            60000, env());
        QCOMPARE(missing.exitCode, 1); // not a connection failure (255)
        QVERIFY(missing.err.contains("no such job"));
        const auto profiles = kf::test::runCli({ QStringLiteral("build"), QStringLiteral("profiles") }, 60000, env());
        QCOMPARE(profiles.exitCode, 0);
        QVERIFY(profiles.out.contains("sgl-kernel (pip)"));
        // A header, and every column starts where its header does.
        const QList<QByteArray> lines = profiles.out.trimmed().split('\n');
        QVERIFY2(lines.first().startsWith("PROFILE "), profiles.out.constData());
        const qsizetype kind = lines.first().indexOf("KIND");
        const qsizetype dir = lines.first().indexOf("DIR");
        QVERIFY(kind > 0 && dir > kind);
        for (const QByteArray& line : lines.mid(1)) {
            QVERIFY2(line.mid(kind).startsWith("built-in") || line.mid(kind).startsWith("yours"), line.constData());
            QVERIFY2(line.at(dir - 1) == ' ' && line.at(dir) != ' ', line.constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestCliBuild)
#include "tst_cli_build.moc"
