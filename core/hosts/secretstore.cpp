// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/hosts/secretstore.h"

#ifdef KF_HAVE_QTKEYCHAIN
#include <QCoreApplication>
#include <QThread>
#include <qt6keychain/keychain.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#endif

namespace kf {

QString SecretStore::passwordKey(const QString& user, const QString& host, quint16 port)
{
    return user + QLatin1Char('@') + host + QLatin1Char(':') + QString::number(port);
}

QString SecretStore::passphraseKey(const QString& keyFile)
{
    return keyFile;
}

#ifdef KF_HAVE_QTKEYCHAIN
namespace {

// qtkeychain jobs are asynchronous QObjects that need an event loop, and its job queue
// (QKeychain's JobExecutor) is a process-wide QObject bound to the thread of the first job:
// all jobs therefore run on one process-wide thread that lives until the application ends.
// A session thread cannot host them: a nested event loop there would re-enter its libssh2
// socket handling.
QThread* keychainThread()
{
    static QThread* thread = [] {
        auto* t = new QThread;
        t->setObjectName(QStringLiteral("kf-keychain"));
        t->start();
        qAddPostRoutine([] {
            QThread* th = keychainThread();
            th->quit();
            th->wait();
        });
        return t;
    }();
    return thread;
}

struct JobOutcome
{
    std::mutex mutex;
    std::condition_variable cv;
    bool done = false;
    QKeychain::Error error = QKeychain::NoError;
    QString errorString;
    QByteArray data;
};

QString describeError(QKeychain::Error error, const QString& detail)
{
    switch (error) {
    case QKeychain::NoError: return {};
    case QKeychain::EntryNotFound: return QStringLiteral("no entry in the keychain");
    case QKeychain::AccessDeniedByUser: return QStringLiteral("the keychain was not unlocked");
    case QKeychain::NoBackendAvailable:
        return QStringLiteral("no system keychain is available (%1)")
            .arg(detail.isEmpty() ? QStringLiteral("no Secret Service") : detail);
    default: return QStringLiteral("keychain error: %1").arg(detail.isEmpty() ? QStringLiteral("unknown") : detail);
    }
}

class KeychainSecretStore final : public SecretStore
{
public:
    explicit KeychainSecretStore(int timeoutMs)
        : m_timeoutMs(timeoutMs)
    { }

    Result<std::optional<QByteArray>> read(const QString& key) override
    {
        auto out = run([key] {
            auto* job = new QKeychain::ReadPasswordJob(QLatin1String(kService));
            job->setKey(key);
            return job;
        });
        if (!out)
            return out.withoutValue();
        const JobOutcome& o = *out.value();
        if (o.error == QKeychain::EntryNotFound)
            return std::optional<QByteArray>();
        if (o.error != QKeychain::NoError)
            return Result<std::optional<QByteArray>>::failure(describeError(o.error, o.errorString));
        return std::optional<QByteArray>(o.data);
    }

    Result<void> write(const QString& key, const QByteArray& secret) override
    {
        auto out = run([key, secret] {
            auto* job = new QKeychain::WritePasswordJob(QLatin1String(kService));
            job->setKey(key);
            job->setBinaryData(secret);
            return job;
        });
        if (!out)
            return out.withoutValue();
        const JobOutcome& o = *out.value();
        if (o.error != QKeychain::NoError)
            return Result<void>::failure(describeError(o.error, o.errorString));
        return {};
    }

    Result<void> remove(const QString& key) override
    {
        auto out = run([key] {
            auto* job = new QKeychain::DeletePasswordJob(QLatin1String(kService));
            job->setKey(key);
            return job;
        });
        if (!out)
            return out.withoutValue();
        const JobOutcome& o = *out.value();
        if (o.error != QKeychain::NoError && o.error != QKeychain::EntryNotFound)
            return Result<void>::failure(describeError(o.error, o.errorString));
        return {};
    }

private:
    // Creates the job on the keychain thread, starts it there and waits for its end.
    template <typename MakeJob> Result<std::shared_ptr<JobOutcome>> run(MakeJob make)
    {
        QThread* thread = keychainThread();
        if (QThread::currentThread() == thread)
            return Result<std::shared_ptr<JobOutcome>>::failure(QStringLiteral("keychain called from its own thread"));
        auto out = std::make_shared<JobOutcome>();
        // The context object lives on the keychain thread, so the lambda runs there.
        auto* context = new QObject;
        context->moveToThread(thread);
        QMetaObject::invokeMethod(
            context,
            [make, out, context] {
                QKeychain::Job* job = make();
                job->setAutoDelete(true);
                job->setInsecureFallback(false); // never a plain-text file instead of the keychain
                QObject::connect(job, &QKeychain::Job::finished, context, [out, context](QKeychain::Job* j) {
                    std::lock_guard lock(out->mutex);
                    out->error = j->error();
                    out->errorString = j->errorString();
                    if (auto* r = qobject_cast<QKeychain::ReadPasswordJob*>(j))
                        out->data = r->binaryData();
                    out->done = true;
                    out->cv.notify_all();
                    context->deleteLater();
                });
                job->start();
            },
            Qt::QueuedConnection);
        std::unique_lock lock(out->mutex);
        const auto finished = [&out] { return out->done; };
        if (m_timeoutMs < 0)
            out->cv.wait(lock, finished);
        else if (!out->cv.wait_for(lock, std::chrono::milliseconds(m_timeoutMs), finished))
            return Result<std::shared_ptr<JobOutcome>>::failure(
                QStringLiteral("the keychain did not answer within %1 s").arg(m_timeoutMs / 1000));
        return out;
    }

    int m_timeoutMs;
};

} // namespace

std::shared_ptr<SecretStore> SecretStore::createSystem(int timeoutMs)
{
    return std::make_shared<KeychainSecretStore>(timeoutMs);
}
// An unlock prompt of the desktop is a person typing: bounded generously.
std::shared_ptr<SecretStore> SecretStore::createSystem()
{
    return createSystem(120000);
}
#else
std::shared_ptr<SecretStore> SecretStore::createSystem(int)
{
    return {};
}
std::shared_ptr<SecretStore> SecretStore::createSystem()
{
    return {};
}
#endif

} // namespace kf
