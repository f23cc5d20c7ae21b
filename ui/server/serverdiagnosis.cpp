// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/server/serverdiagnosis.h"

#include "core/remotebuild/rootcause.h"
#include "ui/common/plaintext.h"

namespace kf {

ServerDiagnosis::ServerDiagnosis(QWidget* parent)
    : QLabel(parent)
{
    setObjectName(QStringLiteral("serverDiagnosis"));
    setWordWrap(true);
    setTextFormat(Qt::PlainText); // the server's log, never markup
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setStyleSheet(QStringLiteral("color: #b00020;"));
    hide();
}

void ServerDiagnosis::reset()
{
    m_analyzer = BuildLogAnalyzer();
    m_text.clear();
    m_verificationExplains = false;
    clear();
    hide();
    Q_EMIT changed();
}

void ServerDiagnosis::feed(const QByteArray& chunk)
{
    if (!m_text.isEmpty())
        return; // the first cause explains what follows it
    for (const Diagnostic& d : m_analyzer.feed(chunk).diagnostics) {
        // A cause with a hint: a server's log is full of tracebacks and warnings that explain nothing.
        if (rankOf(d) == DiagnosticRank::Summary && d.hint != Diagnostic::Hint::JitFailed)
            continue;
        if (d.severity != Diagnostic::Severity::Error || d.hint == Diagnostic::Hint::None)
            continue;
        m_text = tr("%1\nHint: %2").arg(diagnosticText(d).left(400), hintText(d.hint));
        // What the build made explains these: the verification names the library and the GPU.
        m_verificationExplains = d.hint == Diagnostic::Hint::MissingSm || d.hint == Diagnostic::Hint::TorchAbi
            || d.hint == Diagnostic::Hint::Fa3Import;
        if (m_verificationExplains)
            m_text += tr("\nThe verification (Build tab, kernelforge-cli verify) names the library and what it lacks.");
        setText(m_text);
        setToolTip(plainToolTip(d.message));
        show();
        Q_EMIT changed();
        return;
    }
}

} // namespace kf
