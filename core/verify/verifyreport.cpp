// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/verify/verifyreport.h"

#include "core/gpu/nvidiasmi.h"
#include "core/sglkernel/rules.h"
#include "core/verify/fatbinreader.h"
#include "core/verify/provenance.h"
#include "core/verify/sglkernelloader.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QMap>

namespace kf {

namespace {

using Level = PreflightCheck::Level;

// Folders a library path is shown relative to: the verified folder, else the package.
QString shown(const VerifyReport& r, const QString& path)
{
    for (const QString& base : { r.dir, r.package }) {
        if (!base.isEmpty() && path.startsWith(base + QLatin1Char('/')))
            return path.mid(base.size() + 1);
    }
    return path;
}

bool isFlashOps(const QString& fileName)
{
    return fileName.startsWith(QLatin1String("flash_ops"));
}

// GPUs grouped by compute capability, in index order: "9.0" -> "GPUs 0-7" / "GPU 3".
struct CcGroup
{
    ComputeCapability cc;
    QList<int> indexes;
    QString name;
    QString label() const
    {
        QStringList parts;
        for (qsizetype i = 0; i < indexes.size();) {
            qsizetype j = i;
            while (j + 1 < indexes.size() && indexes[j + 1] == indexes[j] + 1)
                ++j;
            parts << (i == j ? QString::number(indexes[i]) : QStringLiteral("%1-%2").arg(indexes[i]).arg(indexes[j]));
            i = j + 1;
        }
        return (indexes.size() == 1 ? QStringLiteral("GPU ") : QStringLiteral("GPUs ")) + parts.join(QLatin1Char(','));
    }
};

QList<CcGroup> ccGroups(const QList<VerifyGpu>& gpus)
{
    QList<CcGroup> groups;
    for (const VerifyGpu& g : gpus) {
        if (!g.cc)
            continue;
        auto it = std::find_if(groups.begin(), groups.end(), [&](const CcGroup& c) { return c.cc == *g.cc; });
        if (it == groups.end())
            groups.append({ *g.cc, { g.index }, g.name });
        else
            it->indexes << g.index;
    }
    return groups;
}

QString archFix(const ComputeCapability& cc)
{
    const int n = cc.number();
    const QString a = cc.major >= 9 ? QStringLiteral("a") : QString();
    const QString sgl = sglkernel::archSwitch(cc.toString()); // sgl-kernel's switch for it, if any
    return QStringLiteral("rebuild with code for %1: -gencode arch=compute_%2%3,code=sm_%2%3 (CMAKE_CUDA_ARCHITECTURES "
                          "%2%3, TORCH_CUDA_ARCH_LIST %1%3)%4")
        .arg(cc.toString())
        .arg(n)
        .arg(a)
        .arg(sgl.isEmpty() ? QString() : QStringLiteral("; sgl-kernel: ") + sgl);
}

QJsonArray names(const QList<CudaTarget>& targets)
{
    QJsonArray a;
    for (const CudaTarget& t : targets)
        a.append(t.name());
    return a;
}

} // namespace

QString VerifyLibrary::fileName() const
{
    return QFileInfo(path).fileName();
}

bool VerifyReport::failed() const
{
    return std::any_of(checks.begin(), checks.end(), [](const PreflightCheck& c) { return c.level == Level::Fail; });
}

QList<PreflightCheck> VerifyReport::launchBlockers() const
{
    QList<PreflightCheck> out;
    for (const PreflightCheck& c : checks)
        if (c.level == Level::Fail
            && (c.id == QLatin1String("import") || c.id == QLatin1String("arch")
                || c.id == QLatin1String("provenance")))
            out << c;
    return out;
}

QStringList VerifyReport::makers() const
{
    QStringList out;
    for (const VerifyLibrary& l : libraries)
        if (!l.madeBy.isEmpty() && !out.contains(l.madeBy))
            out << l.madeBy;
    return out;
}

const BuildRecord* VerifyReport::build(const QString& jobId) const
{
    for (const BuildRecord& b : builds)
        if (!jobId.isEmpty() && b.jobId == jobId)
            return &b;
    return nullptr;
}

QString VerifyReport::summary() const
{
    QList<CudaTarget> all;
    int withCode = 0;
    for (const VerifyLibrary& l : libraries) {
        all += l.targets;
        withCode += l.targets.isEmpty() ? 0 : 1;
    }
    int fails = 0, warns = 0;
    for (const PreflightCheck& c : checks) {
        fails += c.level == Level::Fail ? 1 : 0;
        warns += c.level == Level::Warn ? 1 : 0;
    }
    QStringList ccs;
    for (const CcGroup& g : ccGroups(gpus))
        ccs << QStringLiteral("%1 x %2").arg(g.indexes.size()).arg(g.cc.toString());
    return QStringLiteral("verify: %1 (%2 with CUDA code: %3), GPUs %4, import sgl_kernel: %5; %6 fail, %7 warn")
        .arg(libraries.size() == 1 ? QStringLiteral("1 library") : QStringLiteral("%1 libraries").arg(libraries.size()))
        .arg(withCode)
        .arg(all.isEmpty() ? QStringLiteral("none") : joinTargetNames(uniqueTargets(all)))
        .arg(ccs.isEmpty() ? QStringLiteral("unknown") : ccs.join(QStringLiteral(", ")))
        .arg(!importRan ? QStringLiteral("not run") : toString(diagnoseImport(importOutput, importExit).kind))
        .arg(fails)
        .arg(warns);
}

QList<QJsonObject> VerifyReport::toJsonLines() const
{
    QList<QJsonObject> out;
    const QList<CcGroup> groups = ccGroups(gpus);
    for (const VerifyGpu& g : gpus)
        out << QJsonObject { { QStringLiteral("type"), QStringLiteral("gpu") }, { QStringLiteral("index"), g.index },
            { QStringLiteral("name"), g.name },
            { QStringLiteral("compute_cap"), g.cc ? QJsonValue(g.cc->toString()) : QJsonValue() } };
    for (const VerifyLibrary& l : libraries) {
        QJsonArray runs;
        for (const CcGroup& g : groups) {
            const KernelImageChoice c = chooseKernelImage(l.targets, g.cc);
            runs.append(QJsonObject { { QStringLiteral("compute_cap"), g.cc.toString() },
                { QStringLiteral("runs"), l.noDeviceCode || c.runs() }, { QStringLiteral("jit"), c.jit },
                { QStringLiteral("target"), c.target ? QJsonValue(c.target->name()) : QJsonValue() },
                { QStringLiteral("reason"), l.noDeviceCode ? QStringLiteral("no CUDA code") : c.reason } });
        }
        out << QJsonObject { { QStringLiteral("type"), QStringLiteral("library") }, { QStringLiteral("path"), l.path },
            { QStringLiteral("origin"), l.origin }, { QStringLiteral("size"), l.size },
            { QStringLiteral("source"), l.source }, { QStringLiteral("targets"), names(l.targets) },
            { QStringLiteral("entries"), l.entries }, { QStringLiteral("cuda"), !l.noDeviceCode },
            { QStringLiteral("error"), l.error }, { QStringLiteral("gpus"), runs },
            { QStringLiteral("modified"),
                l.modified.isValid() ? QJsonValue(l.modified.toString(Qt::ISODate)) : QJsonValue() },
            { QStringLiteral("made_by"), l.madeBy.isEmpty() ? QJsonValue() : QJsonValue(l.madeBy) } };
    }
    for (const VerifyWheel& w : wheels)
        out << QJsonObject { { QStringLiteral("type"), QStringLiteral("wheel") }, { QStringLiteral("path"), w.path },
            { QStringLiteral("size"), w.size },
            { QStringLiteral("libraries"), QJsonArray::fromStringList(w.libraries) },
            { QStringLiteral("error"), w.error } };
    for (const PreflightCheck& c : checks)
        out << QJsonObject { { QStringLiteral("type"), QStringLiteral("check") }, { QStringLiteral("id"), c.id },
            { QStringLiteral("level"), toString(c.level) }, { QStringLiteral("message"), c.message },
            { QStringLiteral("fix"), c.fix } };
    int fails = 0, warns = 0;
    for (const PreflightCheck& c : checks) {
        fails += c.level == Level::Fail ? 1 : 0;
        warns += c.level == Level::Warn ? 1 : 0;
    }
    const ImportDiagnosis d = diagnoseImport(importOutput, importExit);
    out << QJsonObject { { QStringLiteral("type"), QStringLiteral("summary") }, { QStringLiteral("ok"), !failed() },
        { QStringLiteral("fail"), fails }, { QStringLiteral("warn"), warns }, { QStringLiteral("dir"), dir },
        { QStringLiteral("cuobjdump"), cuobjdump }, { QStringLiteral("python"), python },
        { QStringLiteral("torch"), torchVersion }, { QStringLiteral("package"), package },
        { QStringLiteral("import"), importRan ? QJsonValue(toString(d.kind)) : QJsonValue() },
        { QStringLiteral("launch_blocked"), !launchBlockers().isEmpty() }, { QStringLiteral("summary"), summary() },
        { QStringLiteral("made_by"), QJsonArray::fromStringList(makers()) } };
    return out;
}

QString verifyScript()
{
    return QStringLiteral(R"SH(dir=$1; max=$2
t=$(mktemp) || exit 1; L=$(mktemp) || exit 1; trap 'rm -f "$t" "$L"' EXIT
to=; command -v timeout >/dev/null 2>&1 && to="timeout 120"
if [ -d "$dir" ]; then dir=$(cd "$dir" && pwd -P); echo "dir	$dir"; else echo "dir_missing	$dir"; dir=; fi
echo "home	$HOME"
c=$(command -v cuobjdump 2>/dev/null)
for d in "${CUDA_HOME:-}" "${CUDA_PATH:-}" /usr/local/cuda; do
  [ -z "$c" ] && [ -n "$d" ] && [ -x "$d/bin/cuobjdump" ] && c="$d/bin/cuobjdump"
done
n=$(command -v nvcc 2>/dev/null); [ -z "$c" ] && [ -n "$n" ] && [ -x "$(dirname "$n")/cuobjdump" ] && c="$(dirname "$n")/cuobjdump"
[ -n "$c" ] && echo "cuobjdump	$c"
if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi --query-gpu=index,name,compute_cap --format=csv 2>&1 | head -n 300 | sed 's/^/nvsmi	/'
else echo "nvsmi_missing	1"; fi
py=$(command -v python3 2>/dev/null || command -v python 2>/dev/null)
pkg=
if [ -n "$py" ]; then
  echo "python	$py"
  (cd / && "$py" -c 'import platform; print(platform.python_version())' 2>/dev/null) | head -n 1 | sed 's/^/python_version	/'
  pkg=$(cd / && "$py" -c 'import importlib.util as u
s = u.find_spec("sgl_kernel")
print(([p for p in (s.submodule_search_locations or [])] or [""])[0] if s else "")' 2>/dev/null | head -n 1)
  [ -n "$pkg" ] && echo "package	$pkg"
  (cd / && $to "$py" -c 'import torch; print(torch.__version__)' 2>/dev/null) | head -n 1 | sed 's/^/torch	/'
  (cd / && $to "$py" -c 'import sgl_kernel') >"$t" 2>&1; rc=$?
  echo "import_rc	$rc"; tail -c 16384 "$t" | sed 's/^/import	/'
  if [ $rc -eq 0 ]; then
    (cd / && $to "$py" -c 'from sgl_kernel import flash_ops') >"$t" 2>&1
    echo "fa3_rc	$?"; tail -c 4096 "$t" | sed 's/^/fa3	/'
  fi
fi
# One file a line: a path with a line break in it (anyone who writes the folder picks names)
# would be read as more lines of this protocol, so such a file is left out.
nl='
'
libs() { find "$1" -maxdepth "$2" \( -name .git -o -name CMakeFiles \) -prune -o -type f \( -name '*.so' -o -name '*.so.*' \) ! -path "*$nl*" -print 2>/dev/null; }
: >"$L"
[ -n "$dir" ] && libs "$dir" 8 | head -n "$((max + 1))" | sed 's/^/lib	/' >>"$L"
case "$pkg" in ''|"$dir"/*) ;; *) [ -d "$pkg" ] && libs "$pkg" 4 | head -n "$((max + 1))" | sed 's/^/pkglib	/' >>"$L";; esac
[ "$(wc -l <"$L")" -gt "$max" ] && echo "lib_more	1"
mt() { stat -c %Y "$1" 2>/dev/null || stat -f %m "$1" 2>/dev/null || echo -; }
head -n "$max" "$L" | while IFS='	' read -r k f; do echo "$k	$(wc -c <"$f" 2>/dev/null || echo 0)	$(mt "$f")	$f"; done
d="$dir/dist"; [ -d "$d" ] || d="$(dirname "$dir")/dist"
[ -n "$dir" ] && [ -d "$d" ] && find "$d" -maxdepth 1 -type f -name '*.whl' ! -path "*$nl*" 2>/dev/null | head -n 20 |
  while IFS= read -r f; do echo "wheel	$(wc -c <"$f")	$f"; done
if [ -n "$c" ]; then
  head -n "$max" "$L" | while IFS='	' read -r k f; do
    echo "objdump_begin	$f"; "$c" --list-elf --list-ptx "$f" >"$t" 2>&1; rc=$?
    head -c 4194304 "$t" | sed 's/^/objdump	/'; echo "objdump_end	$rc"
  done
fi
exit 0
)SH");
}

VerifyReport parseVerifyOutput(QByteArrayView output)
{
    VerifyReport r;
    QByteArray nvsmi;
    // The library whose cuobjdump output is being read, by index: a "lib" line in between may
    // grow the list (and move its elements).
    qsizetype current = -1;
    for (const QByteArray& raw : QByteArray(output.data(), output.size()).split('\n')) {
        const qsizetype tab = raw.indexOf('\t');
        if (tab <= 0)
            continue;
        const QByteArray key = raw.left(tab);
        const QByteArray value = raw.mid(tab + 1);
        const QString text = QString::fromUtf8(value).trimmed();
        if (key == "dir") {
            r.dir = text;
        } else if (key == "dir_missing") {
            r.dirMissing = true;
            r.dir = text;
        } else if (key == "cuobjdump") {
            r.cuobjdump = text;
        } else if (key == "nvsmi") {
            nvsmi += value + '\n';
        } else if (key == "nvsmi_missing") {
            r.nvidiaSmiMissing = true;
        } else if (key == "python") {
            r.python = text;
        } else if (key == "python_version") {
            r.pythonVersion = text;
        } else if (key == "torch") {
            r.torchVersion = text;
        } else if (key == "package") {
            r.package = text;
        } else if (key == "import_rc") {
            r.importRan = true;
            r.importExit = text.toInt();
        } else if (key == "import") {
            r.importOutput += value + '\n';
        } else if (key == "fa3_rc") {
            r.fa3ImportRan = true;
            r.fa3ImportExit = text.toInt();
        } else if (key == "fa3") {
            r.fa3ImportOutput += value + '\n';
        } else if (key == "home") {
            r.home = text;
        } else if (key == "lib" || key == "pkglib") {
            const qsizetype tab2 = value.indexOf('\t');
            if (tab2 <= 0)
                continue;
            VerifyLibrary l;
            l.size = value.left(tab2).trimmed().toLongLong();
            QByteArray rest = value.mid(tab2 + 1);
            // SIZE \t MTIME \t PATH; the MTIME field is missing in captures older than provenance.
            if (const qsizetype tab3 = rest.indexOf('\t'); tab3 > 0 && !rest.startsWith('/')) {
                bool known = false;
                const qint64 mtime = rest.left(tab3).trimmed().toLongLong(&known);
                if (known)
                    l.modified = QDateTime::fromSecsSinceEpoch(mtime, Qt::UTC);
                rest = rest.mid(tab3 + 1);
            }
            l.path = QString::fromUtf8(rest);
            l.origin = key == "pkglib" || (!r.package.isEmpty() && l.path.startsWith(r.package + QLatin1Char('/')))
                ? QStringLiteral("package")
                : QStringLiteral("build");
            r.libraries << l;
        } else if (key == "lib_more") {
            r.moreLibraries = true;
        } else if (key == "wheel") {
            const qsizetype tab2 = value.indexOf('\t');
            if (tab2 > 0)
                r.wheels << VerifyWheel { QString::fromUtf8(value.mid(tab2 + 1)),
                    value.left(tab2).trimmed().toLongLong(), {}, {} };
        } else if (key == "objdump_begin") {
            const QString path = QString::fromUtf8(value);
            current = -1;
            for (qsizetype i = 0; i < r.libraries.size(); ++i)
                if (r.libraries[i].path == path)
                    current = i;
        } else if (key == "objdump" && current >= 0) {
            VerifyLibrary& l = r.libraries[current];
            if (l.cuobjdumpOutput.size() < (qsizetype(4) << 20))
                l.cuobjdumpOutput += value + '\n';
        } else if (key == "objdump_end" && current >= 0) {
            VerifyLibrary& l = r.libraries[current];
            l.cuobjdumpExit = text.toInt();
            applyCuobjdump(l);
            current = -1;
        }
    }
    if (!nvsmi.isEmpty()) {
        const GpuCsvResult gpus = parseGpuCsv(nvsmi, { GpuField::Index, GpuField::Name, GpuField::ComputeCap });
        for (const GpuSample& s : gpus.samples)
            r.gpus << VerifyGpu { s.index, s.text(GpuField::Name),
                parseComputeCapability(s.text(GpuField::ComputeCap)) };
        if (!gpus.fatal.isEmpty())
            r.gpuProblem = gpus.fatal;
        else if (r.gpus.isEmpty() && !gpus.messages.isEmpty())
            r.gpuProblem = gpus.messages.first();
        else if (std::any_of(r.gpus.begin(), r.gpus.end(), [](const VerifyGpu& g) { return !g.cc; }))
            r.gpuProblem = QStringLiteral("nvidia-smi did not say every GPU's compute_cap");
    }
    return r;
}

void applyCuobjdump(VerifyLibrary& l)
{
    const CuobjdumpListing listing = parseCuobjdumpList(l.cuobjdumpOutput);
    l.source = QStringLiteral("cuobjdump");
    l.entries = int(listing.targets.size());
    l.targets = uniqueTargets(listing.targets);
    l.noDeviceCode = listing.noDeviceCode && listing.targets.isEmpty();
    if (!listing.problems.isEmpty())
        l.error = listing.problems.join(QStringLiteral("; "));
    else if (l.cuobjdumpExit != 0 && !l.noDeviceCode && l.targets.isEmpty())
        l.error = QStringLiteral("cuobjdump failed (exit status %1)").arg(l.cuobjdumpExit);
}

void evaluateVerify(VerifyReport& r, const std::optional<BuildProfile>& profile)
{
    QList<PreflightCheck>& out = r.checks;
    out.clear();
    auto add = [&](Level level, const char* id, const QString& message, const QString& fix = {}) {
        out.append({ level, QString::fromLatin1(id), message, fix });
    };

    if (!r.tree.isEmpty())
        add(Level::Pass, "tree", r.tree);
    if (r.dirMissing)
        add(Level::Fail, "dir", QStringLiteral("no folder %1 on the server").arg(r.dir),
            QStringLiteral("give the build's folder with --dir, or fix working_dir in the profile"));
    if (r.libraries.isEmpty()) {
        if (!r.dirMissing)
            add(Level::Fail, "libraries",
                QStringLiteral("no shared libraries (.so) under %1 and no installed sgl_kernel").arg(r.dir),
                QStringLiteral("build first, or point --dir at the folder the build wrote"));
    } else if (r.moreLibraries) {
        add(Level::Warn, "libraries",
            QStringLiteral("more libraries under %1 than verify reads: only the first %2 were checked")
                .arg(r.dir)
                .arg(r.libraries.size()),
            QStringLiteral("point --dir at the build folder itself"));
    }

    const QList<CcGroup> groups = ccGroups(r.gpus);
    if (r.nvidiaSmiMissing)
        add(Level::Warn, "gpus",
            QStringLiteral("no nvidia-smi on this server: the libraries' targets are not checked "
                           "against any GPU"));
    else if (!r.gpuProblem.isEmpty())
        add(Level::Warn, "gpus", QStringLiteral("GPUs unknown: %1").arg(r.gpuProblem),
            QStringLiteral("nvidia-smi needs a driver >= 510 for compute_cap"));
    else if (groups.isEmpty())
        add(Level::Warn, "gpus", QStringLiteral("nvidia-smi lists no GPU"));
    else {
        QStringList parts;
        for (const CcGroup& g : groups)
            parts << QStringLiteral("%1 (%2, compute capability %3)").arg(g.label(), g.name, g.cc.toString());
        add(Level::Pass, "gpus", parts.join(QStringLiteral("; ")));
    }

    QStringList fine;
    // sgl-kernel's sm90/ and sm100/ common_ops: judged as its loader picks them, per GPU.
    const QSet<QString> byLoader = loaderChosenLibraries(r);
    for (const VerifyLibrary& l : r.libraries) {
        if (byLoader.contains(l.path))
            continue;
        const QString name = shown(r, l.path);
        if (!l.error.isEmpty() && l.targets.isEmpty()) {
            add(Level::Warn, "arch", QStringLiteral("targets of %1 unknown: %2").arg(name, l.error));
            continue;
        }
        if (l.noDeviceCode) {
            add(Level::Warn, "arch",
                QStringLiteral("no CUDA code in %1 (built by the host compiler, without nvcc?)").arg(name),
                isFlashOps(l.fileName()) || l.fileName().startsWith(QLatin1String("common_ops"))
                    ? QStringLiteral("build on a server with nvcc (CUDA toolkit) in PATH")
                    : QString());
            continue;
        }
        if (l.targets.isEmpty())
            continue;           // not examined
        if (!l.error.isEmpty()) // some targets read, then the reading stopped: no verdict
            add(Level::Warn, "arch",
                QStringLiteral("%1 [%2 ...] was not read to the end: %3")
                    .arg(name, joinTargetNames(l.targets), l.error));
        QStringList runsOnHere;
        for (const CcGroup& g : groups) {
            const KernelImageChoice c = chooseKernelImage(l.targets, g.cc);
            if (!c.runs() && !l.error.isEmpty())
                continue; // the missing image may be in the part not read
            if (!c.runs())
                add(Level::Fail, "arch", QStringLiteral("%1 cannot run on %2: %3").arg(name, g.label(), c.reason),
                    archFix(g.cc));
            else if (c.jit)
                add(Level::Warn, "arch", QStringLiteral("%1 on %2: %3").arg(name, g.label(), c.reason),
                    QStringLiteral("add SASS for %1 to skip the JIT: ").arg(g.cc.toString()) + archFix(g.cc));
            else
                runsOnHere << QStringLiteral("%1 (%2)").arg(g.cc.toString(), c.reason);
        }
        if (!runsOnHere.isEmpty() || groups.isEmpty())
            fine << QStringLiteral("%1 [%2]%3")
                        .arg(name, joinTargetNames(l.targets),
                            runsOnHere.isEmpty() ? QString()
                                                 : QStringLiteral(" runs on ") + runsOnHere.join(QStringLiteral(", ")));
    }
    if (!fine.isEmpty())
        add(Level::Pass, "arch", fine.join(QStringLiteral("; ")));
    out += loaderCoverageChecks(r);

    if (r.python.isEmpty()) {
        add(Level::Warn, "import", QStringLiteral("no python3 in the profile's PATH: import sgl_kernel not tried"),
            QStringLiteral("set PATH in the profile's env to the python that runs SGLang"));
    } else if (r.importRan) {
        const ImportDiagnosis d = diagnoseImport(r.importOutput, r.importExit);
        const QString who = QStringLiteral("%1%2").arg(
            r.python, r.torchVersion.isEmpty() ? QString() : QStringLiteral(", torch ") + r.torchVersion);
        if (d.ok())
            add(Level::Pass, "import", QStringLiteral("import sgl_kernel works (%1; %2)").arg(who, r.package));
        else if (d.kind == ImportDiagnosis::Kind::NotInstalled)
            add(Level::Warn, "import",
                QStringLiteral("sgl_kernel is not installed for %1: only the build's libraries were "
                               "checked")
                    .arg(who),
                d.fix);
        else
            add(Level::Fail, "import", QStringLiteral("import sgl_kernel fails (%1): %2").arg(who, d.explanation),
                d.fix);
    }

    // FA3: what the files say, what the profile asked for, and whether flash_ops imports.
    bool fa3Built = false;
    bool anyLibrary = !r.libraries.isEmpty();
    for (const VerifyLibrary& l : r.libraries)
        fa3Built = fa3Built || isFlashOps(l.fileName());
    for (const VerifyWheel& w : r.wheels)
        for (const QString& m : w.libraries)
            fa3Built = fa3Built || isFlashOps(QFileInfo(m).fileName());
    const std::optional<bool> wanted
        = profile ? sglkernel::fa3Requested(profile->cmakeArgs, profile->env) : std::nullopt;
    const QString asked = wanted ? sglkernel::fa3Argument(*wanted) : QString();
    if (anyLibrary) {
        if (wanted && *wanted && !fa3Built)
            add(Level::Fail, "fa3",
                QStringLiteral("FA3 (flash_ops) is missing although the profile sets %1").arg(asked),
                QStringLiteral("check the build log for the FA3 targets (%1)")
                    .arg(QLatin1String(sglkernel::kFa3Needs)));
        else if (wanted && !*wanted && fa3Built)
            add(Level::Warn, "fa3", QStringLiteral("FA3 (flash_ops) was built although the profile sets %1").arg(asked),
                QStringLiteral("this CMakeLists ignores the switch: apply the patch that lets %1 win "
                               "(fa3-option-respected)")
                    .arg(sglkernel::fa3Argument(false)));
        else
            add(Level::Pass, "fa3",
                QStringLiteral("FA3 (flash_ops) %1%2")
                    .arg(fa3Built ? QStringLiteral("built") : QStringLiteral("not built"),
                        asked.isEmpty() ? QString() : QStringLiteral(", as the profile asks (%1)").arg(asked)));
    }
    if (r.fa3ImportRan && r.fa3ImportExit != 0 && fa3Built) {
        const ImportDiagnosis d
            = diagnoseImport(r.fa3ImportOutput, r.fa3ImportExit, QStringLiteral("sgl_kernel.flash_ops"));
        add(Level::Fail, "fa3", QStringLiteral("flash_ops is installed but does not import: %1").arg(d.explanation),
            d.fix);
    }

    for (const VerifyWheel& w : r.wheels) {
        // The kernel wheel is sglang-kernel since 2026-03, sgl-kernel before: say which this is.
        const QString package = sglkernel::kernelWheelPackage(QFileInfo(w.path).fileName());
        const QString name = shown(r, w.path) + (package.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(package));
        if (!w.error.isEmpty())
            add(Level::Warn, "wheel", QStringLiteral("%1: %2").arg(name, w.error));
        else
            add(Level::Pass, "wheel",
                QStringLiteral("%1: %2").arg(name,
                    w.libraries.isEmpty() ? QStringLiteral("no libraries") : w.libraries.join(QStringLiteral(", "))));
    }
    evaluateProvenance(r);
}

} // namespace kf
