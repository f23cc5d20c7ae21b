// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/hosts/memoryview.h"

#include "core/hosts/serverfacts.h"
#include "core/util/bytelines.h"

#include <algorithm>

namespace kf {

namespace {

// POSIX sh; every read tolerates a missing file. kf_mv_f prints one file's first line,
// kf_mv_k one "key N" line of a stat-like file. The walk up stops at the mount point (and after
// 64 levels whatever happens).
constexpr char kFunction[] = R"SH(kf_memview() {
  kf_mv_r=$1; kf_mv_c=$2
  [ -r "$kf_mv_r$kf_mv_c" ] || kf_mv_c=/proc/self/cgroup
  sed -n 's/^MemTotal:[[:space:]]*\([0-9]*\).*/mem_total_kb=\1/p; s/^MemAvailable:[[:space:]]*\([0-9]*\).*/mem_available_kb=\1/p' "$kf_mv_r/proc/meminfo" 2>/dev/null
  awk '$1 == "oom_kill" { print "vm_oom_kill=" $2; exit }' "$kf_mv_r/proc/vmstat" 2>/dev/null
  kf_mv_v1=$(awk -F: '{ n = split($2, c, ","); for (i = 1; i <= n; i++) if (c[i] == "memory") { print substr($0, length($1) + length($2) + 3); exit } }' "$kf_mv_r$kf_mv_c" 2>/dev/null)
  kf_mv_v2=$(awk -F: '$1 == "0" && $2 == "" { print substr($0, 4); exit }' "$kf_mv_r$kf_mv_c" 2>/dev/null)
  kf_mv_m=; kf_mv_ver=; kf_mv_p=
  for kf_mv_try in 1 2; do
    [ -z "$kf_mv_m" ] || break
    if [ $kf_mv_try = 1 ]; then kf_mv_p=$kf_mv_v1; else kf_mv_p=$kf_mv_v2; fi
    [ -n "$kf_mv_p" ] || continue
    kf_mv_ver=$kf_mv_try
    kf_mv_m=$(awk -v v=$kf_mv_try '{ for (i = 7; i <= NF && $i != "-"; i++); o = "," $(i + 3) ",";
      if ((v == 1 && $(i + 1) == "cgroup" && index(o, ",memory,")) || (v == 2 && $(i + 1) == "cgroup2")) { print $4 " " $5; exit } }' "$kf_mv_r/proc/self/mountinfo" 2>/dev/null)
  done
  [ -n "$kf_mv_m" ] || return 0
  kf_mv_mr=${kf_mv_m%% *}; kf_mv_mp=${kf_mv_m#* }; kf_mv_mp=${kf_mv_mp%/}
  if [ "$kf_mv_mr" = / ]; then kf_mv_rel=$kf_mv_p
  else case "$kf_mv_p" in "$kf_mv_mr"|"$kf_mv_mr"/*) kf_mv_rel=${kf_mv_p#"$kf_mv_mr"} ;; *) kf_mv_rel= ;; esac
  fi
  kf_mv_rel=${kf_mv_rel%/}; kf_mv_l=${kf_mv_p%/}; [ -n "$kf_mv_l" ] || kf_mv_l=/
  echo "cg_version=$kf_mv_ver"; echo "cg_path=$kf_mv_p"
  kf_mv_n=0
  while [ $kf_mv_n -lt 64 ]; do
    kf_mv_d=$kf_mv_r$kf_mv_mp$kf_mv_rel
    echo "cg_level=$kf_mv_l"
    if [ $kf_mv_ver = 2 ]; then
      kf_mv_f max memory.max; kf_mv_f current memory.current; kf_mv_f peak memory.peak
      kf_mv_k inactive_file memory.stat inactive_file; kf_mv_k oom_kill memory.events oom_kill
    else
      kf_mv_f max memory.limit_in_bytes; kf_mv_f current memory.usage_in_bytes; kf_mv_f peak memory.max_usage_in_bytes
      kf_mv_k inactive_file memory.stat total_inactive_file inactive_file; kf_mv_k oom_kill memory.oom_control oom_kill
    fi
    [ -n "$kf_mv_rel" ] || break
    kf_mv_rel=${kf_mv_rel%/*}; kf_mv_l=${kf_mv_l%/*}; [ -n "$kf_mv_l" ] || kf_mv_l=/
    kf_mv_n=$((kf_mv_n + 1))
  done
}
kf_mv_f() { [ -r "$kf_mv_d/$2" ] && printf 'cg_%s=%s\n' "$1" "$(head -n 1 "$kf_mv_d/$2")"; return 0; }
kf_mv_k() { [ -r "$kf_mv_d/$2" ] && awk -v k="$1" -v a="$3" -v b="$4" '$1 == a { x = $2 } $1 == b && y == "" { y = $2 }
  END { v = x != "" ? x : y; if (v != "") print "cg_" k "=" v }' "$kf_mv_d/$2"; return 0; }
)SH";

// Bytes from a cgroup file: "max" and 2^60 or more are no limit (no value); garbage no value.
double cgroupNumber(QByteArrayView v)
{
    v = v.trimmed();
    if (v == "max")
        return noValue();
    bool ok = false;
    const qulonglong n = QByteArray(v.data(), v.size()).toULongLong(&ok);
    if (!ok || n >= (1ULL << 60))
        return noValue();
    return double(n);
}

double count(QByteArrayView v)
{
    v = v.trimmed();
    bool ok = false;
    const qlonglong n = QByteArray(v.data(), v.size()).toLongLong(&ok);
    return ok && n >= 0 ? double(n) : noValue();
}

} // namespace

bool CgroupLevel::operator==(const CgroupLevel& o) const
{
    return path == o.path && sameValue(maxBytes, o.maxBytes) && sameValue(currentBytes, o.currentBytes)
        && sameValue(inactiveFileBytes, o.inactiveFileBytes) && sameValue(oomKills, o.oomKills)
        && sameValue(peakBytes, o.peakBytes);
}

double CgroupLevel::workingSetBytes() const
{
    if (!hasValue(currentBytes))
        return noValue();
    return std::max(0.0, currentBytes - (hasValue(inactiveFileBytes) ? inactiveFileBytes : 0.0));
}

bool MemoryView::operator==(const MemoryView& o) const
{
    return sameValue(memTotalKiB, o.memTotalKiB) && sameValue(memAvailableKiB, o.memAvailableKiB)
        && sameValue(kernelOomKills, o.kernelOomKills) && cgroupVersion == o.cgroupVersion && cgroupPath == o.cgroupPath
        && levels == o.levels;
}

double MemoryView::limitKiB() const
{
    double limit = memTotalKiB;
    for (const CgroupLevel& l : levels)
        if (hasValue(l.maxBytes))
            limit = hasValue(limit) ? std::min(limit, l.maxBytes / 1024.0) : l.maxBytes / 1024.0;
    return limit;
}

const CgroupLevel* MemoryView::bindingLevel() const
{
    const CgroupLevel* best = nullptr;
    double room = memAvailableKiB;
    for (const CgroupLevel& l : levels) {
        const double ws = l.workingSetBytes();
        if (!hasValue(l.maxBytes) || !hasValue(ws))
            continue;
        const double r = std::max(0.0, l.maxBytes - ws) / 1024.0;
        if (!hasValue(room) || r < room) {
            room = r;
            best = &l;
        }
    }
    return best;
}

double MemoryView::availableKiB() const
{
    const CgroupLevel* l = bindingLevel();
    return l ? std::max(0.0, l->maxBytes - l->workingSetBytes()) / 1024.0 : memAvailableKiB;
}

bool MemoryView::hasCgroupLimit() const
{
    return std::any_of(levels.begin(), levels.end(), [](const CgroupLevel& l) { return hasValue(l.maxBytes); });
}

double MemoryView::oomKills() const
{
    return levels.isEmpty() ? noValue() : levels.first().oomKills;
}

QString MemoryView::limitSource() const
{
    const CgroupLevel* l = bindingLevel();
    if (!l) // MemAvailable is tighter now; still name the limit a build would meet
        for (const CgroupLevel& x : levels)
            if (hasValue(x.maxBytes) && (!l || x.maxBytes < l->maxBytes))
                l = &x;
    if (!l)
        return QStringLiteral("MemAvailable");
    return QStringLiteral("cgroup v%1 %2 (limit %3)").arg(cgroupVersion).arg(l->path, formatKiB(l->maxBytes / 1024.0));
}

QByteArray memoryViewFunction()
{
    return QByteArray(kFunction);
}

MemoryView parseMemoryView(QByteArrayView text)
{
    MemoryView v;
    ByteLines lines(text);
    for (QByteArrayView line; lines.next(line);) {
        if (line.endsWith('\r'))
            line.chop(1);
        const qsizetype eq = line.indexOf('=');
        if (eq <= 0)
            continue;
        const QByteArrayView key = line.first(eq);
        const QByteArrayView value = line.sliced(eq + 1);
        if (key == "mem_total_kb") {
            v.memTotalKiB = count(value);
        } else if (key == "mem_available_kb") {
            v.memAvailableKiB = count(value);
        } else if (key == "vm_oom_kill") {
            v.kernelOomKills = count(value);
        } else if (key == "cg_version") {
            const double n = count(value);
            v.cgroupVersion = n == 1 || n == 2 ? int(n) : 0;
        } else if (key == "cg_path") {
            v.cgroupPath = QString::fromUtf8(value);
        } else if (key == "cg_level") {
            if (v.levels.size() >= 64)
                break;
            v.levels.append({ QString::fromUtf8(value) });
        } else if (!v.levels.isEmpty()) {
            CgroupLevel& l = v.levels.last();
            if (key == "cg_max")
                l.maxBytes = cgroupNumber(value);
            else if (key == "cg_current")
                l.currentBytes = cgroupNumber(value);
            else if (key == "cg_inactive_file")
                l.inactiveFileBytes = cgroupNumber(value);
            else if (key == "cg_oom_kill")
                l.oomKills = count(value);
            else if (key == "cg_peak")
                l.peakBytes = cgroupNumber(value);
        }
    }
    return v;
}

} // namespace kf
