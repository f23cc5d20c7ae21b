// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issue #30 item 3: verification says which build made each library it checked, and refuses to
// call a library good when a later build of its folder failed (a launch blocker), or while one runs.
#include "core/verify/provenance.h"
#include "core/verify/verifyreport.h"

#include <QtTest>

using kf::BuildRecord;
using kf::VerifyReport;
using Level = kf::PreflightCheck::Level;

namespace {

const QDateTime t0 = QDateTime::fromSecsSinceEpoch(1764800000, Qt::UTC);

BuildRecord build(const QString& id, int startS, int endS, const QString& result,
    const QString& folder = QStringLiteral("~/sgl-kernel"))
{
    BuildRecord b;
    b.jobId = id;
    b.profile = QStringLiteral("Demo sgl-kernel");
    b.host = QStringLiteral("u@demo:2222");
    b.started = t0.addSecs(startS);
    if (endS >= 0)
        b.ended = t0.addSecs(endS);
    b.result = result;
    b.spec = { { QStringLiteral("working_dir"), folder } };
    return b;
}

VerifyReport report(int libWrittenS, const QList<BuildRecord>& newestFirst)
{
    VerifyReport r;
    r.dir = QStringLiteral("/home/u/sgl-kernel");
    r.home = QStringLiteral("/home/u");
    kf::VerifyLibrary l;
    l.path = QStringLiteral("/home/u/sgl-kernel/build/common_ops.so");
    l.origin = QStringLiteral("build");
    l.modified = t0.addSecs(libWrittenS);
    r.libraries << l;
    r.builds = newestFirst;
    kf::evaluateProvenance(r);
    return r;
}

QList<kf::PreflightCheck> provenance(const VerifyReport& r)
{
    QList<kf::PreflightCheck> out;
    for (const auto& c : r.checks)
        if (c.id == QLatin1String("provenance"))
            out << c;
    return out;
}

} // namespace

class TestProvenance : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void folders()
    {
        QCOMPARE(kf::absoluteBuildFolder(QStringLiteral("~/sgl-kernel/"), QStringLiteral("/home/u")),
            QStringLiteral("/home/u/sgl-kernel"));
        QCOMPARE(kf::absoluteBuildFolder(QStringLiteral("~"), QStringLiteral("/home/u")), QStringLiteral("/home/u"));
        QCOMPARE(kf::absoluteBuildFolder(QString(), QStringLiteral("/home/u")), QStringLiteral("/home/u"));
        QCOMPARE(
            kf::absoluteBuildFolder(QStringLiteral("proj"), QStringLiteral("/home/u")), QStringLiteral("/home/u/proj"));
        QCOMPARE(kf::absoluteBuildFolder(QStringLiteral("/opt/x/../y"), QString()), QStringLiteral("/opt/y"));
        QCOMPARE(kf::absoluteBuildFolder(QStringLiteral("~/x"), QString()), QString()); // home unknown
        const QString home = QStringLiteral("/h");
        BuildRecord sgl = build("sgl", 0, 1, "succeeded", QStringLiteral("~/sgl"));
        sgl.spec.insert(QStringLiteral("build_dir"), QStringLiteral("build"));
        QVERIFY(kf::buildConcernsFolder(sgl, home, QStringLiteral("/h/sgl")));
        QVERIFY(kf::buildConcernsFolder(sgl, home, QStringLiteral("/h/sgl/build")));
        QVERIFY(kf::buildConcernsFolder(sgl, home, QStringLiteral("/h")));
        QVERIFY(!kf::buildConcernsFolder(sgl, home, QStringLiteral("/h/sgl-other")));
        QVERIFY(!kf::buildConcernsFolder(sgl, home, QStringLiteral("/h/sgl/csrc")));
        // A job in the home folder (a server, `build start --command`) is no build of every folder in it.
        QVERIFY(
            !kf::buildConcernsFolder(build("server", 0, 1, "cancelled", QString()), home, QStringLiteral("/h/sgl")));
        QVERIFY(!kf::buildConcernsFolder(sgl, QString(), QStringLiteral("/h/sgl"))); // home unknown
    }

    void madeByTheLastGoodBuild()
    {
        const VerifyReport r = report(100, { build("good", 10, 120, "succeeded") });
        QCOMPARE(r.libraries.first().madeBy, QStringLiteral("good"));
        QCOMPARE(r.makers(), QStringList { QStringLiteral("good") });
        const auto p = provenance(r);
        QCOMPARE(p.size(), 1);
        QCOMPARE(int(p.first().level), int(Level::Pass));
        QVERIFY2(
            p.first().message.contains(QLatin1String("build/common_ops.so by good")), qPrintable(p.first().message));
        QVERIFY(r.launchBlockers().isEmpty());
    }

    // The repro of issue #30 item 3: a good build, then a failed one that wrote nothing.
    void staleAfterAFailedBuild()
    {
        const VerifyReport r
            = report(100, { build("broken", 300, 310, "failed"), build("good", 10, 120, "succeeded") });
        QCOMPARE(r.libraries.first().madeBy, QStringLiteral("good"));
        const auto p = provenance(r);
        QCOMPARE(p.size(), 1);
        QCOMPARE(int(p.first().level), int(Level::Fail));
        QVERIFY2(p.first().message.startsWith(QLatin1String("stale: build/common_ops.so was made by build good ("))
                && p.first().message.contains(QLatin1String("the last build, build broken (Demo sgl-kernel"))
                && p.first().message.contains(QLatin1String("failed")),
            qPrintable(p.first().message));
        QVERIFY(r.failed());
        QCOMPARE(r.launchBlockers().size(), 1);
        QCOMPARE(r.launchBlockers().first().id, QStringLiteral("provenance"));
    }

    void writtenByTheFailedBuild()
    {
        const VerifyReport r
            = report(305, { build("broken", 300, 310, "failed"), build("good", 10, 120, "succeeded") });
        QCOMPARE(r.libraries.first().madeBy, QStringLiteral("broken"));
        const auto p = provenance(r);
        QCOMPARE(p.size(), 1);
        QCOMPARE(int(p.first().level), int(Level::Fail));
        QVERIFY2(
            p.first().message.contains(QLatin1String("was written by build broken")), qPrintable(p.first().message));
    }

    void aCancelledBuildIsNoSuccessEither()
    {
        const VerifyReport r
            = report(100, { build("stopped", 300, 310, "cancelled"), build("good", 10, 120, "succeeded") });
        QCOMPARE(int(provenance(r).first().level), int(Level::Fail));
    }

    void aRunningBuildWarns()
    {
        const VerifyReport r = report(100, { build("now", 300, -1, "running"), build("good", 10, 120, "succeeded") });
        const auto p = provenance(r);
        QCOMPARE(p.size(), 2); // which build made it, and that another one runs
        QCOMPARE(int(p.first().level), int(Level::Warn));
        QVERIFY2(p.first().message.contains(QLatin1String("build now ("))
                && p.first().message.contains(QLatin1String("is still running")),
            qPrintable(p.first().message));
        QCOMPARE(int(p.last().level), int(Level::Pass));
        QCOMPARE(r.libraries.first().madeBy, QStringLiteral("good"));
        QVERIFY(r.launchBlockers().isEmpty());
    }

    // ninja found the library up to date: the later successful build did not rewrite it.
    void upToDateAfterANoOpBuild()
    {
        const VerifyReport r
            = report(100, { build("noop", 300, 302, "succeeded"), build("good", 10, 120, "succeeded") });
        const auto p = provenance(r);
        QCOMPARE(p.size(), 1);
        QCOMPARE(int(p.first().level), int(Level::Pass));
    }

    void leftOverFromNoKnownBuild()
    {
        const VerifyReport r = report(5, { build("good", 10, 120, "succeeded") });
        QVERIFY(r.libraries.first().madeBy.isEmpty());
        const auto p = provenance(r);
        QCOMPARE(p.size(), 1);
        QCOMPARE(int(p.first().level), int(Level::Warn));
        QVERIFY2(p.first().message.contains(QLatin1String("written by no build this machine knows")),
            qPrintable(p.first().message));
    }

    void otherFoldersAndNoHistoryClaimNothing()
    {
        QVERIFY(provenance(report(100, { build("x", 300, 310, "failed", QStringLiteral("~/elsewhere")) })).isEmpty());
        QVERIFY(provenance(report(100, {})).isEmpty());
        // Rows with the folder written absolutely concern it as much as "~/..." ones.
        QCOMPARE(
            provenance(report(100, { build("abs", 300, 310, "failed", QStringLiteral("/home/u/sgl-kernel")) })).size(),
            1);
    }

    // The verify script's library lines: size, mtime, path; the older form without mtime still reads.
    void libraryLines()
    {
        const VerifyReport r = kf::parseVerifyOutput("dir\t/home/u/sgl\nhome\t/home/u\n"
                                                     "lib\t1234\t1764800100\t/home/u/sgl/build/a.so\n"
                                                     "lib\t99\t-\t/home/u/sgl/build/b.so\n"
                                                     "lib\t5\t/home/u/sgl/build/old.so\n");
        QCOMPARE(r.home, QStringLiteral("/home/u"));
        QCOMPARE(r.libraries.size(), 3);
        QCOMPARE(r.libraries[0].size, 1234);
        QCOMPARE(r.libraries[0].modified, t0.addSecs(100));
        QCOMPARE(r.libraries[0].path, QStringLiteral("/home/u/sgl/build/a.so"));
        QVERIFY(!r.libraries[1].modified.isValid());
        QCOMPARE(r.libraries[1].path, QStringLiteral("/home/u/sgl/build/b.so"));
        QCOMPARE(r.libraries[2].path, QStringLiteral("/home/u/sgl/build/old.so"));
    }
};

QTEST_GUILESS_MAIN(TestProvenance)
#include "tst_provenance.moc"
