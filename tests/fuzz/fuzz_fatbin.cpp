// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/verify/fatbinreader.h"
#include "tests/fuzz/fuzzinput.h"

namespace {

using kf::fuzz::FuzzInput;

void put16(QByteArray& b, quint16 v)
{
    b += char(v & 0xFF);
    b += char(v >> 8);
}

void put32(QByteArray& b, quint32 v)
{
    put16(b, quint16(v & 0xFFFF));
    put16(b, quint16(v >> 16));
}

void put64(QByteArray& b, quint64 v)
{
    put32(b, quint32(v & 0xFFFFFFFFu));
    put32(b, quint32(v >> 32));
}

// A size as the parser meets them: right, off by a little, or absurd.
quint64 size(FuzzInput& in, quint64 right)
{
    switch (in.below(8)) {
    case 0: return 0;
    case 1: return right + 1 + quint64(in.below(64));
    case 2: return right > 0 ? right - 1 : 0;
    case 3: return ~quint64(0) - quint64(in.below(16));
    case 4: return quint64(1) << in.below(64);
    default: return right;
    }
}

// One fat binary: header, then entries of any kind, arch and flags.
QByteArray fatbin(FuzzInput& in)
{
    QByteArray entries;
    const int n = in.below(6);
    for (int i = 0; i < n; ++i) {
        const QByteArray payload = in.raw(40);
        const quint32 headerSize
            = in.chance(85) ? quint32(in.pick({ "64", "80", "96", "120" }).toUInt()) : quint32(size(in, 64));
        QByteArray h;
        put16(h, quint16(in.pick({ "1", "2", "8", "4", "0", "65535" }).toUInt()));
        put16(h, 0x0101);
        put32(h, headerSize);
        put64(h, size(in, quint64(payload.size())));
        put32(h, in.chance(30) ? quint32(payload.size()) : 0);
        put32(h, 64);
        put16(h, quint16(in.below(10)));
        put16(h, quint16(in.below(10)));
        put32(h, quint32(in.pick({ "90", "100", "120", "80", "0", "9", "4294967295", "103" }).toUInt()));
        put32(h, quint32(in.below(200)));
        put32(h, quint32(in.below(200)));
        put64(h, quint64(in.pick({ "17", "1048593", "2097169", "34833", "8209", "0" }).toULongLong()));
        put64(h, 0);
        put64(h, quint64(in.below(100000)));
        while (h.size() < qsizetype(qMin<quint32>(headerSize, 256)))
            h += char(in.byte());
        entries += h + payload;
    }
    QByteArray out;
    put32(out, in.chance(95) ? 0xBA55ED50u : quint32(in.below(1 << 16)));
    put16(out, 1);
    put16(out, quint16(in.chance(90) ? 16 : in.below(70000)));
    put64(out, size(in, quint64(entries.size())));
    out += entries;
    if (in.chance(30))
        out += QByteArray(8 * in.below(4), '\0'); // padding between fat binaries
    return out;
}

// An ELF64 file: header, a payload holding the fat binary section and the names, then the
// section table (often where real linkers put it: at the end).
QByteArray elf(FuzzInput& in)
{
    QByteArray section;
    const int fatbins = in.below(4);
    for (int i = 0; i < fatbins; ++i)
        section += fatbin(in);
    const QByteArray names = QByteArray("\0.shstrtab\0", 11) + in.pick({ ".nv_fatbin", "__nv_relfatbin", ".text", "" })
        + QByteArray(1, '\0') + in.raw(8);
    const qint64 sectionAt = 64;
    const qint64 namesAt = sectionAt + section.size();
    const qint64 tableAt = namesAt + names.size();
    const int count = 3 + in.below(3);

    QByteArray out("\x7f"
                   "ELF",
        4);
    out += char(in.chance(95) ? 2 : 1);
    out += char(in.chance(95) ? 1 : 2);
    out += QByteArray(10, '\0');
    out += QByteArray(0x28 - out.size(), '\0');
    put64(out, in.chance(95) ? quint64(tableAt) : size(in, quint64(tableAt)));
    out += QByteArray(0x3A - out.size(), '\0');
    put16(out, quint16(in.chance(95) ? 64 : in.below(2000)));
    put16(out, quint16(in.chance(90) ? count : in.below(3)));
    put16(out, quint16(in.chance(90) ? 1 : in.pick({ "0", "65535", "7" }).toUInt()));
    out += section + names;
    for (int i = 0; i < count; ++i) {
        QByteArray sh;
        const bool strtab = i == 1;
        const bool code = i == 2;
        put32(sh, strtab ? 1 : code ? 11 : quint32(in.below(40)));
        put32(sh, code && in.chance(10) ? 8 : 1);
        put64(sh, 0);
        put64(sh, 0);
        put64(sh, strtab ? quint64(namesAt) : code ? size(in, quint64(sectionAt)) : 0);
        put64(sh, strtab ? quint64(names.size()) : code ? size(in, quint64(section.size())) : quint64(in.below(100)));
        put32(sh, i == 0 ? quint32(in.below(4)) : 0);
        put32(sh, 0);
        put64(sh, 8);
        put64(sh, 0);
        out += sh;
    }
    return out;
}

QByteArray cuobjdump(FuzzInput& in)
{
    QByteArray out;
    const int lines = in.below(8);
    for (int i = 0; i < lines; ++i) {
        switch (in.below(5)) {
        case 0: out += "ELF file    " + in.number() + ": x." + in.number() + ".sm_" + in.number() + "a.cubin"; break;
        case 1: out += "PTX file    1: x.1." + in.pick({ "sm_80", "sm_", "sm_90f", "compute_80" }) + ".ptx"; break;
        case 2: out += "cuobjdump info    : File 'x.so' does not contain device code"; break;
        case 3: out += "cuobjdump fatal   : " + in.raw(20); break;
        default: out += in.raw(30); break;
        }
        out += kf::fuzz::lineEnd(in);
    }
    return out;
}

void scan(const QByteArray& bytes, FuzzInput& in)
{
    (void)kf::scanFatbin(bytes);
    // The ranged reader with windows and short reads, as over SFTP.
    kf::FatbinReader r(bytes.size() + (in.chance(10) ? in.below(100) : 0));
    int guard = 0;
    while (const auto need = r.need()) {
        if (++guard > 100000)
            break;
        const qint64 extra = in.below(3) == 0 ? 0 : in.below(5000);
        r.feed(bytes.mid(qsizetype(need->offset), qsizetype(need->length + extra)));
    }
    (void)r.scan().targets();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    FuzzInput in(data, size);
    const QByteArray raw(reinterpret_cast<const char*>(data), qsizetype(size));
    scan(raw, in);
    scan(elf(in), in);
    (void)kf::parseCuobjdumpList(raw);
    (void)kf::parseCuobjdumpList(cuobjdump(in));
    return 0;
}
