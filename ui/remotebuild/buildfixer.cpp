// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/remotebuild/buildfixer.h"

#include "core/transport/transportpool.h"
#include "ui/diff/diffview.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace kf {

BuildFixer::BuildFixer(QWidget* dialogParent)
    : QObject(dialogParent)
    , m_parent(dialogParent)
{ }

void BuildFixer::offer(std::shared_ptr<Transport> transport, const BuildFix& fix, const BuildProfile& built)
{
    if (fix.kind == BuildFix::Kind::Patch) {
        Q_EMIT patchReviewRequested(fix, built.workingDirectory);
        return;
    }
    if (!transport)
        return;
    Q_EMIT busyChanged(true);
    m_requests.track(
        QtConcurrent::run(transportPool(), [transport, fix, built] { return fixedProfile(*transport, fix, built); }),
        [this, fix, built](const Result<BuildProfile>& changed) {
            Q_EMIT busyChanged(false);
            if (!changed) {
                Q_EMIT failed(tr("Cannot prepare \"%1\": %2").arg(fix.title, changed.error()));
                return;
            }
            ask(fix, built, *changed);
        });
}

void BuildFixer::ask(const BuildFix& fix, const BuildProfile& before, const BuildProfile& after)
{
    if (m_dialog)
        m_dialog->close();
    auto* dlg = new QDialog(m_parent);
    m_dialog = dlg;
    dlg->setObjectName(QStringLiteral("profileFix"));
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    dlg->setWindowTitle(fix.title);
    auto* why = new QLabel(tr("The build profile %1 changes as shown; Apply saves it to your profiles and builds "
                              "again in the same build folder (ninja goes on from what is built).")
                               .arg(before.name),
        dlg);
    why->setWordWrap(true);
    auto* diff = new DiffView(dlg);
    diff->setObjectName(QStringLiteral("profileFixDiff"));
    diff->setTexts(QStringLiteral("build profile"), QString::fromUtf8(serializeBuildProfiles({ before })),
        QString::fromUtf8(serializeBuildProfiles({ after })));
    diff->setSideTitles(tr("Now"), tr("After Apply"));
    diff->setReviewable(false);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, dlg);
    QPushButton* apply = buttons->addButton(tr("Apply and build again"), QDialogButtonBox::AcceptRole);
    apply->setObjectName(QStringLiteral("applyProfileFix"));
    auto* layout = new QVBoxLayout(dlg);
    layout->addWidget(why);
    layout->addWidget(diff, 1);
    layout->addWidget(buttons);
    dlg->resize(720, 480);
    connect(buttons, &QDialogButtonBox::rejected, dlg, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, dlg, [this, dlg, after] {
        dlg->accept();
        Q_EMIT profileAccepted(after);
    });
    dlg->open();
}

} // namespace kf
