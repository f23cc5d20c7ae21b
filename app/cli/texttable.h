// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QList>
#include <QStringList>

class QTextStream;

namespace kf::cli {

// A table for the terminal: a header row, then the rows, each column as wide as its widest cell
// and two spaces apart; the last column is not padded (a command line may be long). Cells are
// one line each: line breaks, TABs and other control characters are shown escaped
// (kf::terminalSafe), so no cell can forge a row or break the alignment.
//
//   TextTable t({ "JOB", "STATE", "COMMAND" });
//   t.addRow({ id, state, command });
//   t.print(cli::out());
class TextTable
{
public:
    explicit TextTable(QStringList header);
    void addRow(QStringList cells); // missing cells are empty, extra cells are dropped
    void print(QTextStream& out) const;

private:
    QStringList m_header;
    QList<QStringList> m_rows;
};

} // namespace kf::cli
