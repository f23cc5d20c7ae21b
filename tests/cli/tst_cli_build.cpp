// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/util/procfs.h"
#include "tests/support/testsupport.h"

#include <QDirIterator>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
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

    // --env-file over the real sshd: the value reaches the job and nothing else: no command
    // line on the server (while the job starts and while it runs), no file of the job folder,
    // no file this CLI writes (log, timeline, history), not the sshd log, not --verbose.
    void envFileOverSshReachesOnlyTheJob()
    {
        KF_START_DEMO_HOST(demo);
        // The start script calls setsid: this one records every process's argv at that moment.
        QFile hook(demo.binDir() + QStringLiteral("/setsid"));
        QVERIFY(hook.open(QIODevice::WriteOnly));
        hook.write("#!/bin/sh\nfor f in /proc/[0-9]*/cmdline; do tr '\\000' ' ' < \"$f\"; echo; done "
                   "> \"$HOME/argv-at-start\" 2>/dev/null\nexec /usr/bin/setsid \"$@\"\n");
        hook.close();
        QFile::setPermissions(hook.fileName(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        const QByteArray token = "hf_" + QByteArray::number(QRandomGenerator::global()->generate64(), 16)
            + QByteArray::number(QRandomGenerator::global()->generate64(), 16);
        QTemporaryDir secrets;
        const QString envFile = secrets.filePath(QStringLiteral("build.env"));
        QVERIFY(kf::test::writeFile(envFile, "HF_TOKEN=" + token + "\n"));
        QTemporaryDir client; // everything the CLI writes
        const QStringList env { QStringLiteral("HOME=") + client.path(), QStringLiteral("XDG_CONFIG_HOME="),
            QStringLiteral("XDG_STATE_HOME="), QStringLiteral("XDG_CACHE_HOME="), QStringLiteral("XDG_DATA_HOME=") };
        const QStringList ssh = kf::test::cliSshTarget(demo);
        const auto start = kf::test::runCli(QStringList { QStringLiteral("--verbose"), QStringLiteral("build"),
                                                QStringLiteral("start"), QStringLiteral("--command"),
                                                QStringLiteral("printf '%s' \"$HF_TOKEN\" > \"$HOME/seen-env\"; "
                                                               "while [ ! -e \"$HOME/release\" ]; do sleep 0.1; done"),
                                                QStringLiteral("--env-file"), envFile }
                + ssh,
            60000, env);
        QVERIFY2(start.exitCode == 0, start.err.constData());
        const QString id = QString::fromUtf8(start.out.trimmed());
        const QString home = demo.homeDir();
        QTRY_COMPARE_WITH_TIMEOUT(kf::test::readFile(home + QStringLiteral("/seen-env")), token, 60000);
        const QByteArray atStart = kf::test::readFile(home + QStringLiteral("/argv-at-start"));
        QVERIFY2(atStart.contains("setsid"), atStart.constData()); // the hook ran
        QVERIFY(!atStart.contains(token));
        for (const qint64 pid : kf::procfs::processIds())
            QVERIFY2(!kf::test::readFile(QStringLiteral("/proc/%1/cmdline").arg(pid)).contains(token),
                qPrintable(QStringLiteral("pid %1").arg(pid)));
        QVERIFY(kf::test::writeFile(home + QStringLiteral("/release"), {}));
        const auto attach = kf::test::runCli(
            QStringList { QStringLiteral("--verbose"), QStringLiteral("build"), QStringLiteral("attach"), id } + ssh,
            60000, env);
        QVERIFY2(attach.exitCode == 0, attach.err.constData());
        QVERIFY(!QByteArray(start.out + start.err + attach.out + attach.err).contains(token));
        QVERIFY(!demo.sshdLog().toUtf8().contains(token));
        // Every file on the server but the job's own output, every file the CLI wrote.
        const QString jobFolder = home + QStringLiteral("/.cache/kernelforge/jobs/") + id;
        QVERIFY2(QDir(jobFolder).exists(), qPrintable(jobFolder));
        QStringList scanned;
        for (const QString& root : { home, client.path() }) {
            QDirIterator it(root, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString file = it.next();
                if (file == home + QStringLiteral("/seen-env"))
                    continue;
                scanned << file.mid(root.size() + 1);
                QVERIFY2(!kf::test::readFile(file).contains(token), qPrintable(file));
            }
        }
        // The scan saw the job folder, the log file and the database (timeline, build history).
        for (const QString& expected : { QStringLiteral(".cache/kernelforge/jobs/%1/cmd").arg(id),
                 QStringLiteral(".cache/kernelforge/jobs/%1/log").arg(id),
                 QStringLiteral(".local/state/kernelforge/logs/kernelforge.log"),
                 QStringLiteral(".local/state/kernelforge/history.sqlite") })
            QVERIFY2(scanned.contains(expected), qPrintable(expected));
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
