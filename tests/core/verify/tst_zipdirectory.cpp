// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Wheel member lists from the zip central directory: a wheel written by Python's zipfile (as
// pip and build write them), with a comment, cut short, and with lying lengths.
#include "core/verify/zipdirectory.h"
#include "tests/support/testsupport.h"

#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;

class TestZipDirectory : public QObject
{
    Q_OBJECT
    QByteArray m_wheel;

private Q_SLOTS:
    void initTestCase()
    {
        const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
        if (python.isEmpty())
            QSKIP("no python3");
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sgl_kernel-0.3.16-cp310-abi3-linux_x86_64.whl"));
        const auto run = test::runProgram(python,
            { "-c",
                "import sys, zipfile\n"
                "with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:\n"
                "    z.writestr('sgl_kernel/__init__.py', 'import torch\\n' * 50)\n"
                "    z.writestr('sgl_kernel/sm90/common_ops.abi3.so', b'\\x7fELF' + bytes(5000))\n"
                "    z.writestr('sgl_kernel/flash_ops.abi3.so', b'\\x7fELF' + bytes(3000))\n"
                "    z.writestr('sgl_kernel-0.3.16.dist-info/RECORD', 'x')\n"
                "    z.comment = b'built by KernelForge tests'\n",
                path });
        QVERIFY2(run.exitCode == 0, run.err.constData());
        m_wheel = test::readFile(path);
        QVERIFY(!m_wheel.isEmpty());
    }

    void listsMembers()
    {
        const ZipListing l = listZip(m_wheel);
        QVERIFY2(l.error.isEmpty(), qPrintable(l.error));
        QCOMPARE(l.entries.size(), 4);
        QCOMPARE(l.entries[1].name, QStringLiteral("sgl_kernel/sm90/common_ops.abi3.so"));
        QCOMPARE(l.entries[1].size, 5004);
        QVERIFY(l.entries[1].compressedSize < 5004);
    }

    // The two reads a remote listing makes: the tail, then the directory.
    void twoReads()
    {
        const qsizetype tail = qsizetype(qMin<qint64>(m_wheel.size(), kZipEndSearchBytes));
        const ZipEnd end = findZipEnd(QByteArrayView(m_wheel).last(tail), m_wheel.size());
        QVERIFY2(end.error.isEmpty(), qPrintable(end.error));
        QCOMPARE(end.entries, 4);
        const ZipListing l = parseZipDirectory(m_wheel.mid(end.directoryOffset, end.directorySize), end.entries);
        QVERIFY(l.error.isEmpty());
        QCOMPARE(l.entries.size(), 4);
    }

    void truncatedAndHostile()
    {
        for (qsizetype n = 0; n < m_wheel.size(); n += 37)
            QVERIFY(!listZip(QByteArrayView(m_wheel).first(n)).error.isEmpty());
        QCOMPARE(listZip("not a zip at all, just text").error,
            QStringLiteral("not a zip file (no end of central directory record)"));

        // The end record's directory offset points past itself.
        const qsizetype end = m_wheel.lastIndexOf(QByteArray("PK\x05\x06", 4));
        QVERIFY(end > 0);
        QByteArray far = m_wheel;
        far[end + 16] = char(0xF0);
        far[end + 17] = char(0xFF);
        QVERIFY(listZip(far).error.contains(QLatin1String("runs past its end record")));

        // A member whose name length runs past the directory.
        QByteArray longName = m_wheel;
        const qsizetype entry = longName.indexOf(QByteArray("PK\x01\x02", 4));
        longName[entry + 28] = char(0xFF);
        longName[entry + 29] = char(0xFF);
        QVERIFY(listZip(longName).error.contains(QLatin1String("runs past the directory")));

        QByteArray zip64 = m_wheel;
        zip64[end + 10] = char(0xFF);
        zip64[end + 11] = char(0xFF);
        QVERIFY(listZip(zip64).error.startsWith(QLatin1String("a zip64 file")));
    }
};

QTEST_GUILESS_MAIN(TestZipDirectory)
#include "tst_zipdirectory.moc"
