// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/transport/transport.h"
#include "core/util/jobtracker.h"

#include <QDialog>

#include <memory>

class QLabel;
class QPlainTextEdit;

namespace kf {

// A read-only view of a file on the server, scrolled to a line that is highlighted: where a
// diagnostic points. Tries each candidate path in turn (compilers print paths relative to
// the build or source dir). The read runs on a worker thread.
class RemoteFileViewer : public QDialog
{
    Q_OBJECT
public:
    RemoteFileViewer(std::shared_ptr<Transport> transport, QStringList candidates, int line, QWidget* parent = nullptr);
    QPlainTextEdit* text() const { return m_text; }

Q_SIGNALS:
    void loaded(const QString& path);

private:
    void showContent(const QString& path, const QByteArray& data);

    QLabel* m_title;
    QPlainTextEdit* m_text;
    int m_line;
    JobTracker m_requests { this };
};

} // namespace kf
