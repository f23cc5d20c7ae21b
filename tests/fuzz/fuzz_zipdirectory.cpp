// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/verify/zipdirectory.h"
#include "tests/fuzz/fuzzinput.h"

namespace {

using kf::fuzz::FuzzInput;

void put16(QByteArray& b, quint32 v)
{
    b += char(v & 0xFF);
    b += char((v >> 8) & 0xFF);
}

void put32(QByteArray& b, quint32 v)
{
    put16(b, v & 0xFFFF);
    put16(b, v >> 16);
}

quint32 length(FuzzInput& in, quint32 right)
{
    switch (in.below(6)) {
    case 0: return 0xFFFFFFFFu;
    case 1: return right + 1 + quint32(in.below(100));
    case 2: return right > 0 ? right - 1 : 0;
    default: return right;
    }
}

// A zip: some local data, a central directory of members with names, extras and comments
// whose lengths may lie, and an end record (maybe zip64-marked) with a comment.
QByteArray zip(FuzzInput& in)
{
    QByteArray out = in.raw(64);
    const quint32 directoryAt = quint32(out.size());
    QByteArray directory;
    const int members = in.below(6);
    for (int i = 0; i < members; ++i) {
        const QByteArray name
            = in.pick({ "sgl_kernel/common_ops.abi3.so", "sgl_kernel/__init__.py", "", "a/b/" }) + in.raw(6);
        const QByteArray extra = in.raw(12);
        const QByteArray comment = in.raw(6);
        QByteArray e;
        put32(e, in.chance(95) ? 0x02014b50u : quint32(in.below(1 << 20)));
        e += QByteArray(16, '\0');
        put32(e, quint32(in.below(1 << 30)));
        put32(e, quint32(in.below(1 << 30)));
        put16(e, length(in, quint32(name.size())) & 0xFFFF);
        put16(e, length(in, quint32(extra.size())) & 0xFFFF);
        put16(e, quint32(comment.size()));
        e += QByteArray(46 - e.size(), '\0');
        directory += e + name + extra + comment;
    }
    out += directory;
    const QByteArray comment = in.raw(30);
    put32(out, 0x06054b50u);
    put16(out, in.chance(95) ? 0 : 1);
    put16(out, 0);
    put16(out, quint32(members));
    put16(out, in.chance(90) ? quint32(members) : (in.chance(50) ? 0xFFFF : quint32(in.below(10))));
    put32(out, length(in, quint32(directory.size())));
    put32(out, in.chance(90) ? directoryAt : length(in, directoryAt));
    put16(out, in.chance(90) ? quint32(comment.size()) : quint32(in.below(70)));
    out += comment;
    return out;
}

void list(const QByteArray& bytes)
{
    (void)kf::listZip(bytes);
    const qsizetype tail = qsizetype(qMin<qint64>(bytes.size(), kf::kZipEndSearchBytes));
    const kf::ZipEnd end = kf::findZipEnd(bytes.last(tail), bytes.size());
    if (end.error.isEmpty())
        (void)kf::parseZipDirectory(
            bytes.mid(qsizetype(end.directoryOffset), qsizetype(end.directorySize)), end.entries);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    FuzzInput in(data, size);
    list(QByteArray(reinterpret_cast<const char*>(data), qsizetype(size)));
    list(zip(in));
    return 0;
}
