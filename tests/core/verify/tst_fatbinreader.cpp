// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The fat binary parser against real nvcc 13 output: the committed fixtures (built and listed
// by cuobjdump 13.0 on an H200 machine, tests/data/fatbin/README.md) and libraries this
// machine's nvcc builds now; truncated and hostile files end in clear errors.
#include "core/verify/fatbinreader.h"
#include "tests/support/cudafixtures.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;

namespace {

// cuobjdump 13.0 prints a family-specific sm_100f as plain sm_100.
QStringList asCuobjdumpNames(const QList<FatbinEntry>& entries)
{
    QStringList out;
    for (const FatbinEntry& e : entries) {
        if (e.target.kind == CudaTarget::Kind::LtoIr)
            continue; // cuobjdump lists neither ELF nor PTX for LTO-IR
        CudaTarget t = e.target;
        if (t.variant == CudaTarget::Variant::FamilySpecific)
            t.variant = CudaTarget::Variant::None;
        out << t.name();
    }
    return out;
}

QStringList names(const QList<CudaTarget>& targets)
{
    QStringList out;
    for (const CudaTarget& t : targets)
        out << t.name();
    return out;
}

// ELF entries first, then PTX, each in file order: cuobjdump --list-elf --list-ptx's order.
QStringList cuobjdumpOrder(const QList<FatbinEntry>& entries)
{
    QList<FatbinEntry> elf, ptx;
    for (const FatbinEntry& e : entries)
        (e.target.kind == CudaTarget::Kind::Ptx ? ptx : elf) << e;
    return asCuobjdumpNames(elf) + asCuobjdumpNames(ptx);
}

QByteArray fixture(const QString& name)
{
    return test::readData(QStringLiteral("fatbin/") + name);
}

void poke64(QByteArray& b, qsizetype at, quint64 v)
{
    for (int i = 0; i < 8; ++i)
        b[at + i] = char((v >> (8 * i)) & 0xFF);
}

void poke32(QByteArray& b, qsizetype at, quint32 v)
{
    for (int i = 0; i < 4; ++i)
        b[at + i] = char((v >> (8 * i)) & 0xFF);
}

} // namespace

class TestFatbin : public QObject
{
    Q_OBJECT
    QTemporaryDir m_built;
    QString m_buildProblem;

private Q_SLOTS:
    void initTestCase()
    {
        if (test::nvccPath().isEmpty())
            return; // the test that needs them skips
        m_buildProblem = test::buildCudaLibraries(m_built.path(), test::standardCudaLibraries());
    }

    // Every fixture: the same entries as cuobjdump listed there, in its order.
    void fixturesMatchCuobjdump_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("targets");
        QTest::addColumn<int>("compressed");
        QTest::newRow("sm_90a") << "sm90a.so" << QStringList { "sm_90a" } << 0;
        QTest::newRow("sm_100a") << "sm100a.so" << QStringList { "sm_100a" } << 0;
        QTest::newRow("sm_120a") << "sm120a.so" << QStringList { "sm_120a" } << 0;
        QTest::newRow("sm_80") << "sm80.so" << QStringList { "sm_80" } << 0;
        // nvcc 13 compresses PTX with Zstandard by default.
        QTest::newRow("PTX only") << "ptx80.so" << QStringList { "compute_80" } << 1;
        QTest::newRow("arch-specific PTX") << "ptx90a.so" << QStringList { "compute_90a" } << 1;
        QTest::newRow("multi") << "multi.so" << QStringList { "sm_90", "compute_90a", "sm_100f", "compute_120" } << 2;
        QTest::newRow("zstd") << "zstd.so" << QStringList { "compute_80", "sm_90a" } << 3;
        QTest::newRow("lz4") << "lz4.so" << QStringList { "compute_80", "sm_90a" } << 1;
        QTest::newRow("no-compress") << "nocompress.so" << QStringList { "compute_80", "sm_90a" } << 0;
    }
    void fixturesMatchCuobjdump()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, targets);
        QFETCH(int, compressed);
        const FatbinScan scan = scanFatbin(fixture(file));
        QVERIFY2(scan.error.isEmpty(), qPrintable(scan.error));
        QVERIFY(scan.elf);
        QCOMPARE(scan.section, QStringLiteral(".nv_fatbin"));
        QCOMPARE(names(scan.targets()), targets);
        int packed = 0;
        for (const FatbinEntry& e : scan.entries)
            packed += e.compressed ? 1 : 0;
        QCOMPARE(packed, compressed);

        const CuobjdumpListing listing = parseCuobjdumpList(fixture(QStringLiteral("cuobjdump/") + file + ".txt"));
        QVERIFY(!listing.noDeviceCode);
        QVERIFY(listing.problems.isEmpty());
        QStringList listed;
        for (const CudaTarget& t : listing.targets)
            listed << t.name();
        QCOMPARE(cuobjdumpOrder(scan.entries), listed);
    }

    void hostCompilerBuildHasNoDeviceCode()
    {
        const FatbinScan scan = scanFatbin(fixture(QStringLiteral("nocuda.so")));
        QVERIFY2(scan.error.isEmpty(), qPrintable(scan.error));
        QVERIFY(scan.elf);
        QVERIFY(scan.section.isEmpty());
        QVERIFY(!scan.hasDeviceCode());
        const CuobjdumpListing listing = parseCuobjdumpList(fixture(QStringLiteral("cuobjdump/nocuda.so.txt")));
        QVERIFY(listing.noDeviceCode);
        QVERIFY(listing.targets.isEmpty());
    }

    void ltoIrInRelocatableObject()
    {
        const FatbinScan scan = scanFatbin(fixture(QStringLiteral("lto90.o")));
        QVERIFY2(scan.error.isEmpty(), qPrintable(scan.error));
        QCOMPARE(scan.section, QStringLiteral("__nv_relfatbin"));
        QCOMPARE(names(scan.targets()), QStringList { "lto_90" });
        // cuobjdump shows neither ELF nor PTX there (and a warning about the entry).
        const CuobjdumpListing listing = parseCuobjdumpList(fixture(QStringLiteral("cuobjdump/lto90.o.txt")));
        QVERIFY(listing.targets.isEmpty());
        QCOMPARE(listing.problems.size(), 1);
    }

    // Libraries this machine's nvcc builds now (sm_90a, sm_100a, sm_120a, PTX only, multi),
    // checked against what they were built for and, where cuobjdump exists, against it.
    void freshNvccBuilds()
    {
        if (test::nvccPath().isEmpty())
            QSKIP("no nvcc (CUDA 13 at /usr/local/cuda on CI)");
        QVERIFY2(m_buildProblem.isEmpty(), qPrintable(m_buildProblem));
        const QString cuobjdump = test::cuobjdumpPath();
        for (const test::CudaLibrary& lib : test::standardCudaLibraries()) {
            const QString path = m_built.filePath(lib.name);
            const FatbinScan scan = scanFatbin(test::readFile(path));
            QVERIFY2(scan.error.isEmpty(), qPrintable(lib.name + ": " + scan.error));
            QStringList want = lib.targets;
            want.sort();
            QStringList got = names(scan.targets());
            got.sort();
            QCOMPARE(got, want);
            if (!cuobjdump.isEmpty()) {
                const auto run = test::runProgram(cuobjdump, { "--list-elf", "--list-ptx", path });
                QStringList listed;
                for (const CudaTarget& t : parseCuobjdumpList(QByteArray(run.out + run.err)).targets)
                    listed << t.name();
                QCOMPARE(cuobjdumpOrder(scan.entries), listed);
            }
        }
    }

    // Every prefix of a real library: never a crash, and a scan cut inside what it needs says
    // so; bytes past the fat binaries (the rest of the file) do not matter.
    void truncatedFiles()
    {
        const QByteArray whole = fixture(QStringLiteral("multi.so"));
        const FatbinScan full = scanFatbin(whole);
        const qint64 needed = full.sectionOffset + full.sectionSize;
        for (qsizetype n = 0; n < whole.size(); n += 97) {
            const FatbinScan cut = scanFatbin(QByteArrayView(whole).first(n));
            if (n < needed)
                QVERIFY2(!cut.error.isEmpty(), qPrintable(QString::number(n)));
            QVERIFY(cut.entries.size() <= full.entries.size());
        }
        const FatbinScan at6000 = scanFatbin(QByteArrayView(whole).first(6000));
        QVERIFY2(at6000.error.startsWith(QLatin1String("truncated")), qPrintable(at6000.error));
        QCOMPARE(scanFatbin("hello").error, QStringLiteral("not an ELF file"));
        QCOMPARE(scanFatbin("").error, QStringLiteral("not an ELF file (0 bytes)"));
    }

    void hostileHeaders()
    {
        const QByteArray whole = fixture(QStringLiteral("sm90a.so"));
        const FatbinScan good = scanFatbin(whole);
        QVERIFY(!good.entries.isEmpty());
        const qsizetype entry = qsizetype(good.entries.first().offset);

        QByteArray bigPayload = whole;
        poke64(bigPayload, entry + 8, ~quint64(0));
        QVERIFY(scanFatbin(bigPayload).error.contains(QLatin1String("runs past its fat binary")));

        QByteArray bigHeader = whole;
        poke32(bigHeader, entry + 4, 0xFFFFFFF0u);
        QVERIFY(scanFatbin(bigHeader).error.contains(QLatin1String("runs past its fat binary")));

        QByteArray bigFatbin = whole;
        poke64(bigFatbin, qsizetype(good.sectionOffset) + 8, quint64(1) << 63);
        QVERIFY(scanFatbin(bigFatbin).error.contains(QLatin1String("runs past the end of section")));

        QByteArray badMagic = whole;
        poke32(badMagic, qsizetype(good.sectionOffset), 0x12345678u);
        QVERIFY(scanFatbin(badMagic).error.contains(QLatin1String("no fat binary header")));

        QByteArray manySections = whole;
        manySections[0x3C] = 0; // e_shnum 0: the count comes from section 0, which says 0 here
        manySections[0x3D] = 0;
        QVERIFY(!scanFatbin(manySections).error.isEmpty());

        QByteArray farTable = whole;
        poke64(farTable, 0x28, quint64(1) << 62);
        QVERIFY(scanFatbin(farTable).error.startsWith(QLatin1String("truncated: the section table")));

        QByteArray elf32 = whole;
        elf32[4] = 1;
        QVERIFY(scanFatbin(elf32).error.startsWith(QLatin1String("not a 64-bit little-endian ELF")));
    }

    // Ranged reads give bigger windows than asked for; the scan is the same.
    void windowsGiveTheSameScan()
    {
        const QByteArray whole = fixture(QStringLiteral("multi.so"));
        const FatbinScan exact = scanFatbin(whole);
        for (qint64 window : { 1, 100, 4096, 1 << 20 }) {
            FatbinReader r(whole.size());
            int reads = 0;
            while (const auto need = r.need()) {
                ++reads;
                r.feed(whole.mid(need->offset, qMax(need->length, window)));
            }
            QVERIFY2(r.scan().error.isEmpty(), qPrintable(r.scan().error));
            QCOMPARE(names(r.scan().targets()), names(exact.targets()));
            QCOMPARE(r.scan().entries.size(), exact.entries.size());
            if (window == (1 << 20))
                QVERIFY(reads <= 2); // the whole file after the ELF header
        }
        // A read that failed ends the scan with its reason.
        FatbinReader failing(whole.size());
        failing.fail(QStringLiteral("connection lost"));
        QVERIFY(!failing.need());
        QCOMPARE(failing.scan().error, QStringLiteral("connection lost"));
    }
};

QTEST_GUILESS_MAIN(TestFatbin)
#include "tst_fatbinreader.moc"
