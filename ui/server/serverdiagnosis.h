// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/remotebuild/buildloganalyzer.h"

#include <QLabel>

namespace kf {

// Under the Server tab's log: the first error of the server's log that explains a failure, with its
// hint, read by the build log's analyzer (core/remotebuild: a JIT compile that failed or was killed
// for memory, "no kernel image is available" for a GPU, "CUDA out of memory" at load, an
// undefined torch symbol at import). Hidden while the log has none.
class ServerDiagnosis : public QLabel
{
    Q_OBJECT
public:
    explicit ServerDiagnosis(QWidget* parent = nullptr);
    // A new log (another server followed).
    void reset();
    void feed(const QByteArray& chunk);
    // What it says (empty: nothing found yet).
    const QString& diagnosis() const { return m_text; }
    // Whether the host's verification explains it (a library without code for the GPU, a torch
    // ABI mismatch, FA3 that does not import): the Server pane then offers the Build tab's
    // Verification next to it.
    bool verificationExplains() const { return m_verificationExplains; }

Q_SIGNALS:
    void changed();

private:
    BuildLogAnalyzer m_analyzer;
    QString m_text;
    bool m_verificationExplains = false;
};

} // namespace kf
