// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QByteArrayView>
#include <QList>
#include <QString>

// The member list of a zip file (a Python wheel) from its central directory, so a wheel of
// hundreds of MB is listed from two small reads of its end (PKWARE APPNOTE 6.3, 4.3.12/4.3.16).
//
// Wire format (little-endian):
//   end of central directory record, at the end of the file before a comment of up to 65535
//   bytes: signature u32 0x06054b50, disk u16 @4, directory disk u16 @6, entries on this disk
//   u16 @8, entries u16 @10, directory size u32 @12, directory offset u32 @16, comment length
//   u16 @20 (22 bytes + comment). 0xFFFF / 0xFFFFFFFF there mean zip64 (not read: wheels stay
//   far below 4 GB and 65535 members). The record searched for is the last one whose comment
//   reaches exactly to the end of the file.
//   central directory: per member, signature u32 0x02014b50, compressed size u32 @20,
//   uncompressed size u32 @24, name length u16 @28, extra length u16 @30, comment length
//   u16 @32, name @46, then extra and comment.
// Bounds: the directory at most 16 MiB, 100000 members; every length is checked against the
// directory's bytes.
namespace kf {

struct ZipEntry
{
    QString name;
    qint64 compressedSize = 0;
    qint64 size = 0;
};

struct ZipEnd
{
    qint64 directoryOffset = 0;
    qint64 directorySize = 0;
    int entries = 0;
    QString error; // not a zip, zip64, or the directory lies outside the file
};

struct ZipListing
{
    QList<ZipEntry> entries;
    QString error;
};

inline constexpr qint64 kZipEndSearchBytes = 22 + 65535;
inline constexpr qint64 kMaxZipDirectoryBytes = qint64(16) << 20;

// tail: the last min(fileSize, kZipEndSearchBytes) bytes of the file.
ZipEnd findZipEnd(QByteArrayView tail, qint64 fileSize);
// directory: the end's directorySize bytes at directoryOffset.
ZipListing parseZipDirectory(QByteArrayView directory, int expectedEntries);
// A whole zip file in memory.
ZipListing listZip(QByteArrayView file);

} // namespace kf
