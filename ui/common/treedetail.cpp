// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/common/treedetail.h"

#include <QHeaderView>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeWidget>

namespace kf {

QWidget* treeWithDetail(QTreeWidget* tree, const QString& detailName)
{
    auto* split = new QSplitter(Qt::Vertical, tree->parentWidget());
    auto* detail = new QTextBrowser(split);
    detail->setObjectName(detailName);
    detail->setOpenLinks(false);
    detail->setPlaceholderText(QObject::tr("Select a row to read it in full."));
    split->addWidget(tree);
    split->addWidget(detail);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    QObject::connect(tree, &QTreeWidget::currentItemChanged, detail, [tree, detail](QTreeWidgetItem* item) {
        QString html;
        for (int c = 0; item && c < tree->columnCount(); ++c)
            if (!item->text(c).isEmpty())
                html += QStringLiteral("<p><b>%1:</b> %2</p>")
                            .arg(tree->headerItem()->text(c).toHtmlEscaped(), item->text(c).toHtmlEscaped());
        detail->setHtml(html);
    });
    return split;
}

} // namespace kf
