// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

// Real CUDA objects for the verify tests: tests/data/fatbin/kernel.cu built by this machine's
// nvcc (CUDA 13 at /usr/local/cuda on CI), one small shared library per target, all at once.
namespace kf::test {

struct CudaLibrary
{
    QString name;         // file name, e.g. "sm90a.so"
    QStringList nvccArgs; // the -gencode arguments
    QStringList targets;  // what it must carry (the parser's names)
};

// nvcc in /usr/local/cuda/bin or on PATH; empty when there is none.
QString nvccPath();
// cuobjdump next to nvcc or on PATH; empty when there is none.
QString cuobjdumpPath();
// sm_90a, sm_100a, sm_120a, PTX compute_80 only, and one multi-target library.
QList<CudaLibrary> standardCudaLibraries();
// Builds the libraries into dir in parallel; empty on success, else nvcc's complaint.
QString buildCudaLibraries(const QString& dir, const QList<CudaLibrary>& libraries);

} // namespace kf::test
