// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/transport/transport.h"
#include "core/util/result.h"

#include <QByteArrayView>
#include <QDateTime>
#include <QList>
#include <QMap>
#include <QMetaType>
#include <QString>

// Detached jobs on a server: shell scripts that create, list and cancel them, and the parser
// for the listing. Nothing is installed remotely: /bin/sh, setsid, tail, ps, kill.
//
// The job folder <root>/<id>/ (root default ~/.cache/kernelforge/jobs), one file each:
//   cmd       the command, run as `/bin/sh cmd` in the working directory
//   env       `export K='v'` lines (0600, from stdin); the runner reads them and deletes the file
//   workdir   the working directory ("~/" allowed; empty: home)
//   name      a label (build profile name, "sglang-server", ...)
//   run       the runner script (started with setsid nohup; traps TERM so it can record rc)
//   pid       the runner's pid; it leads its own session and process group
//   pgid      that process group (what cancel signals first)
//   sid       the session (== pid when setsid worked). ninja starts each command in a process
//             group of its own, so cancel then signals every process of the session too
//   log       stdout and stderr of the command, appended only
//   started   when the command began: seconds since the epoch, with milliseconds ("1764400000.123")
//   ended     when it ended                              where `date` has %N (GNU), else whole seconds
//   rc        exit status (128+N for signal N); written last, atomically (rc.tmp + mv)
//   cancelled present when the job was cancelled
//   cgroup    the runner's /proc/self/cgroup: the job's memory cgroup (core/hosts/memoryview.h)
//   memview.start, memview.end  the memory view of that cgroup when the command started and
//             ended (core/hosts/memoryview.h): the OOM kills in between are the job's
//   prelude   optional (JobSpec::files): sh the runner sources in the working directory, after the
//             environment and before the command (the memory gate sets its variables there)
//   <other>   JobSpec::files: files the job brings (the memory gate's launcher and seed)
// The runner exports KF_JOB_DIR, the job folder's absolute path, to the prelude and the command.
//
// The listing (listScript()) prints per job, tab-separated, one record a line:
//   job \t id \t state \t rc \t pid \t pgid \t started \t ended \t logsize \t cancelled \t name
//   cmd \t first 200 bytes of cmd, tabs and newlines as spaces
//   dir \t workdir
// and last `now \t <seconds.millis>`, the server's clock when it listed (a job's time is counted on it).
// state: running | finished | lost (no rc and the runner is gone) | starting (no pid yet).
namespace kf {

// A file a job brings into its folder, written before the command starts (0600; 0700 executable).
struct JobFile
{
    QString name; // [A-Za-z0-9][A-Za-z0-9._-]{0,63}, none of the folder's own names (jobs::isValidJobFileName)
    QByteArray data;
    bool executable = false;
};

struct JobSpec
{
    QString id; // empty: generated (yyyyMMdd-HHmmss-xxxx)
    QString name;
    QString command; // a POSIX sh script, may span lines
    QMap<QString, QString> env;
    QString workingDirectory;
    QString root; // empty: kDefaultJobRoot
    QList<JobFile> files;
};

inline const QString kDefaultJobRoot = QStringLiteral("~/.cache/kernelforge/jobs");

struct JobInfo
{
    enum class State { Starting, Running, Finished, Lost };
    QString id;
    QString name;
    State state = State::Starting;
    int exitStatus = -1; // valid when Finished
    qint64 pid = -1;
    qint64 pgid = -1;
    QDateTime started;
    QDateTime ended;
    qint64 logSize = 0;
    bool cancelled = false;
    QString command; // first 200 bytes
    QString workingDirectory;
    QDateTime listedAt; // the server's clock when this was read: started/ended are on that clock
    bool operator==(const JobInfo&) const = default;
};

QString toString(JobInfo::State s); // "starting", "running", "finished", "lost"

namespace jobs {

QString newJobId();
// Valid ids are [A-Za-z0-9._-]{1,64} (they become folder names in shell scripts).
bool isValidJobId(const QString& id);
// A JobFile name: [A-Za-z0-9][A-Za-z0-9._-]{0,63} and none of the names the folder layout uses.
bool isValidJobFileName(const QString& name);

// Scripts for /bin/sh (CommandSpec::command). startCommand prints the runner's pid on
// success; the environment goes on its stdin, never on the command line.
CommandSpec startCommand(const JobSpec& spec, const QString& id);
QString listScript(const QString& root, const QString& id = {}); // one job, or all
QString cancelScript(const QString& root, const QString& id, int graceSeconds);
// Prints the log from byte `offset`; follows it (tail -F --pid) while the job runs.
QString tailScript(const QString& root, const QString& id, qint64 offset);

struct JobList
{
    QList<JobInfo> jobs;
    QDateTime serverNow; // the listing's `now` line (also each job's listedAt)
    int malformedLines = 0;
};
JobList parseJobList(QByteArrayView text);

} // namespace jobs
} // namespace kf

Q_DECLARE_METATYPE(kf::JobInfo)
