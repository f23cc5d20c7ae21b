// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/common/emptystate.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace kf {

EmptyState::EmptyState(QWidget* parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_text(new QLabel(this))
    , m_actions(new QWidget(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->addStretch(2);
    QFont f = m_title->font();
    f.setPointSizeF(f.pointSizeF() * 1.4);
    f.setBold(true);
    m_title->setFont(f);
    m_title->setAlignment(Qt::AlignCenter);
    // A GPU pane says what nvidia-smi said here: plain text.
    m_title->setTextFormat(Qt::PlainText);
    m_text->setTextFormat(Qt::PlainText);
    m_text->setAlignment(Qt::AlignCenter);
    m_text->setWordWrap(true);
    m_text->setFixedWidth(560); // fixed width lets the wrapped label compute its height
    m_text->setForegroundRole(QPalette::PlaceholderText);
    auto* row = new QHBoxLayout(m_actions);
    row->setContentsMargins(0, 12, 0, 0);
    row->setSpacing(12);
    m_actions->hide();
    layout->addWidget(m_title);
    layout->addWidget(m_text, 0, Qt::AlignHCenter);
    layout->addWidget(m_actions, 0, Qt::AlignHCenter);
    layout->addStretch(3);
}

void EmptyState::setTitle(const QString& title)
{
    m_title->setText(title);
}
void EmptyState::setText(const QString& text)
{
    m_text->setText(text);
    // An aligned item gets no height-for-width from the layout; give the wrapped text its height.
    m_text->setMinimumHeight(qMax(0, m_text->heightForWidth(m_text->width())));
}

QPushButton* EmptyState::addAction(const QString& label, const QString& objectName)
{
    auto* button = new QPushButton(label, m_actions);
    button->setObjectName(objectName);
    m_actions->layout()->addWidget(button);
    m_actions->show();
    return button;
}

} // namespace kf
