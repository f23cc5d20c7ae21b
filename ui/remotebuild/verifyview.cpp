// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/remotebuild/verifyview.h"

#include "core/transport/transportpool.h"
#include "core/verify/provenance.h"
#include "core/verify/verifyrun.h"
#include "ui/common/plaintext.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace kf {
namespace {

using Level = PreflightCheck::Level;

enum Role { CheckRole = Qt::UserRole + 1 };

const QColor kFail(0xd9, 0x3f, 0x3f);
const QColor kWarn(0xc7, 0x8a, 0x00);
const QColor kPass(0x2e, 0x8b, 0x57);

QColor levelColor(Level l)
{
    return l == Level::Fail ? kFail : l == Level::Warn ? kWarn : kPass;
}

// The check's id as a person names it.
QString checkName(const QString& id)
{
    if (id == QLatin1String("dir"))
        return QObject::tr("folder");
    if (id == QLatin1String("libraries"))
        return QObject::tr("libraries");
    if (id == QLatin1String("gpus"))
        return QObject::tr("GPUs");
    if (id == QLatin1String("arch"))
        return QObject::tr("SASS/PTX vs GPUs");
    if (id == QLatin1String("import"))
        return QObject::tr("import sgl_kernel");
    if (id == QLatin1String("fa3"))
        return QObject::tr("FA3");
    if (id == QLatin1String("wheel"))
        return QObject::tr("wheel");
    if (id == QLatin1String("provenance"))
        return QObject::tr("made by build");
    return id;
}

// The last lines of a command's output, for the detail of a failed import.
QString tail(const QByteArray& output, int lines)
{
    QStringList all = QString::fromUtf8(output).trimmed().split(QLatin1Char('\n'));
    if (all.size() > lines)
        all = all.mid(all.size() - lines);
    return all.join(QLatin1Char('\n'));
}

} // namespace

VerifyView::VerifyView(QWidget* parent)
    : QWidget(parent)
    , m_button(new QPushButton(tr("Verify"), this))
    , m_headline(new QLabel(this))
    , m_provenance(new QLabel(this))
    , m_checks(new QTreeWidget(this))
    , m_detail(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("verifyView"));
    m_button->setObjectName(QStringLiteral("verifyBuild"));
    m_button->setToolTip(tr("Check what the profile's folder holds: each library's SASS/PTX targets against this "
                            "host's GPUs, import sgl_kernel with the profile's python, FA3 as the flags say"));
    m_headline->setObjectName(QStringLiteral("verifyHeadline"));
    m_headline->setWordWrap(true);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_headline->setText(tr("Not verified yet: a build that succeeds is verified here, or press Verify."));
    m_provenance->setObjectName(QStringLiteral("verifyProvenance"));
    m_provenance->setWordWrap(true);
    m_provenance->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_provenance->hide();
    m_checks->setObjectName(QStringLiteral("verifyChecks"));
    m_checks->setHeaderLabels({ tr("Result"), tr("Check"), tr("Found"), tr("Fix") });
    m_checks->setRootIsDecorated(false);
    m_checks->setAlternatingRowColors(true);
    m_checks->header()->setStretchLastSection(true);
    m_detail->setObjectName(QStringLiteral("verifyDetail"));
    m_detail->setOpenLinks(false);
    m_detail->setPlaceholderText(tr("Select a check to read it in full."));

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_checks);
    split->addWidget(m_detail);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_headline);
    layout->addWidget(m_provenance);
    layout->addWidget(split, 1);

    connect(m_button, &QPushButton::clicked, this, &VerifyView::verifyRequested);
    connect(m_checks, &QTreeWidget::currentItemChanged, this, &VerifyView::showDetail);
}

void VerifyView::verify(std::shared_ptr<Transport> transport, const BuildProfile& profile)
{
    if (!transport)
        return;
    m_requests.cancelAll();
    m_running = true;
    m_button->setEnabled(false);
    m_checks->clear();
    m_detail->clear();
    m_headline->setTextFormat(Qt::PlainText);
    m_headline->setStyleSheet(QString());
    m_headline->setText(tr("Verifying %1 (%2)…").arg(profile.workingDirectory, profile.name));
    m_provenance->hide();
    VerifyRequest request;
    request.profile = profile;
    m_requests.track(
        QtConcurrent::run(transportPool(), [transport, request] { return verifyAndRecord(*transport, request); }),
        [this](const Result<VerifyReport>& r) {
            m_running = false;
            m_button->setEnabled(true);
            if (!r) {
                m_report.reset();
                m_headline->setTextFormat(Qt::PlainText);
                m_headline->setStyleSheet(QStringLiteral("color: #b00020;"));
                m_headline->setText(tr("Verification could not run: %1").arg(r.error()));
                Q_EMIT verified(false);
                return;
            }
            showReport(*r);
            Q_EMIT verified(!r->failed());
        });
}

void VerifyView::showReport(const VerifyReport& report)
{
    m_report = report;
    m_checks->clear();
    for (const PreflightCheck& c : report.checks) {
        auto* item = new QTreeWidgetItem(m_checks, { toString(c.level).toUpper(), checkName(c.id), c.message, c.fix });
        item->setData(0, CheckRole, c.id);
        item->setForeground(0, levelColor(c.level));
        QFont bold = item->font(0);
        bold.setBold(true);
        item->setFont(0, bold);
        item->setToolTip(2, plainToolTip(c.message)); // file and wheel member names are the server's
        item->setToolTip(3, plainToolTip(c.fix));
    }
    for (int c = 0; c < 2; ++c)
        m_checks->resizeColumnToContents(c);
    m_checks->setColumnWidth(2, std::max(m_checks->columnWidth(2), 420));

    QString head;
    Level level = Level::Pass;
    if (!report.launchBlockers().isEmpty()) {
        level = Level::Fail;
        head = tr("FAILED: a server launch on this host would fail (the Server tab refuses Launch until a "
                  "verification passes)");
    } else if (report.failed()) {
        level = Level::Fail;
        head = tr("FAILED");
    } else {
        const bool warn = std::any_of(report.checks.cbegin(), report.checks.cend(),
            [](const PreflightCheck& c) { return c.level == Level::Warn; });
        level = warn ? Level::Warn : Level::Pass;
        head = warn ? tr("PASSED with warnings") : tr("PASSED");
    }
    m_headline->setTextFormat(Qt::RichText);
    m_headline->setText(QStringLiteral("<b style=\"color:%1\">%2</b><br>%3")
                            .arg(levelColor(level).name(), head.toHtmlEscaped(), report.summary().toHtmlEscaped()));
    // Which build this result belongs to.
    QStringList makers;
    for (const QString& id : report.makers())
        if (const BuildRecord* b = report.build(id))
            makers << describeBuild(*b);
    m_provenance->setStyleSheet(QString());
    m_provenance->setText(makers.isEmpty()
            ? tr("Verified %1: no build in this machine's history made these libraries.")
                  .arg(QDateTime::currentDateTime().toString(QStringLiteral("HH:mm")))
            : tr("Verified %1: the libraries of %2.")
                  .arg(QDateTime::currentDateTime().toString(QStringLiteral("HH:mm")), makers.join(tr(" and "))));
    m_provenance->setProperty("outdated", false);
    m_provenance->show();
    // The first failure, else the first warning, is selected so its fix is in view.
    for (Level want : { Level::Fail, Level::Warn })
        for (int i = 0; i < m_checks->topLevelItemCount() && !m_checks->currentItem(); ++i)
            if (report.checks.value(i).level == want)
                m_checks->setCurrentItem(m_checks->topLevelItem(i));
}

void VerifyView::setLaterBuild(const QString& jobId, const QString& profile, const QString& state)
{
    if (!m_report)
        return; // nothing shown to mark
    m_provenance->setStyleSheet(QStringLiteral("color: #c78a00;"));
    m_provenance->setText(tr("Not current: build %1 (%2) %3 after this verification; the result below is of the "
                             "libraries before it. Press Verify to check what is there now.")
                              .arg(jobId, profile, state));
    m_provenance->setProperty("outdated", true);
    m_provenance->show();
}

void VerifyView::showDetail()
{
    QTreeWidgetItem* item = m_checks->currentItem();
    if (!item || !m_report) {
        m_detail->clear();
        return;
    }
    const PreflightCheck c = m_report->checks.value(m_checks->indexOfTopLevelItem(item));
    QString html = QStringLiteral("<p><b style=\"color:%1\">%2</b> %3</p><p>%4</p>")
                       .arg(levelColor(c.level).name(), toString(c.level).toUpper(), checkName(c.id).toHtmlEscaped(),
                           c.message.toHtmlEscaped());
    if (!c.fix.isEmpty())
        html += QStringLiteral("<p><b>%1</b> %2</p>").arg(tr("Fix:"), c.fix.toHtmlEscaped());
    const QByteArray output = c.id == QLatin1String("import") ? m_report->importOutput
        : c.id == QLatin1String("fa3")                        ? m_report->fa3ImportOutput
                                                              : QByteArray();
    if (c.level != Level::Pass && !output.trimmed().isEmpty())
        html += QStringLiteral("<p><b>%1</b></p><pre>%2</pre>")
                    .arg(tr("What Python printed (last lines):"), tail(output, 12).toHtmlEscaped());
    if (c.id == QLatin1String("arch") || c.id == QLatin1String("libraries")) {
        QString rows;
        for (const VerifyLibrary& l : m_report->libraries)
            rows += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td></tr>")
                        .arg(l.path.toHtmlEscaped(), l.origin,
                            l.noDeviceCode            ? tr("no CUDA code")
                                : l.targets.isEmpty() ? QStringLiteral("?")
                                                      : joinTargetNames(l.targets).toHtmlEscaped());
        if (!rows.isEmpty())
            html += QStringLiteral("<table cellspacing=\"4\"><tr><th align=\"left\">%1</th><th align=\"left\">%2</th>"
                                   "<th align=\"left\">%3</th></tr>%4</table>")
                        .arg(tr("Library"), tr("Origin"), tr("Targets"), rows);
    }
    m_detail->setHtml(html);
}

} // namespace kf
