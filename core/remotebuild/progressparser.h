// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QMetaType>
#include <QString>

#include <optional>

// Build progress from one log line (lines come from LogSplitter).
//
// Wire formats recognised, after normalizeLogLine() has removed ANSI colour escapes, the
// indentation and box-drawing prefixes that pip -v / scikit-build-core / uv add around a
// backend's output ("  ", "  │ ", "      "):
//   ninja, our NINJA_STATUS (RemoteJob exports it):  "[kf 196/430 8 1234.5] <description>"
//                                                     %f/%t %r %e  (finished/total running elapsed-seconds)
//   ninja default NINJA_STATUS "[%f/%t] ":           "[196/430] Building CUDA object CMakeFiles/..."
//   CMake Makefile generator (and make -C build):   "[ 42%] Building CXX object CMakeFiles/x.dir/a.cpp.o"
//                                                     "[100%] Linking CXX shared module common_ops.so"
// A line that is none of these yields std::nullopt. Truncated status lines ("[19", "[kf 3/")
// are not progress. Ninja totals may grow while ninja re-plans (regeneration); consumers
// take the latest total.
namespace kf {

struct ProgressUpdate
{
    enum class Source { Ninja, NinjaKf, CMakePercent };
    Source source = Source::Ninja;
    int done = -1;        // edges finished (ninja)
    int total = -1;       // edges planned (ninja)
    int running = -1;     // edges running (only with our NINJA_STATUS)
    double elapsedS = -1; // ninja's own elapsed seconds (only with our NINJA_STATUS)
    int percent = -1;     // 0..100 (Makefile generator); derived for ninja
    QString description;  // "Building CUDA object ..."
    bool operator==(const ProgressUpdate&) const = default;
};

// The NINJA_STATUS our jobs export; parseProgressLine() understands it.
inline constexpr const char* kNinjaStatusFormat = "[kf %f/%t %r %e] ";

// Removes ANSI escapes, trailing whitespace and the wrappers' indentation/box prefixes.
QByteArray normalizeLogLine(QByteArrayView line);
// The same without a copy for the common line without escapes: the result views line, or
// scratch when escapes had to be removed (valid until scratch or line change).
QByteArrayView normalizeLogLine(QByteArrayView line, QByteArray& scratch);
// Expects a normalised line.
std::optional<ProgressUpdate> parseProgressLine(QByteArrayView normalizedLine);

} // namespace kf

Q_DECLARE_METATYPE(kf::ProgressUpdate)
