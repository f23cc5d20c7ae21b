// SPDX-License-Identifier: GPL-3.0-or-later
// A grid of class templates: Cell<A, B> needs Cell<A-1, B> and Cell<A, B-1>, so Cell<N, N> makes
// the compiler instantiate (N+1)^2 classes and functions; its memory grows with N^2.
#pragma once

namespace kf_heavy {

template <int A, int B> struct Cell
{
    static constexpr unsigned long value = Cell<A - 1, B>::value * 3u + Cell<A, B - 1>::value + unsigned(A * B);
    static unsigned long run(unsigned long x) { return Cell<A - 1, B>::run(x) ^ (Cell<A, B - 1>::run(x + value) * 7u); }
};
template <int B> struct Cell<0, B>
{
    static constexpr unsigned long value = B;
    static unsigned long run(unsigned long x) { return x + B; }
};
template <int A> struct Cell<A, 0>
{
    static constexpr unsigned long value = A;
    static unsigned long run(unsigned long x) { return x - A; }
};
template <> struct Cell<0, 0>
{
    static constexpr unsigned long value = 1;
    static unsigned long run(unsigned long x) { return x; }
};

} // namespace kf_heavy
