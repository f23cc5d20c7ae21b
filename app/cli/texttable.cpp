// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "app/cli/texttable.h"

#include "core/util/terminaltext.h"

#include <QTextStream>

#include <algorithm>

namespace kf::cli {

TextTable::TextTable(QStringList header)
    : m_header(std::move(header))
{ }

void TextTable::addRow(QStringList cells)
{
    cells.resize(m_header.size());
    for (QString& c : cells) // a cell is one line whatever a server put in it
        c = terminalSafe(c);
    m_rows.append(std::move(cells));
}

void TextTable::print(QTextStream& out) const
{
    QList<qsizetype> widths;
    for (const QString& h : m_header)
        widths.append(h.size());
    for (const QStringList& row : m_rows)
        for (qsizetype i = 0; i < row.size(); ++i)
            widths[i] = std::max(widths[i], row[i].size());
    const auto line = [&](const QStringList& cells) {
        QString text;
        for (qsizetype i = 0; i < cells.size(); ++i)
            text += i + 1 < cells.size() ? cells[i].leftJustified(widths[i] + 2) : cells[i];
        out << text.trimmed() << '\n';
    };
    line(m_header);
    for (const QStringList& row : m_rows)
        line(row);
    out.flush();
}

} // namespace kf::cli
