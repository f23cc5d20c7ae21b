// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/buildloganalyzer.h"
#include "core/remotebuild/diagnosticcollector.h"
#include "core/remotebuild/logsplitter.h"
#include "core/remotebuild/progressparser.h"

#include "tests/support/testsupport.h"

#include <QDirIterator>
#include <QRandomGenerator>
#include <QtTest>

using kf::Diagnostic;
using H = kf::Diagnostic::Hint;
using K = kf::Diagnostic::Kind;
using S = kf::Diagnostic::Severity;

namespace QTest {
template <> char* toString(const kf::Diagnostic& d)
{
    return qstrdup(QStringLiteral("%1 %2 %3:%4:%5 \"%6\" hint=%7")
                       .arg(kf::toString(d.severity), kf::toString(d.kind), d.file)
                       .arg(d.line)
                       .arg(d.column)
                       .arg(d.message, kf::toString(d.hint))
                       .toUtf8()
                       .constData());
}
} // namespace QTest

class TestDiagnosticParser : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void line_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<bool>("found");
        QTest::addColumn<int>("severity");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("lineNo");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("hint");

        auto row = [](const char* name, const QByteArray& line, S s, K k, const QString& file, int l, int c,
                       const QString& msg, H h = H::None) {
            QTest::newRow(name) << line << true << int(s) << int(k) << file << l << c << msg << int(h);
        };
        auto none = [](const char* name, const QByteArray& line) {
            QTest::newRow(name) << line << false << 0 << 0 << QString() << 0 << 0 << QString() << 0;
        };
        row("gcc error", "csrc/cpu/shm.cpp:12:5: error: 'foo' was not declared in this scope", S::Error, K::Compiler,
            QStringLiteral("csrc/cpu/shm.cpp"), 12, 5, QStringLiteral("'foo' was not declared in this scope"));
        row("gcc cccl fatal",
            "/home/a/sgl-kernel/include/utils.h:23:10: fatal error: cuda/atomic: No such file or directory", S::Error,
            K::Compiler, QStringLiteral("/home/a/sgl-kernel/include/utils.h"), 23, 10,
            QStringLiteral("cuda/atomic: No such file or directory"), H::Cccl);
        row("thrust missing", "csrc/x.cpp:4:10: fatal error: thrust/version.h: No such file or directory", S::Error,
            K::Compiler, QStringLiteral("csrc/x.cpp"), 4, 10,
            QStringLiteral("thrust/version.h: No such file or directory"), H::Cccl);
        row("gcc warning no column", "a.cpp:7: warning: ignoring #pragma unroll", S::Warning, K::Compiler,
            QStringLiteral("a.cpp"), 7, -1, QStringLiteral("ignoring #pragma unroll"));
        row("clang note", "  include/b.h:3:1: note: declared here", S::Note, K::Compiler, QStringLiteral("include/b.h"),
            3, 1, QStringLiteral("declared here"));
        row("nvcc front error", "csrc/gemm/x.cu(42): error: identifier \"foo\" is undefined", S::Error, K::Nvcc,
            QStringLiteral("csrc/gemm/x.cu"), 42, -1, QStringLiteral("identifier \"foo\" is undefined"));
        row("nvcc warning number", "/s/x.cu(212): warning #177-D: variable \"lda\" was declared but never referenced",
            S::Warning, K::Nvcc, QStringLiteral("/s/x.cu"), 212, -1,
            QStringLiteral("variable \"lda\" was declared but never referenced"));
        row("nvcc unsupported arch", "nvcc fatal   : Unsupported gpu architecture 'compute_120a'", S::Error, K::Nvcc,
            QString(), -1, -1, QStringLiteral("Unsupported gpu architecture 'compute_120a'"), H::CudaTooOld);
        row("cicc oom", "nvcc error   : 'cicc' died due to signal 9 (Kill signal)", S::Error, K::Oom, QString(), -1, -1,
            QStringLiteral("nvcc error   : 'cicc' died due to signal 9 (Kill signal)"), H::Oom);
        row("killed alone", "Killed", S::Error, K::Oom, QString(), -1, -1, QStringLiteral("Killed"), H::Oom);
        row("sh killed", "/bin/sh: line 1: 48213 Killed                  /usr/local/cuda/bin/nvcc -c x.cu", S::Error,
            K::Oom, QString(), -1, -1,
            QStringLiteral("/bin/sh: line 1: 48213 Killed                  /usr/local/cuda/bin/nvcc -c x.cu"), H::Oom);
        row("pip exit 9",
            "subprocess.CalledProcessError: Command '['cmake', '--build', 'build']' returned non-zero exit status 9.",
            S::Error, K::Oom, QString(), -1, -1,
            QStringLiteral("subprocess.CalledProcessError: Command '['cmake', '--build', 'build']' returned non-zero "
                           "exit status 9."),
            H::Oom);
        row("gcc killed", "g++: fatal error: Killed signal terminated program cc1plus", S::Error, K::Oom, QString(), -1,
            -1, QStringLiteral("g++: fatal error: Killed signal terminated program cc1plus"), H::Oom);
        row("make 137", "make[2]: *** [CMakeFiles/k.dir/build.make:76: CMakeFiles/k.dir/k.cu.o] Error 137", S::Error,
            K::Oom, QString(), -1, -1,
            QStringLiteral("make target failed: CMakeFiles/k.dir/build.make:76: CMakeFiles/k.dir/k.cu.o (Error 137)"),
            H::Oom);
        row("make error", "make: *** [Makefile:22: build] Error 1", S::Error, K::Make, QString(), -1, -1,
            QStringLiteral("make target failed: Makefile:22: build (Error 1)"));
        row("ptxas error",
            "ptxas error   : Entry function '_Z3fooPf' uses too much shared data (0x10000 bytes, 0xc000 max)", S::Error,
            K::Ptxas, QString(), -1, -1,
            QStringLiteral("Entry function '_Z3fooPf' uses too much shared data (0x10000 bytes, 0xc000 max)"));
        row("ptxas with file", "ptxas /tmp/tmpxft_0001_x.ptx, line 88; error   : Illegal operand", S::Error, K::Ptxas,
            QStringLiteral("/tmp/tmpxft_0001_x.ptx"), 88, -1, QStringLiteral("Illegal operand"));
        none("ptxas info", "ptxas info    : Used 32 registers, 380 bytes cmem[0]");
        row("ninja failed", "FAILED: CMakeFiles/common_ops.dir/csrc/gemm/x.cu.o", S::Error, K::Ninja,
            QStringLiteral("CMakeFiles/common_ops.dir/csrc/gemm/x.cu.o"), -1, -1,
            QStringLiteral("build step failed: CMakeFiles/common_ops.dir/csrc/gemm/x.cu.o"));
        row("ninja 1.12 failed", "FAILED: [code=1] obj/a.o", S::Error, K::Ninja, QStringLiteral("obj/a.o"), -1, -1,
            QStringLiteral("build step failed: obj/a.o"));
        row("linker", "/usr/bin/ld: a.o: in function `f()': a.cpp:(.text+0x5): undefined reference to `g()'", S::Error,
            K::Linker, QString(), -1, -1,
            QStringLiteral("/usr/bin/ld: a.o: in function `f()': a.cpp:(.text+0x5): undefined reference to `g()'"),
            H::LinkerUndefined);
        row("torch abi",
            "ImportError: /venv/lib/python3.12/site-packages/sgl_kernel/common_ops.abi3.so: undefined symbol: "
            "_ZNK3c106SymInt6sym_neERKS0_",
            S::Error, K::Runtime, QString(), -1, -1,
            QStringLiteral("ImportError: /venv/lib/python3.12/site-packages/sgl_kernel/common_ops.abi3.so: undefined "
                           "symbol: _ZNK3c106SymInt6sym_neERKS0_"),
            H::TorchAbi);
        row("no kernel image", "RuntimeError: CUDA error: no kernel image is available for execution on the device",
            S::Error, K::Runtime, QString(), -1, -1,
            QStringLiteral("RuntimeError: CUDA error: no kernel image is available for execution on the device"),
            H::MissingSm);
        row("fa3 import", "ImportError: Can not import FA3 in sgl_kernel. Please check your installation.", S::Error,
            K::Runtime, QString(), -1, -1,
            QStringLiteral("ImportError: Can not import FA3 in sgl_kernel. Please check your installation."),
            H::Fa3Import);
        row("ninja stopped", "ninja: build stopped: subcommand failed.", S::Error, K::BuildFailed, QString(), -1, -1,
            QStringLiteral("ninja: build stopped: subcommand failed."));
        row("wheel failed", "ERROR: Failed building wheel for sgl-kernel", S::Error, K::BuildFailed, QString(), -1, -1,
            QStringLiteral("ERROR: Failed building wheel for sgl-kernel"));
        row("cmake plain", "CMake Error: The source directory \"/x\" does not exist.", S::Error, K::CMake, QString(),
            -1, -1, QStringLiteral("The source directory \"/x\" does not exist."));
        // Exit status 127 on the lent H200 (tests/data/field-h200): cmake lives in a virtualenv that
        // the build's non-interactive SSH shell does not have on its PATH.
        row("dash not found", "/root/.cache/kernelforge/jobs/20261201-220313-571a/cmd: 1: cmake: not found", S::Error,
            K::Shell, QStringLiteral("/root/.cache/kernelforge/jobs/20261201-220313-571a/cmd"), 1, -1,
            QStringLiteral("cmake: command not found"), H::NotOnPath);
        row("sh -c not found", "sh: 1: ninja: not found", S::Error, K::Shell, QStringLiteral("sh"), 1, -1,
            QStringLiteral("ninja: command not found"), H::NotOnPath);
        row("bash not found", "bash: line 3: nvcc: command not found", S::Error, K::Shell, QStringLiteral("bash"), 3,
            -1, QStringLiteral("nvcc: command not found"), H::NotOnPath);
        row("bash interactive not found", "bash: cmake: command not found", S::Error, K::Shell, QStringLiteral("bash"),
            -1, -1, QStringLiteral("cmake: command not found"), H::NotOnPath);
        // Issue #33 item 3: linker, Python build-time, missing tools, ninja's SIGKILL, GPU OOM.
        row("ld missing lib", "/usr/bin/ld: cannot find -lcuda: No such file or directory", S::Error, K::Linker,
            QString(), -1, -1, QStringLiteral("/usr/bin/ld: cannot find -lcuda: No such file or directory"),
            H::LinkerMissingLib);
        row("lld missing lib", "ld.lld: error: unable to find library -lcudart", S::Error, K::Linker, QString(), -1, -1,
            QStringLiteral("ld.lld: error: unable to find library -lcudart"), H::LinkerMissingLib);
        row("multiple definition", "(.text+0x8720): multiple definition of `f'; b.o:(.text+0x0): first defined here",
            S::Error, K::Linker, QString(), -1, -1,
            QStringLiteral("(.text+0x8720): multiple definition of `f'; b.o:(.text+0x0): first defined here"),
            H::LinkerDuplicate);
        row("undefined reference hint", "x.so: undefined reference to `g'", S::Error, K::Linker, QString(), -1, -1,
            QStringLiteral("x.so: undefined reference to `g'"), H::LinkerUndefined);
        row("ninja code 137", "FAILED: [code=137] obj/a.o", S::Error, K::Oom, QStringLiteral("obj/a.o"), -1, -1,
            QStringLiteral("build step killed (exit code 137, SIGKILL: out of memory?): obj/a.o"), H::Oom);
        row("no torch in isolation", "      ModuleNotFoundError: No module named 'torch'", S::Error, K::Python,
            QString(), -1, -1, QStringLiteral("ModuleNotFoundError: No module named 'torch'"), H::BuildIsolation);
        row("python other", "ValueError: bad value", S::Error, K::Python, QString(), -1, -1,
            QStringLiteral("ValueError: bad value"));
        row("cuda home", "OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.",
            S::Error, K::Python, QString(), -1, -1,
            QStringLiteral("OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install "
                           "root."),
            H::CudaHome);
        row("setuptools no nvcc", "error: [Errno 2] No such file or directory: '/usr/local/cuda/bin/nvcc'", S::Error,
            K::Python, QString(), -1, -1,
            QStringLiteral("[Errno 2] No such file or directory: '/usr/local/cuda/bin/nvcc'"), H::NvccMissing);
        row("no ninja", "FileNotFoundError: [Errno 2] No such file or directory: 'ninja': 'ninja'", S::Error, K::Python,
            QString(), -1, -1,
            QStringLiteral("FileNotFoundError: [Errno 2] No such file or directory: 'ninja': 'ninja'"),
            H::NinjaMissing);
        row("ninja required", "RuntimeError: Ninja is required to load C++ extensions", S::Error, K::Python, QString(),
            -1, -1, QStringLiteral("RuntimeError: Ninja is required to load C++ extensions"), H::NinjaMissing);
        row("torch summary", "RuntimeError: Error compiling objects for extension", S::Error, K::BuildFailed, QString(),
            -1, -1, QStringLiteral("RuntimeError: Error compiling objects for extension"));
        row("jit ninja failed",
            "(Worker pid=7) subprocess.CalledProcessError: Command '['ninja', '-v', '-C', "
            "'/root/.cache/flashinfer/80/cached_ops']' returned non-zero exit status 1.",
            S::Error, K::BuildFailed, QString(), -1, -1,
            QStringLiteral("(Worker pid=7) subprocess.CalledProcessError: Command '['ninja', '-v', '-C', "
                           "'/root/.cache/flashinfer/80/cached_ops']' returned non-zero exit status 1."),
            H::JitFailed);
        row("setuptools nvcc failed", "error: command '/usr/local/cuda/bin/nvcc' failed with exit code 1", S::Error,
            K::BuildFailed, QString(), -1, -1,
            QStringLiteral("error: command '/usr/local/cuda/bin/nvcc' failed with exit code 1"));
        row("gpu oom at load",
            "(EngineCore pid=1) ERROR [linear.py:210] Failed to create weights: CUDA out of memory. Tried to allocate "
            "896.00 MiB.",
            S::Error, K::Runtime, QString(), -1, -1,
            QStringLiteral("(EngineCore pid=1) ERROR [linear.py:210] Failed to create weights: CUDA out of memory. "
                           "Tried to allocate 896.00 MiB."),
            H::CudaOom);
        row("catastrophic", "Catastrophic error: cannot open source file \"/tmp/x.ii\"", S::Error, K::Nvcc, QString(),
            -1, -1, QStringLiteral("cannot open source file \"/tmp/x.ii\""));
        row("compiler out of memory", "a.cuh:45:33: error: b.cuh: Cannot allocate memory", S::Error, K::Compiler,
            QStringLiteral("a.cuh"), 45, 33, QStringLiteral("b.cuh: Cannot allocate memory"), H::Oom);
        row("fa3 source", "csrc/flash/flash_fwd_hdim64_bf16_sm90.cu(12): error: x", S::Error, K::Nvcc,
            QStringLiteral("csrc/flash/flash_fwd_hdim64_bf16_sm90.cu"), 12, -1, QStringLiteral("x"), H::Fa3Build);
        none("python warning", "/x/cpp_extension.py:476: UserWarning: could not find ninja.");
        none("raise line", "raise RuntimeError(\"Ninja is required to load C++ extensions\")");
        none("cmake package not found", "-- Could NOT find CUDNN (missing: CUDNN_LIBRARY) not found");
        none("prose not found", "the file you asked for was not found");
        none("compile command",
            "/usr/local/cuda/bin/nvcc -DTORCH_EXTENSION_NAME=common_ops -Werror=return-type -c x.cu -o x.o");
        none("progress", "[12/430] Building CUDA object x.o");
        none("include chain", "In file included from /usr/include/c++/12/bits/stl_algo.h:3:");
        none("url", "see https://example.org:443: error: no");
        none("empty", "");
    }

    void line()
    {
        QFETCH(QByteArray, line);
        QFETCH(bool, found);
        const auto d = kf::parseDiagnosticLine(kf::normalizeLogLine(line));
        QCOMPARE(d.has_value(), found);
        if (!found)
            return;
        QFETCH(int, severity);
        QFETCH(int, kind);
        QFETCH(QString, file);
        QFETCH(int, lineNo);
        QFETCH(int, column);
        QFETCH(QString, message);
        QFETCH(int, hint);
        Diagnostic expected;
        expected.severity = S(severity);
        expected.kind = K(kind);
        expected.file = file;
        expected.line = lineNo;
        expected.column = column;
        expected.message = message;
        expected.hint = H(hint);
        QCOMPARE(*d, expected);
    }

    void cmakeMultiLinePolicy()
    {
        kf::DiagnosticCollector c;
        QList<Diagnostic> got;
        for (const char* l : { "  -- The CXX compiler identification is GNU 12.2.0",
                 "  CMake Error at CMakeLists.txt:10 (cmake_policy):",
                 "    Policy \"CMP0177\" is not known to this version of CMake.", "", "",
                 "  -- Configuring incomplete, errors occurred!" })
            got += c.feed(l);
        got += c.flush();
        QCOMPARE(got.size(), 1);
        QCOMPARE(int(got[0].kind), int(K::CMake));
        QCOMPARE(got[0].file, QStringLiteral("CMakeLists.txt"));
        QCOMPARE(got[0].line, 10);
        QCOMPARE(
            got[0].message, QStringLiteral("cmake_policy: Policy \"CMP0177\" is not known to this version of CMake."));
        QCOMPARE(int(got[0].hint), int(H::CMakePolicy));
        QCOMPARE(got[0].logLine, 1);
    }

    void cmakeHeaderAtEndOfTruncatedLog()
    {
        kf::DiagnosticCollector c;
        QVERIFY(c.feed("CMake Warning (dev) at CMakeLists.txt:37 (find_package):").isEmpty());
        QVERIFY(c.feed("  Policy CMP0146 is not set").isEmpty());
        const auto got = c.flush();
        QCOMPARE(got.size(), 1);
        QCOMPARE(int(got[0].severity), int(S::Warning));
        QCOMPARE(got[0].message, QStringLiteral("find_package: Policy CMP0146 is not set"));
    }

    void pipLogFixture()
    {
        const QByteArray log = kf::test::readData(QStringLiteral("buildlogs/pip_sgl_kernel_failed.log"));
        kf::BuildLogAnalyzer a;
        auto ev = a.feed(log);
        const auto rest = a.finish();
        ev.diagnostics += rest.diagnostics;
        QStringList kinds;
        for (const auto& d : ev.diagnostics)
            kinds << kf::toString(d.kind) + QLatin1Char('/') + kf::toString(d.severity);
        QCOMPARE(kinds,
            QStringList({ QStringLiteral("cmake/warning"), QStringLiteral("nvcc/warning"),
                QStringLiteral("ninja/error"), QStringLiteral("oom/error"), QStringLiteral("ninja/error"),
                QStringLiteral("compiler/error"), QStringLiteral("build/error"), QStringLiteral("build/error"),
                QStringLiteral("build/error"), QStringLiteral("build/error") }));
        const Diagnostic& cccl = ev.diagnostics[5];
        QCOMPARE(int(cccl.hint), int(H::Cccl));
        QCOMPARE(cccl.line, 23);
        QCOMPARE(cccl.column, 10);
        QCOMPARE(cccl.logLine, qint64(23));
    }

    // mayBeDiagnosticLine() (byte-level pre-filter) and parseDiagnosticLine()'s shortcuts against
    // the slow reference: the pre-filter never rejects a line the reference accepts, and both
    // give the same diagnostic for every line.
    void prefilterKeepsWhatTheParserFinds_data()
    {
        QTest::addColumn<QByteArray>("line");
        // Each shape with its needle at the very start and the very end of the line, where an
        // off-by-one in the pre-filter's checks around the memchr hit would show.
        for (const char* l : { "a.cpp:1:2: error: x", "a.cpp:1: warning: x", "b.h:3:1: note: x",
                 "a.cpp:1:2: fatal error: x", "x.cu(1): error: y", "x.cu(1): warning #177-D: y",
                 "x.cu(1): catastrophic error: y", "Killed", "1 Killed", "sh: 1 Killed nvcc", "x died due to signal 9",
                 "x killed by signal 9", "returned non-zero exit status 9", "returned non-zero exit status -9",
                 "g++: fatal error: Killed signal terminated program cc1plus", "make: *** [a] Error 1",
                 "gmake[3]: *** [a:1: b] Error 137", "a.o: undefined reference to `g'", "ld: undefined reference to",
                 "x.so: undefined symbol: _Z1fv", "undefined symbol:", "RuntimeError: no kernel image is available",
                 "no kernel image is available", "ImportError: Can not import FA3", "RuntimeError: x", "nvcc fatal : x",
                 "nvcc error   : 'cicc' died due to signal 9", "ptxas error   : x", "ptxas /t.ptx, line 8; error   : x",
                 "CMake Error at a.txt:1 (f):", "CMake Warning (dev) at a.txt:1 (f):", "CMake Error: x",
                 "CMake Deprecation Warning at a.txt:1 (f):", "FAILED: a.o", "FAILED: [code=1] a.o",
                 "ninja: build stopped: subcommand failed.", "ninja: error: x",
                 "collect2: error: ld returned 1 exit status", "*** CMake build failed", "ERROR: Failed building wheel",
                 "error: subprocess-exited-with-error", "x/cmd: 1: cmake: not found",
                 "bash: line 1: x: command not found", "bash: x: command not found",
                 "/usr/bin/ld: a.o: in function `f': a.cpp:(.text+0x1): undefined reference to `g'",
                 "ld: cannot find -lx", "ld.lld: error: unable to find library -lx", "a.o: multiple definition of `f'",
                 "ModuleNotFoundError: No module named 'x'", "ValueError: x", "CustomException: x",
                 "error: [Errno 2] x", "error: command 'x' failed with exit code 1",
                 "error: metadata-generation-failed", "ERROR: Could not build wheels for x",
                 "torch.OutOfMemoryError: CUDA out of memory", "x CUDA out of memory", "Catastrophic error: x",
                 "FAILED: [code=137] a.o", "RuntimeError: Ninja is required", "RuntimeError: Ninja build failed",
                 "(pid=1) subprocess.CalledProcessError: Command x", "a.h:1:2: error: Cannot allocate memory" }) {
            QTest::newRow(l) << QByteArray(l);
            QTest::addRow("indented %s", l) << QByteArray("  \xe2\x94\x82 ") + l + "  ";
        }
    }

    void prefilterKeepsWhatTheParserFinds()
    {
        QFETCH(QByteArray, line);
        const QByteArray n = kf::normalizeLogLine(line);
        const auto ref = kf::parseDiagnosticLineReference(n);
        QVERIFY2(ref, "the row is no diagnostic: the table is wrong");
        QVERIFY(kf::mayBeDiagnosticLine(n));
        QCOMPARE(kf::parseDiagnosticLine(n), ref);
    }

    void prefilterOnEveryCorpusLine()
    {
        // Every line of the test data, the demo host's scripts and the fuzz seeds (corpus.txt names
        // files under tests/data and beyond), raw and normalised.
        const QString src = QStringLiteral(KF_SOURCE_DIR);
        QStringList files;
        for (const QString& dir : QStringList { kf::test::dataPath(QString()), src + QStringLiteral("/resources/demo"),
                 src + QStringLiteral("/tests/fuzz") }) {
            QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext())
                files << it.next();
        }
        QFile corpus(src + QStringLiteral("/tests/fuzz/corpus.txt"));
        QVERIFY(corpus.open(QIODevice::ReadOnly));
        for (const QByteArray& l : corpus.readAll().split('\n'))
            if (const QByteArrayList w = l.simplified().split(' '); w.size() == 2)
                files << kf::test::dataPath(QString::fromUtf8(w[1]));
        QVERIFY(files.size() > 50);
        qint64 lines = 0;
        qint64 found = 0;
        for (const QString& path : files) {
            QFile f(path);
            QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path));
            kf::LogSplitter split;
            QByteArrayList all = split.feed(f.readAll());
            all += split.flush();
            for (qsizetype i = 0; i < all.size(); ++i) {
                for (const QByteArray& l : { all[i], kf::normalizeLogLine(all[i]) }) {
                    ++lines;
                    const auto ref = kf::parseDiagnosticLineReference(l);
                    found += ref ? 1 : 0;
                    const QByteArray where = path.toUtf8() + ':' + QByteArray::number(i + 1) + ": " + l;
                    QVERIFY2(!ref || kf::mayBeDiagnosticLine(l), where.constData());
                    QVERIFY2(kf::parseDiagnosticLine(l) == ref, where.constData());
                }
            }
        }
        // The corpora do hold diagnostics, so the comparison above is not vacuous.
        QVERIFY2(found >= 10, qPrintable(QString::number(found)));
        QVERIFY(lines > 5000);
    }

    void prefilterOnRandomLines()
    {
        // Lines glued from pieces of every shape (needles, their fragments, the bytes the
        // pre-filter looks for) at random places: many are diagnostics, many near misses.
        const QByteArrayList pieces { "a.cpp", "csrc/x.cu", "/usr/bin/ld: ", ":", "12", "3", "(", ")", " ", ": ",
            "error", "Error", "warning", "note", "fatal error", "catastrophic error", " #177-D", "Killed", "killed by ",
            "signal 9", "status 9", "status -9", "status ", "non-zero exit ", "died due to ", "*** ", "**", "[", "]",
            "Error 1", "Error 137", "make", "gmake", "make[2]", "CMake ", "CMake Error", "CMake Warning (dev)", " at ",
            "(cmd)", "nvcc ", "nvcc fatal   ", "ptxas ", "ptxas info", ", line 88; ", "FAILED: ", "[code=1] ",
            "ninja:", " build stopped", "collect2:", "undefined reference", "undefined symbol", "undefined",
            " reference", " symbol", "no kernel image", "no kernel", " image", "ERROR", "ImportError", "RuntimeError",
            "In file included", "://", "\t", "x", "9", "-", "E", "K", "f", "k", "u", "n", "\xe2\x94\x82 ", "\x1b[1m",
            "\xc3\xa9", "Exception", "Exception: ", "OSError: ", "out of memory", "CUDA out of memory", "memory",
            "cannot find -l", "find library -l", "-l", "multiple definition of", "definition",
            "CalledProcessError: ", "[Errno 2] ", "error: [Errno ", "Catastrophic error", "[code=137] ",
            "No module named 'torch'", "Cannot allocate memory", "y" };
        QRandomGenerator rng(20261129);
        int found = 0;
        for (int i = 0; i < 200000; ++i) {
            QByteArray l;
            for (int k = int(rng.bounded(1, 9)); k > 0; --k)
                l += pieces[rng.bounded(int(pieces.size()))];
            const QByteArray n = kf::normalizeLogLine(l);
            const auto ref = kf::parseDiagnosticLineReference(n);
            found += ref ? 1 : 0;
            QVERIFY2(!ref || kf::mayBeDiagnosticLine(n), n.constData());
            QVERIFY2(kf::parseDiagnosticLine(n) == ref, n.constData());
        }
        QVERIFY2(found > 3000, qPrintable(QString::number(found)));
    }

    // The hints name the versions core/sglkernel/rules.h decides (one place for each number).
    void hintsNameTheRulesVersions()
    {
        using H = kf::Diagnostic::Hint;
        QVERIFY(kf::hintText(H::CMakePolicy).contains(QLatin1String("CMP0169 needs CMake 3.30, CMP0177 3.31")));
        QVERIFY(
            kf::hintText(H::CMakePolicy).contains(QLatin1String("install CMake >= 3.31 (pip install 'cmake>=3.31')")));
        QVERIFY(kf::hintText(H::CudaTooOld).contains(QLatin1String("install CUDA >= 12.8")));
        QVERIFY(kf::hintText(H::MissingSm).contains(QLatin1String("CUDA >= 12.8 so sm_120a is among the targets")));
    }
};

QTEST_GUILESS_MAIN(TestDiagnosticParser)
#include "tst_diagnosticparser.moc"
