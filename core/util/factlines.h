// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/bytelines.h"

#include <QByteArrayView>

// The output of KernelForge's remote probe scripts: one fact a line, "key\tvalue"; a line
// without a tab, or starting with one, is not a fact (a login banner) and is skipped. A
// trailing '\r' of the value is dropped.
//   forEachFact(output, [&](QByteArrayView key, QByteArrayView value) { ... });
namespace kf {

template <typename OnFact> void forEachFact(QByteArrayView output, OnFact onFact)
{
    ByteLines lines(output);
    for (QByteArrayView line; lines.next(line);) {
        const qsizetype tab = line.indexOf('\t');
        if (tab <= 0)
            continue;
        QByteArrayView value = line.sliced(tab + 1);
        if (value.endsWith('\r'))
            value.chop(1);
        onFact(line.first(tab), value);
    }
}

} // namespace kf
