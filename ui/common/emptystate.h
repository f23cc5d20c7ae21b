// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;

namespace kf {

// A centred title, explanation and optional actions (a row of buttons), for panes with nothing
// to show yet.
class EmptyState : public QWidget
{
    Q_OBJECT
public:
    explicit EmptyState(QWidget* parent = nullptr);
    void setTitle(const QString& title);
    void setText(const QString& text);
    // Adds a button to the row; returns it so the caller can connect clicked().
    QPushButton* addAction(const QString& label, const QString& objectName);

private:
    QLabel* m_title;
    QLabel* m_text;
    QWidget* m_actions;
};

} // namespace kf
