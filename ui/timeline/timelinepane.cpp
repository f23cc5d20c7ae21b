// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/timeline/timelinepane.h"

#include "core/deploy/recipeexport.h"
#include "core/hosts/hostconnection.h"
#include "core/timeline/hostkey.h"
#include "core/timeline/report.h"
#include "ui/common/elidedlabel.h"
#include "ui/common/exportfolder.h"
#include "ui/timeline/recipedialog.h"
#include "ui/timeline/timelineview.h"

#include <QDateTime>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QPushButton>
#include <QSaveFile>
#include <QVBoxLayout>

namespace kf {
namespace {

Result<void> writeFile(const QString& path, const QByteArray& data)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(data) < 0 || !f.commit())
        return Result<void>::failure(QObject::tr("cannot write %1: %2").arg(path, f.errorString()));
    return {};
}

} // namespace

TimelinePane::TimelinePane(const AppContext& context, HostConnection* host, QWidget* parent)
    : HostPane(host, parent)
    , m_context(context)
    , m_title(new ElidedLabel(this))
    , m_message(new QLabel(this))
    , m_view(new TimelineView(this))
{
    setObjectName(QStringLiteral("TimelinePane"));
    auto* layout = new QVBoxLayout(this);
    auto* header = new QHBoxLayout();
    m_title->setObjectName(QStringLiteral("timelineTitle"));
    QFont f = m_title->font();
    f.setBold(true);
    m_title->setFont(f);
    // A long host name must not widen the window: elided, whole in the tooltip.
    header->addWidget(m_title, 1);
    auto* exportButton = new QPushButton(tr("Export report\u2026"), this);
    auto* saveButton = new QPushButton(tr("Save as recipe\u2026"), this);
    auto* applyButton = new QPushButton(tr("Apply recipe to host\u2026"), this);
    exportButton->setObjectName(QStringLiteral("exportReport"));
    saveButton->setObjectName(QStringLiteral("saveRecipe"));
    applyButton->setObjectName(QStringLiteral("applyRecipe"));
    exportButton->setToolTip(tr("A self-contained HTML file (or PNG + JSON) of this period to attach to a bug report"));
    saveButton->setToolTip(tr("What worked on this host: tool versions, patches with your hunk choices, the build "
                              "(environment names only), the verification and the server launch, as YAML"));
    applyButton->setToolTip(tr("Replay a recipe on a host: facts compared first, then plan, apply, build, verify, "
                               "launch"));
    header->addWidget(exportButton);
    header->addWidget(saveButton);
    header->addWidget(applyButton);
    layout->addLayout(header);
    m_message->setObjectName(QStringLiteral("timelineMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setTextFormat(Qt::PlainText);
    layout->addWidget(m_message);
    layout->addWidget(m_view, 1);
    m_view->setRecorder(context.timelineSeries);
    connect(m_view, &TimelineView::openPane, this, &TimelinePane::openPane);

    connect(exportButton, &QPushButton::clicked, this, [this] {
        const QString path = exportfolder::askSavePath(this, tr("Export timeline report"),
            QStringLiteral("kernelforge-timeline.html"), tr("HTML report (*.html);;Picture and events (*.png)"));
        if (path.isEmpty())
            return;
        const Result<void> done = exportReport(path);
        m_message->setText(done ? tr("Report written to %1").arg(path) : done.error());
    });
    connect(saveButton, &QPushButton::clicked, this, [this] {
        const QString path = exportfolder::askSavePath(
            this, tr("Save as recipe"), QStringLiteral("kernelforge-recipe.yaml"), tr("Recipes (*.yaml *.yml)"));
        if (path.isEmpty())
            return;
        const auto notes = saveRecipe(path);
        m_message->setText(notes
                ? tr("Recipe written to %1.%2")
                      .arg(path, notes->isEmpty() ? QString() : QStringLiteral(" ") + notes->join(QStringLiteral("; ")))
                : notes.error());
    });
    connect(applyButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Apply recipe to host"), QString(), tr("Recipes (*.yaml *.yml);;All files (*)"));
        if (!path.isEmpty())
            openRecipe(path);
    });
    const QString key = timeline::hostKey(host->profile());
    m_title->setText(tr("Timeline of %1 (%2)").arg(host->profile().name, key));
    m_view->setHost(key);
}

Result<void> TimelinePane::exportReport(const QString& path)
{
    if (m_view->host().isEmpty())
        return Result<void>::failure(tr("Select a host first."));
    if (path.endsWith(QLatin1String(".png"), Qt::CaseInsensitive)) {
        if (!m_view->grab().save(path, "PNG"))
            return Result<void>::failure(tr("cannot write %1").arg(path));
        QByteArray lines;
        for (const timeline::Event& e : m_view->events())
            lines += QJsonDocument(e.toJson()).toJson(QJsonDocument::Compact) + '\n';
        return writeFile(path.left(path.size() - 4) + QStringLiteral(".json"), lines);
    }
    timeline::ReportInput in;
    in.host = m_view->host();
    in.fromMs = m_view->from();
    in.toMs = m_view->to();
    in.generated = QDateTime::currentDateTimeUtc();
    for (const timeline::Event& e : m_view->events()) {
        const qint64 t = e.time.toMSecsSinceEpoch();
        if (t >= in.fromMs && t <= in.toMs)
            in.events.append(e);
    }
    in.series = m_view->reportSeries(1000);
    return writeFile(path, timeline::htmlReport(in));
}

Result<QStringList> TimelinePane::saveRecipe(const QString& path)
{
    if (!m_host)
        return Result<QStringList>::failure(tr("Select a host first."));
    const auto exported = deploy::exportRecipe(timeline::hostKey(m_host->profile()), m_host->profile().name);
    if (!exported)
        return Result<QStringList>::failure(exported.error());
    if (const Result<void> w = writeFile(path, deploy::serializeDeployRecipe(exported->recipe)); !w)
        return Result<QStringList>(w);
    return exported->notes;
}

RecipeDialog* TimelinePane::openRecipe(const QString& path)
{
    auto* dialog = new RecipeDialog(m_context, path, m_host, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // Each step lands in the target's timeline; show it when it is this one.
    connect(dialog, &RecipeDialog::replayFinished, m_view, &TimelineView::reload);
    dialog->show();
    return dialog;
}

} // namespace kf
