// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/demo/demohost.h"

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTest>

#include <memory>

namespace kf::test {

// The whole file, or empty when it cannot be read.
QByteArray readFile(const QString& path);
// tests/data/<relative>
QString dataPath(const QString& relative);
QByteArray readData(const QString& relative);
// Writes the whole file, making its folder; false when it cannot.
bool writeFile(const QString& path, const QByteArray& data);
// ${build}/screenshots/<name>.png
QString screenshotPath(const QString& name);

// A test of the app's own state keeps to itself (other tests run at the same time): standard
// paths in test mode, settings under its own application name (cleared), and, given a folder,
// its own history database there.
void isolateAppState(const QString& appName, const QString& historyDir = {});

struct ProcessOutput
{
    int exitCode = -1;
    bool crashed = false;
    QByteArray out;
    QByteArray err;
};
// Runs a program to completion (timeout in ms), capturing both streams.
ProcessOutput runProgram(const QString& program, const QStringList& args, int timeoutMs = 120000,
    const QByteArray& input = {}, const QStringList& extraEnv = {});
// Both streams whole on the test's stderr (QVERIFY2 cuts its message at about 1000 bytes, so a
// long run's failure would lose the part that says why); returns a short line for the message.
const char* printWhole(const ProcessOutput& p, const char* what);
// Runs the built kernelforge-cli.
ProcessOutput runCli(const QStringList& args, int timeoutMs = 120000, const QStringList& extraEnv = {});

bool isRoot();
// A profile for this machine (LocalHostConnection), named as the test's pane shows it.
HostProfile localProfile(const QString& name = QStringLiteral("This machine"));
// The process is gone from this machine: no /proc entry, or a zombie waiting for its reaper
// (the demo sshd's processes are this machine's).
bool processGone(qint64 pid);
// A TCP port on 127.0.0.1 that was free a moment ago (for a server a test starts).
quint16 freeLocalPort();

// Root only: a system user `name` with that login shell (useradd -m, or usermod -s when it
// exists); removeSystemUser() deletes it with its home. Empty on success, else why not.
QString ensureSystemUser(const QString& name, const QString& shell);
void removeSystemUser(const QString& name);
// A /metrics page with one histogram family kf:big_latency_seconds of `buckets` finite
// le= buckets (le = i/1000 s, i = 1..buckets, `perBucket` observations each, cumulative) and
// the +Inf bucket, _sum and _count: the shape that exposed quadratic histogram parsing.
QByteArray histogramPage(int buckets, int perBucket = 1);

// ssh-keygen -t type (rsa: 2048 bits) in dir with that passphrase (may be empty); the private
// key's path. A failure is a test failure (ssh-keygen's stderr is printed).
QString makeKey(const QString& dir, const QString& type = QStringLiteral("ed25519"), const QString& passphrase = {});
// kernelforge-cli's options for the demo host: -p PORT -i KEY --known-hosts FILE.
QStringList cliSshOptions(const DemoHost& demo);
// The same followed by the destination, user@127.0.0.1.
QStringList cliSshTarget(const DemoHost& demo);
// The demo's replaying nvidia-smi with one of its constants changed (driver, GPU model): false
// when `from` is not in it or the file cannot be rewritten.
bool patchDemoNvidiaSmi(const DemoHost& demo, const QByteArray& from, const QByteArray& to);
// Stand-ins in the demo host's Python user site (its python3 is this machine's): a torch module
// of that version (what the facts probe imports), or a distribution's metadata only (what
// importlib.metadata reads), so that demo hosts can differ in them.
bool installDemoTorch(const DemoHost& demo, const QString& version);
// The demo project patched for sm120 / CUDA 13 (`patch apply` through the CLI, run with env).
// Empty when it was; else its whole output (printWhole).
QString patchDemo(const DemoHost& demo, const QStringList& env);
// The demo project patched (patchDemo) and built with the build profile
// (`build start`, then `build attach` to its end) through the CLI, run with env. Empty when it
// built; else which step failed, its whole output printed (printWhole).
QString patchAndBuildDemo(const DemoHost& demo, const QString& profile, const QStringList& env);
bool installDemoDistribution(const DemoHost& demo, const QString& name, const QString& version);
// Appends keyPath.pub to the demo host's authorized_keys.
bool authorizeKey(const DemoHost& demo, const QString& keyPath);

} // namespace kf::test

// Starts a DemoHost (the real sshd on 127.0.0.1) for a test function or fails it with the
// sshd log. Usage: KF_START_DEMO_HOST(demo);  then demo.port(), demo.profile(), ...
#define KF_START_DEMO_HOST(var, ...)                                                                                   \
    kf::DemoHost var { __VA_ARGS__ };                                                                                  \
    do {                                                                                                               \
        const kf::Result<void> _kf_started = var.start();                                                              \
        QVERIFY2(_kf_started.ok(), qPrintable(_kf_started.error()));                                                   \
    } while (false)
