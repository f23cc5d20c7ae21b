// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/hosts/serverfacts.h"

#include "core/hosts/hostevents.h"
#include "core/transport/transport.h"
#include "core/util/shellquote.h"

#include <QJsonArray>
#include <QRegularExpression>

namespace kf {

namespace {

// POSIX sh only (dash, busybox ash, bash --posix). Every probe is guarded with
// `command -v`, every tool that can hang (nvidia-smi on a wedged driver, python importing
// torch) runs under `timeout` when the server has it. Values are cut to one line. The
// project part (kf_wd set) comes from projectPart() below.
constexpr char kScriptHead[] = R"SH(kf_main() {
PATH="$PATH:${CUDA_HOME:+$CUDA_HOME/bin:}/usr/local/cuda/bin:/usr/sbin:/sbin"
kf_has() { command -v "$1" >/dev/null 2>&1; }
kf_t() { if kf_has timeout; then timeout "$@"; else shift; "$@"; fi; }
kf_f() { printf '%s=%s\n' "$1" "$2"; }
kf_first() { head -n 1 | tr -d '\r'; }
kf_each() { while IFS= read -r l; do kf_f "$1" "$l"; done; }
kf_df() { df -Pk "$1" 2>/dev/null | awk 'NR==2 {print $2, $4}'; }
echo kf_facts=1
)SH";

constexpr char kScriptBody[] = R"SH(if [ -r /etc/os-release ]; then
  kf_f os "$(sed -n 's/^PRETTY_NAME=//p' /etc/os-release | kf_first)"
else
  kf_f os "$(uname -s 2>/dev/null) $(uname -r 2>/dev/null)"
fi
kf_f kernel "$(uname -r 2>/dev/null)"
kf_f arch "$(uname -m 2>/dev/null)"
kf_f glibc "$(getconf GNU_LIBC_VERSION 2>/dev/null)"
kf_f hostname "$(uname -n 2>/dev/null)"
n=$(getconf _NPROCESSORS_ONLN 2>/dev/null) || n=
[ -n "$n" ] || n=$(nproc 2>/dev/null) || n=
[ -n "$n" ] || n=$(grep -c '^processor' /proc/cpuinfo 2>/dev/null) || n=
kf_f cpus "$n"
[ -r /proc/cpuinfo ] && kf_f cpu_model "$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | kf_first)"
kf_memview "" /proc/self/cgroup
kf_f home "$HOME"
kf_has df && kf_f disk_home "$(kf_df "$HOME")"
if kf_has nvidia-smi; then
  out=$(kf_t 20 nvidia-smi -L 2>&1); rc=$?
  if [ "$rc" -eq 0 ]; then
    printf '%s\n' "$out" | while IFS= read -r l; do [ -n "$l" ] && kf_f gpu "$l"; done
    kf_t 20 nvidia-smi --query-gpu=index,compute_cap,memory.total --format=csv,noheader,nounits 2>/dev/null \
      | kf_each gpu_info
    kf_f driver "$(kf_t 20 nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | kf_first)"
  else
    kf_f nvidia_smi_error "$(printf '%s\n' "$out" | grep -v '^[[:space:]]*$' | kf_first)"
  fi
fi
if kf_has nvcc; then
  n=$(command -v nvcc)
  kf_f nvcc "$(nvcc --version 2>/dev/null | grep release | kf_first)"
  kf_f nvcc_path "$n"
  inc=$(dirname "$(dirname "$n")")/include/cccl
  [ -d "$inc" ] && kf_f cccl_dir "$inc"
fi
kf_has cmake && kf_f cmake "$(cmake --version 2>/dev/null | kf_first)"
kf_has ninja && kf_f ninja "$(ninja --version 2>/dev/null | kf_first)"
kf_has ccache && kf_f ccache "$(ccache --version 2>/dev/null | kf_first)"
kf_has gcc && kf_f gcc "$(gcc --version 2>/dev/null | kf_first)"
py=$(command -v python3 || command -v python)
if [ -n "$py" ]; then
  kf_t 60 "$py" -c '
import sys
print("python3=Python %s" % sys.version.split()[0])
try:
    import sysconfig
    print("python_soabi=%s" % (sysconfig.get_config_var("SOABI") or ""))
except Exception:
    pass
project = len(sys.argv) > 1
try:
    from importlib import metadata
except Exception:
    metadata = None
found = set()
for name in ("torch", "sglang", "sglang-kernel", "sgl-kernel", "flashinfer-python", "triton", "deep_gemm"):
    try:
        print("pkg_%s=%s" % (name, metadata.version(name)))
        found.add(name)
    except Exception:
        pass
if project or "torch" not in found:
    try:
        import torch
        if "torch" not in found:
            print("pkg_torch=%s" % torch.__version__)
        if project:
            print("torch_cuda=%s" % (torch.version.cuda or ""))
            print("torch_cxx11_abi=%d" % int(bool(torch.compiled_with_cxx11_abi())))
    except Exception as e:
        print("torch_error=%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else ""))
' ${kf_wd:+project} 2>/dev/null
fi
)SH";

// Runs in the project's working directory (kf_wd, cd'ed to at the start) with its environment.
constexpr char kProjectPart[] = R"SH(if [ -f CMakeLists.txt ]; then
  head -c 262144 CMakeLists.txt | tr -d '\r' | kf_each cmakelists
fi
kf_tree() { grep -iE "$2" "$1" 2>/dev/null | grep -E "$3" | head -n 20 | tr -d '\r' | while IFS= read -r l; do kf_f tree_line "$4	$l"; done; }
for f in README.md pyproject.toml; do [ -f "$f" ] && kf_tree "$f" 'torch|cmake' '==|>=|≥' "$f"; done
[ -n "$kf_sp" ] && [ -f "$kf_sp" ] && kf_tree "$kf_sp" '"torch *==' '==' python/pyproject.toml
kf_f cplus_include_path "${CPLUS_INCLUDE_PATH:-}"
env | grep -E '^(SGL_KERNEL_[A-Z0-9_]+|ENABLE_BELOW_SM90|CMAKE_BUILD_TYPE|CMAKE_CUDA_ARCHITECTURES)=' | kf_each dflag_env
d="$kf_bd"; while [ ! -d "$d" ] && [ "$d" != "/" ] && [ -n "$d" ]; do d=$(dirname "$d"); done
kf_has df && kf_f disk_build "$(kf_df "$d")"
)SH";

constexpr char kScriptTail[] = R"SH(echo kf_facts_end=1
}
kf_main </dev/null
)SH";

// A whole number >= 0 (KiB, MiB); noValue() for anything else ([N/A], empty, garbage).
double size(const QString& s)
{
    bool ok = false;
    const qint64 v = s.trimmed().toLongLong(&ok);
    return ok && v >= 0 ? double(v) : noValue();
}

// "<1024-blocks> <available>" from df -Pk.
void diskPair(const QString& value, double* total, double* available)
{
    const QStringList parts = value.simplified().split(QLatin1Char(' '));
    if (parts.size() == 2) {
        *total = size(parts[0]);
        *available = size(parts[1]);
    }
}

QString unquote(QString s)
{
    s = s.trimmed();
    if (s.size() >= 2 && (s.front() == QLatin1Char('"') || s.front() == QLatin1Char('\'')) && s.back() == s.front())
        s = s.mid(1, s.size() - 2);
    return s;
}

} // namespace

QByteArray serverFactsScript(const std::optional<ProjectProbe>& project)
{
    QByteArray s = kScriptHead + memoryViewFunction();
    if (!project) {
        s += "kf_wd=\n"; // no project: python is told so by an empty kf_wd
    } else {
        auto orHome = [](const QString& p) { return shellPath(p.isEmpty() ? QStringLiteral("~") : p).toUtf8(); };
        s += "kf_wd=" + orHome(project->workingDirectory) + "\nkf_bd=" + orHome(project->buildPath) + "\n";
        s += "kf_sp="
            + (project->sglangPyproject.isEmpty() ? QByteArray() : shellPath(project->sglangPyproject).toUtf8()) + "\n";
        s += "if [ -d \"$kf_wd\" ]; then kf_f workdir ok; cd \"$kf_wd\"; else kf_f workdir missing; fi\n";
    }
    s += kScriptBody;
    if (project)
        s += kProjectPart;
    return s + kScriptTail;
}

QString versionFromToolOutput(const QString& key, const QString& raw)
{
    const QString text = raw.trimmed();
    if (key == QLatin1String("nvcc")) {
        // "Cuda compilation tools, release 12.4, V12.4.131": the V-number is the full one.
        static const QRegularExpression full(QStringLiteral("\\bV(\\d+(?:\\.\\d+)+)"));
        static const QRegularExpression rel(QStringLiteral("release (\\d+(?:\\.\\d+)+)"));
        if (const auto m = full.match(text); m.hasMatch())
            return m.captured(1);
        if (const auto m = rel.match(text); m.hasMatch())
            return m.captured(1);
        return text;
    }
    if (key == QLatin1String("gcc")) {
        // "gcc (Debian 12.2.0-14) 12.2.0": the version is the last word.
        static const QRegularExpression last(QStringLiteral("(\\d+(?:\\.\\d+)+)\\s*$"));
        if (const auto m = last.match(text); m.hasMatch())
            return m.captured(1);
        return text;
    }
    // "cmake version 3.25.1", "Python 3.11.2", "1.11.1", "cmake version 3.31.0-rc1"
    static const QRegularExpression any(QStringLiteral("(\\d+(?:\\.\\d+)+[0-9A-Za-z.+-]*)"));
    if (const auto m = any.match(text); m.hasMatch())
        return m.captured(1);
    return text;
}

QString formatKiB(double kib)
{
    if (!hasValue(kib) || kib < 0)
        return QStringLiteral("unknown");
    const double b = kib * 1024.0;
    const char* units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
    double v = b;
    int u = 0;
    while (v >= 1024.0 && u < 5) {
        v /= 1024.0;
        ++u;
    }
    return QString::number(v, 'f', u == 0 ? 0 : 1) + QLatin1Char(' ') + QLatin1String(units[u]);
}

Result<ServerFacts> parseServerFacts(const QByteArray& output)
{
    ServerFacts f;
    bool started = false;
    static const QRegularExpression gpuLine(QStringLiteral("^GPU (\\d+): (.*?)(?: \\(UUID: ([^)]*)\\))?\\s*$"));
    QList<QStringList> gpuInfo;
    QByteArray memoryLines; // the memory view's keys, read by its own parser
    for (QByteArray raw : output.split('\n')) {
        if (raw.endsWith('\r'))
            raw.chop(1);
        const qsizetype eq = raw.indexOf('=');
        if (eq <= 0)
            continue;
        const QString key = QString::fromUtf8(raw.left(eq));
        const QString value = QString::fromUtf8(raw.mid(eq + 1));
        if (!started) {
            // Anything a login shell printed before the script (motd, banners) is skipped.
            if (key == QLatin1String("kf_facts"))
                started = true;
            continue;
        }
        if (key == QLatin1String("kf_facts_end")) {
            f.complete = true;
            break;
        }
        if (key.startsWith(QLatin1String("mem_")) || key.startsWith(QLatin1String("cg_"))
            || key.startsWith(QLatin1String("vm_"))) {
            memoryLines += raw + '\n';
            continue;
        }
        if (key == QLatin1String("os")) {
            f.os = unquote(value);
        } else if (key == QLatin1String("kernel")) {
            f.kernel = value.trimmed();
        } else if (key == QLatin1String("arch")) {
            f.arch = value.trimmed();
        } else if (key == QLatin1String("hostname")) {
            f.hostName = value.trimmed();
        } else if (key == QLatin1String("cpus")) {
            f.cpuCount = value.trimmed().toInt();
        } else if (key == QLatin1String("cpu_model")) {
            f.cpuModel = value.simplified();
        } else if (key == QLatin1String("home")) {
            f.homeDir = value;
        } else if (key == QLatin1String("disk_home")) {
            diskPair(value, &f.diskHomeTotalKiB, &f.diskHomeAvailableKiB);
        } else if (key == QLatin1String("gpu")) {
            f.hasNvidiaSmi = true;
            const auto m = gpuLine.match(value.trimmed());
            if (m.hasMatch()) {
                GpuFact g;
                g.index = m.captured(1).toInt();
                g.name = m.captured(2).trimmed();
                g.uuid = m.captured(3);
                f.gpus.append(g);
            } else if (!value.trimmed().isEmpty() && f.nvidiaSmiError.isEmpty()) {
                // "No devices were found" and friends come with exit status 0 on some drivers.
                f.nvidiaSmiError = value.trimmed();
            }
        } else if (key == QLatin1String("gpu_info")) {
            gpuInfo.append(value.split(QLatin1Char(',')));
        } else if (key == QLatin1String("driver")) {
            f.hasNvidiaSmi = true;
            f.driverVersion = value.trimmed();
        } else if (key == QLatin1String("nvidia_smi_error")) {
            f.hasNvidiaSmi = true;
            f.nvidiaSmiError = value.trimmed();
        } else if (key == QLatin1String("nvcc")) {
            f.nvcc = versionFromToolOutput(key, value);
        } else if (key == QLatin1String("nvcc_path")) {
            f.nvccPath = value.trimmed();
        } else if (key == QLatin1String("cccl_dir")) {
            f.ccclDir = value.trimmed();
        } else if (key == QLatin1String("cmake")) {
            f.cmake = versionFromToolOutput(key, value);
        } else if (key == QLatin1String("ninja")) {
            f.ninja = versionFromToolOutput(key, value);
        } else if (key == QLatin1String("ccache")) {
            f.ccache = versionFromToolOutput(key, value);
        } else if (key == QLatin1String("gcc")) {
            f.gcc = versionFromToolOutput(key, value);
        } else if (key == QLatin1String("python3")) {
            f.python = versionFromToolOutput(key, value);
        } else if (key == QLatin1String("pkg_torch")) {
            f.torch = value.trimmed();
        } else if (key == QLatin1String("pkg_sglang")) {
            f.sglang = value.trimmed();
        } else if (key == QLatin1String("pkg_flashinfer-python") || key == QLatin1String("pkg_triton")
            || key == QLatin1String("pkg_deep_gemm")) {
            f.jitLibraries.insert(key.mid(4), value.trimmed());
        } else if (key == QLatin1String("pkg_sgl-kernel")) {
            f.sglKernel = value.trimmed();
        } else if (key == QLatin1String("pkg_sglang-kernel")) {
            f.sglangKernel = value.trimmed();
        } else if (key == QLatin1String("torch_error")) {
            f.torchError = value.trimmed();
        } else if (key == QLatin1String("torch_cuda")) {
            f.torchCuda = value.trimmed();
        } else if (key == QLatin1String("torch_cxx11_abi")) {
            if (value.trimmed() == QLatin1String("1") || value.trimmed() == QLatin1String("0"))
                f.torchCxx11Abi = value.trimmed() == QLatin1String("1");
        } else if (key == QLatin1String("python_soabi")) {
            f.pythonSoabi = value.trimmed();
        } else if (key == QLatin1String("glibc")) {
            // "glibc 2.36" (getconf GNU_LIBC_VERSION); nothing on musl.
            f.glibc
                = value.trimmed().startsWith(QLatin1String("glibc ")) ? value.trimmed().mid(6).trimmed() : QString();
        } else if (key == QLatin1String("workdir")) {
            f.project.probed = true;
            f.project.workDirExists = value.trimmed() == QLatin1String("ok");
        } else if (key == QLatin1String("cmakelists")) {
            f.project.cmakeLists.append(value);
        } else if (key == QLatin1String("tree_line")) {
            const qsizetype tab = value.indexOf(QLatin1Char('\t'));
            if (tab > 0)
                f.project.treeLines.append({ value.left(tab), value.mid(tab + 1) });
        } else if (key == QLatin1String("cplus_include_path")) {
            f.project.cplusIncludePath = value.trimmed();
        } else if (key == QLatin1String("dflag_env")) {
            f.project.exportedCMakeVariables.append(value);
        } else if (key == QLatin1String("disk_build")) {
            diskPair(value, &f.project.diskTotalKiB, &f.project.diskAvailableKiB);
        } else {
            f.extra.append({ key, value });
        }
    }
    if (!started)
        return Result<ServerFacts>::failure(
            QStringLiteral("the server facts script produced no output (is /bin/sh missing?)"));
    f.memory = parseMemoryView(memoryLines);
    // Join "index, compute_cap, memory.total" to the GPUs by index; brackets mean no value.
    for (const QStringList& cols : std::as_const(gpuInfo)) {
        if (cols.size() < 3)
            continue;
        bool ok = false;
        const int index = cols[0].trimmed().toInt(&ok);
        if (!ok)
            continue;
        for (GpuFact& g : f.gpus) {
            if (g.index != index)
                continue;
            const QString cc = cols[1].trimmed();
            if (!cc.startsWith(QLatin1Char('[')) && cc != QLatin1String("N/A"))
                g.computeCapability = cc;
            g.memoryMiB = size(cols[2]);
        }
    }
    return f;
}

Result<ServerFacts> collectServerFacts(Transport& transport, int timeoutMs, const std::optional<ProjectProbe>& project)
{
    CommandSpec spec;
    spec.command = QString::fromUtf8(serverFactsScript(project));
    if (project)
        spec.env = project->env; // on stdin, not the command line: it may hold tokens
    // The facts are a few KiB; more is a login script talking (a .bashrc printing without end).
    spec.maxOutputBytes = kServerFactsMaxOutput;
    const ExecResult r = transport.exec(spec, timeoutMs);
    if (!r.error.isEmpty())
        return Result<ServerFacts>::failure(
            QStringLiteral("server facts on %1: %2").arg(transport.describe(), r.error));
    auto facts = parseServerFacts(r.stdOut);
    if (!facts) {
        QString why = facts.error();
        const QString err = QString::fromUtf8(r.stdErr).trimmed();
        if (!err.isEmpty())
            why += QStringLiteral(": ") + err.section(QLatin1Char('\n'), 0, 0);
        return Result<ServerFacts>::failure(QStringLiteral("server facts on %1: %2").arg(transport.describe(), why));
    }
    timeline::recordFacts(transport.describe(), facts.value());
    return facts;
}

QList<QPair<QString, QString>> ServerFacts::rows() const
{
    const QString notFound = QStringLiteral("not found");
    auto orMissing = [&](const QString& v) { return v.isEmpty() ? notFound : v; };
    QList<QPair<QString, QString>> r;
    r.append({ QStringLiteral("OS"), orMissing(os) });
    QString k = kernel;
    if (!arch.isEmpty())
        k += QStringLiteral(" (") + arch + QLatin1Char(')');
    r.append({ QStringLiteral("Kernel"), orMissing(k) });
    QString cpu = cpuCount > 0 ? QString::number(cpuCount) : QStringLiteral("unknown");
    if (!cpuModel.isEmpty())
        cpu += QStringLiteral(" \u00d7 ") + cpuModel;
    r.append({ QStringLiteral("CPUs"), cpu });
    QString ram = !hasValue(memory.memTotalKiB) ? QStringLiteral("unknown")
                                                : formatKiB(memory.memTotalKiB) + QStringLiteral(" total, ")
            + formatKiB(memory.memAvailableKiB) + QStringLiteral(" available");
    // A cgroup limit is what a build can use (a container, a Slurm job, a systemd slice).
    if (memory.hasCgroupLimit())
        ram += QStringLiteral("; %1 usable under %2").arg(formatKiB(memory.availableKiB()), memory.limitSource());
    r.append({ QStringLiteral("RAM"), ram });
    r.append({ QStringLiteral("Disk (home)"),
        !hasValue(diskHomeAvailableKiB) ? QStringLiteral("unknown")
                                        : formatKiB(diskHomeAvailableKiB) + QStringLiteral(" free of ")
                + formatKiB(diskHomeTotalKiB) + QStringLiteral(" in ") + homeDir });
    QString gpuText;
    if (!nvidiaSmiError.isEmpty() && gpus.isEmpty())
        gpuText = QStringLiteral("nvidia-smi failed: ") + nvidiaSmiError;
    else if (!hasNvidiaSmi)
        gpuText = QStringLiteral("none (no nvidia-smi)");
    else if (gpus.isEmpty())
        gpuText = QStringLiteral("none");
    // Consecutive identical GPUs share a line ("0\u20136: ..."): 8-GPU servers stay readable.
    for (qsizetype i = 0; i < gpus.size();) {
        const GpuFact& g = gpus[i];
        qsizetype j = i + 1;
        while (j < gpus.size() && gpus[j].name == g.name && gpus[j].computeCapability == g.computeCapability
            && sameValue(gpus[j].memoryMiB, g.memoryMiB) && gpus[j].index == gpus[j - 1].index + 1)
            ++j;
        if (!gpuText.isEmpty())
            gpuText += QLatin1Char('\n');
        gpuText += QString::number(g.index);
        if (j - i > 1)
            gpuText += QStringLiteral("\u2013") + QString::number(gpus[j - 1].index);
        gpuText += QStringLiteral(": ") + g.name;
        QStringList details;
        if (!g.computeCapability.isEmpty())
            details << QStringLiteral("sm ") + g.computeCapability;
        if (hasValue(g.memoryMiB))
            details << QString::number(g.memoryMiB, 'f', 0) + QStringLiteral(" MiB");
        if (!details.isEmpty())
            gpuText += QStringLiteral(" (") + details.join(QStringLiteral(", ")) + QLatin1Char(')');
        i = j;
    }
    r.append({ QStringLiteral("GPUs"), gpuText });
    if (hasNvidiaSmi)
        r.append({ QStringLiteral("Driver"), orMissing(driverVersion) });
    r.append({ QStringLiteral("nvcc"), orMissing(nvcc) });
    r.append({ QStringLiteral("CMake"), orMissing(cmake) });
    r.append({ QStringLiteral("Ninja"), orMissing(ninja) });
    r.append({ QStringLiteral("ccache"), orMissing(ccache) });
    r.append({ QStringLiteral("GCC"), orMissing(gcc) });
    r.append({ QStringLiteral("Python"), orMissing(python) });
    QString torchText = torch;
    if (torchText.isEmpty())
        torchText = python.isEmpty()
            ? notFound
            : (torchError.isEmpty() ? notFound : QStringLiteral("not importable: ") + torchError);
    r.append({ QStringLiteral("PyTorch"), torchText });
    r.append({ QStringLiteral("SGLang"), orMissing(sglang) });
    // The wheel's name changed in 2026-03; say which one is installed when it is the new one.
    QStringList kernel;
    if (!sglangKernel.isEmpty())
        kernel << sglangKernel + QStringLiteral(" (sglang-kernel)");
    if (!sglKernel.isEmpty())
        kernel << (sglangKernel.isEmpty() ? sglKernel : sglKernel + QStringLiteral(" (sgl-kernel)"));
    r.append({ QStringLiteral("sgl-kernel"), kernel.isEmpty() ? notFound : kernel.join(QStringLiteral(", ")) });
    return r;
}

QJsonObject ServerFacts::toJson() const
{
    QJsonObject jitJson;
    for (auto it = jitLibraries.cbegin(); it != jitLibraries.cend(); ++it)
        jitJson.insert(it.key(), it.value());
    auto str = [](const QString& s) { return s.isEmpty() ? QJsonValue() : QJsonValue(s); };
    QJsonArray g;
    for (const GpuFact& x : gpus)
        g.append(QJsonObject { { QStringLiteral("index"), x.index }, { QStringLiteral("name"), x.name },
            { QStringLiteral("uuid"), str(x.uuid) }, { QStringLiteral("computeCapability"), str(x.computeCapability) },
            { QStringLiteral("memoryMiB"), jsonValue(x.memoryMiB) } });
    QJsonObject extras;
    for (const auto& [k, v] : extra)
        extras.insert(k, v);
    return QJsonObject {
        { QStringLiteral("os"), str(os) },
        { QStringLiteral("kernel"), str(kernel) },
        { QStringLiteral("arch"), str(arch) },
        { QStringLiteral("hostname"), str(hostName) },
        { QStringLiteral("cpus"), cpuCount },
        { QStringLiteral("cpuModel"), str(cpuModel) },
        { QStringLiteral("memTotalKiB"), jsonValue(memory.memTotalKiB) },
        { QStringLiteral("memAvailableKiB"), jsonValue(memory.memAvailableKiB) },
        { QStringLiteral("memoryLimitKiB"), jsonValue(memory.limitKiB()) },
        { QStringLiteral("memoryUsableKiB"), jsonValue(memory.availableKiB()) },
        { QStringLiteral("memoryLimitSource"), memory.limitSource() },
        { QStringLiteral("cgroup"), str(memory.cgroupPath) },
        { QStringLiteral("home"), str(homeDir) },
        { QStringLiteral("diskHomeTotalKiB"), jsonValue(diskHomeTotalKiB) },
        { QStringLiteral("diskHomeAvailableKiB"), jsonValue(diskHomeAvailableKiB) },
        { QStringLiteral("gpus"), g },
        { QStringLiteral("driver"), str(driverVersion) },
        { QStringLiteral("nvidiaSmi"), hasNvidiaSmi },
        { QStringLiteral("nvidiaSmiError"), str(nvidiaSmiError) },
        { QStringLiteral("nvcc"), str(nvcc) },
        { QStringLiteral("cmake"), str(cmake) },
        { QStringLiteral("ninja"), str(ninja) },
        { QStringLiteral("ccache"), str(ccache) },
        { QStringLiteral("gcc"), str(gcc) },
        { QStringLiteral("python3"), str(python) },
        { QStringLiteral("torch"), str(torch) },
        { QStringLiteral("torchError"), str(torchError) },
        { QStringLiteral("glibc"), str(glibc) },
        { QStringLiteral("pythonSoabi"), str(pythonSoabi) },
        { QStringLiteral("torchCxx11Abi"), torchCxx11Abi ? QJsonValue(*torchCxx11Abi) : QJsonValue() },
        { QStringLiteral("sglang"), str(sglang) },
        { QStringLiteral("sglKernel"), str(sglKernel) },
        { QStringLiteral("sglangKernel"), str(sglangKernel) },
        { QStringLiteral("jitLibraries"), jitJson },
        { QStringLiteral("extra"), extras },
        { QStringLiteral("complete"), complete },
    };
}

} // namespace kf
