// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/jobs/jobfolder.h"

#include "core/hosts/memoryview.h"
#include "core/util/bytelines.h"
#include "core/util/shellquote.h"

#include <QRandomGenerator>
#include <QRegularExpression>

namespace kf {

QString toString(JobInfo::State s)
{
    switch (s) {
    case JobInfo::State::Starting: return QStringLiteral("starting");
    case JobInfo::State::Running: return QStringLiteral("running");
    case JobInfo::State::Finished: return QStringLiteral("finished");
    case JobInfo::State::Lost: return QStringLiteral("lost");
    }
    return {};
}

namespace jobs {

QString newJobId()
{
    static const char hex[] = "0123456789abcdef";
    QString suffix;
    for (int i = 0; i < 4; ++i)
        suffix += QLatin1Char(hex[QRandomGenerator::global()->bounded(16)]);
    return QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-")) + suffix;
}

bool isValidJobId(const QString& id)
{
    // Anchored at the true end ("$" would accept "id\n"); no leading '-' (an option to rm, ls...).
    static const QRegularExpression re(
        QRegularExpression::anchoredPattern(QStringLiteral("[A-Za-z0-9._][A-Za-z0-9._-]{0,63}")));
    return re.match(id).hasMatch() && id != QLatin1String(".") && id != QLatin1String("..");
}

bool isValidJobFileName(const QString& name)
{
    static const QRegularExpression re(
        QRegularExpression::anchoredPattern(QStringLiteral("[A-Za-z0-9][A-Za-z0-9._-]{0,63}")));
    static const QStringList own { QStringLiteral("cmd"), QStringLiteral("env"), QStringLiteral("workdir"),
        QStringLiteral("name"), QStringLiteral("run"), QStringLiteral("pid"), QStringLiteral("pid.tmp"),
        QStringLiteral("pgid"), QStringLiteral("sid"), QStringLiteral("log"), QStringLiteral("started"),
        QStringLiteral("ended"), QStringLiteral("rc"), QStringLiteral("rc.tmp"), QStringLiteral("cancelled"),
        QStringLiteral("cgroup"), QStringLiteral("memview.start"), QStringLiteral("memview.end") };
    return re.match(name).hasMatch() && !own.contains(name);
}

namespace {

QString rootOf(const QString& root)
{
    return shellPath(root.isEmpty() ? kDefaultJobRoot : root);
}

// The runner: records pid/pgid/times, runs cmd in the working directory, records rc last.
// TERM/INT/HUP are trapped (not ignored, so the command gets default handlers) so the
// runner outlives a cancel long enough to write rc.
const char* kRunner = R"RUN(d="$1"
# Seconds since the epoch with milliseconds where date has %N (GNU); whole seconds elsewhere.
now() { t=$(date +%s.%N 2>/dev/null); case "$t" in [0-9]*.[0-9][0-9][0-9]*) printf '%s\n' "${t%??????}" ;; *) date +%s ;; esac; }
# The environment may hold secrets: into this shell's memory, and off the disk at once.
kfenv=$(cat "$d/env" 2>/dev/null); rm -f "$d/env"
trap 'touch "$d/cancelled"' TERM INT HUP
pg=$(ps -o pgid= -p $$ 2>/dev/null | tr -d ' ')
echo "${pg:-$$}" > "$d/pgid"
# The job's memory cgroup and its memory at the start and the end (kf_memview, core/hosts/memoryview.h):
# the OOM kills in between are the job's.
cat /proc/self/cgroup > "$d/cgroup" 2>/dev/null
kf_memview "" "$d/cgroup" > "$d/memview.start" 2>/dev/null
# ninja starts every command in a process group of its own, so cancel also needs the session.
sid=$(ps -o sid= -p $$ 2>/dev/null | tr -d ' ')
[ "$sid" = "$$" ] && echo "$sid" > "$d/sid"
now > "$d/started"
# pid last: its presence tells the starter that pgid and started are there too.
echo $$ > "$d/pid.tmp" && mv -f "$d/pid.tmp" "$d/pid"
wd=$(cat "$d/workdir")
case "$wd" in "~") wd="$HOME" ;; "~/"*) wd="$HOME/${wd#??}" ;; "") wd="$HOME" ;; esac
# Foreground: a trapped TERM is handled after the command ends, so rc is always recorded.
KF_JOB_DIR=$d; export KF_JOB_DIR
( eval "$kfenv" && cd "$wd" && { [ ! -f "$d/prelude" ] || . "$d/prelude"; } && exec /bin/sh "$d/cmd" ) < /dev/null
rc=$?
kf_memview "" "$d/cgroup" > "$d/memview.end" 2>/dev/null
now > "$d/ended"
echo "$rc" > "$d/rc.tmp" && mv -f "$d/rc.tmp" "$d/rc"
)RUN";

} // namespace

CommandSpec startCommand(const JobSpec& spec, const QString& id)
{
    CommandSpec c;
    // The environment (tokens, say) travels on stdin into a file only the user can read,
    // which the runner reads and deletes; the command, folder, name and runner are $1..$4.
    for (auto it = spec.env.cbegin(); it != spec.env.cend(); ++it) {
        if (!isShellName(it.key()))
            continue;
        c.stdinData
            += (QStringLiteral("export ") + it.key() + QLatin1Char('=') + shellQuote(it.value()) + QLatin1Char('\n'))
                   .toUtf8();
    }
    // Files follow the environment on stdin, each after a line "<marker> <name>"; the marker has a
    // random part, so no line of a value or a file can be taken for one.
    const QString marker = QStringLiteral("KFFILE-%1-%2")
                               .arg(QRandomGenerator::global()->generate64(), 0, 16)
                               .arg(QRandomGenerator::global()->generate64(), 0, 16);
    for (const JobFile& f : spec.files) {
        c.stdinData += (marker + QLatin1Char(' ') + f.name + QLatin1Char('\n')).toUtf8() + f.data;
        if (!f.data.isEmpty() && !f.data.endsWith('\n'))
            c.stdinData += '\n';
    }
    c.arguments = { spec.command, spec.workingDirectory, spec.name,
        QString::fromUtf8(memoryViewFunction()) + QString::fromLatin1(kRunner) };
    QString& s = c.command;
    s += QStringLiteral("set -e\numask 077\nd=") + rootOf(spec.root) + QStringLiteral("/") + shellQuote(id)
        + QLatin1Char('\n');
    s += QStringLiteral("[ ! -e \"$d\" ] || { echo \"job $d exists\" >&2; exit 3; }\nmkdir -p \"$d\"\n");
    if (spec.files.isEmpty()) {
        s += QStringLiteral("cat > \"$d/env\"\n");
    } else {
        s += QStringLiteral("LC_ALL=C awk -v d=\"$d\" -v m=") + marker
            + QStringLiteral(" 'BEGIN { o = d \"/env\" } index($0, m \" \") == 1 { close(o); o = d \"/\" "
                             "substr($0, length(m) + 2); printf \"\" > o; next } { print > o }'\n");
        for (const JobFile& f : spec.files)
            if (f.executable)
                s += QStringLiteral("chmod 700 \"$d\"/") + shellQuote(f.name) + QLatin1Char('\n');
    }
    s += QStringLiteral("umask 022\n");
    s += QStringLiteral("printf '%s\\n' \"$1\" > \"$d/cmd\"\n");
    s += QStringLiteral("printf '%s' \"$2\" > \"$d/workdir\"\n");
    s += QStringLiteral("printf '%s' \"$3\" > \"$d/name\"\n");
    s += QStringLiteral("printf '%s' \"$4\" > \"$d/run\"\n");
    s += QStringLiteral(": > \"$d/log\"\n");
    s += QStringLiteral("if command -v setsid >/dev/null 2>&1; then S=setsid; else S=; fi\n");
    s += QStringLiteral("$S nohup /bin/sh \"$d/run\" \"$d\" >> \"$d/log\" 2>&1 < /dev/null &\n");
    s += QStringLiteral("i=0\nwhile [ ! -s \"$d/pid\" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done\n");
    s += QStringLiteral("cat \"$d/pid\"\n");
    return c;
}

QString listScript(const QString& root, const QString& id)
{
    QString s = QStringLiteral("r=") + rootOf(root) + QLatin1Char('\n');
    s += QStringLiteral("[ -d \"$r\" ] || exit 0\n");
    s += id.isEmpty() ? QStringLiteral("for d in \"$r\"/*; do\n")
                      : QStringLiteral("for d in \"$r\"/") + shellQuote(id) + QStringLiteral("; do\n");
    // rc is read again after a failed `kill -0`: a job that ended between the first read and
    // the check is finished, not lost.
    s += QStringLiteral(R"SH(  [ -f "$d/cmd" ] || continue
  pid=$(cat "$d/pid" 2>/dev/null || true); rc=$(cat "$d/rc" 2>/dev/null || true)
  if [ -n "$rc" ]; then st=finished; elif [ -z "$pid" ]; then st=starting; elif kill -0 "$pid" 2>/dev/null; then st=running
  else rc=$(cat "$d/rc" 2>/dev/null || true); if [ -n "$rc" ]; then st=finished; else st=lost; fi; fi
  c=0; [ -e "$d/cancelled" ] && c=1
  sz=$(wc -c < "$d/log" 2>/dev/null || echo 0)
  printf 'job\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "${d##*/}" "$st" "$rc" "$pid" "$(cat "$d/pgid" 2>/dev/null)" "$(cat "$d/started" 2>/dev/null)" "$(cat "$d/ended" 2>/dev/null)" $sz $c "$(tr '\t\n' '  ' < "$d/name" 2>/dev/null)"
  printf 'cmd\t%s\n' "$(head -c 200 "$d/cmd" | tr '\t\n' '  ')"
  printf 'dir\t%s\n' "$(tr '\t\n' '  ' < "$d/workdir" 2>/dev/null)"
done
t=$(date +%s.%N 2>/dev/null); case "$t" in [0-9]*.[0-9][0-9][0-9]*) t=${t%??????} ;; *) t=$(date +%s) ;; esac
printf 'now\t%s\n' "$t"
)SH");
    return s;
}

QString cancelScript(const QString& root, const QString& id, int graceSeconds)
{
    QString s = QStringLiteral("d=") + rootOf(root) + QStringLiteral("/") + shellQuote(id) + QLatin1Char('\n');
    s += QStringLiteral("n=") + QString::number(qMax(1, graceSeconds) * 10) + QLatin1Char('\n');
    s += QStringLiteral(R"SH([ -d "$d" ] || { echo "no such job" >&2; exit 3; }
[ -f "$d/rc" ] && { echo "already finished"; exit 0; }
pg=$(cat "$d/pgid" 2>/dev/null)
[ -n "$pg" ] || { echo "job has not started" >&2; exit 4; }
touch "$d/cancelled"
sid=$(cat "$d/sid" 2>/dev/null)
members() { [ -n "$sid" ] && ps -e -o pid= -o sid= 2>/dev/null | awk -v s="$sid" '$2==s{print $1}'; }
alive() { kill -0 "-$pg" 2>/dev/null || [ -n "$(members)" ]; }
# TERM the group first: ninja and make forward it to their children and clean up.
kill -TERM "-$pg" 2>/dev/null || true
i=0
while alive && [ $i -lt $n ]; do
  [ $i -eq 10 ] && for p in $(members); do kill -TERM "$p" 2>/dev/null; done
  sleep 0.1; i=$((i+1))
done
if alive; then kill -KILL "-$pg" 2>/dev/null || true; for p in $(members); do kill -KILL "$p" 2>/dev/null; done; sleep 0.2; fi
if [ ! -f "$d/rc" ]; then date +%s > "$d/ended"; echo 137 > "$d/rc.tmp" && mv -f "$d/rc.tmp" "$d/rc"; fi
echo cancelled
)SH");
    return s;
}

QString tailScript(const QString& root, const QString& id, qint64 offset)
{
    QString s = QStringLiteral("d=") + rootOf(root) + QStringLiteral("/") + shellQuote(id) + QLatin1Char('\n');
    s += QStringLiteral("o=") + QString::number(offset + 1) + QLatin1Char('\n');
    s += QStringLiteral(R"SH([ -f "$d/log" ] || { echo "no such job" >&2; exit 3; }
pid=$(cat "$d/pid" 2>/dev/null)
if [ -f "$d/rc" ] || [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then exec tail -c +$o "$d/log"; fi
exec tail -c +$o -s 0.3 --pid="$pid" -F "$d/log" 2>/dev/null
)SH");
    return s;
}

namespace {

// "1764400000" or "1764400000.123" (the runner's milliseconds, where date has %N); invalid otherwise.
QDateTime epochTime(const QString& field)
{
    bool ok = false;
    const double s = field.trimmed().toDouble(&ok);
    if (!ok || s < 0 || s > 1e11)
        return {};
    return QDateTime::fromMSecsSinceEpoch(qint64(s * 1000.0 + 0.5), Qt::UTC);
}

} // namespace

JobList parseJobList(QByteArrayView text)
{
    JobList out;
    ByteLines lines(text);
    for (QByteArrayView bytes; lines.next(bytes);) {
        const QString line = QString::fromUtf8(bytes);
        if (line.isEmpty())
            continue;
        const QStringList f = line.split(QLatin1Char('\t'));
        if (f[0] == QLatin1String("job") && f.size() >= 11) {
            JobInfo j;
            j.id = f[1];
            const QString& st = f[2];
            j.state = st == QLatin1String("running") ? JobInfo::State::Running
                : st == QLatin1String("finished")    ? JobInfo::State::Finished
                : st == QLatin1String("lost")        ? JobInfo::State::Lost
                                                     : JobInfo::State::Starting;
            bool ok = false;
            const int rc = f[3].trimmed().toInt(&ok);
            j.exitStatus = ok ? rc : -1;
            j.pid = f[4].trimmed().isEmpty() ? -1 : f[4].trimmed().toLongLong();
            j.pgid = f[5].trimmed().isEmpty() ? -1 : f[5].trimmed().toLongLong();
            j.started = epochTime(f[6]);
            j.ended = epochTime(f[7]);
            j.logSize = f[8].trimmed().toLongLong();
            j.cancelled = f[9].trimmed() == QLatin1String("1");
            j.name = f.mid(10).join(QLatin1Char(' '));
            out.jobs.append(j);
        } else if (f[0] == QLatin1String("cmd") && f.size() >= 2 && !out.jobs.isEmpty()) {
            out.jobs.last().command = f.mid(1).join(QLatin1Char(' ')).trimmed();
        } else if (f[0] == QLatin1String("dir") && f.size() >= 2 && !out.jobs.isEmpty()) {
            out.jobs.last().workingDirectory = f.mid(1).join(QLatin1Char(' '));
        } else if (f[0] == QLatin1String("now") && f.size() == 2 && epochTime(f[1]).isValid()) {
            out.serverNow = epochTime(f[1]);
        } else {
            ++out.malformedLines;
        }
    }
    for (JobInfo& j : out.jobs)
        j.listedAt = out.serverNow;
    return out;
}

} // namespace jobs
} // namespace kf
