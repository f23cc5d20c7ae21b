// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/remotebuild/buildfix.h"
#include "core/util/jobtracker.h"

#include <QObject>
#include <QPointer>

#include <memory>

class QDialog;
class QWidget;

namespace kf {

class Transport;

// The Build pane's half of "from diagnosis to fix" (core/remotebuild/buildfix.h). A patch fix goes
// to the window (patchReviewRequested: the Patches tab opens its review). A profile fix is
// prepared on the server (the memory that fits, where the missing tool is) and shown as a diff
// of the profile's YAML in a dialog (object name "profileFix", its Apply button "applyProfileFix");
// Apply hands the changed profile back (profileAccepted), to be saved and built again.
class BuildFixer : public QObject
{
    Q_OBJECT
public:
    explicit BuildFixer(QWidget* dialogParent);

    void offer(std::shared_ptr<Transport> transport, const BuildFix& fix, const BuildProfile& built);
    // The profile change's dialog while it is open (tests answer it); null otherwise.
    QDialog* dialog() const { return m_dialog; }

Q_SIGNALS:
    void patchReviewRequested(const kf::BuildFix& fix, const QString& root);
    void profileAccepted(const kf::BuildProfile& changed);
    void busyChanged(bool busy);
    void failed(const QString& why);

private:
    void ask(const BuildFix& fix, const BuildProfile& before, const BuildProfile& after);

    QWidget* m_parent;
    QPointer<QDialog> m_dialog;
    JobTracker m_requests { this };
};

} // namespace kf
