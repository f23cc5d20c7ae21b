// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QPlainTextEdit>
#include <QStringList>

namespace kf {

// A read-only, monospace, non-wrapping text view with a gutter that shows one label per
// block (line numbers, or "old new" pairs), optionally a sign column ('-' removed, '+' added)
// and a marker strip for the current hunk. It shows no caret: text is selected with the mouse,
// keys scroll and go to the holder (DiffView's Space, a, r).
class DiffTextView : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit DiffTextView(QWidget* parent = nullptr);
    void setGutterLabels(const QStringList& labels);
    // One sign per block ('-', '+' or ' '), drawn after the label; empty: no sign column.
    void setGutterSigns(const QString& signs);
    QString gutterSigns() const { return m_signs; }
    // Blocks [first, last] get the marker strip; first < 0 clears it.
    void setMarkedRange(int first, int last);
    int gutterWidth() const;
    void paintGutter(QPaintEvent* event);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void updateGutterGeometry();
    QWidget* m_gutter;
    QStringList m_labels;
    QString m_signs;
    int m_labelChars = 1;
    int m_markFirst = -1;
    int m_markLast = -1;
};

} // namespace kf
