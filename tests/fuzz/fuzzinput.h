// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

// Structure-aware fuzzing: every harness feeds its parser the raw input AND a document built
// from the same bytes by a small grammar of the format (a header with a random subset of
// columns, rows of typed values, hunk headers with extreme numbers, Include graphs, ...).
// Byte-level mutation alone almost never builds a header whose column set differs from the
// default layout, which is how the compute-apps out-of-bounds read stayed hidden.
//
// FuzzInput consumes the bytes front to back; when they run out every choice is 0, so each
// input maps to exactly one document (libFuzzer's mutations then walk the grammar). Every
// choice is its own statement: C++ leaves the order of calls inside one expression open, and
// a crash input must build the same document under clang (fuzzer) and GCC (replayer).
// Header-only and compiler-neutral: the replayers build it with GCC too.
#include <QByteArray>
#include <QList>

#include <cstddef>
#include <cstdint>
#include <initializer_list>

namespace kf::fuzz {

class FuzzInput
{
public:
    FuzzInput(const uint8_t* data, size_t size)
        : m_data(data)
        , m_size(size)
    { }

    bool empty() const { return m_pos >= m_size; }

    uint8_t byte() { return m_pos < m_size ? m_data[m_pos++] : 0; }

    // 0 .. n-1 (n >= 1).
    int below(int n)
    {
        if (n <= 1)
            return 0;
        uint32_t v = byte();
        if (n > 256)
            v = (v << 8) | byte();
        if (n > 65536)
            v = (v << 8) | byte();
        return int(v % uint32_t(n));
    }

    // True with the given probability; false once the bytes ran out (so that an exhausted
    // input ends every optional part instead of taking all of them).
    bool chance(int percent) { return below(100) >= 100 - percent; }

    template <typename T> const T& pick(const QList<T>& list) { return list[below(int(list.size()))]; }

    QByteArray pick(std::initializer_list<const char*> words)
    {
        const int i = below(int(words.size()));
        return QByteArray(words.begin()[i]);
    }

    // Up to max raw bytes of the input, as they are (anything: NUL, '\n', UTF-8 pieces).
    QByteArray raw(int max)
    {
        const int n = below(max + 1);
        QByteArray out;
        for (int i = 0; i < n && !empty(); ++i)
            out += char(byte());
        return out;
    }

    // A number from the places parsers break: 0, 1, small, powers of two, INT_MAX and
    // neighbours, past INT_MAX, INT64 extremes, negatives, many digits.
    QByteArray number()
    {
        switch (below(12)) {
        case 0: return "0";
        case 1: return "1";
        case 2: return QByteArray::number(below(100));
        case 3: return QByteArray::number(below(100000));
        case 4: return "2147483647";
        case 5: return "2147483646";
        case 6: return "2147483648";
        case 7: return "4294967296";
        case 8: return "9223372036854775807";
        case 9: return "-9223372036854775808";
        case 10: return "-" + QByteArray::number(below(1000));
        default: {
            const int digits = 1 + below(30);
            return QByteArray(digits, char('1' + below(9)));
        }
        }
    }

    // A float as Prometheus and nvidia-smi print them, or a special spelling.
    QByteArray real()
    {
        switch (below(10)) {
        case 0: return "NaN";
        case 1: return "+Inf";
        case 2: return "-Inf";
        case 3: return "1e308";
        case 4: return "-0";
        case 5: {
            QByteArray v = QByteArray::number(below(1000));
            return v + "." + QByteArray::number(below(1000));
        }
        case 6: return QByteArray::number(double(below(100000)) * 1e-4, 'g', 17);
        case 7: return number();
        case 8: {
            QByteArray v = QByteArray::number(below(10));
            return v + "e" + QByteArray::number(below(40) - 20);
        }
        default: return QByteArray::number(below(100));
        }
    }

private:
    const uint8_t* m_data;
    size_t m_size;
    size_t m_pos = 0;
};

inline void feed(const QByteArray& doc, int (*target)(const uint8_t*, size_t))
{
    target(reinterpret_cast<const uint8_t*>(doc.constData()), size_t(doc.size()));
}

// Line ends as other tools write them.
inline QByteArray lineEnd(FuzzInput& in)
{
    switch (in.below(8)) {
    case 0: return "\r\n";
    case 1: return "";
    default: return "\n";
    }
}

} // namespace kf::fuzz
