// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The one path check of patch sets (core/util/pathcheck.h, core/patch/rootpath.h): unified
// diffs refuse what YAML recipes refuse, symlinks that leave the root are refused on the
// target, git's C-quoted names are decoded.
#include "core/patch/patchplan.h"
#include "core/patch/patchset.h"
#include "core/patch/rootpath.h"
#include "core/transport/localtransport.h"
#include "core/util/pathcheck.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;
using namespace kf::patch;

namespace {

QString diffFor(const QString& oldPath, const QString& newPath)
{
    return QStringLiteral("--- %1\n+++ %2\n@@ -1 +1 @@\n-old\n+new\n").arg(oldPath, newPath);
}

void writeFile(const QString& path, const QByteArray& data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(data);
}

} // namespace

class TestPathCheck : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void normalize_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("normalized"); // empty: refused
        QTest::addColumn<QString>("why");
        QTest::newRow("plain") << "a/b.txt"
                               << "a/b.txt"
                               << "";
        QTest::newRow("dots and slashes") << "./a//./b.txt"
                                          << "a/b.txt"
                                          << "";
        QTest::newRow("dotdot") << "a/../victim.txt"
                                << ""
                                << "\"..\" component";
        QTest::newRow("leading dotdot") << "../../../.bashrc"
                                        << ""
                                        << "\"..\" component";
        QTest::newRow("absolute") << "/etc/passwd"
                                  << ""
                                  << "absolute";
        QTest::newRow("home") << "~/.bashrc"
                              << ""
                              << "\"~\"";
        QTest::newRow("empty") << ""
                               << ""
                               << "names no file";
        QTest::newRow("only dot") << "./"
                                  << ""
                                  << "names no file";
        QTest::newRow("newline") << "a\nb"
                                 << ""
                                 << "control character \\n";
        QTest::newRow("trailing newline") << "victim\n"
                                          << ""
                                          << "control character \\n";
        QTest::newRow("nul") << QString::fromUtf8("a\0b", 3) << ""
                             << "control character \\x00";
        QTest::newRow("leading dash is a name") << "-rf"
                                                << "-rf"
                                                << "";
        QTest::newRow("dots in names") << "a..b/..c"
                                       << "a..b/..c"
                                       << "";
    }
    void normalize()
    {
        QFETCH(QString, path);
        QFETCH(QString, normalized);
        QFETCH(QString, why);
        const auto r = normalizeRelativePath(path);
        if (normalized.isEmpty()) {
            QVERIFY(!r);
            QVERIFY2(r.error().contains(why), qPrintable(r.error()));
        } else {
            QVERIFY2(r, qPrintable(r.error()));
            QCOMPARE(r.value(), normalized);
        }
    }

    // A diff names the same escape a YAML recipe does: both are refused with the same words.
    void diffRefusesWhatYamlRefuses_data()
    {
        QTest::addColumn<QString>("diff");
        QTest::addColumn<QString>("yamlFile");
        QTest::newRow("git a/../") << diffFor(QStringLiteral("a/../victim.txt"), QStringLiteral("b/../victim.txt"))
                                   << "../victim.txt";
        QTest::newRow("ssh ../../../.bashrc")
            << diffFor(QStringLiteral("a/../../../.bashrc"), QStringLiteral("b/../../../.bashrc"))
            << "../../../.bashrc";
        QTest::newRow("absolute -p0") << diffFor(QStringLiteral("/etc/hosts"), QStringLiteral("/etc/hosts"))
                                      << "/etc/hosts";
        QTest::newRow("only the new side")
            << diffFor(QStringLiteral("a/ok.txt"), QStringLiteral("b/../victim.txt")) << "../victim.txt";
        QTest::newRow("git header") << QStringLiteral("diff --git a/x b/../x\nnew file mode 100644\n--- /dev/null\n"
                                                      "+++ b/../x\n@@ -0,0 +1 @@\n+new\n")
                                    << "../x";
        QTest::newRow("quoted with newline")
            << diffFor(QStringLiteral("\"a/victim\\n\""), QStringLiteral("\"b/victim\\n\"")) << "victim\n";
    }
    void diffRefusesWhatYamlRefuses()
    {
        QFETCH(QString, diff);
        QFETCH(QString, yamlFile);
        const auto fromDiff = patchSetFromDiff(diff, QStringLiteral("evil.patch"));
        QVERIFY2(!fromDiff, "the diff was accepted");
        const QByteArray yaml = QByteArray("name: evil\npatches:\n  - id: x\n    file: \"")
            + yamlFile.toUtf8().replace("\n", "\\n") + "\"\n    edits:\n      - replace: {find: a, with: b}\n";
        const auto fromYaml = parsePatchSetYaml(yaml, QStringLiteral("evil.yaml"));
        QVERIFY2(!fromYaml, "the recipe was accepted");
        const QString why = fromYaml.error().mid(fromYaml.error().indexOf(QLatin1String("path \"")));
        QVERIFY2(fromDiff.error().contains(QLatin1String("evil.patch:")), qPrintable(fromDiff.error()));
        QVERIFY2(fromDiff.error().contains(QLatin1String("leaves the root"))
                || fromDiff.error().contains(QLatin1String("control character")),
            qPrintable(fromDiff.error()));
        QVERIFY2(why.startsWith(QLatin1String("path \"")), qPrintable(fromYaml.error()));
    }

    // "a/../victim.txt" planned and applied from a file: nothing is read or written outside.
    void evilDiffFileNeverTouchesTheOutside()
    {
        QTemporaryDir dir;
        const QString root = dir.filePath(QStringLiteral("tree"));
        writeFile(root + QStringLiteral("/ok.txt"), "old\n");
        writeFile(dir.filePath(QStringLiteral("victim.txt")), "old\n");
        writeFile(dir.filePath(QStringLiteral("evil.patch")),
            diffFor(QStringLiteral("a/../victim.txt"), QStringLiteral("b/../victim.txt")).toUtf8());
        const auto set = loadPatchSet(dir.filePath(QStringLiteral("evil.patch")));
        QVERIFY(!set);
        QVERIFY2(set.error().contains(QLatin1String("\"../victim.txt\" leaves the root: it has a \"..\" component")),
            qPrintable(set.error()));
    }

    void gitQuotedNames_data()
    {
        QTest::addColumn<QString>("quoted");
        QTest::addColumn<QString>("decoded");
        QTest::newRow("utf8 octal") << "\"a/caf\\303\\251.txt\"" << QString::fromUtf8("caf\xc3\xa9.txt");
        QTest::newRow("tab") << "\"a/x\\ty\""
                             << "x\ty";
        QTest::newRow("quote") << "\"a/say \\\"hi\\\".txt\""
                               << "say \"hi\".txt";
        QTest::newRow("backslash") << "\"a/back\\\\slash\""
                                   << "back\\slash";
        QTest::newRow("space kept") << "\"a/with space.txt\""
                                    << "with space.txt";
    }
    void gitQuotedNames()
    {
        QFETCH(QString, quoted);
        QFETCH(QString, decoded);
        const QString b = QString(quoted).replace(QStringLiteral("\"a/"), QStringLiteral("\"b/"));
        const QString diff
            = QStringLiteral("diff --git %1 %2\nindex 1..2 100644\n--- %1\n+++ %2\n@@ -1 +1 @@\n-old\n+new\n")
                  .arg(quoted, b);
        const UnifiedDiff d = parseUnifiedDiff(diff);
        QVERIFY2(d, qPrintable(d.error));
        QCOMPARE(d.files.size(), 1);
        QCOMPARE(d.files[0].oldPath, QStringLiteral("a/") + decoded);
        QCOMPARE(d.files[0].newPath, QStringLiteral("b/") + decoded);
        // A tab inside a name is part of the name, not the start of a timestamp; like every
        // control character it is then refused by the path check.
        const auto set = patchSetFromDiff(diff, QStringLiteral("q.patch"));
        if (!firstControlCharacter(decoded).isEmpty()) {
            QVERIFY(!set);
            QVERIFY2(set.error().contains(QLatin1String("control character \\t")), qPrintable(set.error()));
            return;
        }
        QVERIFY2(set, qPrintable(set.error()));
        QCOMPARE(set->patches.value(0).file, decoded);
        // And the file with that name is the one planned.
        const PatchSet s = set.value();
        const SetPlan plan = planSetOnFiles(s, { { decoded, QByteArray("old\n") } });
        QCOMPARE(plan.count(PatchStatus::WillApply), 1);
    }

    // Real `git diff -M` output (git 2.39) for names git quotes: UTF-8, '"', a tab; git adds a
    // tab after a quoted name that has a blank.
    void realGitQuotedCapture()
    {
        const UnifiedDiff d
            = parseUnifiedDiff(QString::fromUtf8(test::readData(QStringLiteral("patch/git-quoted.diff"))));
        QVERIFY2(d, qPrintable(d.error));
        QCOMPARE(d.files.size(), 4);
        QCOMPARE(d.files[0].oldPath, QString::fromUtf8("a/caf\xc3\xa9.txt"));
        QVERIFY(d.files[0].isDeleted);
        QCOMPARE(d.files[1].newPath, QString::fromUtf8("b/na\xc3\xafve.txt"));
        QVERIFY(d.files[1].isNew);
        QCOMPARE(d.files[2].oldPath, QStringLiteral("a/say \"hi\".txt"));
        QCOMPARE(d.files[2].newPath, QStringLiteral("b/say \"hi\".txt"));
        QCOMPARE(d.files[3].newPath, QStringLiteral("b/tab\there.txt"));
        // The tab name is refused by the path check, the others plan against their real names.
        const auto set = patchSetFromDiff(
            QString::fromUtf8(test::readData(QStringLiteral("patch/git-quoted.diff"))), QStringLiteral("q.patch"));
        QVERIFY(!set);
        QVERIFY2(set.error().contains(QLatin1String("control character \\t")), qPrintable(set.error()));
    }

    void gitQuotedRename()
    {
        const QString diff = QStringLiteral("diff --git \"a/old\\303\\251\" \"b/new\\303\\251\"\nsimilarity index 90%\n"
                                            "rename from \"old\\303\\251\"\nrename to \"new\\303\\251\"\n");
        const UnifiedDiff d = parseUnifiedDiff(diff);
        QVERIFY2(d, qPrintable(d.error));
        QCOMPARE(d.files.value(0).newPath, QString::fromUtf8("b/new\xc3\xa9"));
        QCOMPARE(d.files.value(0).oldPath, QString::fromUtf8("a/old\xc3\xa9"));
    }

    // Symlinks on the target: inside the root they are followed, out of it refused.
    void symlinksLeavingTheRootAreRefused()
    {
        QTemporaryDir dir;
        const QString root = dir.filePath(QStringLiteral("tree"));
        const QString outside = dir.filePath(QStringLiteral("outside"));
        writeFile(root + QStringLiteral("/real.txt"), "old\n");
        writeFile(outside + QStringLiteral("/victim.txt"), "old\n");
        QVERIFY(QFile::link(outside, root + QStringLiteral("/sub")));
        QVERIFY(QFile::link(outside + QStringLiteral("/victim.txt"), root + QStringLiteral("/file.txt")));
        QVERIFY(QFile::link(QStringLiteral("real.txt"), root + QStringLiteral("/inside.txt")));
        QVERIFY(QFile::link(QStringLiteral("nowhere.txt"), root + QStringLiteral("/dangling.txt")));
        LocalTransport t;
        for (const QString& f :
            { QStringLiteral("sub/victim.txt"), QStringLiteral("sub/new.txt"), QStringLiteral("file.txt") }) {
            const auto r = resolveInRoot(t, root, f);
            QVERIFY2(!r, qPrintable(f));
            QVERIFY2(r.error().contains(QLatin1String("leads outside the root")), qPrintable(r.error()));
        }
        const auto dangling = resolveInRoot(t, root, QStringLiteral("dangling.txt"));
        QVERIFY(!dangling);
        const auto inside = resolveInRoot(t, root, QStringLiteral("inside.txt"));
        QVERIFY2(inside, qPrintable(inside.error()));
        QVERIFY(inside->isSymlink);
        QCOMPARE(inside->path, QDir(root).canonicalPath() + QStringLiteral("/real.txt"));
        const auto fresh = resolveInRoot(t, root, QStringLiteral("new/dir/x.txt"));
        QVERIFY2(fresh, qPrintable(fresh.error()));
        QVERIFY(!fresh->exists);

        // planSet refuses the whole set with that message and reads nothing outside.
        const auto set = patchSetFromDiff(
            diffFor(QStringLiteral("a/sub/victim.txt"), QStringLiteral("b/sub/victim.txt")), QStringLiteral("s.patch"));
        QVERIFY2(set, qPrintable(set.error()));
        const SetPlan plan = planSet(t, set.value(), root);
        QVERIFY(!plan);
        QVERIFY2(plan.error.contains(QLatin1String("leads outside the root")), qPrintable(plan.error));
    }
};

QTEST_GUILESS_MAIN(TestPathCheck)
#include "tst_pathcheck.moc"
