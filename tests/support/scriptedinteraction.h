// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/userinteraction.h"

#include <QList>

#include <functional>

#include <memory>

namespace kf::test {

// The user, scripted: answers host-key and secret questions as told and records every one.
class ScriptedInteraction final : public UserInteraction
{
public:
    explicit ScriptedInteraction(
        HostKeyDecision hostKeyAnswer = HostKeyDecision::Reject, std::shared_ptr<SecretStore> store = {})
        : hostKeyAnswer(hostKeyAnswer)
        , m_store(std::move(store))
    { }

    HostKeyDecision hostKeyAnswer;
    QList<QByteArray> answers;    // secrets, in order; when they run out the question is cancelled
    bool repeatLast = false;      // ... unless the last one is given again and again
    int maxSecretQuestions = -1;  // cancel from this many questions on (-1: no limit)
    bool storeInKeychain = false; // tick "store in the system keychain" where it is offered
    bool keepForSession = false;  // tick "keep for this session (not stored)" where it is offered
    // Called (on the session thread) before each secret question is answered: a person who
    // takes a while, e.g. a test that holds a reconnect's question until it has looked around.
    std::function<void(const SecretRequest&)> beforeAnswer;
    QList<HostKeyInfo> hostKeysAsked;
    QList<SecretRequest> asked;

    std::shared_ptr<SecretStore> secretStore() const override { return m_store; }
    HostKeyDecision askHostKey(const HostKeyInfo& info) override
    {
        hostKeysAsked << info;
        return hostKeyAnswer;
    }
    std::optional<SecretAnswer> askSecret(const SecretRequest& request) override
    {
        asked << request;
        if (beforeAnswer)
            beforeAnswer(request);
        if (answers.isEmpty() || (maxSecretQuestions >= 0 && asked.size() > maxSecretQuestions))
            return std::nullopt;
        SecretAnswer a;
        a.secret = repeatLast && answers.size() == 1 ? answers.first() : answers.takeFirst();
        a.storeInKeychain = storeInKeychain && request.offerKeychain;
        a.keepForSession = keepForSession && request.offerKeepForSession;
        return a;
    }

private:
    std::shared_ptr<SecretStore> m_store;
};

} // namespace kf::test
