// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/verify/zipdirectory.h"

namespace kf {

namespace {

constexpr quint32 kEndSignature = 0x06054b50u;
constexpr quint32 kEntrySignature = 0x02014b50u;
constexpr qint64 kEndBytes = 22;
constexpr qint64 kEntryBytes = 46;
constexpr int kMaxEntries = 100000;

quint32 le(QByteArrayView b, qsizetype at, int bytes)
{
    quint32 v = 0;
    for (int i = bytes - 1; i >= 0; --i)
        v = (v << 8) | quint8(b[at + i]);
    return v;
}

} // namespace

ZipEnd findZipEnd(QByteArrayView tail, qint64 fileSize)
{
    ZipEnd end;
    const qint64 tailOffset = fileSize - tail.size();
    if (tail.size() < kEndBytes || tailOffset < 0) {
        end.error = QStringLiteral("not a zip file (%1 bytes)").arg(fileSize);
        return end;
    }
    for (qsizetype at = tail.size() - kEndBytes; at >= 0; --at) {
        if (le(tail, at, 4) != kEndSignature || at + kEndBytes + qsizetype(le(tail, at + 20, 2)) != tail.size())
            continue;
        const quint32 entries = le(tail, at + 10, 2);
        const quint32 size = le(tail, at + 12, 4);
        const quint32 offset = le(tail, at + 16, 4);
        if (entries == 0xFFFF || size == 0xFFFFFFFFu || offset == 0xFFFFFFFFu) {
            end.error = QStringLiteral("a zip64 file (not read: wheels stay below 4 GB)");
            return end;
        }
        if (le(tail, at + 4, 2) != 0 || le(tail, at + 6, 2) != 0) {
            end.error = QStringLiteral("a multi-disk zip file");
            return end;
        }
        if (qint64(offset) + qint64(size) > tailOffset + at) {
            end.error = QStringLiteral("the zip central directory (%1 bytes at offset %2) runs past its end record")
                            .arg(size)
                            .arg(offset);
            return end;
        }
        if (qint64(size) > kMaxZipDirectoryBytes) {
            end.error = QStringLiteral("the zip central directory is too large (%1 bytes, limit %2)")
                            .arg(size)
                            .arg(kMaxZipDirectoryBytes);
            return end;
        }
        end.directoryOffset = offset;
        end.directorySize = size;
        end.entries = int(entries);
        return end;
    }
    end.error = QStringLiteral("not a zip file (no end of central directory record)");
    return end;
}

ZipListing parseZipDirectory(QByteArrayView directory, int expectedEntries)
{
    ZipListing out;
    qsizetype at = 0;
    while (at < directory.size()) {
        if (out.entries.size() >= kMaxEntries) {
            out.error = QStringLiteral("more than %1 zip members").arg(kMaxEntries);
            return out;
        }
        if (directory.size() - at < kEntryBytes || le(directory, at, 4) != kEntrySignature) {
            out.error = QStringLiteral("bad zip central directory entry at byte %1").arg(at);
            return out;
        }
        const qsizetype nameLength = qsizetype(le(directory, at + 28, 2));
        const qsizetype total
            = kEntryBytes + nameLength + qsizetype(le(directory, at + 30, 2)) + qsizetype(le(directory, at + 32, 2));
        if (total > directory.size() - at) {
            out.error = QStringLiteral("zip central directory entry at byte %1 runs past the directory").arg(at);
            return out;
        }
        ZipEntry e;
        e.name = QString::fromUtf8(directory.sliced(at + kEntryBytes, nameLength));
        e.compressedSize = le(directory, at + 20, 4);
        e.size = le(directory, at + 24, 4);
        out.entries << e;
        at += total;
    }
    if (out.entries.size() != expectedEntries)
        out.error = QStringLiteral("the zip directory lists %1 members, its end record says %2")
                        .arg(out.entries.size())
                        .arg(expectedEntries);
    return out;
}

ZipListing listZip(QByteArrayView file)
{
    const qsizetype tail = qsizetype(qMin<qint64>(file.size(), kZipEndSearchBytes));
    const ZipEnd end = findZipEnd(file.last(tail), file.size());
    if (!end.error.isEmpty())
        return ZipListing { {}, end.error };
    return parseZipDirectory(file.sliced(qsizetype(end.directoryOffset), qsizetype(end.directorySize)), end.entries);
}

} // namespace kf
