// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QIODevice>
#include <QStringDecoder>

#include <cstdio>

namespace kf::cli {

// The device under cli::out() and cli::err(): what the CLI prints goes through kf::terminalSafe
// (core/util/terminaltext.h) with line breaks kept, so remote text in any message, table or
// error reaches the terminal with its control characters shown escaped, and a JSON line keeps
// its values. Writes go straight to the FILE (stdout, stderr) and are flushed, in order with
// the raw writes of `exec` and `build attach` (the documented exceptions) and with rawControl().
class TerminalFilter final : public QIODevice
{
public:
    explicit TerminalFilter(FILE* file);
    bool isSequential() const override { return true; }

protected:
    qint64 readData(char*, qint64) override { return -1; }
    qint64 writeData(const char* data, qint64 size) override;

private:
    FILE* m_file;
    QStringDecoder m_decoder { QStringDecoder::Utf8 }; // a character split between two writes
};

} // namespace kf::cli
