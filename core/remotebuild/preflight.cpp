// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/preflight.h"

#include "core/jobs/jobfolder.h"
#include "core/remotebuild/diagnosticparser.h"

#include <QRegularExpression>

namespace kf {

QString toString(PreflightCheck::Level l)
{
    switch (l) {
    case PreflightCheck::Level::Pass: return QStringLiteral("pass");
    case PreflightCheck::Level::Warn: return QStringLiteral("warn");
    case PreflightCheck::Level::Fail: return QStringLiteral("fail");
    }
    return {};
}

PreflightFacts parsePreflightFacts(QByteArrayView text)
{
    PreflightFacts facts;
    for (const QByteArray& line : QByteArray(text.data(), text.size()).split('\n')) {
        const qsizetype tab = line.indexOf('\t');
        if (tab <= 0)
            continue;
        facts.insert(QString::fromUtf8(line.left(tab)), QString::fromUtf8(line.mid(tab + 1)).trimmed());
    }
    return facts;
}

QString preflightScript(const BuildProfile& profile)
{
    const QString dflags
        = QStringLiteral("SGL_KERNEL_[A-Z0-9_]+|ENABLE_BELOW_SM90|CMAKE_BUILD_TYPE|CMAKE_CUDA_ARCHITECTURES");
    QString s;
    s += QStringLiteral("wd=")
        + jobs::shellPath(profile.workingDirectory.isEmpty() ? QStringLiteral("~") : profile.workingDirectory)
        + QLatin1Char('\n');
    s += QStringLiteral("bd=")
        + jobs::shellPath(profile.buildPath().isEmpty() ? QStringLiteral("~") : profile.buildPath())
        + QLatin1Char('\n');
    s += QStringLiteral(
        R"SH(if [ -d "$wd" ]; then echo "workdir	ok"; cd "$wd"; else echo "workdir	missing"; fi
v=$(cmake --version 2>/dev/null | head -n1 | sed -n 's/.*version \([0-9][0-9.]*\).*/\1/p'); [ -n "$v" ] && echo "cmake	$v"
v=$(ninja --version 2>/dev/null); [ -n "$v" ] && echo "ninja	$v"
n=$(command -v nvcc 2>/dev/null); [ -z "$n" ] && [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ] && n="${CUDA_HOME:-/usr/local/cuda}/bin/nvcc"
if [ -n "$n" ]; then
  echo "nvcc_path	$n"
  v=$("$n" --version 2>/dev/null | sed -n 's/.*release \([0-9][0-9.]*\).*/\1/p'); [ -n "$v" ] && echo "nvcc	$v"
  inc=$(dirname "$(dirname "$n")")/include/cccl; [ -d "$inc" ] && echo "cccl_dir	$inc"
fi
py=$(command -v python3 || command -v python)
if [ -n "$py" ]; then
  echo "python	$("$py" -c 'import platform; print(platform.python_version())' 2>/dev/null)"
  t=$(timeout 60 "$py" -c 'import torch; print(torch.__version__); print(torch.version.cuda or "")' 2>/dev/null)
  [ -n "$t" ] && { echo "torch	$(echo "$t" | sed -n 1p)"; echo "torch_cuda	$(echo "$t" | sed -n 2p)"; }
fi
awk '/^MemAvailable:/{print "memavailable_kb\t"$2} /^MemTotal:/{print "memtotal_kb\t"$2}' /proc/meminfo 2>/dev/null
d="$bd"; while [ ! -d "$d" ] && [ "$d" != "/" ] && [ -n "$d" ]; do d=$(dirname "$d"); done
df -Pk "$d" 2>/dev/null | awk 'NR==2{print "disk_free_kb\t"$4}'
echo "cpus	$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)"
[ -f CMakeLists.txt ] && grep -iE 'cmake_policy|POLICY|cccl|cmake_minimum_required' CMakeLists.txt | sed 's/^/cmakelists	/'
)SH");
    s += QStringLiteral("env | grep -E '^(") + dflags + QStringLiteral(")=' | sed 's/^/dflag_env\t/'\n");
    s += QStringLiteral("exit 0\n");
    return s;
}

QList<PreflightCheck> evaluatePreflight(const PreflightFacts& facts, const BuildProfile& profile)
{
    using L = PreflightCheck::Level;
    QList<PreflightCheck> out;
    auto add = [&](L level, const QString& id, const QString& message, const QString& fix = {}) {
        out.append({ level, id, message, fix });
    };

    if (facts.value(QStringLiteral("workdir")) == QLatin1String("missing"))
        add(L::Fail, QStringLiteral("workdir"),
            QStringLiteral("working directory %1 does not exist").arg(profile.workingDirectory),
            QStringLiteral("clone the project there or fix working_dir in the profile"));

    // CMake version vs the policies the CMakeLists sets unguarded.
    const QString cmake = facts.value(QStringLiteral("cmake"));
    const QStringList lines = facts.values(QStringLiteral("cmakelists"));
    // QMultiMap::values returns the most recent insertion first.
    QStringList ordered(lines.crbegin(), lines.crend());
    static const QMap<QString, QString> policyVersion { { QStringLiteral("CMP0169"), QStringLiteral("3.30") },
        { QStringLiteral("CMP0177"), QStringLiteral("3.31") }, { QStringLiteral("CMP0167"), QStringLiteral("3.30") },
        { QStringLiteral("CMP0156"), QStringLiteral("3.29") } };
    static const QRegularExpression setPolicy(
        QStringLiteral(R"(cmake_policy\s*\(\s*SET\s+(CMP\d{4}))"), QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression ifPolicy(
        QStringLiteral(R"(if\s*\(\s*POLICY\s+(CMP\d{4}))"), QRegularExpression::CaseInsensitiveOption);
    QString needed;
    QStringList unguarded;
    QSet<QString> guarded;
    for (const QString& l : ordered) {
        if (l.trimmed().startsWith(QLatin1Char('#')))
            continue;
        if (auto m = ifPolicy.match(l); m.hasMatch())
            guarded.insert(m.captured(1));
        if (auto m = setPolicy.match(l); m.hasMatch()) {
            const QString p = m.captured(1);
            const QString v = policyVersion.value(p);
            if (!v.isEmpty() && !guarded.contains(p)) {
                unguarded << p;
                if (needed.isEmpty() || compareVersions(v, needed) > 0)
                    needed = v;
            }
        }
    }
    if (cmake.isEmpty()) {
        add(L::Fail, QStringLiteral("cmake"), QStringLiteral("cmake not found"),
            QStringLiteral("install CMake >= 3.31 (pip install 'cmake>=3.31')"));
    } else if (!needed.isEmpty() && compareVersions(cmake, needed) < 0) {
        add(L::Fail, QStringLiteral("cmake-policy"),
            QStringLiteral("CMake %1 does not know %2 (set unguarded in CMakeLists.txt; needs %3)")
                .arg(cmake, unguarded.join(QStringLiteral(", ")), needed),
            QStringLiteral("apply the cmake-policy patch, or install CMake >= %1").arg(needed));
    } else {
        add(L::Pass, QStringLiteral("cmake"), QStringLiteral("CMake %1").arg(cmake));
    }

    const QString ninja = facts.value(QStringLiteral("ninja"));
    if (ninja.isEmpty())
        add(L::Warn, QStringLiteral("ninja"),
            QStringLiteral("ninja not found: the build falls back to make (no step counts, slower)"),
            QStringLiteral("pip install ninja"));
    else
        add(L::Pass, QStringLiteral("ninja"), QStringLiteral("ninja %1").arg(ninja));

    const QString nvcc = facts.value(QStringLiteral("nvcc"));
    if (nvcc.isEmpty()) {
        add(L::Fail, QStringLiteral("nvcc"), QStringLiteral("nvcc not found in PATH or $CUDA_HOME/bin"),
            QStringLiteral(
                "install the CUDA toolkit and add <cuda>/bin to PATH (or set CUDA_HOME in the profile env)"));
    } else if (compareVersions(nvcc, QStringLiteral("12.8")) < 0) {
        add(L::Fail, QStringLiteral("cuda-arch"), QStringLiteral("CUDA %1 cannot build sm_120a (needs 12.8)").arg(nvcc),
            QStringLiteral("install CUDA >= 12.8 and point PATH/CUDA_HOME at it"));
    } else {
        add(L::Pass, QStringLiteral("nvcc"),
            QStringLiteral("CUDA %1 at %2 (sm_120a ok)").arg(nvcc, facts.value(QStringLiteral("nvcc_path"))));
    }

    if (!nvcc.isEmpty() && compareVersions(nvcc, QStringLiteral("13.0")) >= 0) {
        const bool mentionsCccl = std::any_of(ordered.begin(), ordered.end(), [](const QString& l) {
            return l.contains(QLatin1String("cccl"), Qt::CaseInsensitive) && !l.trimmed().startsWith(QLatin1Char('#'));
        });
        if (mentionsCccl)
            add(L::Pass, QStringLiteral("cccl"), QStringLiteral("CMakeLists.txt adds the CCCL include directory"));
        else if (!lines.isEmpty() || facts.contains(QStringLiteral("cmakelists")))
            add(L::Fail, QStringLiteral("cccl"),
                QStringLiteral("CUDA %1 keeps CUB/Thrust/libcu++ in %2, which host-compiled files will not find")
                    .arg(nvcc, facts.value(QStringLiteral("cccl_dir"), QStringLiteral("<cuda>/include/cccl"))),
                QStringLiteral("apply the CCCL include patch"));
        else
            add(L::Warn, QStringLiteral("cccl"),
                QStringLiteral("CUDA %1 moved CCCL headers to include/cccl; no CMakeLists.txt found to check")
                    .arg(nvcc),
                QStringLiteral("make sure the project adds <cuda>/include/cccl to its include directories"));
    }

    const QString python = facts.value(QStringLiteral("python"));
    if (python.isEmpty())
        add(L::Fail, QStringLiteral("python"), QStringLiteral("python3 not found"),
            QStringLiteral("install Python 3.10+ (a venv on PATH)"));
    else
        add(L::Pass, QStringLiteral("python"), QStringLiteral("Python %1").arg(python));
    const QString torch = facts.value(QStringLiteral("torch"));
    const QString torchCuda = facts.value(QStringLiteral("torch_cuda"));
    if (!python.isEmpty()) {
        if (torch.isEmpty())
            add(L::Warn, QStringLiteral("torch"),
                QStringLiteral("torch is not importable; --no-build-isolation builds against the installed torch"),
                QStringLiteral("install the torch you will run with (e.g. the cu130 nightly) first"));
        else if (!nvcc.isEmpty() && !torchCuda.isEmpty()
            && torchCuda.section(QLatin1Char('.'), 0, 0) != nvcc.section(QLatin1Char('.'), 0, 0))
            add(L::Warn, QStringLiteral("torch"),
                QStringLiteral("torch %1 is built for CUDA %2 but nvcc is %3").arg(torch, torchCuda, nvcc),
                QStringLiteral("use a torch build for CUDA %1 or the matching toolkit")
                    .arg(nvcc.section(QLatin1Char('.'), 0, 0)));
        else
            add(L::Pass, QStringLiteral("torch"),
                QStringLiteral("torch %1 (CUDA %2)")
                    .arg(torch, torchCuda.isEmpty() ? QStringLiteral("none") : torchCuda));
    }

    for (const QString& d : facts.values(QStringLiteral("dflag_env")))
        if (!profile.env.contains(d.section(QLatin1Char('='), 0, 0)))
            add(L::Warn, QStringLiteral("env-dflag"),
                QStringLiteral("%1 is exported as an environment variable, where the build ignores it").arg(d),
                QStringLiteral("put -D%1 into the profile's CMAKE_ARGS and unset it").arg(d));
    for (auto it = profile.env.cbegin(); it != profile.env.cend(); ++it)
        if (isCMakeOnlyVariable(it.key()))
            add(L::Warn, QStringLiteral("env-dflag"),
                QStringLiteral("the profile exports %1 as an environment variable, where the build ignores it")
                    .arg(it.key()),
                QStringLiteral("move it to cmake_args as -D%1=%2").arg(it.key(), it.value()));

    const qint64 availKb = facts.value(QStringLiteral("memavailable_kb")).toLongLong();
    if (availKb > 0) {
        const int jobs = profile.maxJobs > 0 ? profile.maxJobs : facts.value(QStringLiteral("cpus")).toInt();
        const int threads
            = profile.nvccThreads > 0 ? profile.nvccThreads : (profile.nvccThreadsDefine.isEmpty() ? 1 : 32);
        const qint64 needGb = qint64(std::max(1, jobs)) * threads * 4;
        const double availGb = double(availKb) / (1024.0 * 1024.0);
        const QString msg = QStringLiteral("MAX_JOBS %1 x %2 nvcc threads x ~4 GB = %3 GB; %4 GB available")
                                .arg(std::max(1, jobs))
                                .arg(threads)
                                .arg(needGb)
                                .arg(availGb, 0, 'f', 1);
        if (double(needGb) > availGb)
            add(L::Fail, QStringLiteral("ram"), msg, oomAdvice(availKb * 1024, std::max(1, jobs), threads));
        else if (double(needGb) > availGb * 0.8)
            add(L::Warn, QStringLiteral("ram"), msg, QStringLiteral("leave headroom: lower MAX_JOBS or nvcc threads"));
        else
            add(L::Pass, QStringLiteral("ram"), msg);
    }
    const qint64 diskKb = facts.value(QStringLiteral("disk_free_kb")).toLongLong();
    if (facts.contains(QStringLiteral("disk_free_kb"))) {
        const double gb = double(diskKb) / (1024.0 * 1024.0);
        const QString msg = QStringLiteral("%1 GB free for %2").arg(gb, 0, 'f', 1).arg(profile.buildPath());
        if (gb < 5)
            add(L::Fail, QStringLiteral("disk"), msg,
                QStringLiteral("free at least 20 GB (an sgl-kernel build dir grows to ~10 GB)"));
        else if (gb < 20)
            add(L::Warn, QStringLiteral("disk"), msg, QStringLiteral("free at least 20 GB"));
        else
            add(L::Pass, QStringLiteral("disk"), msg);
    }
    return out;
}

Result<QList<PreflightCheck>> runPreflight(Transport& transport, const BuildProfile& profile)
{
    CommandSpec spec;
    spec.command = preflightScript(profile);
    spec.env = profile.env; // on stdin, not the command line: it may hold tokens
    const ExecResult r = transport.exec(spec, 120000);
    if (!r.error.isEmpty())
        return Result<QList<PreflightCheck>>::failure(r.error);
    return evaluatePreflight(parsePreflightFacts(r.stdOut), profile);
}

} // namespace kf
