// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QByteArrayList>
#include <QByteArrayView>
#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

// Errors and warnings from a build log, one normalised line at a time (normalizeLogLine()).
//
// Wire formats recognised:
//   gcc/clang       "src/a.cpp:12:5: error: 'x' was not declared in this scope"
//                   "src/a.cpp:3:10: fatal error: cuda/atomic: No such file or directory"
//                   "src/a.cpp:7: warning: ..." (no column), "... note: ..."
//   nvcc front end  "csrc/gemm.cu(42): error: identifier \"foo\" is undefined"
//                   "csrc/gemm.cu(12): warning #177-D: variable \"x\" was declared but never referenced"
//   nvcc driver     "nvcc fatal   : Unsupported gpu architecture 'compute_120a'"
//                   "nvcc error   : 'cicc' died due to signal 9 (Kill signal)"
//   ptxas           "ptxas error   : Entry function '_Z3fooPf' uses too much shared data"
//                   "ptxas /tmp/x.ptx, line 88; error   : ..."   ("ptxas info" lines are ignored)
//   CMake           "CMake Error at CMakeLists.txt:10 (cmake_policy):" + indented message lines up to a
//                   blank line; "CMake Warning (dev) at ...:N (cmd):"; "CMake Error: message"
//   ninja           "FAILED: CMakeFiles/common_ops.dir/csrc/gemm.cu.o" (1.12+: "FAILED: [code=1] out")
//   make            "make[2]: *** [CMakeFiles/x.dir/build.make:76: x.o] Error 1"
//   linker          "/usr/bin/ld: a.o: in function `f': a.cpp:(.text+0x1): undefined reference to `g'"
//                   "/usr/bin/ld: cannot find -lcuda: No such file or directory", "ld.lld: error: unable to find
//                   library -lx", "(.text+0x8720): multiple definition of `f'; b.o:(.text+0x0): first defined here"
//                   "collect2: error: ld returned 1 exit status" (a summary of the lines before it)
//   OOM kills       "Killed", "/bin/sh: line 1: 1234 Killed  nvcc ...", "'cicc' died due to signal 9",
//                   "returned non-zero exit status 9", "g++: fatal error: Killed signal terminated program cc1plus",
//                   ninja's "FAILED: [code=137] out" (SIGKILL), make's "Error 137"
//   Python          the last line of a traceback, "ModuleNotFoundError: No module named 'torch'" (pip's build
//                   isolation), "OSError: CUDA_HOME environment variable is not set. ...", "FileNotFoundError:
//                   [Errno 2] No such file or directory: 'ninja': 'ninja'", setuptools' "error: [Errno 2] No such
//                   file or directory: '/usr/local/cuda/bin/nvcc'", "RuntimeError: Ninja is required to load C++
//                   extensions"; summaries: "RuntimeError: Error compiling objects for extension",
//                   "subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit status 1."
//                   (flashinfer's JIT: the same with its cached_ops folder), "error: command 'nvcc' failed with exit
//                   code 1", pip's "error: metadata-generation-failed", "ERROR: Could not build wheels for x"
//   run time        "ImportError: .../common_ops.so: undefined symbol: _ZNK3c106SymInt6sym_neERKS0_"
//                   "... no kernel image is available for execution on the device" (anywhere in the line: server
//                   logs prefix theirs), "... CUDA out of memory. Tried to allocate 896.00 MiB ..."
//   nvcc            "Catastrophic error: cannot open source file \"/tmp/tmpxft_...ii\""
//   shell           "/root/.cache/kernelforge/jobs/<id>/cmd: 1: cmake: not found" (dash), "sh: 1: x: not found",
//                   "bash: line 1: cmake: command not found", "bash: cmake: command not found" (exit status 127)
//   end of build    "ninja: build stopped: subcommand failed.", "*** CMake build failed",
//                   "ERROR: Failed building wheel for sgl-kernel"
// Known signatures get a hint (HintId) naming the fix (see hintText(); its versions and budgets
// come from core/sglkernel/rules.h, as preflight's do; OOM advice that fits measured memory is
// sglkernel::oomAdvice).
namespace kf {

struct Diagnostic
{
    enum class Severity { Error, Warning, Note };
    enum class Kind { Compiler, Nvcc, Ptxas, CMake, Ninja, Make, Linker, Oom, Runtime, BuildFailed, Shell, Python };
    enum class Hint {
        None,
        CMakePolicy,
        Cccl,
        CudaTooOld,
        TorchAbi,
        Oom,
        MissingSm,
        Fa3Import,
        NotOnPath,
        LinkerMissingLib,
        LinkerUndefined,
        LinkerDuplicate,
        BuildIsolation,
        CudaHome,
        NvccMissing,
        NinjaMissing,
        CudaOom,
        JitFailed,
        Fa3Build,
    };

    Severity severity = Severity::Error;
    Kind kind = Kind::Compiler;
    QString file;  // as printed (relative to the build dir for most tools)
    int line = -1; // 1-based; -1 when the tool gave none
    int column = -1;
    QString message;
    Hint hint = Hint::None;
    qint64 logLine = -1; // 0-based line number in the log, set by DiagnosticCollector
    bool operator==(const Diagnostic&) const = default;
};

QString toString(Diagnostic::Severity s); // "error", "warning", "note"
QString toString(Diagnostic::Kind k);     // "compiler", "nvcc", "ptxas", "cmake", "ninja", "make", "linker", "oom",
                                          // "runtime", "build", "shell", "python"
QString toString(Diagnostic::Hint h);     // "cmake-policy", "cccl", "cuda-too-old", "torch-abi", "oom", "missing-sm",
                                          // "fa3-import", "not-on-path", "linker-missing-lib", "linker-undefined",
                                          // "linker-duplicate", "build-isolation", "cuda-home", "nvcc-missing",
                                          // "ninja-missing", "cuda-oom", "jit-failed", "fa3-build", ""
// A sentence naming the fix.
QString hintText(Diagnostic::Hint h);

// One normalised line. CMake "... at file:line (cmd):" headers come back with an empty message;
// DiagnosticCollector fills it from the following lines.
std::optional<Diagnostic> parseDiagnosticLine(QByteArrayView normalizedLine);
// The byte-level pre-filter parseDiagnosticLine() starts with (a few memchr scans, no copy, no
// QString): false means the line holds none of the shapes above, true means it may. Only the
// lines it passes are converted to QString and reach the regular expressions, which keeps a
// multi-GB log (millions of compile-command and progress lines) cheap.
bool mayBeDiagnosticLine(QByteArrayView normalizedLine);
// parseDiagnosticLine() the slow way: substring checks instead of the pre-filter, and every
// regular expression tried on every line that passes them. The reference the pre-filter and
// parseDiagnosticLine()'s shortcuts are tested against (same results on every line); not for
// production paths.
std::optional<Diagnostic> parseDiagnosticLineReference(QByteArrayView normalizedLine);
// The hint for a complete diagnostic (also applied by parseDiagnosticLine and the collector).
Diagnostic::Hint hintFor(const Diagnostic& d);
// A process killed for lack of host memory (the kernel's OOM killer, a cgroup limit): by its kind,
// or a compiler error that says it could not allocate memory. A GPU's "CUDA out of memory" is not.
bool isOutOfMemory(const Diagnostic& d);

} // namespace kf

Q_DECLARE_METATYPE(kf::Diagnostic)
