// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/diff/diffview.h"

#include "ui/common/plaintext.h"
#include "ui/diff/difftextview.h"
#include "ui/highlight/codehighlighter.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QScrollBar>
#include <QSyntaxHighlighter>
#include <QTextBlock>
#include <QVBoxLayout>

namespace kf {
namespace {

const QColor kDelBg(0xff, 0xeb, 0xe9);
const QColor kDelWord(0xff, 0xc1, 0xc0);
const QColor kAddBg(0xe6, 0xff, 0xec);
const QColor kAddWord(0xab, 0xf2, 0xbc);
const QColor kRejectedBg(0xee, 0xee, 0xee);
const QColor kFiller(0xf6, 0xf8, 0xfa);

QTextEdit::ExtraSelection lineSelection(QTextDocument* doc, int block, const QColor& bg)
{
    QTextEdit::ExtraSelection s;
    s.cursor = QTextCursor(doc->findBlockByNumber(block));
    s.format.setBackground(bg);
    s.format.setProperty(QTextFormat::FullWidthSelection, true);
    return s;
}

QTextEdit::ExtraSelection spanSelection(
    QTextDocument* doc, int block, const textdiff::Span& span, const QColor& bg, bool strike)
{
    QTextEdit::ExtraSelection s;
    QTextCursor c(doc->findBlockByNumber(block));
    c.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor, span.start);
    c.movePosition(QTextCursor::Right, QTextCursor::KeepAnchor, span.length);
    s.cursor = c;
    s.format.setBackground(bg);
    if (strike)
        s.format.setFontStrikeOut(true);
    return s;
}

enum class HunkKey { Toggle, Accept, Reject };
struct HunkKeyRow
{
    Qt::Key key;
    HunkKey action;
    const char* what;
};
// The keys of a reviewable diff (handleKey, and Help > Keyboard Shortcuts).
constexpr HunkKeyRow kHunkKeys[] = {
    { Qt::Key_Space, HunkKey::Toggle, QT_TRANSLATE_NOOP("kf::DiffView", "Accept or reject the current hunk") },
    { Qt::Key_A, HunkKey::Accept, QT_TRANSLATE_NOOP("kf::DiffView", "Accept the current hunk") },
    { Qt::Key_R, HunkKey::Reject, QT_TRANSLATE_NOOP("kf::DiffView", "Reject the current hunk") },
};

} // namespace

QList<ShortcutInfo> DiffView::keyboardShortcuts()
{
    QList<ShortcutInfo> out;
    for (const HunkKeyRow& row : kHunkKeys)
        out.append({ tr("Diff"), tr(row.what), { QKeySequence(row.key) } });
    return out;
}

DiffView::DiffView(QWidget* parent)
    : QWidget(parent)
    , m_left(new DiffTextView(this))
    , m_right(new DiffTextView(this))
    , m_leftTitle(new QLabel(this))
    , m_rightTitle(new QLabel(this))
    , m_status(new QLabel(this))
{
    m_oldSide = tr("On server now");
    m_newSide = tr("After this patch");
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* panes = m_panes = new QHBoxLayout;
    panes->setSpacing(2);
    for (auto [title, view] : { std::pair { m_leftTitle, m_left }, std::pair { m_rightTitle, m_right } }) {
        auto* column = new QVBoxLayout;
        column->setSpacing(2);
        title->setTextFormat(Qt::RichText);
        title->setContentsMargins(4, 2, 4, 0);
        // A long path must not widen the pane: the label is cut, its tooltip keeps it all.
        title->setMinimumWidth(1);
        title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        column->addWidget(title);
        column->addWidget(view, 1);
        panes->addLayout(column, 1);
    }
    layout->addLayout(panes, 1);
    m_leftTitle->setObjectName(QStringLiteral("diffLeftTitle"));
    m_rightTitle->setObjectName(QStringLiteral("diffRightTitle"));
    m_status->setWordWrap(true); // the hunk line and its keys wrap in a narrow window
    layout->addWidget(m_status);
    m_left->setObjectName(QStringLiteral("diffLeft"));
    m_right->setObjectName(QStringLiteral("diffRight"));
    // Side by side: both panes scroll together.
    connect(
        m_left->verticalScrollBar(), &QScrollBar::valueChanged, m_right->verticalScrollBar(), &QScrollBar::setValue);
    connect(
        m_right->verticalScrollBar(), &QScrollBar::valueChanged, m_left->verticalScrollBar(), &QScrollBar::setValue);
    m_left->installEventFilter(this);
    m_right->installEventFilter(this);
    setFocusPolicy(Qt::StrongFocus);
    updateStatus();
}

void DiffView::setTexts(const QString& fileName, const QString& oldText, const QString& newText)
{
    m_fileName = fileName;
    m_old = textdiff::splitLines(oldText);
    m_new = textdiff::splitLines(newText);
    m_runs = textdiff::diffLines(m_old.lines, m_new.lines);
    m_changes = textdiff::changes(m_runs);
    m_accepted = QList<bool>(m_changes.size(), true);
    m_current = m_changes.isEmpty() ? -1 : 0;
    m_reviewable = true;
    delete m_leftHighlighter;
    delete m_rightHighlighter;
    m_leftHighlighter = m_rightHighlighter = nullptr;
    rebuild();
    Q_EMIT resultChanged();
}

void DiffView::setSideTitles(const QString& oldSide, const QString& newSide)
{
    m_oldSide = oldSide;
    m_newSide = newSide;
    updateTitles();
}

void DiffView::updateTitles()
{
    const QString file = m_fileName.toHtmlEscaped();
    const bool split = m_mode == Mode::SideBySide;
    auto side = [&](const QString& what) {
        return file.isEmpty() ? QStringLiteral("<b>%1</b>").arg(what.toHtmlEscaped())
                              : QStringLiteral("<b>%1</b> \u00b7 %2").arg(what.toHtmlEscaped(), file);
    };
    if (split) {
        m_leftTitle->setText(side(m_oldSide));
        m_rightTitle->setText(side(m_newSide));
    } else {
        // One column: the gutter's signs say which side a line is from.
        m_leftTitle->setText(
            tr("%1<span style=\"color:#b31d28\"><b>\u2212</b> %2</span>, <span style=\"color:#116b29\"><b>+</b> "
               "%3</span>")
                .arg(file.isEmpty() ? QString() : QStringLiteral("%1 \u00b7 ").arg(file), m_oldSide.toHtmlEscaped(),
                    m_newSide.toHtmlEscaped()));
    }
    m_leftTitle->setToolTip(plainToolTip(m_fileName));
    m_rightTitle->setToolTip(plainToolTip(m_fileName));
    m_rightTitle->setVisible(split);
    m_panes->setStretch(1, split ? 1 : 0); // a hidden column keeps no room
}

void DiffView::setMode(Mode mode)
{
    if (m_mode == mode)
        return;
    m_mode = mode;
    rebuild();
}

void DiffView::setReviewable(bool reviewable)
{
    m_reviewable = reviewable;
    updateStatus();
}

void DiffView::rebuild()
{
    m_rowsLeft.clear();
    m_rowsRight.clear();
    m_changeFirstRow = QList<int>(m_changes.size(), 0);
    m_changeLastRow = QList<int>(m_changes.size(), 0);
    const bool split = m_mode == Mode::SideBySide;
    int change = -1;
    bool inChange = false;
    // Side by side: both panes get the same height at the end of each change block.
    auto closeChange = [&] {
        if (!inChange)
            return;
        if (split) {
            while (m_rowsLeft.size() < m_rowsRight.size())
                m_rowsLeft.append(Row { -1, -1, change });
            while (m_rowsRight.size() < m_rowsLeft.size())
                m_rowsRight.append(Row { -1, -1, change });
        }
        m_changeLastRow[change] = int(m_rowsLeft.size()) - 1;
        inChange = false;
    };
    for (const textdiff::Run& r : std::as_const(m_runs)) {
        if (r.kind == textdiff::Run::Equal) {
            closeChange();
            for (int k = 0; k < r.length; ++k) {
                m_rowsLeft.append(Row { r.oldStart + k, r.newStart + k, -1 });
                if (split)
                    m_rowsRight.append(Row { r.oldStart + k, r.newStart + k, -1 });
            }
            continue;
        }
        if (!inChange) {
            inChange = true;
            ++change;
            m_changeFirstRow[change] = int(m_rowsLeft.size());
        }
        for (int k = 0; k < r.length; ++k) {
            if (r.kind == textdiff::Run::Delete)
                m_rowsLeft.append(Row { r.oldStart + k, -1, change });
            else if (split)
                m_rowsRight.append(Row { -1, r.newStart + k, change });
            else
                m_rowsLeft.append(Row { -1, r.newStart + k, change });
        }
    }
    closeChange();

    auto render = [&](DiffTextView* view, const QList<Row>& rows, bool unified) {
        QStringList text, labels;
        QString signs;
        text.reserve(rows.size());
        labels.reserve(rows.size());
        for (const Row& row : rows) {
            if (row.oldLine >= 0 && (row.newLine < 0 || view == m_left || unified)) {
                text.append(m_old.lines[row.oldLine]);
            } else if (row.newLine >= 0) {
                text.append(m_new.lines[row.newLine]);
            } else {
                text.append(QString());
            }
            if (unified) {
                labels.append(QStringLiteral("%1 %2")
                                  .arg(row.oldLine >= 0 ? QString::number(row.oldLine + 1) : QString(), 5)
                                  .arg(row.newLine >= 0 ? QString::number(row.newLine + 1) : QString(), 5));
                signs.append(row.change < 0 ? u' ' : row.newLine < 0 ? u'-' : u'+');
            } else if (view == m_left)
                labels.append(row.oldLine >= 0 ? QString::number(row.oldLine + 1) : QString());
            else
                labels.append(row.newLine >= 0 ? QString::number(row.newLine + 1) : QString());
        }
        view->setPlainText(text.join(QLatin1Char('\n')));
        view->setGutterLabels(labels);
        view->setGutterSigns(signs);
    };
    render(m_left, m_rowsLeft, !split);
    if (split)
        render(m_right, m_rowsRight, false);
    m_right->setVisible(split);
    updateTitles();
    if (layout())
        layout()->activate();
    if (!m_leftHighlighter)
        m_leftHighlighter = attachHighlighter(m_left->document(), m_fileName);
    if (!m_rightHighlighter)
        m_rightHighlighter = attachHighlighter(m_right->document(), m_fileName);
    recolor();
    if (m_current >= 0)
        goToHunk(m_current);
    updateStatus();
}

void DiffView::recolor()
{
    const bool split = m_mode == Mode::SideBySide;
    QList<QTextEdit::ExtraSelection> left, right;
    QTextDocument* ld = m_left->document();
    QTextDocument* rd = m_right->document();
    // Word changes between the i-th removed and the i-th added line of a block.
    for (qsizetype c = 0; c < m_changes.size(); ++c) {
        const textdiff::Change& ch = m_changes[c];
        const bool on = m_accepted.value(c);
        const int first = m_changeFirstRow[c];
        for (int row = first; row <= m_changeLastRow[c]; ++row) {
            const Row& l = m_rowsLeft[row];
            if (split) {
                const Row& r = m_rowsRight[row];
                left.append(lineSelection(ld, row, l.oldLine >= 0 ? (on ? kDelBg : kRejectedBg) : kFiller));
                right.append(lineSelection(rd, row, r.newLine >= 0 ? (on ? kAddBg : kRejectedBg) : kFiller));
            } else {
                left.append(
                    lineSelection(ld, row, l.oldLine >= 0 ? (on ? kDelBg : kRejectedBg) : (on ? kAddBg : kRejectedBg)));
            }
        }
        // Pair each removed line with the most alike added line after the previous pair
        // (in order), so a wrapped line is compared with itself, not with the new "if(".
        auto changedChars = [](const QList<textdiff::Span>& spans) {
            int n = 0;
            for (const textdiff::Span& sp : spans)
                n += sp.length;
            return n;
        };
        int nextNew = 0;
        for (int k = 0; k < ch.oldCount && nextNew < ch.newCount; ++k) {
            const QString& ol = m_old.lines[ch.oldStart + k];
            int best = -1;
            double bestRatio = 0.5; // at most half of each line may differ
            textdiff::WordDiff bestDiff;
            for (int j = nextNew; j < ch.newCount; ++j) {
                const QString& nl = m_new.lines[ch.newStart + j];
                const textdiff::WordDiff w = textdiff::diffWords(ol, nl);
                const double ratio = std::max(double(changedChars(w.oldChanged)) / std::max<qsizetype>(ol.size(), 1),
                    double(changedChars(w.newChanged)) / std::max<qsizetype>(nl.size(), 1));
                if (ratio < bestRatio) {
                    bestRatio = ratio;
                    best = j;
                    bestDiff = w;
                }
            }
            if (best < 0)
                continue;
            nextNew = best + 1;
            const int oldRow = first + k;
            const int newRow = split ? first + best : first + ch.oldCount + best;
            for (const textdiff::Span& sp : bestDiff.oldChanged)
                left.append(spanSelection(ld, oldRow, sp, on ? kDelWord : kRejectedBg, false));
            for (const textdiff::Span& sp : bestDiff.newChanged)
                (split ? right : left)
                    .append(spanSelection(split ? rd : ld, newRow, sp, on ? kAddWord : kRejectedBg, !on));
        }
    }
    m_left->setExtraSelections(left);
    m_right->setExtraSelections(right);
}

void DiffView::setAccepted(int hunk, bool accepted)
{
    if (hunk < 0 || hunk >= m_accepted.size() || m_accepted[hunk] == accepted)
        return;
    m_accepted[hunk] = accepted;
    recolor();
    updateStatus();
    Q_EMIT resultChanged();
}

void DiffView::setAllAccepted(bool accepted)
{
    bool changed = false;
    for (bool& a : m_accepted) {
        changed = changed || a != accepted;
        a = accepted;
    }
    if (!changed)
        return;
    recolor();
    updateStatus();
    Q_EMIT resultChanged();
}

QString DiffView::resultText() const
{
    textdiff::TextLines out = m_old;
    out.lines = textdiff::mergeAccepted(m_old.lines, m_new.lines, m_changes, m_accepted);
    // The final-newline state follows the new text when its last hunk is taken.
    if (!m_changes.isEmpty() && m_accepted.last()
        && m_changes.last().oldStart + m_changes.last().oldCount == m_old.lines.size())
        out.finalNewline = m_new.finalNewline;
    if (std::all_of(m_accepted.cbegin(), m_accepted.cend(), [](bool a) { return a; }))
        out.finalNewline = m_new.finalNewline;
    return textdiff::joinLines(out);
}

void DiffView::goToHunk(int index)
{
    if (index < 0 || index >= m_changes.size())
        return;
    m_current = index;
    const int first = m_changeFirstRow[index], last = m_changeLastRow[index];
    for (DiffTextView* v : { m_left, m_right }) {
        QTextCursor c(v->document()->findBlockByNumber(first));
        v->setTextCursor(c);
        v->centerCursor();
        v->setMarkedRange(first, last);
    }
    updateStatus();
    Q_EMIT currentHunkChanged(m_current, int(m_changes.size()));
}

void DiffView::nextHunk()
{
    if (!m_changes.isEmpty())
        goToHunk(std::min(m_current + 1, int(m_changes.size()) - 1));
}

void DiffView::previousHunk()
{
    if (!m_changes.isEmpty())
        goToHunk(std::max(m_current - 1, 0));
}

void DiffView::toggleCurrentHunk()
{
    if (m_current >= 0)
        setAccepted(m_current, !m_accepted[m_current]);
}

bool DiffView::handleKey(int key)
{
    if (!m_reviewable)
        return false;
    for (const HunkKeyRow& row : kHunkKeys) {
        if (row.key != key)
            continue;
        switch (row.action) {
        case HunkKey::Toggle: toggleCurrentHunk(); break;
        case HunkKey::Accept: setAccepted(m_current, true); break;
        case HunkKey::Reject: setAccepted(m_current, false); break;
        }
        return true;
    }
    return false;
}

bool DiffView::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::KeyPress) {
        auto* ke = static_cast<QKeyEvent*>(event);
        if ((ke->modifiers() & ~Qt::KeypadModifier) == Qt::NoModifier && handleKey(ke->key()))
            return true;
    }
    return QWidget::eventFilter(watched, event);
}

void DiffView::updateStatus()
{
    if (m_changes.isEmpty()) {
        m_status->setText(tr("No changes."));
        return;
    }
    if (!m_reviewable) {
        m_status->setText(tr("%n change block(s) · select a patch to accept or reject its hunks · n/p or "
                             "F7/Shift+F7: next/previous hunk",
            nullptr, int(m_changes.size())));
        return;
    }
    int accepted = 0;
    for (bool a : std::as_const(m_accepted))
        accepted += a ? 1 : 0;
    m_status->setText(tr("Hunk %1 of %2 (%3) · %4 of %2 accepted · n/p or F7/Shift+F7: move · Space: accept/reject")
                          .arg(m_current + 1)
                          .arg(m_changes.size())
                          .arg(m_accepted.value(m_current) ? tr("accepted") : tr("rejected"))
                          .arg(accepted));
}

} // namespace kf
