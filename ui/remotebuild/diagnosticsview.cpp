// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/remotebuild/diagnosticsview.h"

#include "ui/common/plaintext.h"
#include "ui/common/treedetail.h"

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace kf {
namespace {

enum Role { DiagRole = Qt::UserRole + 1, RankRole };

const QColor kError(0xd9, 0x3f, 0x3f);
const QColor kWarning(0xc7, 0x8a, 0x00);

} // namespace

DiagnosticsView::DiagnosticsView(QWidget* parent)
    : QWidget(parent)
    , m_list(new QTreeWidget(this))
    , m_cause(new QLabel(this))
    , m_fix(new QPushButton(this))
{
    m_list->setObjectName(QStringLiteral("diagnostics"));
    m_list->setHeaderLabels({ tr("Severity"), tr("Location"), tr("Message"), tr("Hint") });
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setAlternatingRowColors(true);
    m_list->header()->setStretchLastSection(true);
    m_cause->setObjectName(QStringLiteral("rootCause"));
    m_cause->setWordWrap(true);
    m_cause->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_cause->setTextFormat(Qt::RichText);
    m_cause->hide();
    m_fix->setObjectName(QStringLiteral("offerFix"));
    m_fix->hide();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_cause);
    layout->addWidget(m_fix, 0, Qt::AlignLeft);
    layout->addWidget(treeWithDetail(m_list, QStringLiteral("diagnosticDetail")), 1);

    connect(m_list, &QTreeWidget::itemActivated, this,
        [this](QTreeWidgetItem* item) { Q_EMIT diagnosticActivated(item->data(0, DiagRole).value<Diagnostic>()); });
    connect(m_fix, &QPushButton::clicked, this, [this] {
        if (m_offered)
            Q_EMIT fixRequested(*m_offered);
    });
}

void DiagnosticsView::clear()
{
    m_list->clear(); // the detail follows the (now no) current row
    m_cause->clear();
    m_cause->hide();
    m_fix->hide();
    m_offered.reset();
}

void DiagnosticsView::add(const Diagnostic& d)
{
    const int rank = int(rankOf(d));
    auto* item = new QTreeWidgetItem({ toString(d.severity) + (isOutOfMemory(d) ? tr(" (OOM)") : QString()),
        diagnosticLocation(d), d.message, hintText(d.hint) });
    item->setData(0, DiagRole, QVariant::fromValue(d));
    item->setData(0, RankRole, rank);
    item->setToolTip(2, plainToolTip(d.message));
    item->setToolTip(3, hintText(d.hint));
    if (d.severity == Diagnostic::Severity::Error)
        item->setForeground(0, kError);
    else if (d.severity == Diagnostic::Severity::Warning)
        item->setForeground(0, kWarning);
    // After every row of its rank or a more telling one: causes first, each rank in log order.
    int at = m_list->topLevelItemCount();
    while (at > 0 && m_list->topLevelItem(at - 1)->data(0, RankRole).toInt() > rank)
        --at;
    m_list->insertTopLevelItem(at, item);
    if (m_list->topLevelItemCount() <= 20)
        for (int c = 0; c < 2; ++c)
            m_list->resizeColumnToContents(c);
}

void DiagnosticsView::showEnd(const RootCause& cause, const std::optional<BuildFix>& fix, bool failed)
{
    m_offered = failed ? fix : std::nullopt;
    if (!failed) {
        m_cause->hide();
        m_fix->hide();
        return;
    }
    QString html;
    if (cause.retained) {
        const Diagnostic& d = *cause.diagnostic;
        html = tr("<b>Root cause</b>: %1").arg(diagnosticText(d).toHtmlEscaped());
        if (d.hint != Diagnostic::Hint::None)
            html += QStringLiteral("<br>") + tr("<b>Hint</b>: %1").arg(hintText(d.hint).toHtmlEscaped());
    } else {
        html = cause.missing.toHtmlEscaped();
        if (cause.diagnostic)
            html += QStringLiteral("<br>")
                + tr("The log ends with: %1").arg(diagnosticText(*cause.diagnostic).toHtmlEscaped());
    }
    m_cause->setText(html);
    m_cause->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_cause->show();
    m_fix->setText(m_offered ? tr("Fix: %1\u2026").arg(m_offered->title) : QString());
    m_fix->setEnabled(true);
    m_fix->setVisible(m_offered.has_value());
    // The cause (or the summary standing for it) is the first row: select it, its text in full below.
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = m_list->topLevelItem(i);
        if (cause.diagnostic && item->data(0, DiagRole).value<Diagnostic>() == *cause.diagnostic) {
            m_list->setCurrentItem(item);
            break;
        }
    }
}

void DiagnosticsView::setFixBusy(bool busy)
{
    m_fix->setEnabled(!busy);
}

} // namespace kf
