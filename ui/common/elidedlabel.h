// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QLabel>

namespace kf {

// A one-line plain-text label (a host name, a title) that never makes its window wider: cut
// to the room there is with "…", and while it is cut its tooltip is the whole text (unless
// one was set). text() is always the whole text.
class ElidedLabel : public QLabel
{
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget* parent = nullptr, Qt::TextElideMode mode = Qt::ElideRight);

    // Whether the text is cut at the label's current width.
    bool isElided() const;
    // What a person reads: the text as cut to the current width.
    QString shownText() const;
    // The tooltip a person gets: the one set, or the whole text while it is cut.
    QString effectiveToolTip() const;

    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    Qt::TextElideMode m_mode;
};

} // namespace kf
