// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/gpu/processsignal.h"

namespace kf {

QString mayUserSignal(const GpuProcess& p, qint64 uid)
{
    if (p.pid <= 1)
        return QStringLiteral("not a process that can be signalled (pid %1)").arg(p.pid);
    if (p.uid < 0)
        return QStringLiteral("ps on the host does not list pid %1 (another PID namespace, or it has ended)")
            .arg(p.pid);
    if (uid < 0)
        return QStringLiteral("the SSH user's uid is unknown");
    if (uid == 0 || uid == p.uid)
        return {};
    return QStringLiteral("owned by %1 (uid %2); the SSH user (uid %3) may only signal its own processes")
        .arg(p.user.isEmpty() ? QStringLiteral("another user") : p.user)
        .arg(p.uid)
        .arg(uid);
}

QString normalizedSignalName(const QString& name)
{
    QString n = name.trimmed().toUpper();
    if (n.startsWith(QLatin1String("SIG")))
        n = n.mid(3);
    return n == QLatin1String("TERM") || n == QLatin1String("KILL") ? n : QString();
}

QString signalScript()
{
    // dash's kill has no "--" and takes "-s NAME"; signal 0 is "-0". The answer is one word so
    // that no shell's or locale's wording of "No such process" has to be read.
    // The start time is compared right before kill: what is left is the moment between the
    // two, not the seconds between the list and a click.
    return QStringLiteral(R"sh(pid=$1; sig=$2; start=${3:-}
rs=$(printf '\036')
case $pid in ''|*[!0-9]*) printf '%sKF signal failed\n' "$rs"; exit 0;; esac
zombie() { [ -r "/proc/$pid/stat" ] && [ "$(sed -n 's/^.*) \(.\).*$/\1/p' "/proc/$pid/stat" 2>/dev/null)" = Z ]; }
exists() { [ -e "/proc/$pid" ] || kill -0 "$pid" 2>/dev/null; }
if zombie; then printf '%sKF signal gone\n' "$rs"; exit 0; fi
if [ -n "$start" ]; then
  line=; { read -r line < "/proc/$pid/stat"; } 2>/dev/null
  if [ -n "$line" ]; then
    set -- ${line##*) }
    if [ "${20:-}" != "$start" ]; then printf '%sKF signal replaced\n' "$rs"; exit 0; fi
  fi
fi
if [ "$sig" = 0 ]; then kill -0 "$pid" 2>/dev/null; else kill -s "$sig" "$pid" 2>/dev/null; fi
if [ $? = 0 ]; then
  if [ "$sig" = 0 ]; then printf '%sKF signal alive\n' "$rs"; else printf '%sKF signal signalled\n' "$rs"; fi
elif [ -d /proc ] && [ -e "/proc/$pid" ]; then printf '%sKF signal denied\n' "$rs"
elif exists; then printf '%sKF signal denied\n' "$rs"
else printf '%sKF signal gone\n' "$rs"
fi
)sh");
}

SignalResult parseSignalOutput(const ExecResult& r, qint64 pid, const QString& signal)
{
    SignalResult out;
    if (!r.error.isEmpty()) {
        out.message = QStringLiteral("cannot signal %1: %2").arg(pid).arg(r.error);
        return out;
    }
    const qsizetype at = r.stdOut.lastIndexOf("\x1eKF signal ");
    const QByteArray word = at < 0 ? QByteArray() : r.stdOut.mid(at + 11).trimmed();
    const bool probe = signal == QLatin1String("0");
    if (word == "signalled" || word == "alive") {
        out.outcome = SignalOutcome::Signalled;
        out.message = probe ? QStringLiteral("%1 is still running").arg(pid)
                            : QStringLiteral("sent %1 to %2").arg(signal).arg(pid);
    } else if (word == "gone") {
        out.outcome = SignalOutcome::Gone;
        out.message = QStringLiteral("no such process %1 (it has ended)").arg(pid);
    } else if (word == "replaced") {
        out.outcome = SignalOutcome::Gone;
        out.message = QStringLiteral("process %1 has ended, and its pid now belongs to a process started since: "
                                     "nothing sent")
                          .arg(pid);
    } else if (word == "denied") {
        out.outcome = SignalOutcome::PermissionDenied;
        out.message = QStringLiteral("permission denied: the SSH user may not signal %1").arg(pid);
    } else {
        const QString said = QString::fromUtf8(QByteArray(r.stdOut + r.stdErr).trimmed().left(300));
        out.message = QStringLiteral("cannot signal %1: %2")
                          .arg(pid)
                          .arg(said.isEmpty() ? QStringLiteral("exit status %1").arg(r.exitCode) : said);
    }
    return out;
}

SignalResult signalProcess(Transport& transport, qint64 pid, const QString& signal, qint64 startTicks)
{
    if (pid <= 1 || pid > 4294967295LL)
        return { SignalOutcome::Failed, QStringLiteral("not a process that can be signalled (pid %1)").arg(pid) };
    const QString sig = signal == QLatin1String("0") ? signal : normalizedSignalName(signal);
    if (sig.isEmpty())
        return { SignalOutcome::Failed, QStringLiteral("unknown signal '%1' (TERM or KILL)").arg(signal) };
    CommandSpec spec;
    spec.command = signalScript();
    spec.arguments = { QString::number(pid), sig, startTicks >= 0 ? QString::number(startTicks) : QString() };
    spec.maxOutputBytes = 64 * 1024;
    return parseSignalOutput(transport.exec(spec, 20000), pid, sig);
}

} // namespace kf
