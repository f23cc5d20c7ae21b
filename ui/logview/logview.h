// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/remotebuild/logsplitter.h"
#include "core/remotebuild/logstore.h"

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace kf {

// A build log view that keeps up with very fast logs: appends are batched (one flush per
// ~50 ms) into a QPlainTextEdit capped at maxLines(). At most batchLines() of the newest lines
// wait for the view; when more arrive, the live view jumps to the newest lines and says how
// many it skipped. A flush appends one pre-joined string of as many lines as fit a time budget
// per event-loop turn (~5 ms, measured as it goes: the cost per line depends on the font, the
// platform and the machine's load), so a flood never stalls the UI for long. Every byte also
// goes to a LogStore on disk (line-offset index), which the search box and the scroll-back
// pane read, so nothing is lost from view for good.
class LogView : public QWidget
{
    Q_OBJECT
public:
    explicit LogView(QWidget* parent = nullptr);
    ~LogView() override;

    // Starts a new log (optionally continuing an existing file, e.g. after an app restart).
    Result<void> openStore(const QString& path);
    void clear();
    void appendData(const QByteArray& data);
    // Moves the scroll-back pane to line (0-based) of the full log and shows it.
    void showLine(qint64 line);

    void setMaxLines(int n);
    int maxLines() const { return m_maxLines; }
    void setBatchLines(int n)
    {
        m_batchLines = n;
        m_flushLines = std::min(m_flushLines, n);
    }
    int batchLines() const { return m_batchLines; }
    void setFlushInterval(int ms) { m_flush.setInterval(ms); }
    // Time one flush may take (ms); the lines per flush adapt to it.
    void setFlushBudget(double ms) { m_flushBudgetMs = ms; }
    qint64 skippedLines() const { return m_skipped; }
    qint64 shownLines() const { return m_shown; }
    LogStore& store() { return *m_store; }
    QPlainTextEdit* liveView() const { return m_live; }
    QPlainTextEdit* scrollBackView() const { return m_back; }
    // Longest flush so far (ms); the benchmark reads it.
    qint64 worstFlushMs() const { return m_worstFlushMs; }

private:
    void flush();
    void search();
    void dropOldestPending(qsizetype n);

    QPlainTextEdit* m_live;
    QPlainTextEdit* m_back;
    QLineEdit* m_find;
    QLabel* m_status;
    std::unique_ptr<LogStore> m_store;
    LogSplitter m_splitter;
    QByteArray m_pendingText;       // lines waiting for the view, each followed by '\n'
    QList<qsizetype> m_pendingEnds; // offset just past each pending line's '\n'
    qint64 m_unannounced = 0;       // lines skipped since the last notice in the view
    QTimer m_flush;
    int m_maxLines = 10000;
    int m_batchLines = 1000;
    int m_flushLines = 100; // lines the next flush may append (adapts to m_flushBudgetMs)
    double m_flushBudgetMs = 5;
    double m_msPerLine = 0;     // moving average of a flush's cost per line
    bool m_storeFailed = false; // told the user once that the disk copy stopped
    qint64 m_skipped = 0;
    qint64 m_shown = 0;
    qint64 m_worstFlushMs = 0;
    QList<qint64> m_hits;
    int m_hitIndex = -1;
};

} // namespace kf
