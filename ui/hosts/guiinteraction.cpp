// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/hosts/guiinteraction.h"

#include "core/log/logging.h"
#include "ui/hosts/hostkeydialog.h"
#include "ui/hosts/secretdialog.h"

#include <QCoreApplication>
#include <QThread>

namespace kf {

GuiInteraction::GuiInteraction(QWidget* dialogParent, QObject* parent)
    : QObject(parent)
    , m_dialogParent(dialogParent)
    , m_secrets(SecretStore::createSystem())
{ }

HostKeyDecision GuiInteraction::askHostKey(const HostKeyInfo& info)
{
    if (QThread::currentThread() == thread())
        return showHostKey(info);
    std::lock_guard lock(m_askMutex);
    HostKeyDecision decision = HostKeyDecision::Reject;
    // Without a running GUI event loop the call would block forever; refuse instead.
    if (!QCoreApplication::instance() || QCoreApplication::closingDown())
        return decision;
    QMetaObject::invokeMethod(
        this, [this, &info, &decision] { decision = showHostKey(info); }, Qt::BlockingQueuedConnection);
    return decision;
}

std::optional<SecretAnswer> GuiInteraction::askSecret(const SecretRequest& request)
{
    if (QThread::currentThread() == thread())
        return showSecret(request);
    std::lock_guard lock(m_askMutex);
    std::optional<SecretAnswer> answer;
    if (!QCoreApplication::instance() || QCoreApplication::closingDown())
        return answer;
    QMetaObject::invokeMethod(
        this, [this, &request, &answer] { answer = showSecret(request); }, Qt::BlockingQueuedConnection);
    return answer;
}

HostKeyDecision GuiInteraction::showHostKey(const HostKeyInfo& info)
{
    Q_ASSERT(QThread::currentThread() == thread());
    HostKeyDialog dialog(info, m_dialogParent);
    Q_EMIT questionShown(&dialog);
    dialog.exec();
    Q_EMIT questionAnswered();
    // Changed and revoked keys are reported, never accepted, whatever happened in the dialog.
    const HostKeyDecision decision
        = info.kind == HostKeyInfo::Kind::Unknown ? dialog.decision() : HostKeyDecision::Reject;
    log::ui()->info("host key for {}:{} ({}): {}", info.host.toStdString(), info.port, info.fingerprint.toStdString(),
        decision == HostKeyDecision::AcceptAndSave    ? "accepted and saved"
            : decision == HostKeyDecision::AcceptOnce ? "accepted once"
                                                      : "rejected");
    return decision;
}

std::optional<SecretAnswer> GuiInteraction::showSecret(const SecretRequest& request)
{
    Q_ASSERT(QThread::currentThread() == thread());
    SecretDialog dialog(request, m_dialogParent);
    Q_EMIT questionShown(&dialog);
    dialog.exec();
    Q_EMIT questionAnswered();
    return dialog.takeAnswer();
}

} // namespace kf
