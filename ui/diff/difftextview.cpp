// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/diff/difftextview.h"

#include <QFontDatabase>
#include <QPainter>
#include <QTextBlock>

namespace kf {
namespace {

class Gutter : public QWidget
{
public:
    explicit Gutter(DiffTextView* view)
        : QWidget(view)
        , m_view(view)
    { }
    QSize sizeHint() const override { return { m_view->gutterWidth(), 0 }; }

protected:
    void paintEvent(QPaintEvent* event) override { m_view->paintGutter(event); }

private:
    DiffTextView* m_view;
};

} // namespace

DiffTextView::DiffTextView(QWidget* parent)
    : QPlainTextEdit(parent)
    , m_gutter(new Gutter(this))
{
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    // Not TextSelectableByKeyboard: that draws a caret, which says "type here" in a view that
    // takes no typing. Keys still reach the view (scrolling, the holder's shortcuts).
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setFocusPolicy(Qt::StrongFocus);
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect& rect, int dy) {
        if (dy)
            m_gutter->scroll(0, dy);
        else
            m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
    });
    updateGutterGeometry();
}

void DiffTextView::setGutterLabels(const QStringList& labels)
{
    m_labels = labels;
    m_labelChars = 1;
    for (const QString& l : labels)
        m_labelChars = std::max(m_labelChars, int(l.size()));
    updateGutterGeometry();
    m_gutter->update();
}

void DiffTextView::setGutterSigns(const QString& signs)
{
    m_signs = signs;
    updateGutterGeometry();
    m_gutter->update();
}

void DiffTextView::setMarkedRange(int first, int last)
{
    m_markFirst = first;
    m_markLast = last;
    m_gutter->update();
}

int DiffTextView::gutterWidth() const
{
    const int digit = fontMetrics().horizontalAdvance(QLatin1Char('9'));
    return 10 + digit * m_labelChars + 6 + (m_signs.isEmpty() ? 0 : 2 * digit);
}

void DiffTextView::updateGutterGeometry()
{
    setViewportMargins(gutterWidth(), 0, 0, 0);
    const QRect cr = contentsRect();
    m_gutter->setGeometry(QRect(cr.left(), cr.top(), gutterWidth(), cr.height()));
}

void DiffTextView::resizeEvent(QResizeEvent* event)
{
    QPlainTextEdit::resizeEvent(event);
    updateGutterGeometry();
}

void DiffTextView::paintGutter(QPaintEvent* event)
{
    QPainter p(m_gutter);
    p.fillRect(event->rect(), palette().color(QPalette::AlternateBase));
    p.setFont(font());
    QTextBlock block = firstVisibleBlock();
    int n = block.blockNumber();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    const int h = qRound(blockBoundingRect(block).height());
    const QColor fg = palette().color(QPalette::PlaceholderText);
    const int signWidth = m_signs.isEmpty() ? 0 : 2 * fontMetrics().horizontalAdvance(QLatin1Char('9'));
    while (block.isValid() && top <= event->rect().bottom()) {
        if (n >= m_markFirst && n <= m_markLast && m_markFirst >= 0)
            p.fillRect(0, top, 4, h, QColor(0x1f, 0x6f, 0xeb));
        if (n < m_labels.size()) {
            p.setPen(fg);
            p.drawText(8, top, m_gutter->width() - 12 - signWidth, h, Qt::AlignRight | Qt::AlignVCenter, m_labels[n]);
        }
        if (n < m_signs.size() && m_signs[n] != u' ') {
            const bool added = m_signs[n] == u'+';
            p.setPen(added ? QColor(0x11, 0x6b, 0x29) : QColor(0xb3, 0x1d, 0x28));
            p.drawText(m_gutter->width() - 4 - signWidth, top, signWidth, h, Qt::AlignCenter, QString(m_signs[n]));
        }
        block = block.next();
        top += h;
        ++n;
    }
}

} // namespace kf
