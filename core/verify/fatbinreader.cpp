// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/verify/fatbinreader.h"

#include <QRegularExpression>

#include <cstring>

namespace kf {

namespace {

constexpr quint32 kFatbinMagic = 0xBA55ED50u;
constexpr qint64 kElfHeaderBytes = 64;
constexpr qint64 kMaxSections = 65536;
constexpr qint64 kMaxNamesBytes = qint64(4) << 20;
constexpr qint64 kFatbinHeaderBytes = 16;
constexpr qint64 kEntryHeaderBytes = 64;
constexpr qint64 kMaxEntryHeaderBytes = 4096;
constexpr int kMaxEntries = 1 << 20;
constexpr quint32 kShtNobits = 8;
constexpr quint64 kFlagLz4 = 0x2000;
constexpr quint64 kFlagZstd = 0x8000;
constexpr quint64 kFlagArchSpecific = 0x100000;
constexpr quint64 kFlagFamilySpecific = 0x200000;

quint16 u16(QByteArrayView b, qsizetype at)
{
    return quint16(quint8(b[at]) | (quint8(b[at + 1]) << 8));
}

quint32 u32(QByteArrayView b, qsizetype at)
{
    return quint32(u16(b, at)) | (quint32(u16(b, at + 2)) << 16);
}

quint64 u64(QByteArrayView b, qsizetype at)
{
    return quint64(u32(b, at)) | (quint64(u32(b, at + 4)) << 32);
}

QString hex(qint64 v)
{
    return QStringLiteral("0x") + QString::number(v, 16);
}

} // namespace

QList<CudaTarget> FatbinScan::targets() const
{
    QList<CudaTarget> all;
    all.reserve(entries.size());
    for (const FatbinEntry& e : entries)
        all << e.target;
    return uniqueTargets(all);
}

FatbinReader::FatbinReader(qint64 fileSize)
    : m_fileSize(qMax<qint64>(fileSize, 0))
{
    advance();
}

std::optional<FatbinReader::Range> FatbinReader::need() const
{
    return m_state == State::Done ? std::nullopt : m_need;
}

void FatbinReader::feed(QByteArrayView bytes)
{
    if (m_state == State::Done || !m_need)
        return;
    m_bufOffset = m_need->offset;
    m_buf = QByteArray(bytes.data(), qMin<qsizetype>(bytes.size(), qsizetype(m_fileSize - m_bufOffset)));
    m_need.reset();
    advance();
    // Still the same need: the bytes did not come (the file is shorter than it said).
    if (m_need && m_need->offset == m_bufOffset && m_buf.size() < m_need->length)
        stop(QStringLiteral("truncated: %1 bytes at offset %2 could not be read (the file ends at %3)")
                 .arg(m_need->length)
                 .arg(hex(m_need->offset))
                 .arg(hex(m_bufOffset + m_buf.size())));
}

void FatbinReader::fail(const QString& error)
{
    stop(error);
}

void FatbinReader::stop(const QString& error)
{
    if (m_scan.error.isEmpty())
        m_scan.error = error;
    m_state = State::Done;
    m_need.reset();
    m_buf.clear();
    m_table.clear();
}

QByteArrayView FatbinReader::bytesAt(qint64 at, qint64 n)
{
    if (at >= m_bufOffset && at - m_bufOffset + n <= m_buf.size())
        return QByteArrayView(m_buf).sliced(qsizetype(at - m_bufOffset), qsizetype(n));
    m_need = Range { at, n };
    return {};
}

void FatbinReader::advance()
{
    for (;;) {
        bool progressed = false;
        switch (m_state) {
        case State::ElfHeader: progressed = stepElfHeader(); break;
        case State::SectionZero:
        case State::SectionTable: progressed = stepSectionTable(); break;
        case State::Names: progressed = stepNames(); break;
        case State::FatbinHeader: progressed = stepFatbinHeader(); break;
        case State::Entry: progressed = stepEntry(); break;
        case State::Done: return;
        }
        if (!progressed)
            return;
    }
}

bool FatbinReader::stepElfHeader()
{
    if (m_fileSize < 4) {
        stop(QStringLiteral("not an ELF file (%1 bytes)").arg(m_fileSize));
        return false;
    }
    const QByteArrayView h = bytesAt(0, qMin(kElfHeaderBytes, m_fileSize));
    if (h.isEmpty())
        return false;
    if (!h.startsWith("\x7f"
                      "ELF")) {
        stop(QStringLiteral("not an ELF file"));
        return false;
    }
    if (h.size() < kElfHeaderBytes) {
        stop(QStringLiteral("truncated: the ELF header needs 64 bytes, the file has %1").arg(h.size()));
        return false;
    }
    if (h[4] != 2 || h[5] != 1) {
        stop(QStringLiteral("not a 64-bit little-endian ELF file (class %1, data %2)").arg(int(h[4])).arg(int(h[5])));
        return false;
    }
    m_scan.elf = true;
    const quint64 shoff = u64(h, 0x28);
    m_shentsize = u16(h, 0x3A);
    m_shnum = u16(h, 0x3C);
    m_shstrndx = u16(h, 0x3E);
    if (shoff == 0) {
        stop(QStringLiteral("no section headers (the file keeps only program headers)"));
        return false;
    }
    if (m_shentsize < 64 || m_shentsize > 1024) {
        stop(QStringLiteral("bad section header size %1").arg(m_shentsize));
        return false;
    }
    if (shoff >= quint64(m_fileSize)) {
        stop(QStringLiteral("truncated: the section table at offset %1 is past the end of the file (%2 bytes)")
                 .arg(hex(qint64(qMin<quint64>(shoff, quint64(1) << 62))))
                 .arg(m_fileSize));
        return false;
    }
    m_shoff = qint64(shoff);
    m_state = (m_shnum == 0 || m_shstrndx == 0xFFFF) ? State::SectionZero : State::SectionTable;
    return true;
}

bool FatbinReader::stepSectionTable()
{
    if (m_state == State::SectionZero) {
        const QByteArrayView s0 = bytesAt(m_shoff, qMin(m_shentsize, m_fileSize - m_shoff));
        if (s0.isEmpty())
            return false;
        if (s0.size() < m_shentsize) {
            stop(QStringLiteral("truncated: section header 0 at offset %1").arg(hex(m_shoff)));
            return false;
        }
        if (m_shnum == 0)
            m_shnum = qint64(qMin<quint64>(u64(s0, 0x20), quint64(kMaxSections) + 1));
        if (m_shstrndx == 0xFFFF)
            m_shstrndx = u32(s0, 0x28);
        m_state = State::SectionTable;
    }
    if (m_shnum > kMaxSections) {
        stop(QStringLiteral("too many sections (more than %1)").arg(kMaxSections));
        return false;
    }
    const qint64 bytes = m_shnum * m_shentsize;
    if (bytes > m_fileSize - m_shoff) {
        stop(QStringLiteral("truncated: the section table (%1 sections at offset %2) runs past the end of the file")
                 .arg(m_shnum)
                 .arg(hex(m_shoff)));
        return false;
    }
    const QByteArrayView table = bytesAt(m_shoff, bytes);
    if (table.isEmpty() && bytes > 0)
        return false;
    m_table = table.toByteArray();
    if (m_shstrndx >= m_shnum) {
        stop(QStringLiteral("no section names (string table index %1 of %2 sections)").arg(m_shstrndx).arg(m_shnum));
        return false;
    }
    m_state = State::Names;
    return true;
}

bool FatbinReader::stepNames()
{
    const QByteArrayView strtab(QByteArrayView(m_table).sliced(qsizetype(m_shstrndx * m_shentsize), 64));
    const quint64 namesOff = u64(strtab, 0x18);
    const quint64 namesSize = u64(strtab, 0x20);
    if (namesSize > quint64(kMaxNamesBytes) || namesOff > quint64(m_fileSize)
        || namesSize > quint64(m_fileSize) - namesOff) {
        stop(QStringLiteral("bad section name table (offset %1, %2 bytes)")
                 .arg(hex(qint64(qMin<quint64>(namesOff, quint64(1) << 62))))
                 .arg(qint64(qMin<quint64>(namesSize, quint64(1) << 62))));
        return false;
    }
    const QByteArrayView names = bytesAt(qint64(namesOff), qint64(namesSize));
    if (names.isEmpty() && namesSize > 0)
        return false;
    for (qint64 i = 0; i < m_shnum; ++i) {
        const QByteArrayView sh = QByteArrayView(m_table).sliced(qsizetype(i * m_shentsize), 64);
        const quint32 nameAt = u32(sh, 0);
        if (nameAt >= quint64(names.size()))
            continue;
        const QByteArrayView rest = names.sliced(nameAt);
        const qsizetype nul = rest.indexOf('\0');
        const QByteArrayView name = nul < 0 ? rest : rest.first(nul);
        if (name != ".nv_fatbin" && name != "__nv_relfatbin")
            continue;
        const quint64 off = u64(sh, 0x18);
        const quint64 size = u64(sh, 0x20);
        m_scan.section = QString::fromLatin1(name);
        if (u32(sh, 4) == kShtNobits) {
            stop(QStringLiteral("section %1 has no bytes in the file").arg(m_scan.section));
            return false;
        }
        if (off > quint64(m_fileSize) || size > quint64(m_fileSize) - off) {
            stop(
                QStringLiteral("truncated: section %1 (%2 bytes at offset %3) runs past the end of the file (%4 bytes)")
                    .arg(m_scan.section)
                    .arg(qint64(qMin<quint64>(size, quint64(1) << 62)))
                    .arg(hex(qint64(qMin<quint64>(off, quint64(1) << 62))))
                    .arg(m_fileSize));
            return false;
        }
        m_scan.sectionOffset = qint64(off);
        m_scan.sectionSize = qint64(size);
        m_pos = qint64(off);
        m_sectionEnd = qint64(off + size);
        m_table.clear();
        m_state = State::FatbinHeader;
        return true;
    }
    m_table.clear();
    m_state = State::Done; // no device code: not an error
    return false;
}

bool FatbinReader::stepFatbinHeader()
{
    const qint64 left = m_sectionEnd - m_pos;
    if (left == 0) {
        m_state = State::Done;
        return false;
    }
    const QByteArrayView h = bytesAt(m_pos, qMin(left, kFatbinHeaderBytes));
    if (h.isEmpty())
        return false;
    if (h.size() >= 4 && u32(h, 0) == kFatbinMagic && h.size() == kFatbinHeaderBytes) {
        const quint64 headerSize = u16(h, 6);
        const quint64 size = u64(h, 8);
        if (headerSize < quint64(kFatbinHeaderBytes) || headerSize > quint64(left)
            || size > quint64(left) - headerSize) {
            stop(QStringLiteral("fat binary at offset %1 runs past the end of section %2 (header %3 bytes, %4 bytes)")
                     .arg(hex(m_pos), m_scan.section)
                     .arg(headerSize)
                     .arg(qint64(qMin<quint64>(size, quint64(1) << 62))));
            return false;
        }
        ++m_scan.fatbins;
        m_fatbinEnd = m_pos + qint64(headerSize) + qint64(size);
        m_pos += qint64(headerSize);
        m_state = State::Entry;
        return true;
    }
    // Padding between fat binaries is zeros, in steps of 8 (a last short step at the end).
    const qsizetype step = qMin<qsizetype>(h.size(), 8);
    for (qsizetype i = 0; i < step; ++i) {
        if (h[i] != 0) {
            stop(h.size() < kFatbinHeaderBytes
                    ? QStringLiteral("truncated: fat binary header at offset %1 in section %2")
                          .arg(hex(m_pos), m_scan.section)
                    : QStringLiteral("no fat binary header at offset %1 in section %2 (magic 0x%3)")
                          .arg(hex(m_pos), m_scan.section)
                          .arg(u32(h, 0), 8, 16, QLatin1Char('0')));
            return false;
        }
    }
    m_pos += step;
    return true;
}

bool FatbinReader::stepEntry()
{
    if (m_pos == m_fatbinEnd) {
        m_state = State::FatbinHeader;
        return true;
    }
    const qint64 left = m_fatbinEnd - m_pos;
    if (left < kEntryHeaderBytes) {
        stop(QStringLiteral("truncated: entry at offset %1 needs a 64-byte header, its fat binary has %2 bytes left")
                 .arg(hex(m_pos))
                 .arg(left));
        return false;
    }
    const QByteArrayView h = bytesAt(m_pos, kEntryHeaderBytes);
    if (h.isEmpty())
        return false;
    const quint16 kind = u16(h, 0);
    const quint64 headerSize = u32(h, 4);
    const quint64 payload = u64(h, 8);
    if (headerSize < quint64(kEntryHeaderBytes) || headerSize > quint64(kMaxEntryHeaderBytes)
        || headerSize > quint64(left) || payload > quint64(left) - headerSize) {
        stop(QStringLiteral("entry at offset %1 runs past its fat binary (header %2 bytes, payload %3 bytes, %4 left)")
                 .arg(hex(m_pos))
                 .arg(headerSize)
                 .arg(qint64(qMin<quint64>(payload, quint64(1) << 62)))
                 .arg(left));
        return false;
    }
    const quint32 arch = u32(h, 28);
    const quint64 flags = u64(h, 40);
    const bool known = kind == 1 || kind == 2 || kind == 8;
    if (known && arch >= 10 && arch < 10000) {
        if (m_scan.entries.size() >= kMaxEntries) {
            stop(QStringLiteral("more than %1 device-code entries").arg(kMaxEntries));
            return false;
        }
        FatbinEntry e;
        e.target.kind = kind == 1 ? CudaTarget::Kind::Ptx
            : kind == 2           ? CudaTarget::Kind::Sass
                                  : CudaTarget::Kind::LtoIr;
        e.target.arch = int(arch);
        e.target.variant = (flags & kFlagArchSpecific) ? CudaTarget::Variant::ArchSpecific
            : (flags & kFlagFamilySpecific)            ? CudaTarget::Variant::FamilySpecific
                                                       : CudaTarget::Variant::None;
        e.compressed = (flags & (kFlagLz4 | kFlagZstd)) != 0 || u32(h, 16) != 0;
        e.fatbin = m_scan.fatbins - 1;
        e.offset = m_pos;
        e.payloadBytes = qint64(payload);
        e.flags = flags;
        m_scan.entries << e;
    } else {
        ++m_scan.unknownEntries;
    }
    m_pos += qint64(headerSize) + qint64(payload);
    return true;
}

FatbinScan scanFatbin(QByteArrayView file)
{
    FatbinReader r(file.size());
    while (const auto need = r.need()) {
        const qsizetype at = qsizetype(qBound<qint64>(0, need->offset, file.size()));
        r.feed(file.sliced(at, qsizetype(qBound<qint64>(0, need->length, file.size() - at))));
    }
    return r.scan();
}

CuobjdumpListing parseCuobjdumpList(QByteArrayView text)
{
    // "ELF file    1: name.1.sm_90a.cubin": the target is the last dotted part but the suffix.
    static const QRegularExpression entry(
        QStringLiteral("^(ELF|PTX) file\\s+\\d+: .*\\.(sm_[0-9]+[af]?)\\.(cubin|ptx)\\s*$"));
    CuobjdumpListing out;
    for (const QByteArray& raw : QByteArray(text.data(), text.size()).split('\n')) {
        const QString line = QString::fromUtf8(raw).trimmed();
        if (line.isEmpty())
            continue;
        if (const auto m = entry.match(line); m.hasMatch()) {
            auto t = parseCudaTarget(m.capturedView(2));
            if (!t)
                continue;
            if (m.capturedView(1) == u"PTX")
                t->kind = CudaTarget::Kind::Ptx;
            out.targets << *t;
        } else if (line.contains(QLatin1String("does not contain device code"))) {
            out.noDeviceCode = true;
        } else if (line.startsWith(QLatin1String("cuobjdump warning"))
            || line.startsWith(QLatin1String("cuobjdump fatal")) || line.startsWith(QLatin1String("cuobjdump error"))) {
            if (out.problems.size() < 20)
                out.problems << line;
        }
    }
    return out;
}

} // namespace kf
