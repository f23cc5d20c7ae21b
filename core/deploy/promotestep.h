// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/deploy/buildfingerprint.h"
#include "core/deploy/jitcache.h"
#include "core/deploy/step.h"
#include "core/remotebuild/buildprofile.h"
#include "core/util/result.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <atomic>

// Promote a verified build (issue #36): build once, run on every host it fits.
//
// On the source host (preparePromotion): its facts, a verification of the profile's folder now
// (recorded in its timeline like any), and the artifact the build made:
//   wheel   the one wheel the verification found (the folder's dist/): installed on a target
//           with the profile's python: `python3 -m pip install --no-deps --force-reinstall`
//   files   no wheel: the libraries the verification found under the folder (origin "build"),
//           packed on the source as one tar of paths relative to the folder, unpacked at the
//           same place under the target's folder (the way a CMake build leaves them)
// fetched to this machine's cache (paths::cacheDir()/promote) and hashed, with the build's
// fingerprint (buildfingerprint.h). A build that does not pass verification is not promoted.
//
// On each target (PromoteStep, one deploy::Step, so a rollout runs it in batches):
//   facts     the target's, held against the fingerprint: a difference refuses the host with
//             every difference named, and nothing is sent
//   transfer  to ~/.cache/kernelforge/promote/ on the target; its SHA-256 there must equal the
//             artifact's
//   install   as above; the files' times are the install's, and the install is a row in the
//             host's build history (job "promoted-...", the profile, the folder), so provenance
//             judges the promoted libraries as made by it
//   verify    the target's own verification of the profile's folder, recorded in its timeline
//   caches    with the JIT caches captured: seeded when their key matches the target's (a key
//             that differs is named and nothing is sent; the build stays promoted)
// and one build.promoted event on the target's timeline with the outcome (ok, refused,
// failed, or "built" where a target that did not fit built the profile itself: PromoteOptions),
// the source, the artifact's hash and the fingerprint.
namespace kf::deploy {

struct PromotionArtifact
{
    enum class Kind : quint8 { Wheel, Files };
    Kind kind = Kind::Files;
    QString localPath; // this machine's copy
    QString fileName;  // the wheel's name, or "<job>-files.tar"
    QByteArray sha256; // hex
    qint64 size = 0;
    QStringList files;  // Files: paths relative to the profile's folder
    QString sourceHost; // the source's timeline key
    QString sourceName; // and its name for people ("lab-a")
    QString buildJob;   // the build that made the libraries (provenance); may be empty
    BuildProfile profile;
    BuildFingerprint fingerprint;
    QString verifySummary; // the source's verification, one line
    // With --caches: the JIT caches of the server that last reached healthy on the source,
    // seeded after the build where their key matches (jitcache.h).
    std::optional<JitCacheArtifact> caches;

    QString kindName() const; // "wheel" / "files"
    QJsonObject toJson() const;
    // Its manifest read back (the profile by name only, localPath empty).
    static PromotionArtifact fromJson(const QJsonObject& o);
};

struct PromotionSource
{
    QString hostName; // for messages
    BuildProfile profile;
    QString cacheDir;        // empty: paths::cacheDir() + "/promote"
    bool withCaches = false; // also capture the JIT caches (jitcache.h)
    const std::atomic<bool>* stop = nullptr;
    std::function<void(const QString&)> log;
};

// Blocking (network, history): worker thread.
Result<PromotionArtifact> preparePromotion(Transport& source, const PromotionSource& options);

// A promotion this machine fetched before, by the artifact's name and hash (a recipe's promote
// section): its copy hashed again and its manifest (findCachedArtifact), and with cachesSha256
// the JIT caches' too; profile is what installs it (the recipe's build). Blocking (hashing).
Result<PromotionArtifact> cachedPromotion(const QString& cacheDir, const QString& fileName, const QByteArray& sha256,
    const BuildProfile& profile, const QString& cachesFile = {}, const QByteArray& cachesSha256 = {});

struct PromoteOptions
{
    // A target the build does not fit builds the profile itself instead (buildtoend.h: started
    // detached, followed to its end), then verifies as a promoted one does; its build.promoted
    // event says "built". Off: the target is refused.
    bool buildWhenRefused = false;
    QString jobRoot; // for that build; empty: the default job folder
    // Off: the caller verifies (a recipe's verify phase, against its expectation).
    bool verify = true;
};

class PromoteStep final : public Step
{
public:
    explicit PromoteStep(PromotionArtifact artifact, PromoteOptions options = {});
    QString name() const override { return QStringLiteral("promote"); }
    StepResult run(Transport& transport, const StepContext& context) override;
    const PromotionArtifact& artifact() const { return m_artifact; }

private:
    PromotionArtifact m_artifact;
    PromoteOptions m_options;
};

} // namespace kf::deploy
