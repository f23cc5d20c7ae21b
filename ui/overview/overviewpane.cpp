// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/overview/overviewpane.h"

#include "core/hosts/hostconnection.h"
#include "ui/common/elidedlabel.h"
#include "ui/common/verticalscrollarea.h"
#include "ui/hosts/serverfactswidget.h"

#include <QFrame>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace kf {
namespace {

struct TourStep
{
    const char* title;
    const char* text;
    const char* button;
    OverviewPane::Step step;
};

// The story of a deployment, in the order a person does it.
const TourStep kTour[] = {
    { QT_TRANSLATE_NOOP("kf::OverviewPane", "Review the patches"),
        QT_TRANSLATE_NOOP("kf::OverviewPane",
            "The built-in set “sgl-kernel for Blackwell (SM120) on CUDA 13” is planned against the files as they are "
            "on the server: four edits, each with why it is needed. Accept or reject per hunk."),
        QT_TRANSLATE_NOOP("kf::OverviewPane", "Open Patches"), OverviewPane::Step::Patches },
    { QT_TRANSLATE_NOOP("kf::OverviewPane", "Apply them safely"),
        QT_TRANSLATE_NOOP("kf::OverviewPane",
            "Apply selected: each file is re-read and compared, backed up, written atomically and verified. A second "
            "apply changes nothing. Roll back from the history at any time."),
        QT_TRANSLATE_NOOP("kf::OverviewPane", "Open Patches"), OverviewPane::Step::Patches },
    { QT_TRANSLATE_NOOP("kf::OverviewPane", "Preflight and build"),
        QT_TRANSLATE_NOOP("kf::OverviewPane",
            "Preflight checks CUDA, CMake, the CCCL include and the memory budget. The build runs detached on the "
            "server, so it survives closing the laptop; progress, ETA and errors stream in."),
        QT_TRANSLATE_NOOP("kf::OverviewPane", "Open Build"), OverviewPane::Step::Build },
    { QT_TRANSLATE_NOOP("kf::OverviewPane", "Watch the GPUs"),
        QT_TRANSLATE_NOOP("kf::OverviewPane",
            "One long-lived nvidia-smi stream per host: utilisation, memory, power, clocks and throttle reasons per "
            "GPU, with alerts."),
        QT_TRANSLATE_NOOP("kf::OverviewPane", "Open GPUs"), OverviewPane::Step::Gpus },
    { QT_TRANSLATE_NOOP("kf::OverviewPane", "Launch and watch the server"),
        QT_TRANSLATE_NOOP("kf::OverviewPane",
            "Start SGLang detached and follow tokens/s, queue, KV-cache use and latency from /metrics through an SSH "
            "tunnel: no port needs to be open."),
        QT_TRANSLATE_NOOP("kf::OverviewPane", "Open Server"), OverviewPane::Step::Server },
};

} // namespace

OverviewPane::OverviewPane(const AppContext& context, HostConnection* host, QWidget* parent)
    : HostPane(host, parent)
    , m_context(context)
    , m_title(new ElidedLabel(this))
    , m_state(new QLabel(this))
    , m_tour(new QFrame(this))
    , m_extra(new QVBoxLayout)
{
    // Title, tour and facts are taller than a small window: they scroll (vertically only).
    auto* content = new QWidget(this);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(new VerticalScrollArea(content, this));
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(24, 18, 24, 18);
    QFont big = m_title->font();
    big.setPointSizeF(big.pointSizeF() * 1.5);
    big.setBold(true);
    m_title->setFont(big);
    m_state->setWordWrap(true);
    m_state->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_state->setTextFormat(Qt::RichText); // every remote part escaped
    layout->addWidget(m_title);
    layout->addWidget(m_state);

    auto* tourLayout = new QGridLayout(m_tour);
    m_tour->setObjectName(QStringLiteral("firstRunTour"));
    auto* heading = new QLabel(tr("<b>First run: the whole story on this server</b>"), m_tour);
    heading->setWordWrap(true);
    tourLayout->addWidget(heading, 0, 0, 1, 3);
    int row = 1;
    for (const TourStep& s : kTour) {
        auto* number = new QLabel(QStringLiteral("<b>%1</b>").arg(row), m_tour);
        auto* text = new QLabel(QStringLiteral("<b>%1</b><br>%2").arg(tr(s.title), tr(s.text)), m_tour);
        text->setWordWrap(true);
        auto* button = new QPushButton(tr(s.button), m_tour);
        const Step step = s.step;
        connect(button, &QPushButton::clicked, this, [this, step] { Q_EMIT openStep(step); });
        tourLayout->addWidget(number, row, 0, Qt::AlignTop);
        tourLayout->addWidget(text, row, 1);
        tourLayout->addWidget(button, row, 2, Qt::AlignTop);
        ++row;
    }
    tourLayout->setColumnStretch(1, 1);
    layout->addWidget(m_tour);
    layout->addLayout(m_extra);
    m_facts = new ServerFactsWidget(this);
    m_extra->addWidget(m_facts);
    layout->addStretch(1);
    connect(host, &HostConnection::stateChanged, this, &OverviewPane::refresh);
    refresh();
}

void OverviewPane::refresh()
{
    if (!m_host)
        return;
    const HostProfile& p = m_host->profile();
    m_title->setText(p.name); // elided: the whole name is in the tooltip
    QString state = QStringLiteral("<b>%1</b> — %2").arg(p.destination().toHtmlEscaped(), toString(m_host->state()));
    if (!m_host->stateReason().isEmpty())
        state += QStringLiteral(": ") + m_host->stateReason().toHtmlEscaped();
    if (p.isDemo)
        state += tr("<br>This is the built-in demo server: a private OpenSSH server on 127.0.0.1 with a replayed 8-GPU "
                    "nvidia-smi, a small sgl-kernel-like project in its home folder and an SGLang-like metrics server. "
                    "Everything it starts stops when KernelForge exits.");
    else if (m_host->state() == ConnectionState::Disconnected || m_host->state() == ConnectionState::Failed)
        state += tr("<br>Double-click the host in the sidebar (or Hosts > Connect) to connect.");
    m_state->setText(state);
    m_tour->setVisible(p.isDemo || m_host->state() == ConnectionState::Ready);
    // The facts card: one remote script per pane, once the host is Ready.
    if (m_host->state() == ConnectionState::Ready && !m_factsLoaded && m_host->transport()) {
        m_factsLoaded = true;
        m_facts->load(m_host->transport());
    }
}

} // namespace kf
