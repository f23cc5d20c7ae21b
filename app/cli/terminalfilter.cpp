// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "app/cli/terminalfilter.h"

#include "core/util/terminaltext.h"

namespace kf::cli {

TerminalFilter::TerminalFilter(FILE* file)
    : m_file(file)
{
    open(QIODevice::WriteOnly | QIODevice::Unbuffered);
}

qint64 TerminalFilter::writeData(const char* data, qint64 size)
{
    const QString text = m_decoder.decode(QByteArrayView(data, size));
    const QByteArray safe = terminalSafe(text, LineBreaks::Keep).toUtf8();
    if (std::fwrite(safe.constData(), 1, size_t(safe.size()), m_file) != size_t(safe.size()))
        return -1;
    std::fflush(m_file);
    return size;
}

} // namespace kf::cli
