// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/diagnosticparser.h"

#include "core/remotebuild/progressparser.h"
#include "core/sglkernel/rules.h"

#include <QRegularExpression>

#include <algorithm>
#include <cstring>

namespace kf {
namespace {

using Sev = Diagnostic::Severity;
using Kind = Diagnostic::Kind;

Sev severityOf(QStringView word)
{
    if (word.contains(QLatin1String("warning")))
        return Sev::Warning;
    if (word == QLatin1String("note") || word == QLatin1String("info"))
        return Sev::Note;
    return Sev::Error;
}

// Cheap pre-filter so the regular expressions only see lines that may match: most lines of a
// multi-hour build are compile commands and progress lines.
bool mayBeDiagnostic(QByteArrayView s)
{
    if (s.isEmpty())
        return false;
    // Compile command lines mention nvcc, -Werror and the like: match the shapes diagnostics
    // take, not bare words, so they do not reach the regular expressions.
    return s.contains("error:") || s.contains("warning:") || s.contains("): warning") || s.contains("): error")
        || s.contains("note:") || s.startsWith("nvcc ") || (s.startsWith("ptxas ") && !s.startsWith("ptxas info"))
        || s.startsWith("CMake ") || s.startsWith("FAILED: ") || s.startsWith("ninja:") || s.startsWith("collect2:")
        || s.contains("Killed") || s.contains("signal 9") || s.contains("status 9") || s.contains("status -9")
        || s.contains("undefined reference") || s.contains("undefined symbol") || s.contains("no kernel image")
        || s.contains("*** ") || s.startsWith("ERROR") || s.contains("Error:") || s.contains("Error 1")
        || s.contains("] Error ") || s.endsWith(": not found") || s.endsWith(": command not found")
        || s.contains("Exception:") || s.contains("cannot find -l") || s.contains("find library -l")
        || s.contains("multiple definition of") || s.contains("out of memory");
}

// An error of `kind` that names no place.
Diagnostic errorOf(Kind kind, const QString& message)
{
    Diagnostic d;
    d.kind = kind;
    d.message = message;
    return d;
}

// Is lit at pos of s (pos may be out of range)?
bool at(QByteArrayView s, qsizetype pos, QByteArrayView lit)
{
    return pos >= 0 && pos + lit.size() <= s.size() && std::memcmp(s.data() + pos, lit.data(), size_t(lit.size())) == 0;
}

// Calls check(pos) for every occurrence of c in s (memchr, so the bytes in between cost next to
// nothing); true as soon as one check passes.
template <typename Check> bool anyAt(QByteArrayView s, char c, Check check)
{
    const char* const begin = s.data();
    const char* const end = begin + s.size();
    for (const char* q = begin; q < end; ++q) {
        q = static_cast<const char*>(std::memchr(q, c, size_t(end - q)));
        if (!q)
            return false;
        if (check(q - begin))
            return true;
    }
    return false;
}

const QRegularExpression& reGcc()
{
    static const QRegularExpression re(
        QStringLiteral(R"(^(.+?):(\d+):(?:(\d+):)? (fatal error|error|warning|note): (.*)$)"));
    return re;
}
const QRegularExpression& reNvccFront()
{
    static const QRegularExpression re(
        QStringLiteral(R"(^(.+?)\((\d+)\): (catastrophic error|error|warning)(?: #[\w-]+)?: (.*)$)"));
    return re;
}
const QRegularExpression& reNvccDriver()
{
    static const QRegularExpression re(QStringLiteral(R"(^nvcc (fatal|error|warning)\s*: (.*)$)"));
    return re;
}
const QRegularExpression& rePtxas()
{
    static const QRegularExpression re(
        QStringLiteral(R"(^ptxas (?:(.+?), line (\d+); )?(fatal|error|warning|info)\s*: (.*)$)"));
    return re;
}
const QRegularExpression& reCMakeAt()
{
    static const QRegularExpression re(
        QStringLiteral(R"(^CMake (Error|Warning|Deprecation Warning)(?: \(dev\))? at (.+?):(\d+) \((\w+)\):?$)"));
    return re;
}
const QRegularExpression& reCMakePlain()
{
    static const QRegularExpression re(QStringLiteral(R"(^CMake (Error|Warning)(?: \(dev\))?: (.*)$)"));
    return re;
}
const QRegularExpression& reMake()
{
    static const QRegularExpression re(QStringLiteral(R"(^g?make(?:\[\d+\])?: \*\*\* \[(.+?)\] Error (\d+)$)"));
    return re;
}

// The shell's "command not found" (exit status 127). dash: "<script>: <line>: <cmd>: not found";
// bash: "<script>: line <line>: <cmd>: command not found", or without the line when interactive.
const QRegularExpression& reNotFound()
{
    static const QRegularExpression re(QStringLiteral(
        R"(^(\S+?): (?:line )?(\d+): (\S+): (?:command )?not found$|^(\S+?): (\S+): command not found$)"));
    return re;
}

// The last line of a Python traceback: "ModuleNotFoundError: No module named 'torch'",
// "subprocess.CalledProcessError: Command ...", "OSError: CUDA_HOME ...".
const QRegularExpression& rePython()
{
    static const QRegularExpression re(QStringLiteral(R"(^([A-Za-z_][\w.]*(?:Error|Exception)): (.+)$)"));
    return re;
}

const QRegularExpression& reShKilled()
{
    static const QRegularExpression re(QStringLiteral(R"(\d+ Killed\s)"));
    return re;
}

std::optional<Diagnostic> oomDiagnostic(const QString& text)
{
    const bool oom = text == QLatin1String("Killed") || text.endsWith(QLatin1String(" Killed"))
        || text.contains(reShKilled()) || text.contains(QLatin1String("died due to signal 9"))
        || text.contains(QLatin1String("non-zero exit status 9"))
        || text.contains(QLatin1String("non-zero exit status -9"))
        || text.contains(QLatin1String("Killed signal terminated program"))
        || text.contains(QLatin1String("killed by signal 9"));
    if (!oom)
        return std::nullopt;
    Diagnostic d;
    d.kind = Kind::Oom;
    d.message = text;
    d.hint = Diagnostic::Hint::Oom;
    return d;
}

bool hasBytes(QByteArrayView s, const char* needle)
{
    return !s.isEmpty() && memmem(s.data(), size_t(s.size()), needle, std::strlen(needle)) != nullptr;
}

// shortcuts (the hot path): substring tests run on the bytes (memmem) rather than the QString
// (the needles are ASCII, and an ASCII byte decodes to the same character whatever surrounds
// it), and a check is skipped when a substring every match of it contains is absent. Without
// them every check runs on the QString: the reference the shortcuts are tested against.
std::optional<Diagnostic> parseText(QByteArrayView bytes, bool shortcuts)
{
    const QString text = QString::fromUtf8(bytes);
    const auto contains = [&](const char* needle) {
        return shortcuts ? hasBytes(bytes, needle) : text.contains(QLatin1String(needle));
    };
    const auto has = [&](const char* needle) { return !shortcuts || hasBytes(bytes, needle); };
    // OOM first: "nvcc error : 'cicc' died due to signal 9" must be an OOM, not a plain nvcc error.
    // Every OOM shape contains "Killed", "signal 9" or "status ".
    if (has("Killed") || has("signal 9") || has("status ")) {
        if (auto d = oomDiagnostic(text))
            return d;
    }
    if (const auto m = !shortcuts || text.endsWith(QLatin1String("not found")) ? reNotFound().match(text)
                                                                               : QRegularExpressionMatch();
        m.hasMatch()) {
        Diagnostic d;
        d.kind = Kind::Shell;
        const bool dashOrScript = m.hasCaptured(3);
        d.file = m.captured(dashOrScript ? 1 : 4);
        d.line = dashOrScript ? m.captured(2).toInt() : -1;
        d.message = (dashOrScript ? m.captured(3) : m.captured(5)) + QStringLiteral(": command not found");
        d.hint = Diagnostic::Hint::NotOnPath;
        return d;
    }
    if (text.startsWith(QLatin1String("FAILED: "))) {
        Diagnostic d;
        d.kind = Kind::Ninja;
        QString out = text.mid(8).trimmed();
        bool killed = false;
        if (out.startsWith(QLatin1String("[code="))) {
            // ninja 1.12+ names the exit code; 137 is 128 + SIGKILL, what the OOM killer sends.
            killed = out.startsWith(QLatin1String("[code=137]"));
            out = out.mid(out.indexOf(QLatin1Char(']')) + 1).trimmed();
        }
        d.file = out;
        d.message = killed ? QStringLiteral("build step killed (exit code 137, SIGKILL: out of memory?): ") + out
                           : QStringLiteral("build step failed: ") + out;
        if (killed) {
            d.kind = Kind::Oom;
            d.hint = Diagnostic::Hint::Oom;
        }
        return d;
    }
    if (text.startsWith(QLatin1String("CMake "))) {
        if (const auto m = reCMakeAt().match(text); m.hasMatch()) {
            Diagnostic d;
            d.kind = Kind::CMake;
            d.severity = severityOf(m.capturedView(1).toString().toLower());
            d.file = m.captured(2);
            d.line = m.captured(3).toInt();
            d.message = m.captured(4) + QStringLiteral(": ");
            return d;
        }
        if (const auto m = reCMakePlain().match(text); m.hasMatch()) {
            Diagnostic d;
            d.kind = Kind::CMake;
            d.severity = severityOf(m.capturedView(1).toString().toLower());
            d.message = m.captured(2);
            return d;
        }
    }
    if (text.startsWith(QLatin1String("nvcc "))) {
        if (const auto m = reNvccDriver().match(text); m.hasMatch()) {
            Diagnostic d;
            d.kind = Kind::Nvcc;
            d.severity = severityOf(m.capturedView(1));
            d.message = m.captured(2).trimmed();
            return d;
        }
    }
    if (text.startsWith(QLatin1String("ptxas "))) {
        if (const auto m = rePtxas().match(text); m.hasMatch()) {
            if (m.capturedView(3) == QLatin1String("info"))
                return std::nullopt;
            Diagnostic d;
            d.kind = Kind::Ptxas;
            d.severity = severityOf(m.capturedView(3));
            d.file = m.captured(1);
            d.line = m.captured(2).isEmpty() ? -1 : m.captured(2).toInt();
            d.message = m.captured(4).trimmed();
            return d;
        }
    }
    if (const auto m = !shortcuts || text.startsWith(QLatin1String("make")) || text.startsWith(QLatin1String("gmake"))
            ? reMake().match(text)
            : QRegularExpressionMatch();
        m.hasMatch()) {
        Diagnostic d;
        d.kind = Kind::Make;
        const int code = m.captured(2).toInt();
        d.message = QStringLiteral("make target failed: %1 (Error %2)").arg(m.captured(1)).arg(code);
        // make reports a child killed by SIGKILL as 128+9.
        if (code == 137) {
            d.kind = Kind::Oom;
            d.hint = Diagnostic::Hint::Oom;
        }
        return d;
    }
    if (contains("undefined reference to") || text.startsWith(QLatin1String("collect2: error:"))
        || contains("cannot find -l") || contains("unable to find library -l") || contains("multiple definition of")) {
        return errorOf(Kind::Linker, text);
    }
    // Summaries of a compile that failed above them (torch's extension builder, flashinfer's JIT).
    if (text.startsWith(QLatin1String("RuntimeError: Error compiling objects for extension"))
        || text.startsWith(QLatin1String("RuntimeError: Ninja build failed"))) {
        return errorOf(Kind::BuildFailed, text);
    }
    if (text.startsWith(QLatin1String("RuntimeError: Ninja is required"))) {
        return errorOf(Kind::Python, text);
    }
    if (contains("undefined symbol:") || contains("no kernel image is available") || contains("CUDA out of memory")
        || text.startsWith(QLatin1String("ImportError")) || text.startsWith(QLatin1String("RuntimeError"))) {
        return errorOf(Kind::Runtime, text);
    }
    if (text.startsWith(QLatin1String("ninja: build stopped"))
        || text.startsWith(QLatin1String("*** CMake build failed"))
        || text.startsWith(QLatin1String("ERROR: Failed building")) || text.startsWith(QLatin1String("ninja: error:"))
        || text.startsWith(QLatin1String("error: subprocess-exited-with-error"))
        || text.startsWith(QLatin1String("error: metadata-generation-failed"))
        || text.startsWith(QLatin1String("ERROR: Could not build wheels"))
        || (text.startsWith(QLatin1String("error: command '")) && text.contains(QLatin1String(" failed with exit")))) {
        return errorOf(Kind::BuildFailed, text);
    }
    // setuptools reports a missing compiler as "error: [Errno 2] No such file or directory: '.../nvcc'".
    if (text.startsWith(QLatin1String("error: [Errno "))) {
        return errorOf(Kind::Python, text.mid(7));
    }
    // A ninja (or cmake) that a Python build or a server's JIT ran failed: what failed is above it. Anywhere in
    // the line: Ray and the servers prefix theirs ("(SGLangEngine pid=23902) ...").
    if (contains("CalledProcessError: ")) {
        return errorOf(Kind::BuildFailed, text);
    }
    if (const auto m = has("Error: ") || has("Exception: ") ? rePython().match(text) : QRegularExpressionMatch();
        m.hasMatch()) {
        return errorOf(Kind::Python, text);
    }
    if (text.startsWith(QLatin1String("Catastrophic error: "))) {
        return errorOf(Kind::Nvcc, text.mid(20));
    }
    // reGcc needs "<severity>: " after the line number, reNvccFront "): ".
    if (const auto m
        = has("error: ") || has("warning: ") || has("note: ") ? reGcc().match(text) : QRegularExpressionMatch();
        m.hasMatch()) {
        const QString file = m.captured(1);
        // "In file included from a.h:3," and URLs are no diagnostics; a path has no spaces
        // before its colon in practice, except Windows-less oddities we do not target.
        if (file.startsWith(QLatin1String("In file included")) || file.contains(QLatin1String("://")))
            return std::nullopt;
        Diagnostic d;
        d.kind = Kind::Compiler;
        d.file = file.startsWith(QLatin1String("/usr/bin/ld: ")) ? file.mid(13) : file;
        d.line = m.captured(2).toInt();
        d.column = m.captured(3).isEmpty() ? -1 : m.captured(3).toInt();
        d.severity = severityOf(m.capturedView(4));
        d.message = m.captured(5);
        if (m.capturedView(4) == QLatin1String("fatal error"))
            d.message = m.captured(5);
        return d;
    }
    if (const auto m = has("): ") ? reNvccFront().match(text) : QRegularExpressionMatch(); m.hasMatch()) {
        Diagnostic d;
        d.kind = Kind::Nvcc;
        d.file = m.captured(1);
        d.line = m.captured(2).toInt();
        d.severity = severityOf(m.capturedView(3));
        d.message = m.captured(4);
        return d;
    }
    return std::nullopt;
}

} // namespace

QString toString(Diagnostic::Severity s)
{
    switch (s) {
    case Sev::Error: return QStringLiteral("error");
    case Sev::Warning: return QStringLiteral("warning");
    case Sev::Note: return QStringLiteral("note");
    }
    return {};
}

QString toString(Diagnostic::Kind k)
{
    switch (k) {
    case Kind::Compiler: return QStringLiteral("compiler");
    case Kind::Nvcc: return QStringLiteral("nvcc");
    case Kind::Ptxas: return QStringLiteral("ptxas");
    case Kind::CMake: return QStringLiteral("cmake");
    case Kind::Ninja: return QStringLiteral("ninja");
    case Kind::Make: return QStringLiteral("make");
    case Kind::Linker: return QStringLiteral("linker");
    case Kind::Oom: return QStringLiteral("oom");
    case Kind::Runtime: return QStringLiteral("runtime");
    case Kind::BuildFailed: return QStringLiteral("build");
    case Kind::Shell: return QStringLiteral("shell");
    case Kind::Python: return QStringLiteral("python");
    }
    return {};
}

QString toString(Diagnostic::Hint h)
{
    using H = Diagnostic::Hint;
    switch (h) {
    case H::None: return {};
    case H::CMakePolicy: return QStringLiteral("cmake-policy");
    case H::Cccl: return QStringLiteral("cccl");
    case H::CudaTooOld: return QStringLiteral("cuda-too-old");
    case H::TorchAbi: return QStringLiteral("torch-abi");
    case H::Oom: return QStringLiteral("oom");
    case H::MissingSm: return QStringLiteral("missing-sm");
    case H::Fa3Import: return QStringLiteral("fa3-import");
    case H::NotOnPath: return QStringLiteral("not-on-path");
    case H::LinkerMissingLib: return QStringLiteral("linker-missing-lib");
    case H::LinkerUndefined: return QStringLiteral("linker-undefined");
    case H::LinkerDuplicate: return QStringLiteral("linker-duplicate");
    case H::BuildIsolation: return QStringLiteral("build-isolation");
    case H::CudaHome: return QStringLiteral("cuda-home");
    case H::NvccMissing: return QStringLiteral("nvcc-missing");
    case H::NinjaMissing: return QStringLiteral("ninja-missing");
    case H::CudaOom: return QStringLiteral("cuda-oom");
    case H::JitFailed: return QStringLiteral("jit-failed");
    case H::Fa3Build: return QStringLiteral("fa3-build");
    }
    return {};
}

QString hintText(Diagnostic::Hint h)
{
    using H = Diagnostic::Hint;
    switch (h) {
    case H::None: return {};
    case H::CMakePolicy:
        return QStringLiteral(
            "This CMake is older than the policies the CMakeLists sets (CMP0169 needs CMake %1, CMP0177 %2): "
            "apply the cmake-policy patch, or install CMake >= %3 (pip install 'cmake>=%3').")
            .arg(sglkernel::cmakeVersionForPolicy(QStringLiteral("CMP0169")),
                sglkernel::cmakeVersionForPolicy(QStringLiteral("CMP0177")), sglkernel::cmakeForSglKernel());
    case H::Cccl:
        return QStringLiteral(
            "CUDA 13 moved CUB/Thrust/libcu++ under <cuda>/include/cccl and the host compiler does not look there: "
            "apply the CCCL include patch (adds ${CUDAToolkit_INCLUDE_DIRS}/cccl).");
    case H::CudaTooOld:
        return QStringLiteral(
            "This CUDA cannot compile sm_120a/sm_100a: install CUDA >= %1 and point CUDA_HOME/PATH at it.")
            .arg(QLatin1String(sglkernel::preflightArch().minimumCuda));
    case H::TorchAbi:
        return QStringLiteral(
            "The extension was built against a different torch than the one installed (C++ ABI mismatch): "
            "rebuild with --no-build-isolation against the installed torch.");
    case H::Oom:
        return QStringLiteral("A compiler was killed for lack of memory: lower MAX_JOBS and SGL_KERNEL_COMPILE_THREADS "
                              "(each nvcc thread peaks at 3-5 GB). A server's JIT compile (flashinfer, Triton) takes "
                              "MAX_JOBS from the server's environment.");
    case H::MissingSm:
        return QStringLiteral("The build has no code for this GPU: build with CUDA >= %1 so %2 is among the targets.")
            .arg(QLatin1String(sglkernel::preflightArch().minimumCuda), QLatin1String(sglkernel::preflightArch().arch));
    case H::Fa3Import:
        return QStringLiteral(
            "sgl_kernel refuses to import without FA3: apply the FA3 import fallback patch, or build with FA3.");
    case H::NotOnPath:
        return QStringLiteral(
            "The build's shell cannot find this command. Builds run in a non-interactive SSH session, which gets "
            "sshd's default PATH (no ~/.bashrc, conda or virtualenv): put the tool's folder first in the profile's "
            "PATH (--env PATH=/opt/venv/bin:/usr/local/cuda/bin:/usr/local/bin:/usr/bin:/bin), or install it "
            "system-wide.");
    case H::LinkerMissingLib:
        return QStringLiteral(
            "The linker cannot find a library the link asks for. -lcuda is the NVIDIA driver's libcuda.so, which a "
            "machine or container without the driver lacks: link against the toolkit's stub (LIBRARY_PATH="
            "<cuda>/lib64/stubs, or the JIT's extra ldflags). Otherwise install the library or add its folder to "
            "LIBRARY_PATH.");
    case H::LinkerUndefined:
        return QStringLiteral(
            "A symbol is used but nothing linked defines it: a source or library is missing from the link, or was "
            "built by another compiler or torch (C++ ABI). For a torch extension build with --no-build-isolation "
            "against the installed torch; otherwise clean the build folder so everything is rebuilt alike.");
    case H::LinkerDuplicate:
        return QStringLiteral(
            "The same symbol is linked twice: two copies of a library (e.g. libcudart_static.a from two CUDA "
            "installations) or a definition in a header without inline. Make sure one CUDA toolkit is on the "
            "include and link paths (CUDA_HOME, PATH, LIBRARY_PATH).");
    case H::BuildIsolation:
        return QStringLiteral(
            "pip builds in an isolated environment that does not see your torch: install torch first and build with "
            "--no-build-isolation (the built-in sgl-kernel profiles do).");
    case H::CudaHome:
        return QStringLiteral(
            "torch's extension builder does not know where the CUDA toolkit is: set CUDA_HOME in the profile's env "
            "(e.g. CUDA_HOME=/usr/local/cuda) and put $CUDA_HOME/bin first in its PATH.");
    case H::NvccMissing:
        return QStringLiteral(
            "There is no nvcc where the build looks: install the CUDA toolkit's compiler (a pip or conda CUDA runtime "
            "has none), or point CUDA_HOME and PATH at a toolkit that has bin/nvcc.");
    case H::NinjaMissing:
        return QStringLiteral(
            "ninja is not on the build's PATH: pip install ninja into the python the build uses, or put its folder "
            "first in the profile's PATH.");
    case H::CudaOom:
        return QStringLiteral(
            "The GPU ran out of memory: another process (or another server of ours) holds memory on it, or the model "
            "does not fit. Stop what holds the GPU (GPUs tab), use more GPUs (--tp), or lower --mem-fraction-static.");
    case H::JitFailed:
        return QStringLiteral(
            "A kernel compiled at run time (flashinfer, Triton or DeepGEMM JIT) failed to build. The compiler's "
            "error is in the JIT's ninja output, above this line: run the ninja command it names to see it. Check "
            "the server's CUDA toolkit (nvcc, headers, libcuda) and its memory (an OOM kill looks the same).");
    case H::Fa3Build:
        return QStringLiteral(
            "FA3 (FlashAttention-3) is written for sm_90a only and fails or is dead weight elsewhere; this "
            "CMakeLists builds it although the profile sets %1: apply the patch that lets the option win "
            "(fa3-option-respected), and keep %1 in the profile.")
            .arg(sglkernel::fa3Argument(false));
    }
    return {};
}

bool isOutOfMemory(const Diagnostic& d)
{
    return d.kind == Kind::Oom || d.hint == Diagnostic::Hint::Oom;
}

Diagnostic::Hint hintFor(const Diagnostic& d)
{
    using H = Diagnostic::Hint;
    const QString& m = d.message;
    if (d.kind == Kind::Oom || m.contains(QLatin1String("Cannot allocate memory")))
        return H::Oom;
    if (m.contains(QLatin1String("CUDA out of memory")) || m.contains(QLatin1String("OutOfMemoryError")))
        return H::CudaOom;
    if (m.contains(QLatin1String("is not known to this version of CMake")) && m.contains(QLatin1String("CMP")))
        return H::CMakePolicy;
    if (m.contains(QLatin1String("No such file or directory"))
        && (m.startsWith(QLatin1String("cuda/")) || m.startsWith(QLatin1String("thrust/"))
            || m.startsWith(QLatin1String("cub/")) || m.contains(QLatin1String("<cuda/"))
            || m.contains(QLatin1String("<thrust/")) || m.contains(QLatin1String("<cub/"))))
        return H::Cccl;
    if (m.contains(QLatin1String("Unsupported gpu architecture 'compute_1"))
        || m.contains(QLatin1String("Unsupported gpu architecture 'sm_1")))
        return H::CudaTooOld;
    if (m.contains(QLatin1String("undefined symbol"))
        && (m.contains(QLatin1String("c10")) || m.contains(QLatin1String("SymInt"))
            || m.contains(QLatin1String("at::"))))
        return H::TorchAbi;
    if (m.contains(QLatin1String("no kernel image is available")))
        return H::MissingSm;
    if (m.contains(QLatin1String("Can not import FA3")))
        return H::Fa3Import;
    if (m.contains(QLatin1String("cannot find -l")) || m.contains(QLatin1String("unable to find library -l")))
        return H::LinkerMissingLib;
    if (m.contains(QLatin1String("multiple definition of")))
        return H::LinkerDuplicate;
    if (m.contains(QLatin1String("undefined reference to")))
        return H::LinkerUndefined;
    if (m.contains(QLatin1String("No module named 'torch'")))
        return H::BuildIsolation;
    if (m.contains(QLatin1String("CUDA_HOME environment variable is not set")))
        return H::CudaHome;
    if (m.contains(QLatin1String("No such file or directory: '"))) {
        if (m.contains(QLatin1String("nvcc'")))
            return H::NvccMissing;
        if (m.contains(QLatin1String("'ninja'")))
            return H::NinjaMissing;
    }
    if (m.contains(QLatin1String("Ninja is required"))
        || m.contains(QLatin1String("build program corresponding to \"Ninja\"")))
        return H::NinjaMissing;
    // flashinfer keeps its JIT builds in .../cached_ops, torch's in torch_extensions, Triton in .triton.
    if (d.kind == Kind::BuildFailed
        && (m.contains(QLatin1String("CalledProcessError")) || m.contains(QLatin1String("Ninja build failed")))
        && (m.contains(QLatin1String("cached_ops")) || m.contains(QLatin1String("flashinfer"))
            || m.contains(QLatin1String("torch_extensions")) || m.contains(QLatin1String(".triton"))))
        return H::JitFailed;
    // FA3's sources: sgl-kernel's csrc/flash, the flash-attention checkout's hopper/, the flash_ops target.
    if (d.severity == Diagnostic::Severity::Error
        && (d.file.contains(QLatin1String("flash_ops")) || d.file.contains(QLatin1String("csrc/flash/"))
            || d.file.contains(QLatin1String("flash-attention-src/hopper/"))))
        return H::Fa3Build;
    return H::None;
}

bool mayBeDiagnosticLine(QByteArrayView s)
{
    // The same answer as mayBeDiagnostic() (each of its conditions is one below), ~30x faster:
    // each needle is found through a rare byte of it (memchr) and checked around that byte
    // instead of one substring search per needle; the starts of line are tested directly.
    if (s.isEmpty())
        return false;
    switch (s[0]) {
    case 'n':
        if (s.startsWith("nvcc ") || s.startsWith("ninja:"))
            return true;
        break;
    case 'p':
        if (s.startsWith("ptxas ") && !s.startsWith("ptxas info"))
            return true;
        break;
    case 'C':
        if (s.startsWith("CMake "))
            return true;
        break;
    case 'F':
        if (s.startsWith("FAILED: "))
            return true;
        break;
    case 'c':
        if (s.startsWith("collect2:"))
            return true;
        break;
    case 'E':
        if (s.startsWith("ERROR"))
            return true;
        break;
    default: break;
    }
    // "error:", "Error:", "warning:", "note:", "Exception:"
    if (anyAt(s, ':', [&](qsizetype i) {
            return at(s, i - 5, "error") || at(s, i - 5, "Error") || at(s, i - 7, "warning") || at(s, i - 4, "note")
                || at(s, i - 9, "Exception");
        }))
        return true;
    // "cannot find -l", "find library -l" (the linker's missing library)
    if (anyAt(s, '-', [&](qsizetype i) {
            return at(s, i, "-l") && (at(s, i - 12, "cannot find ") || at(s, i - 13, "find library "));
        }))
        return true;
    // "out of memory"
    if (anyAt(s, 'y', [&](qsizetype i) { return at(s, i - 12, "out of memory"); }))
        return true;
    // "): warning", "): error"
    if (anyAt(s, ')', [&](qsizetype i) { return at(s, i + 1, ": warning") || at(s, i + 1, ": error"); }))
        return true;
    if (anyAt(s, 'K', [&](qsizetype i) { return at(s, i, "Killed"); }))
        return true;
    // "*** "
    if (anyAt(s, '*', [&](qsizetype i) { return at(s, i, "*** "); }))
        return true;
    // "signal 9", "status 9", "status -9"
    if (anyAt(s, '9', [&](qsizetype i) {
            return at(s, i - 7, "signal ") || at(s, i - 7, "status ") || at(s, i - 8, "status -");
        }))
        return true;
    // "Error 1", "] Error "
    if (anyAt(s, 'E', [&](qsizetype i) { return at(s, i, "Error 1") || (at(s, i - 2, "] ") && at(s, i, "Error ")); }))
        return true;
    // "undefined reference", "undefined symbol", "multiple definition of"
    if (anyAt(s, 'f', [&](qsizetype i) {
            return (at(s, i - 4, "undefined ") && (at(s, i + 6, "reference") || at(s, i + 6, "symbol")))
                || at(s, i - 11, "multiple definition of");
        }))
        return true;
    // ": not found", ": command not found" (the shell's, at the end of the line)
    if (s.endsWith(": not found") || s.endsWith(": command not found"))
        return true;
    // "no kernel image"
    return anyAt(s, 'k', [&](qsizetype i) { return at(s, i - 3, "no kernel image"); });
}

std::optional<Diagnostic> parseDiagnosticLine(QByteArrayView s)
{
    if (!mayBeDiagnosticLine(s))
        return std::nullopt;
    auto d = parseText(s, true);
    if (d && d->hint == Diagnostic::Hint::None)
        d->hint = hintFor(*d);
    return d;
}

std::optional<Diagnostic> parseDiagnosticLineReference(QByteArrayView s)
{
    if (!mayBeDiagnostic(s))
        return std::nullopt;
    auto d = parseText(s, false);
    if (d && d->hint == Diagnostic::Hint::None)
        d->hint = hintFor(*d);
    return d;
}

} // namespace kf
