// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/remotebuild/memorygateview.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace kf {
namespace {

enum Column { Unit, State, Expected, Now, Peak, Time };

QString mb(qint64 kb)
{
    return kb < 0 ? QStringLiteral("–") : QStringLiteral("%1 MB").arg(kb / 1024);
}

QString seconds(qint64 ms)
{
    return ms < 0 ? QStringLiteral("–") : QStringLiteral("%1 s").arg(double(ms) / 1000.0, 0, 'f', 1);
}

QString finishedState(const GateUnit& u)
{
    if (u.status == QLatin1String("0"))
        return MemoryGateView::tr("done");
    if (u.status == QLatin1String("signal 9"))
        return MemoryGateView::tr("killed (signal 9)");
    return MemoryGateView::tr("failed (%1)").arg(u.status);
}

} // namespace

MemoryGateView::MemoryGateView(QWidget* parent)
    : QWidget(parent)
    , m_summary(new QLabel(this))
    , m_units(new QTreeWidget(this))
{
    setObjectName(QStringLiteral("memoryGateView"));
    m_summary->setObjectName(QStringLiteral("memoryGateSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_units->setObjectName(QStringLiteral("memoryGateUnits"));
    m_units->setHeaderLabels({ tr("Unit"), tr("State"), tr("Expected"), tr("RSS now"), tr("Peak"), tr("Time") });
    m_units->setRootIsDecorated(false);
    m_units->setUniformRowHeights(true);
    m_units->setAlternatingRowColors(true);
    m_units->header()->setStretchLastSection(false);
    m_units->header()->setSectionResizeMode(Unit, QHeaderView::Stretch);
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(m_summary);
    l->addWidget(m_units, 1);
    clear();
}

void MemoryGateView::clear()
{
    m_units->clear();
    m_summary->setText(tr("No memory gate has run in this build yet (a profile with memory_gate: false has none)."));
}

void MemoryGateView::setStatus(const GateStatus& s)
{
    if (!s.present) {
        clear();
        return;
    }
    QString text = tr("Memory gate: %1 compiling, %2 waiting for memory, %3 done")
                       .arg(s.running.size())
                       .arg(s.waiting.size())
                       .arg(s.done);
    if (s.retried > 0)
        text += tr(", %1 run again alone after the OOM killer stopped them").arg(s.retried);
    if (s.failed > 0)
        text += tr(", %1 failed").arg(s.failed);
    if (s.limitKb > 0)
        text += tr(". %1 of %2 available (%3), %4 kept in reserve.")
                    .arg(mb(s.availableKb), mb(s.limitKb), s.source, mb(s.reserveKb));
    m_summary->setText(text);

    // Times are the server's (the ledger's clock), so a skewed client clock does not matter.
    m_units->clear();
    auto row = [&](const GateUnit& u, const QString& state, qint64 sinceMs) {
        auto* item = new QTreeWidgetItem(m_units,
            { u.unit, state, u.expectedKb > 0 ? mb(u.expectedKb) : QStringLiteral("–"), mb(u.rssKb), mb(u.peakKb),
                seconds(sinceMs >= 0 ? sinceMs : u.wallMs) });
        item->setToolTip(Unit, u.unit + QStringLiteral(" (") + u.kind + QLatin1Char(')'));
        for (int c = Expected; c <= Time; ++c)
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        return item;
    };
    for (const GateUnit& u : s.running)
        row(u, u.exclusive ? tr("compiling alone") : tr("compiling"), s.updatedMs - u.sinceMs);
    for (const GateUnit& u : s.waiting)
        row(u, u.exclusive ? tr("waiting to run alone") : tr("waiting for memory"), s.updatedMs - u.sinceMs)
            ->setForeground(State, QColor(0xc7, 0x8a, 0x00));
    for (auto it = s.recent.crbegin(); it != s.recent.crend(); ++it) {
        QTreeWidgetItem* item = row(*it, finishedState(*it), -1);
        if (it->status != QLatin1String("0"))
            item->setForeground(State, QColor(0xd9, 0x3f, 0x3f));
    }
    for (int c = State; c <= Time; ++c)
        m_units->resizeColumnToContents(c);
}

} // namespace kf
