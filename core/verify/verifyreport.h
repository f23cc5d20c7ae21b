// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/remotebuild/buildhistory.h"
#include "core/remotebuild/buildprofile.h"
#include "core/remotebuild/preflight.h"
#include "core/verify/cudatarget.h"
#include "core/verify/importdiagnosis.h"

#include <QByteArrayView>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// Post-build verification: what a build produced and whether it can run on this server.
//
// One /bin/sh script (verifyScript(); $1 the folder, $2 the most libraries to list) runs on
// the server with the profile's environment and prints one fact a line, tab-separated:
//   dir \t /abs/folder                 or   dir_missing \t folder
//   cuobjdump \t /usr/local/cuda/bin/cuobjdump      (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin, nvcc's folder)
//   nvsmi \t <line>                    nvidia-smi --query-gpu=index,name,compute_cap --format=csv
//   nvsmi_missing \t 1
//   python \t /usr/bin/python3         python_version \t 3.12.3      torch \t 2.11.0+cu130
//   package \t /abs/site-packages/sgl_kernel   (importlib find_spec: found without importing it)
//   import_rc \t N, then import \t <line> ...   python -c 'import sgl_kernel' (the last 16 KiB)
//   fa3_rc \t N, then fa3 \t <line> ...         python -c 'from sgl_kernel import flash_ops'
//                                               (only when the import worked)
//   home \t /home/user                 $HOME (a build profile's "~/x" is the folder home/x)
//   lib \t SIZE \t MTIME \t /abs/path.so   .so files under the folder (find -P: symlinks not
//   pkglib \t SIZE \t MTIME \t /abs/path.so  followed, -type f: FIFOs skipped, depth 8, at most $2)
//                                      and in the installed package when it lies elsewhere;
//                                      MTIME: seconds since the epoch, server clock ("-": unknown);
//                                      a path with a line break is left out: it would forge lines
//   lib_more \t 1                      more libraries than $2
//   wheel \t SIZE \t /abs/dist/x.whl   (the folder's dist/, else the one beside it when the
//                                      folder is a project's build folder; at most 20)
//   objdump_begin \t PATH, objdump \t <line> ..., objdump_end \t RC   cuobjdump --list-elf
//                                      --list-ptx PATH per library, when cuobjdump exists
// Lines without a known key (login banners) are ignored. Libraries without a cuobjdump
// listing are read by their ELF and fat binary headers over the Transport (core/verify/
// verifier.h). evaluateVerify() turns the facts into checks shaped like preflight's, and the
// provenance of the libraries (core/verify/provenance.h) into one more.
namespace kf {

struct VerifyGpu
{
    int index = -1;
    QString name;
    std::optional<ComputeCapability> cc;
};

struct VerifyLibrary
{
    QString path;   // absolute, on the server
    QString origin; // "build" (under the folder) or "package" (the installed sgl_kernel)
    qint64 size = 0;
    QString source;            // "cuobjdump", "headers" (read here), or empty: not examined
    QList<CudaTarget> targets; // unique, sorted
    int entries = 0;
    bool noDeviceCode = false;
    QString error; // why the targets are unknown or incomplete
    QByteArray cuobjdumpOutput;
    int cuobjdumpExit = -1;
    QDateTime modified; // last written, the server's clock; invalid: unknown
    QString madeBy;     // the job id of the build whose run wrote it (provenance); empty: none known
    QString fileName() const;
};

struct VerifyWheel
{
    QString path;
    qint64 size = 0;
    QStringList libraries; // member .so files
    QString error;
};

struct VerifyReport
{
    QString dir;
    QString tree; // which sgl-kernel tree and layout dir is (sglkernel::KernelTree::describe); empty: not a tree
    bool dirMissing = false;
    QString home;
    // The builds this machine knows on the host (build history), newest first: the provenance of
    // the libraries is judged against those of the verified folder.
    QList<BuildRecord> builds;
    QString cuobjdump;
    bool nvidiaSmiMissing = false;
    QList<VerifyGpu> gpus;
    QString gpuProblem; // nvidia-smi's own error, or why compute_cap is unknown
    QString python;
    QString pythonVersion;
    QString torchVersion;
    QString package;
    bool importRan = false;
    int importExit = -1;
    QByteArray importOutput;
    bool fa3ImportRan = false;
    int fa3ImportExit = -1;
    QByteArray fa3ImportOutput;
    QList<VerifyLibrary> libraries;
    bool moreLibraries = false;
    QList<VerifyWheel> wheels;
    QList<PreflightCheck> checks; // filled by evaluateVerify()

    bool failed() const;
    // The failures that make a server launch fail: import (sgl_kernel or a library it
    // loads), missing kernel images for a GPU, and libraries a later build of their folder
    // failed to replace (provenance). A launch check refuses to start on these.
    QList<PreflightCheck> launchBlockers() const;
    // The build a library was made by (its madeBy), or null.
    const BuildRecord* build(const QString& jobId) const;
    // The job ids of the builds that made the libraries (provenance), in library order, once each.
    QStringList makers() const;
    // One line for a timeline: "verify: 2 libraries (2 with CUDA code: sm_90a sm_120a), GPUs 8 x 9.0,
    // import sgl_kernel: ok; 0 fail, 1 warn".
    QString summary() const;
    // JSON Lines for kernelforge-cli verify --json: one object per GPU, library, wheel and
    // check ("type": "gpu" | "library" | "wheel" | "check"), then {"type": "summary", ...}.
    QList<QJsonObject> toJsonLines() const;
};

QString verifyScript();
// The script's output into a report (libraries not yet read when cuobjdump was missing).
VerifyReport parseVerifyOutput(QByteArrayView output);
// Fills a library's targets from its cuobjdump listing.
void applyCuobjdump(VerifyLibrary& library);

// The checks, in order: tree (when dir is an sgl-kernel tree), dir, libraries, gpus, arch (one per library and compute
// capability that fails or JITs, one pass line otherwise), import, fa3, wheel.
void evaluateVerify(VerifyReport& report, const std::optional<BuildProfile>& profile);

} // namespace kf
