// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/logsplitter.h"

namespace kf {

QByteArrayList LogSplitter::feed(const QByteArray& chunk)
{
    QByteArrayList lines;
    feed(QByteArrayView(chunk), [&lines](QByteArrayView l) { lines.append(l.toByteArray()); });
    return lines;
}

QByteArrayList LogSplitter::flush()
{
    QByteArrayList out;
    flush([&out](QByteArrayView l) { out.append(l.toByteArray()); });
    return out;
}

} // namespace kf
