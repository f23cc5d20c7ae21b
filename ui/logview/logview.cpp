// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/logview/logview.h"

#include "ui/common/textline.h"

#include <QDir>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QStandardPaths>
#include <QVBoxLayout>

namespace kf {

LogView::LogView(QWidget* parent)
    : QWidget(parent)
    , m_live(new QPlainTextEdit(this))
    , m_back(new QPlainTextEdit(this))
    , m_find(new QLineEdit(this))
    , m_status(new QLabel(this))
    , m_store(std::make_unique<LogStore>())
{
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    for (QPlainTextEdit* e : { m_live, m_back }) {
        e->setReadOnly(true);
        e->setFont(mono);
        e->setLineWrapMode(QPlainTextEdit::NoWrap);
        e->setUndoRedoEnabled(false);
    }
    m_live->setMaximumBlockCount(m_maxLines);
    m_live->setObjectName(QStringLiteral("liveLog"));
    m_back->setObjectName(QStringLiteral("scrollBack"));
    m_back->setPlaceholderText(tr("Search the full log to see earlier lines here"));
    m_back->hide();
    m_find->setPlaceholderText(tr("Search the full log (Enter: next match)"));
    m_find->setClearButtonEnabled(true);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_find, 1);
    auto* close = new QPushButton(tr("Live only"), this);
    bar->addWidget(close);
    bar->addWidget(m_status);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_back);
    split->addWidget(m_live);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(split, 1);
    connect(m_find, &QLineEdit::returnPressed, this, &LogView::search);
    connect(m_find, &QLineEdit::textChanged, this, [this] {
        m_hits.clear();
        m_hitIndex = -1;
    });
    connect(close, &QPushButton::clicked, m_back, &QWidget::hide);
    m_flush.setInterval(50);
    connect(&m_flush, &QTimer::timeout, this, &LogView::flush);
    m_flush.start();
}

LogView::~LogView() = default;

Result<void> LogView::openStore(const QString& path)
{
    clear();
    m_storeFailed = false;
    return m_store->open(path);
}

void LogView::clear()
{
    m_live->clear();
    m_back->clear();
    m_pendingText.clear();
    m_pendingEnds.clear();
    m_unannounced = 0;
    m_splitter = LogSplitter();
    m_skipped = m_shown = 0;
}

void LogView::setMaxLines(int n)
{
    m_maxLines = n;
    m_live->setMaximumBlockCount(n);
}

void LogView::appendData(const QByteArray& data)
{
    if (const Result<void> stored = m_store->append(data); !stored && !m_storeFailed) {
        // The live view goes on; say once that search and scroll-back stop here (disk full, ...).
        m_storeFailed = true;
        m_live->appendPlainText(tr("[KernelForge] cannot keep the full log on disk (%1): search and scroll-back "
                                   "end here")
                                    .arg(stored.error()));
    }
    m_splitter.feed(QByteArrayView(data), [this](QByteArrayView line) {
        m_pendingText.append(line.data(), line.size());
        m_pendingText.append('\n');
        m_pendingEnds.append(m_pendingText.size());
    });
    // Bound memory between flushes: only the newest batch can be shown anyway. Trimming at twice
    // the batch keeps the cost per appended line constant.
    if (m_pendingEnds.size() > 2 * m_batchLines)
        dropOldestPending(m_pendingEnds.size() - m_batchLines);
}

void LogView::dropOldestPending(qsizetype n)
{
    const qsizetype cut = m_pendingEnds[n - 1];
    m_pendingText.remove(0, cut);
    m_pendingEnds.remove(0, n);
    for (qsizetype& e : m_pendingEnds)
        e -= cut;
    m_skipped += n;
    m_unannounced += n;
}

void LogView::flush()
{
    if (m_pendingEnds.isEmpty())
        return;
    QElapsedTimer t;
    t.start();
    if (m_pendingEnds.size() > m_batchLines)
        dropOldestPending(m_pendingEnds.size() - m_batchLines);
    // The oldest pending lines first; what does not fit this flush waits for the next one (and
    // is dropped if newer lines push it out meanwhile).
    const qsizetype n = std::min<qsizetype>(m_pendingEnds.size(), std::max(1, m_flushLines));
    const qsizetype bytes = m_pendingEnds[n - 1];
    QString text;
    if (m_unannounced > 0) {
        text = tr("[kernelforge: %1 lines not shown live; search the full log]").arg(m_unannounced) + QLatin1Char('\n');
        m_unannounced = 0;
        ++m_shown;
    }
    text += QString::fromUtf8(m_pendingText.constData(), bytes - 1); // without the last '\n'
    m_pendingText.remove(0, bytes);
    m_pendingEnds.remove(0, n);
    for (qsizetype& e : m_pendingEnds)
        e -= bytes;
    m_shown += n;
    QScrollBar* sb = m_live->verticalScrollBar();
    const bool follow = sb->value() >= sb->maximum() - 2;
    // One append for the whole batch: per-line appends cost a layout each (~1.4k lines/s).
    m_live->appendPlainText(text);
    if (follow)
        sb->setValue(sb->maximum());
    m_status->setText(tr("%1 lines").arg(m_store->lineCount()));
    const qint64 ns = t.nsecsElapsed();
    m_worstFlushMs = std::max(m_worstFlushMs, ns / 1000000);
    // Lines per flush from the measured cost per line: a slow machine or a busy moment shows
    // fewer lines per turn instead of freezing the window.
    const double msPerLine = double(ns) / 1e6 / double(n);
    m_msPerLine = m_msPerLine > 0 ? 0.7 * m_msPerLine + 0.3 * msPerLine : msPerLine;
    // At most doubling per flush: one cheap flush (few lines, a warm cache) must not license a
    // huge next one.
    const double fits = m_flushBudgetMs / std::max(m_msPerLine, 1e-6);
    m_flushLines = int(std::clamp(std::min(fits, 2.0 * double(m_flushLines)), 20.0, double(m_batchLines)));
}

void LogView::showLine(qint64 line)
{
    const qint64 first = std::max<qint64>(0, line - 100);
    const QByteArrayList lines = m_store->lines(first, 300);
    m_back->setPlainText(QString::fromUtf8(lines.join('\n')));
    m_back->show();
    markLine(m_back, int(line - first), QColor(255, 235, 130), true);
}

void LogView::search()
{
    const QByteArray needle = m_find->text().toUtf8();
    if (needle.isEmpty())
        return;
    if (m_hits.isEmpty()) {
        m_hits = m_store->search(needle);
        m_hitIndex = -1;
    }
    if (m_hits.isEmpty()) {
        m_status->setText(tr("not found"));
        return;
    }
    m_hitIndex = (m_hitIndex + 1) % int(m_hits.size());
    showLine(m_hits[m_hitIndex]);
    m_status->setText(tr("match %1 of %2%3")
                          .arg(m_hitIndex + 1)
                          .arg(m_hits.size())
                          .arg(m_hits.size() >= 1000 ? QStringLiteral("+") : QString()));
}

} // namespace kf
