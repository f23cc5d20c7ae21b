// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/patch/textdiff.h"
#include "ui/common/shortcutinfo.h"

#include <QList>
#include <QWidget>

class QSyntaxHighlighter;
class QHBoxLayout;
class QLabel;

namespace kf {

class DiffTextView;

// Shows old -> new text side by side or unified, with line numbers, syntax colours, word
// changes marked, and one accept/reject switch per change block ("hunk"). The result
// (old text with the accepted hunks) updates live. Each side says what it is ("On server now",
// "After this patch") with the file name above it; the unified view marks lines '-' and '+'
// in its gutter.
// Keys: Space toggle, a accept, r reject the current hunk. Moving between hunks (n/p) is
// the holder's: its hunks may span several texts (PatchPane moves across patches).
class DiffView : public QWidget
{
    Q_OBJECT
public:
    enum class Mode { SideBySide, Unified };
    explicit DiffView(QWidget* parent = nullptr);
    // Space / a / r, from the table the view's key handling reads.
    static QList<ShortcutInfo> keyboardShortcuts();

    void setTexts(const QString& fileName, const QString& oldText, const QString& newText);
    // What the old and the new side are, shown with the file name (until changed).
    void setSideTitles(const QString& oldSide, const QString& newSide);
    QString oldSideTitle() const { return m_oldSide; }
    QString newSideTitle() const { return m_newSide; }
    void setMode(Mode mode);
    Mode mode() const { return m_mode; }
    // false: the hunks are shown without switches (Space, a, r do nothing); setTexts() makes
    // the view reviewable again.
    void setReviewable(bool reviewable);
    bool isReviewable() const { return m_reviewable; }

    int hunkCount() const { return int(m_changes.size()); }
    int currentHunk() const { return m_current; }
    bool isAccepted(int hunk) const { return m_accepted.value(hunk); }
    void setAccepted(int hunk, bool accepted);
    void setAllAccepted(bool accepted);
    QList<bool> acceptedMask() const { return m_accepted; }
    QString resultText() const;
    const QList<textdiff::Change>& hunks() const { return m_changes; }

public Q_SLOTS:
    void nextHunk();
    void previousHunk();
    void toggleCurrentHunk();
    void goToHunk(int index);

Q_SIGNALS:
    void resultChanged();
    void currentHunkChanged(int index, int count);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Row
    {
        int oldLine = -1; // 0-based, -1 filler / not shown
        int newLine = -1;
        int change = -1; // index into m_changes, -1 for equal rows
    };
    void rebuild();
    void recolor();
    void updateStatus();
    void updateTitles();
    bool handleKey(int key);

    Mode m_mode = Mode::SideBySide;
    QString m_fileName;
    QString m_oldSide;
    QString m_newSide;
    textdiff::TextLines m_old;
    textdiff::TextLines m_new;
    QList<textdiff::Run> m_runs;
    QList<textdiff::Change> m_changes;
    QList<bool> m_accepted;
    int m_current = -1;
    bool m_reviewable = true;

    QList<Row> m_rowsLeft;  // side by side: left pane rows; unified: all rows
    QList<Row> m_rowsRight; // side by side only
    QList<int> m_changeFirstRow;
    QList<int> m_changeLastRow;

    DiffTextView* m_left;
    DiffTextView* m_right;
    QHBoxLayout* m_panes; // the two columns (title over view); unified: the left one alone
    QLabel* m_leftTitle;
    QLabel* m_rightTitle;
    QLabel* m_status;
    QSyntaxHighlighter* m_leftHighlighter = nullptr;
    QSyntaxHighlighter* m_rightHighlighter = nullptr;
};

} // namespace kf
