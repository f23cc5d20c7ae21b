// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/serverfacts.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

// The environment a build was made in, from the host's facts (with the build's project probe:
// its folder and environment), stored with the build's history row when it starts
// (startRecordedBuild, spec "environment"): what a library built there links against. A
// promotion (core/deploy/buildfingerprint.h) holds it against the target, and against the source
// itself today: a source whose torch changed since its build has libraries made for the old one.
namespace kf {

struct BuildEnvironment
{
    QString arch;
    QString glibc;
    QString pythonSoabi;
    QString torch;
    std::optional<bool> torchCxx11Abi;
    QString cudaToolkit; // nvcc's version: "13.0.88"

    static BuildEnvironment of(const ServerFacts& facts);
    // The keys: arch, glibc, python_soabi, torch, torch_cxx11_abi, cuda.
    QJsonObject toJson() const;
    static BuildEnvironment fromJson(const QJsonObject& o);
    bool isEmpty() const;
    bool operator==(const BuildEnvironment&) const = default;
};

// What differs from the build's environment now, one sentence each: "torch 2.9.0 at the build,
// 2.9.1 now". A fact that was not known at the build is not compared.
QStringList environmentChanges(const BuildEnvironment& atBuild, const BuildEnvironment& now);

} // namespace kf
