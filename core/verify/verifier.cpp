// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/verify/verifier.h"

#include "core/sglkernel/kerneltree.h"
#include "core/verify/zipdirectory.h"

#include <QFileInfo>

namespace kf {

namespace {

// Bytes read per range: small entries' headers come several to a read, and an entry of
// hundreds of KB costs one read of this size, not its payload. (A ranged read is five SFTP
// round trips; 1 MiB windows read a 524 MB file of 256 KiB entries whole and took longer.)
constexpr qint64 kWindowBytes = 64 * 1024;

void readWheel(Transport& transport, VerifyWheel& wheel)
{
    const qint64 tailBytes = qMin(wheel.size, kZipEndSearchBytes);
    const auto tail = transport.readFileRange(wheel.path, wheel.size - tailBytes, tailBytes);
    if (!tail) {
        wheel.error = tail.error();
        return;
    }
    const ZipEnd end = findZipEnd(*tail, wheel.size);
    if (!end.error.isEmpty()) {
        wheel.error = end.error;
        return;
    }
    const auto directory = transport.readFileRange(wheel.path, end.directoryOffset, end.directorySize);
    if (!directory) {
        wheel.error = directory.error();
        return;
    }
    const ZipListing listing = parseZipDirectory(*directory, end.entries);
    wheel.error = listing.error;
    for (const ZipEntry& e : listing.entries) {
        const QString name = QFileInfo(e.name).fileName();
        if (name.endsWith(QLatin1String(".so")) || name.contains(QLatin1String(".so.")))
            wheel.libraries << e.name;
    }
}

} // namespace

FatbinScan scanRemoteFatbin(Transport& transport, const QString& path, qint64 size, QDeadlineTimer deadline)
{
    FatbinReader reader(size);
    int reads = 0;
    while (const auto need = reader.need()) {
        if (deadline.hasExpired()) {
            reader.fail(QStringLiteral("not read to the end: reading headers over SFTP ran past its time budget "
                                       "(install cuobjdump on the server to list the libraries)"));
            break;
        }
        if (++reads > kMaxHeaderReads) {
            reader.fail(QStringLiteral("stopped after %1 reads of its headers (install cuobjdump on the server "
                                       "to list this library)")
                            .arg(kMaxHeaderReads));
            break;
        }
        const qint64 length = qMin(qMax(need->length, kWindowBytes), size - need->offset);
        const auto bytes = transport.readFileRange(path, need->offset, length);
        if (!bytes) {
            reader.fail(bytes.error());
            break;
        }
        reader.feed(*bytes);
    }
    return reader.scan();
}

Result<VerifyReport> runVerify(Transport& transport, const VerifyRequest& request)
{
    QString dir = request.dir;
    if (dir.isEmpty() && request.profile)
        dir = request.profile->workingDirectory;
    if (dir.isEmpty())
        return Result<VerifyReport>::failure(
            QStringLiteral("no folder to verify: give one, or a profile with working_dir"));
    // An sglang checkout or sgl-kernel tree is verified where its build writes: the tree found
    // as everywhere else (sglkernel::findKernelTree). A build folder is verified as given.
    QString treeNote;
    const auto search = sglkernel::findKernelTree(transport, dir);
    if (!search)
        return Result<VerifyReport>::failure(
            QStringLiteral("verify on %1: %2").arg(transport.describe(), search.error()));
    if (search->tree) {
        dir = search->tree->dir;
        treeNote = QStringLiteral("sgl-kernel tree: ") + search->tree->describe();
    } else if (request.dir.isEmpty() && request.profile && request.profile->kernelTree) {
        return Result<VerifyReport>::failure(
            QStringLiteral("verify on %1: %2").arg(transport.describe(), search->notFound()));
    }
    if (dir == QLatin1String("~"))
        dir = QStringLiteral(".");
    else if (dir.startsWith(QLatin1String("~/")))
        dir = dir.mid(2); // exec runs in the home folder
    CommandSpec spec;
    spec.command = verifyScript();
    spec.arguments = { dir, QString::number(qMax(1, request.maxLibraries)) };
    if (request.profile)
        spec.env = request.profile->env; // on stdin, never the command line: it may hold tokens
    spec.maxOutputBytes = qint64(64) << 20;
    const ExecResult r = transport.exec(spec, 900000);
    if (!r.error.isEmpty())
        return Result<VerifyReport>::failure(QStringLiteral("verify on %1: %2").arg(transport.describe(), r.error));
    if (r.exitCode != 0)
        return Result<VerifyReport>::failure(QStringLiteral("verify on %1: the script failed (exit status %2): %3")
                                                 .arg(transport.describe())
                                                 .arg(r.exitCode)
                                                 .arg(QString::fromUtf8(r.stdErr.right(400)).trimmed()));
    VerifyReport report = parseVerifyOutput(r.stdOut);
    report.tree = treeNote;
    report.builds = request.builds;
    const QDeadlineTimer deadline(qMax(0, request.headerReadBudgetMs));
    for (VerifyLibrary& l : report.libraries) {
        if (!l.source.isEmpty())
            continue;
        const FatbinScan scan = scanRemoteFatbin(transport, l.path, l.size, deadline);
        l.source = QStringLiteral("headers");
        l.entries = int(scan.entries.size());
        l.targets = scan.targets();
        l.noDeviceCode = scan.elf && scan.error.isEmpty() && scan.entries.isEmpty();
        l.error = scan.error;
    }
    for (VerifyWheel& w : report.wheels)
        readWheel(transport, w);
    evaluateVerify(report, request.profile);
    return report;
}

} // namespace kf
