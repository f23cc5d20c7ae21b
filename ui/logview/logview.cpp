// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/logview/logview.h"

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
#include <QTextBlock>
#include <QVBoxLayout>

namespace kf {

LogView::LogView(QWidget* parent)
    : QWidget(parent), m_live(new QPlainTextEdit(this)), m_back(new QPlainTextEdit(this)), m_find(new QLineEdit(this)), m_status(new QLabel(this)),
      m_store(std::make_unique<LogStore>())
{
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    for (QPlainTextEdit* e : {m_live, m_back}) {
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
    connect(m_find, &QLineEdit::textChanged, this, [this] { m_hits.clear(); m_hitIndex = -1; });
    connect(close, &QPushButton::clicked, m_back, &QWidget::hide);
    m_flush.setInterval(100);
    connect(&m_flush, &QTimer::timeout, this, &LogView::flush);
    m_flush.start();
}

LogView::~LogView() = default;

Status LogView::openStore(const QString& path)
{
    clear();
    return m_store->open(path);
}

void LogView::clear()
{
    m_live->clear();
    m_back->clear();
    m_pending.clear();
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
    m_store->append(data);
    m_pending += m_splitter.feed(data);
    // Bound memory between flushes: only the newest batch can be shown anyway.
    if (m_pending.size() > 4 * m_batchLines) {
        const qsizetype drop = m_pending.size() - m_batchLines;
        m_skipped += drop;
        m_pending.erase(m_pending.begin(), m_pending.begin() + drop);
        m_pending.prepend(QByteArray("[kernelforge: ") + QByteArray::number(drop) + " lines not shown live; search the full log]");
    }
}

void LogView::flush()
{
    if (m_pending.isEmpty())
        return;
    QElapsedTimer t;
    t.start();
    if (m_pending.size() > m_batchLines) {
        const qsizetype drop = m_pending.size() - m_batchLines;
        m_skipped += drop;
        m_pending.erase(m_pending.begin(), m_pending.begin() + drop);
        m_pending.prepend(QByteArray("[kernelforge: ") + QByteArray::number(drop) + " lines not shown live; search the full log]");
    }
    QScrollBar* sb = m_live->verticalScrollBar();
    const bool follow = sb->value() >= sb->maximum() - 2;
    m_shown += m_pending.size();
    // One append for the whole batch: per-line appends cost a layout each (~1.4k lines/s).
    m_live->appendPlainText(QString::fromUtf8(m_pending.join('\n')));
    m_pending.clear();
    if (follow)
        sb->setValue(sb->maximum());
    m_worstFlushMs = std::max(m_worstFlushMs, t.elapsed());
    m_status->setText(tr("%1 lines").arg(m_store->lineCount()));
}

void LogView::showLine(qint64 line)
{
    const qint64 first = std::max<qint64>(0, line - 100);
    const QByteArrayList lines = m_store->lines(first, 300);
    m_back->setPlainText(QString::fromUtf8(lines.join('\n')));
    m_back->show();
    const QTextBlock block = m_back->document()->findBlockByNumber(int(line - first));
    QTextCursor c(block);
    c.select(QTextCursor::LineUnderCursor);
    m_back->setTextCursor(c);
    m_back->centerCursor();
    QTextEdit::ExtraSelection sel;
    sel.cursor = c;
    sel.format.setBackground(QColor(255, 235, 130));
    sel.format.setProperty(QTextFormat::FullWidthSelection, true);
    m_back->setExtraSelections({sel});
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
    m_status->setText(tr("match %1 of %2%3").arg(m_hitIndex + 1).arg(m_hits.size()).arg(m_hits.size() >= 1000 ? QStringLiteral("+") : QString()));
}

} // namespace kf
