// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/transport/localtransport.h"
#include "core/util/shellquote.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

class TestShellQuote : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void roundTripThroughARealShell_data()
    {
        QTest::addColumn<QString>("word");
        QTest::newRow("plain") << "abc";
        QTest::newRow("space") << "a b";
        QTest::newRow("single quote") << "it's";
        QTest::newRow("dollar") << "$HOME `id` $(id)";
        QTest::newRow("glob") << "*.cu ?";
        QTest::newRow("newline") << "a\nb";
        QTest::newRow("empty") << "";
        QTest::newRow("backslash") << "a\\b\\\\";
        QTest::newRow("utf8") << QString::fromUtf8("Blackwell — SM120 ✓");
    }
    void roundTripThroughARealShell()
    {
        QFETCH(QString, word);
        kf::LocalTransport t;
        kf::CommandSpec spec;
        spec.command = QStringLiteral("printf %s ") + kf::shellQuote(word);
        const kf::ExecResult r = t.exec(spec, 10000);
        QVERIFY2(r.ok(), r.stdErr.constData());
        QCOMPARE(QString::fromUtf8(r.stdOut), word);
        // and back through our own splitter
        QCOMPARE(kf::shellSplit(QStringLiteral("x ") + kf::shellQuote(word)).value(1), word);
    }

    void split_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QStringList>("words");
        QTest::newRow("simple") << "a b  c" << QStringList { "a", "b", "c" };
        QTest::newRow("quotes") << "cmake \"-DX=a b\" 'y z'" << QStringList { "cmake", "-DX=a b", "y z" };
        QTest::newRow("escape") << "a\\ b \"c\\\"d\"" << QStringList { "a b", "c\"d" };
        QTest::newRow("adjacent") << "x\"y\"'z'" << QStringList { "xyz" };
    }
    void split()
    {
        QFETCH(QString, line);
        QFETCH(QStringList, words);
        QCOMPARE(kf::shellSplit(line), words);
    }

    // "~" and "~/x" are the home folder's, whatever the working directory; other paths as given.
    void pathsThroughARealShell()
    {
        QTemporaryDir home;
        QVERIFY(home.isValid());
        QVERIFY(QDir(home.path()).mkpath(QStringLiteral("sub dir/it's")));
        kf::LocalTransport t(home.path());
        auto resolved = [&](const QString& path) {
            kf::CommandSpec spec;
            spec.command = QStringLiteral("cd / && cd -- ") + kf::shellPath(path) + QStringLiteral(" && pwd -P");
            spec.env.insert(QStringLiteral("HOME"), home.path());
            const kf::ExecResult r = t.exec(spec, 10000);
            return r.ok() ? QString::fromUtf8(r.stdOut).trimmed()
                          : QStringLiteral("failed: ") + QString::fromUtf8(r.stdErr);
        };
        const QString real = QFileInfo(home.path()).canonicalFilePath();
        QCOMPARE(resolved(QStringLiteral("~")), real);
        QCOMPARE(resolved(QStringLiteral("~/sub dir/it's")), real + QStringLiteral("/sub dir/it's"));
        QCOMPARE(resolved(real + QStringLiteral("/sub dir")), real + QStringLiteral("/sub dir"));
        QCOMPARE(kf::shellPath(QStringLiteral("rel/x y")), QStringLiteral("'rel/x y'"));
    }
};

QTEST_GUILESS_MAIN(TestShellQuote)
#include "tst_shellquote.moc"
