// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "tests/support/cudafixtures.h"

#include "tests/support/testsupport.h"

#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>

#include <memory>
#include <vector>

namespace kf::test {

QString nvccPath()
{
    if (QFileInfo(QStringLiteral("/usr/local/cuda/bin/nvcc")).isExecutable())
        return QStringLiteral("/usr/local/cuda/bin/nvcc");
    return QStandardPaths::findExecutable(QStringLiteral("nvcc"));
}

QString cuobjdumpPath()
{
    const QString nvcc = nvccPath();
    if (!nvcc.isEmpty()) {
        const QString next = QFileInfo(nvcc).absolutePath() + QStringLiteral("/cuobjdump");
        if (QFileInfo(next).isExecutable())
            return next;
    }
    return QStandardPaths::findExecutable(QStringLiteral("cuobjdump"));
}

QList<CudaLibrary> standardCudaLibraries()
{
    return {
        { QStringLiteral("sm90a.so"), { QStringLiteral("-gencode"), QStringLiteral("arch=compute_90a,code=sm_90a") },
            { QStringLiteral("sm_90a") } },
        { QStringLiteral("sm100a.so"), { QStringLiteral("-gencode"), QStringLiteral("arch=compute_100a,code=sm_100a") },
            { QStringLiteral("sm_100a") } },
        { QStringLiteral("sm120a.so"), { QStringLiteral("-gencode"), QStringLiteral("arch=compute_120a,code=sm_120a") },
            { QStringLiteral("sm_120a") } },
        { QStringLiteral("ptx80.so"), { QStringLiteral("-gencode"), QStringLiteral("arch=compute_80,code=compute_80") },
            { QStringLiteral("compute_80") } },
        { QStringLiteral("multi.so"),
            { QStringLiteral("-gencode"), QStringLiteral("arch=compute_90,code=sm_90"), QStringLiteral("-gencode"),
                QStringLiteral("arch=compute_100f,code=sm_100f"), QStringLiteral("-gencode"),
                QStringLiteral("arch=compute_120,code=compute_120") },
            { QStringLiteral("sm_90"), QStringLiteral("sm_100f"), QStringLiteral("compute_120") } },
    };
}

QString buildCudaLibraries(const QString& dir, const QList<CudaLibrary>& libraries)
{
    const QString nvcc = nvccPath();
    if (nvcc.isEmpty())
        return QStringLiteral("no nvcc");
    std::vector<std::unique_ptr<QProcess>> running;
    for (const CudaLibrary& l : libraries) {
        auto p = std::make_unique<QProcess>();
        p->setProcessChannelMode(QProcess::MergedChannels);
        p->start(nvcc,
            QStringList { QStringLiteral("-shared"), QStringLiteral("-cudart"), QStringLiteral("shared"),
                QStringLiteral("-Xcompiler"), QStringLiteral("-fPIC"), QStringLiteral("-o"), dir + u'/' + l.name,
                dataPath(QStringLiteral("fatbin/kernel.cu")) }
                + l.nvccArgs);
        running.push_back(std::move(p));
    }
    QString problems;
    for (qsizetype i = 0; i < libraries.size(); ++i) {
        QProcess& p = *running[size_t(i)];
        if (!p.waitForFinished(300000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
            problems += libraries[i].name + QStringLiteral(": ") + QString::fromUtf8(p.readAll()) + u'\n';
    }
    return problems;
}

} // namespace kf::test
