// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/verify/cudatarget.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// Which SASS and PTX targets a shared library (or object) carries: the CUDA fat binaries in
// its ELF, read by their headers alone, and cuobjdump's listing of the same.
//
// Wire format (little-endian; checked against nvcc 13.0's output and cuobjdump 13.0 on the
// fixtures in tests/data/fatbin, whose README says how they were made):
//
// ELF64 (ELFCLASS64, ELFDATA2LSB: x86_64, aarch64; anything else is refused)
//   file header, 64 bytes: "\x7f" "ELF", class @4 (2), data @5 (1), e_shoff u64 @0x28,
//     e_shentsize u16 @0x3A (>= 64), e_shnum u16 @0x3C, e_shstrndx u16 @0x3E. With e_shnum 0
//     (and e_shoff set) the count is section 0's sh_size; with e_shstrndx 0xFFFF the index
//     is section 0's sh_link (extended numbering).
//   section header: sh_name u32 @0 (offset into the e_shstrndx section), sh_type u32 @4
//     (8: NOBITS, no bytes in the file), sh_offset u64 @0x18, sh_size u64 @0x20.
//   Device code is the section ".nv_fatbin" (shared libraries, executables, objects) or
//   "__nv_relfatbin" (objects built with -rdc or -dlto). Neither: no CUDA code (what a host
//   compiler builds from the same sources).
// The section holds fat binaries back to back, one per translation unit plus nvcc's
//   device-link one; zero bytes may pad between them (8-byte steps are skipped).
// Fat binary header, 16 bytes: magic u32 0xBA55ED50, version u16 (1), header size u16
//   (16), size u64 of the entries that follow (0 for an empty one).
// Entry: header, then payload. kind u16 @0 (1 PTX, 2 ELF = SASS cubin, 8 LTO-IR),
//   u16 @2 (0x0101), header size u32 @4 (64 for SASS, 80 for PTX, up to 120 for newer
//   ones), payload size u64 @8 (padded), compressed size u32 @16 (0: stored), u32 @20,
//   version minor u16 @24, major u16 @26 (the PTX ISA for PTX: 9.0 from CUDA 13), arch u32
//   @28 (90 is sm_90 / compute_90), name offset u32 @32 and size u32 @36, flags u64 @40,
//   u64 @48, uncompressed size u64 @56.
//   Flags: 0x1 64-bit, 0x10 Linux, 0x2000 compressed with LZ4 (--compress-mode=speed),
//   0x8000 compressed with Zstandard (=size; nvcc 13 compresses PTX so by default),
//   0x100000 arch-specific (sm_90a, compute_90a), 0x200000 family-specific (sm_100f;
//   cuobjdump 13.0 prints it as plain sm_100). Unknown kinds are counted and skipped.
// Bounds: 65536 sections, 4 MiB of section names, 2^20 entries; every offset and size is
// checked against its container and the file, so a truncated or hostile file ends the scan
// with an error, never a read outside the bytes given.
namespace kf {

struct FatbinEntry
{
    CudaTarget target;
    bool compressed = false;
    int fatbin = 0;    // the fat binary (0-based) of the section that holds it
    qint64 offset = 0; // of its header in the file
    qint64 payloadBytes = 0;
    quint64 flags = 0;
};

struct FatbinScan
{
    bool elf = false; // an ELF64 little-endian file
    QString section;  // ".nv_fatbin" or "__nv_relfatbin"; empty: no device code
    qint64 sectionOffset = 0;
    qint64 sectionSize = 0;
    int fatbins = 0;
    int unknownEntries = 0;
    QList<FatbinEntry> entries;
    QString error; // why the scan stopped early; what was read before stays
    bool hasDeviceCode() const { return !entries.isEmpty(); }
    QList<CudaTarget> targets() const; // unique, sorted
};

// A scan that asks for the bytes it needs, so a 500 MB library is read by its headers alone
// (ranged reads over SFTP) and an in-memory file by the same code:
//   FatbinReader r(size);
//   while (auto need = r.need()) r.feed(read(need->offset, need->length)); // or more bytes
class FatbinReader
{
public:
    struct Range
    {
        qint64 offset = 0;
        qint64 length = 0;
    };
    explicit FatbinReader(qint64 fileSize);
    // The bytes the scan needs next, or nothing when it is over.
    std::optional<Range> need() const;
    // The file's bytes from need()->offset: at least need()->length of them unless the file
    // ends sooner (more are kept for the following needs).
    void feed(QByteArrayView bytes);
    // Ends the scan with an error (a read failed).
    void fail(const QString& error);
    const FatbinScan& scan() const { return m_scan; }

private:
    enum class State { ElfHeader, SectionZero, SectionTable, Names, FatbinHeader, Entry, Done };
    // Runs the states while the buffer holds what they need.
    void advance();
    // The n bytes at file offset `at`, or empty (and m_need set) when the buffer lacks them.
    QByteArrayView bytesAt(qint64 at, qint64 n);
    void stop(const QString& error);
    bool stepElfHeader();
    bool stepSectionTable();
    bool stepNames();
    bool stepFatbinHeader();
    bool stepEntry();

    qint64 m_fileSize;
    State m_state = State::ElfHeader;
    FatbinScan m_scan;
    QByteArray m_buf;
    qint64 m_bufOffset = 0;
    std::optional<Range> m_need;
    // ELF
    qint64 m_shoff = 0;
    qint64 m_shentsize = 0;
    qint64 m_shnum = 0;
    qint64 m_shstrndx = 0;
    QByteArray m_table;
    // fat binaries (file offsets)
    qint64 m_pos = 0;
    qint64 m_sectionEnd = 0;
    qint64 m_fatbinEnd = 0;
};

// Scans a whole file in memory.
FatbinScan scanFatbin(QByteArrayView file);

// `cuobjdump --list-elf --list-ptx FILE` (stdout and stderr together):
//   ELF file    1: common_ops.1.sm_90a.cubin
//   PTX file    1: common_ops.1.sm_80.ptx          (a PTX entry is named sm_XY: compute_XY)
//   cuobjdump info    : File 'x.so' does not contain device code         (exit status 255)
//   cuobjdump info    : No PTX file found to extract from 'x.so'. ...     (not an error)
//   cuobjdump warning : Can't deobfuscate entry ... / cuobjdump fatal : ...
struct CuobjdumpListing
{
    QList<CudaTarget> targets; // one per entry, in order
    bool noDeviceCode = false;
    QStringList problems; // warning and fatal lines
};
CuobjdumpListing parseCuobjdumpList(QByteArrayView text);

} // namespace kf
