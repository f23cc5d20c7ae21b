// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The built-in "sgl-kernel for Blackwell (SM120) on CUDA 13" set against every variant of
// sgl-kernel's CMakeLists.txt and flash_attn.py in tests/data/sgl-kernel-variants/ (made by hand,
// one row each), and against every upstream version in tests/data/sgl-kernel-corpus/ (one folder
// each, found by listing: adding a version is adding a folder). For each version the tree is
// found from the checkout root, every patch ends applied, already applied or not applicable
// with its kind, and the patched tree passes what a build checks: the CMake policy prelude
// runs with this machine's CMake (3.25 on Debian 12), the CCCL folder reaches the host compiler,
// and flash_attn.py imports without flash_ops.
#include "core/patch/patchplan.h"
#include "core/patch/patchset.h"
#include "core/sglkernel/kerneltree.h"
#include "core/sglkernel/rules.h"
#include "core/transport/localtransport.h"
#include "core/util/cmakescript.h"
#include "core/util/versioncompare.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace kf;
using namespace kf::patch;

namespace {

QMap<QString, QByteArray> readTree(const QString& dir)
{
    QMap<QString, QByteArray> files;
    for (const QString& rel : { QStringLiteral("CMakeLists.txt"), QStringLiteral("python/sgl_kernel/flash_attn.py") }) {
        QFile f(dir + QLatin1Char('/') + rel);
        if (f.open(QIODevice::ReadOnly))
            files.insert(rel, f.readAll());
    }
    return files;
}

// The files as the plan leaves them.
QMap<QString, QByteArray> patchedFiles(const QMap<QString, QByteArray>& files, const SetPlan& plan)
{
    QMap<QString, QByteArray> patched = files;
    for (const FilePlan& f : plan.files)
        if (f.exists)
            patched[f.file] = f.proposed;
    return patched;
}

QString statusLetters(const SetPlan& plan)
{
    QStringList out;
    for (const PatchPlan& p : plan.patches) {
        switch (p.status) {
        case PatchStatus::WillApply: out << QStringLiteral("W"); break;
        case PatchStatus::PartlyApplied: out << QStringLiteral("P"); break;
        case PatchStatus::AlreadyApplied: out << QStringLiteral("A"); break;
        case PatchStatus::NotApplicable: out << QStringLiteral("N"); break;
        case PatchStatus::Conflict: out << QStringLiteral("C"); break;
        }
    }
    return out.join(QString());
}

// Balanced if/endif and foreach/endforeach (comments stripped), as a first sanity check.
QString cmakeBlockError(const QString& text)
{
    static const QRegularExpression open(
        QStringLiteral(R"(^\s*(if|foreach|function|macro)\s*\()"), QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression close(QStringLiteral(R"(^\s*(endif|endforeach|endfunction|endmacro)\s*\()"),
        QRegularExpression::CaseInsensitiveOption);
    QStringList stack;
    int lineNo = 0;
    for (QString line : text.split(QLatin1Char('\n'))) {
        ++lineNo;
        const qsizetype hash = line.indexOf(QLatin1Char('#'));
        if (hash >= 0)
            line.truncate(hash);
        if (auto m = open.match(line); m.hasMatch())
            stack.append(m.captured(1).toLower());
        else if (auto c = close.match(line); c.hasMatch()) {
            if (stack.isEmpty() || QStringLiteral("end") + stack.last() != c.captured(1).toLower())
                return QStringLiteral("line %1: unbalanced %2").arg(lineNo).arg(c.captured(1));
            stack.removeLast();
        }
    }
    return stack.isEmpty() ? QString() : QStringLiteral("%1 unclosed block(s)").arg(stack.size());
}

// `cmake -P` on the file's control structure (if/elseif/else/endif/foreach lines and
// the variable-setting lines between): CMake itself checks that the structure parses.
QString cmakeParseError(const QString& text, const QString& dir)
{
    static const QRegularExpression keep(
        QStringLiteral(R"(^\s*(if|elseif|else|endif|foreach|endforeach)\s*\(.*\)\s*(#.*)?$)"),
        QRegularExpression::CaseInsensitiveOption);
    QString script;
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        const QString l = QString(line).remove(QLatin1Char('\r'));
        if (keep.match(l).hasMatch())
            script += l + QLatin1Char('\n');
    }
    const QString path = dir + QStringLiteral("/structure.cmake");
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return QStringLiteral("cannot write %1").arg(path);
    f.write(script.toUtf8());
    f.close();
    const auto r = test::runProgram(QStringLiteral("cmake"), { QStringLiteral("-P"), path }, 60000);
    if (r.exitCode != 0)
        return QString::fromUtf8(r.err + r.out);
    return {};
}

// Every module the sandbox does not have (torch, triton, sgl_kernel's other modules) is a
// permissive stub, except sgl_kernel.flash_ops, which fails as in a build without FA3: attribute
// reads give classes (usable in annotations), calling one with a function returns the function
// (a decorator).
const char* kStubFinder = R"PY(
import importlib.abc, importlib.machinery, sys, types
class _Meta(type):
    def __call__(cls, *a, **k):
        return a[0] if len(a) == 1 and callable(a[0]) and not k else cls
    def __getattr__(cls, name):
        if name.startswith('__'):
            raise AttributeError(name)
        return _Meta(name, (), {})
    def __getitem__(cls, item):
        return cls
class _Stub(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)
        return _Meta(name, (), {})
class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path, target=None):
        if name == 'sgl_kernel.flash_ops':
            return None
        return importlib.machinery.ModuleSpec(name, self, is_package=True)
    def create_module(self, spec):
        return _Stub(spec.name)
    def exec_module(self, module):
        module.__path__ = []
sys.meta_path.append(_Finder())
)PY";

// Imports flash_attn.py as sgl_kernel.flash_attn in a sandbox where `from sgl_kernel
// import flash_ops` fails (no such module) and every other missing module is a stub. With
// softFail, checks the fallback in full: FA3_AVAILABLE False, a warning, is_fa3_supported()
// False and a clear error from an FA3 call; prints "soft-fail ok" (else "import ok").
test::ProcessOutput importWithoutFlashOps(const QByteArray& flashAttn, const QString& dir, bool softFail = true)
{
    QDir(dir).mkpath(QStringLiteral("sgl_kernel"));
    auto write = [&](const QString& rel, const QByteArray& data) {
        QFile f(dir + QLatin1Char('/') + rel);
        (void)f.open(QIODevice::WriteOnly | QIODevice::Truncate);
        f.write(data);
    };
    write(QStringLiteral("sgl_kernel/__init__.py"), {});
    write(QStringLiteral("sgl_kernel/flash_attn.py"), flashAttn);
    QString script = QString::fromUtf8(kStubFinder)
        + QStringLiteral("import sys, warnings\n"
                         "sys.path.insert(0, %1)\n"
                         "with warnings.catch_warnings(record=True) as caught:\n"
                         "    warnings.simplefilter('always')\n"
                         "    import sgl_kernel.flash_attn as fa\n")
              .arg(QStringLiteral("'") + dir + QStringLiteral("'"));
    if (!softFail)
        script += QStringLiteral("print('import ok')\n");
    else
        script += QStringLiteral("assert fa.FA3_AVAILABLE is False, 'FA3_AVAILABLE should be False'\n"
                                 "assert fa.is_fa3_supported() is False\n"
                                 "assert any('without FA3' in str(w.message) for w in caught), 'no warning'\n"
                                 "try:\n"
                                 "    fa.flash_attn_with_kvcache(None, None, None)\n"
                                 "except ImportError as e:\n"
                                 "    assert 'FA3 is not available' in str(e), str(e)\n"
                                 "else:\n"
                                 "    raise SystemExit('calling FA3 did not raise')\n"
                                 "print('soft-fail ok')\n");
    return test::runProgram(QStringLiteral("python3"), { QStringLiteral("-B"), QStringLiteral("-c"), script }, 60000);
}

// ---- The corpus ---------------------------------------------------------------------------

// SOURCE: "key: value" lines; "expect:" may repeat ("<patch id> <status key> [<not-applicable kind>]").
// importWithoutFlashOps once per distinct file (many versions' flash_attn.py models are the same).
test::ProcessOutput importOnce(const QByteArray& flashAttn, const QString& dir, bool softFail)
{
    static QHash<QPair<QByteArray, bool>, test::ProcessOutput> done;
    const auto key = qMakePair(flashAttn, softFail);
    if (const auto it = done.constFind(key); it != done.constEnd())
        return *it;
    return done[key] = importWithoutFlashOps(flashAttn, dir, softFail);
}

QMultiMap<QString, QString> readSource(const QString& folder)
{
    QMultiMap<QString, QString> out;
    QFile f(folder + QStringLiteral("/SOURCE"));
    if (!f.open(QIODevice::ReadOnly))
        return out;
    for (const QString& line : QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'))) {
        const qsizetype colon = line.indexOf(QLatin1Char(':'));
        if (colon > 0)
            out.insert(line.left(colon).trimmed(), line.mid(colon + 1).trimmed());
    }
    return out;
}

// The text of one command, or of a block from its opening command to its matching end.
QString spanText(const QString& text, const QList<CMakeCommand>& cmds, qsizetype& i)
{
    const CMakeCommand& open = cmds[i];
    qsizetype j = i;
    while (j + 1 < cmds.size() && cmds[j + 1].blockDepth > open.blockDepth)
        ++j;
    if (j + 1 < cmds.size() && cmds[j + 1].blockDepth == open.blockDepth && cmds[j + 1].name.startsWith(u"end"))
        ++j; // the closing command
    const QString span = text.mid(open.begin, cmds[j].end - open.begin);
    i = j;
    return span;
}

// One folder for the whole run: the fake toolkit, check.cpp and the scripts.
const QString& scratch()
{
    static QTemporaryDir dir;
    static const QString path = dir.path();
    return path;
}

// cmake -P on a script; its output, and whether it succeeded. Each distinct script runs once
// (most versions' preludes are the same few lines).
QPair<bool, QString> runCMakeScript(const QString& script)
{
    static QHash<QString, QPair<bool, QString>> done;
    if (const auto it = done.constFind(script); it != done.constEnd())
        return *it;
    const QString path = scratch() + QStringLiteral("/script-%1.cmake").arg(done.size());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return { false, QStringLiteral("cannot write ") + path };
    f.write(script.toUtf8());
    f.close();
    const auto r = test::runProgram(QStringLiteral("cmake"), { QStringLiteral("-P"), path }, 60000);
    return done[script] = { r.exitCode == 0, QString::fromUtf8(r.err + r.out) };
}

// This machine's CMake version ("3.25.1" on Debian 12).
QString localCMake()
{
    static const QString version = [] {
        const auto r = test::runProgram(QStringLiteral("cmake"), { QStringLiteral("--version") });
        return QString::fromUtf8(r.out).section(QLatin1Char('\n'), 0, 0).section(QLatin1Char(' '), 2, 2).trimmed();
    }();
    return version;
}

// The CMake policy prelude: cmake_minimum_required, every top-level cmake_policy and the
// if(POLICY ...) guards around them, as the file writes them, run by this machine's CMake.
// Where the file asks for a newer minimum than this CMake (sgl-kernel: 3.26; Debian 12: 3.25),
// the minimum is lowered to this CMake's, which then stands for CMake 3.26 to 3.29: it knows
// neither CMP0169 (3.30) nor CMP0177 (3.31) either.
QPair<bool, QString> policyPrelude(const QString& cmake)
{
    const CMakeScript s = parseCMakeScript(cmake);
    if (!s)
        return { false, QStringLiteral("not CMake: line %1: %2").arg(s.errorLine).arg(s.error) };
    QString script;
    for (qsizetype i = 0; i < s.commands.size(); ++i) {
        const CMakeCommand& c = s.commands[i];
        if (c.blockDepth > 0)
            continue;
        const QStringList args = c.values();
        const bool guard = c.is(QLatin1String("if")) && args.value(0) == QLatin1String("POLICY");
        if (c.is(QLatin1String("cmake_minimum_required"))
            && kf::compareVersions(args.value(1).section(QStringLiteral("..."), 0, 0), localCMake()) > 0)
            script += QStringLiteral("cmake_minimum_required(VERSION %1)\n").arg(localCMake());
        else if (c.is(QLatin1String("cmake_minimum_required")) || c.is(QLatin1String("cmake_policy")) || guard)
            script += spanText(cmake, s.commands, i) + QLatin1Char('\n');
    }
    return runCMakeScript(script);
}

// Whether the host compiler reaches CCCL through what the CMakeLists adds: its top-level
// include_directories() and the blocks that name a .../cccl folder run by cmake -P against a
// toolkit whose include/cccl holds thrust/version.h (include_directories() records its folders),
// then c++ -fsyntax-only on a file including <thrust/version.h> with those folders.
QPair<bool, QString> ccclReachable(const QString& cmake)
{
    static QHash<QStringList, QPair<bool, QString>> compiled;
    const QString cuda = scratch() + QStringLiteral("/cuda/include");
    const QString check = scratch() + QStringLiteral("/check.cpp");
    if (!QFile::exists(check)) {
        QDir().mkpath(cuda + QStringLiteral("/cccl/thrust"));
        QFile header(cuda + QStringLiteral("/cccl/thrust/version.h"));
        QFile source(check);
        if (!header.open(QIODevice::WriteOnly) || !source.open(QIODevice::WriteOnly))
            return { false, QStringLiteral("cannot write the fake toolkit") };
        header.write("#define THRUST_VERSION 300000\n");
        source.write("#include <thrust/version.h>\nstatic_assert(THRUST_VERSION > 0);\n");
    }
    const CMakeScript s = parseCMakeScript(cmake);
    QString script = QStringLiteral("set(_kf_dirs)\n"
                                    "function(include_directories)\n"
                                    "  set(_kf_dirs ${_kf_dirs} ${ARGN} PARENT_SCOPE)\n"
                                    "endfunction()\n"
                                    "set(CUDAToolkit_INCLUDE_DIRS \"%1\")\n"
                                    "set(PROJECT_SOURCE_DIR \"%2\")\n")
                         .arg(cuda, scratch());
    for (qsizetype i = 0; i < s.commands.size(); ++i) {
        const CMakeCommand& c = s.commands[i];
        if (c.blockDepth > 0)
            continue;
        const qsizetype first = i;
        const QString span = spanText(cmake, s.commands, i);
        bool namesCccl = false;
        for (qsizetype k = first; k <= i; ++k)
            for (const QString& v : s.commands[k].values())
                namesCccl = namesCccl || v.contains(QLatin1String("cccl"));
        if (c.is(QLatin1String("include_directories")) || namesCccl)
            script += span + QLatin1Char('\n');
    }
    script += QStringLiteral("foreach(_d IN LISTS _kf_dirs)\n  message(\"KFDIR ${_d}\")\nendforeach()\n");
    const auto [ran, output] = runCMakeScript(script);
    if (!ran)
        return { false, output };
    QStringList args { QStringLiteral("-fsyntax-only") };
    for (const QString& line : output.split(QLatin1Char('\n')))
        if (line.startsWith(QLatin1String("KFDIR ")))
            args << QStringLiteral("-I") + line.mid(6).trimmed();
    args << check;
    if (const auto it = compiled.constFind(args); it != compiled.constEnd())
        return *it;
    const auto r = test::runProgram(QStringLiteral("c++"), args, 60000);
    return compiled[args]
        = { r.exitCode == 0, QString::fromUtf8(r.err) + QStringLiteral(" (c++ ") + args.join(u' ') + u')' };
}

// Whether this machine's CMake is older than the policies sgl-kernel sets (Debian 12: 3.25).
bool cmakeOlderThanPolicies()
{
    return kf::compareVersions(localCMake(), QStringLiteral("3.30")) < 0;
}

QList<QPair<QString, QString>> treeLines(const sglkernel::KernelTree& tree)
{
    QList<QPair<QString, QString>> out;
    const QList<QPair<QString, QString>> files { { QStringLiteral("README.md"),
                                                     tree.dir + QStringLiteral("/README.md") },
        { QStringLiteral("pyproject.toml"), tree.dir + QStringLiteral("/pyproject.toml") },
        { QLatin1String(sglkernel::kSglangPyproject), tree.sglangPyproject() } };
    for (const auto& [label, path] : files) {
        QFile f(path);
        if (f.open(QIODevice::ReadOnly))
            for (const QString& line : QString::fromUtf8(f.readAll()).split(QLatin1Char('\n')))
                out.append({ label, line });
    }
    return out;
}

} // namespace

class TestBuiltinSet : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void loads();
    void variants_data();
    void variants();
    void variantDirsAreAllCovered();
    void unpatchedImportRaises();
    void corpus_data();
    void corpus();
    void corpusCoversBothLayouts();
};

void TestBuiltinSet::loads()
{
    const auto set = loadPatchSet(QStringLiteral("builtin:sgl-kernel-sm120-cuda13"));
    QVERIFY2(set, qPrintable(set.error()));
    QCOMPARE(set->patches.size(), 4);
    for (const Patch& p : set->patches) {
        QVERIFY2(p.why.size() > 200, qPrintable(p.id)); // a real paragraph for the reviewer
        QVERIFY(!p.title.isEmpty());
    }
    QVERIFY(builtinPatchSets().contains(QStringLiteral("sgl-kernel-sm120-cuda13")));
}

void TestBuiltinSet::variants_data()
{
    QTest::addColumn<QString>("variant");
    QTest::addColumn<QString>("expected"); // per patch: policy guards, cccl, fa3 option, fa3 import
    QTest::newRow("2025-02 CMP0169 only, no FA3 yet") << QStringLiteral("2025-02-no-fa3") << QStringLiteral("WWNN");
    QTest::newRow("2025-04 FA3 option, bare except") << QStringLiteral("2025-04-fa3-option") << QStringLiteral("WWWW");
    QTest::newRow("2025-06 includes moved, multi-line raise")
        << QStringLiteral("2025-06-moved-includes") << QStringLiteral("WWWW");
    QTest::newRow("2025-10 CMP0177, one-line include, raise from e")
        << QStringLiteral("2025-10-cmp0177") << QStringLiteral("WWWW");
    QTest::newRow("2026-03 CRLF, generator expressions") << QStringLiteral("2026-03-crlf") << QStringLiteral("WWWW");
    QTest::newRow("2026 fixed by hand") << QStringLiteral("2026-hand-fixed") << QStringLiteral("AAAA");
    QTest::newRow("2026 fork: no include_directories, except logs")
        << QStringLiteral("2026-fork-conflicts") << QStringLiteral("WCWC");
}

void TestBuiltinSet::variants()
{
    QFETCH(QString, variant);
    QFETCH(QString, expected);
    const auto set = loadPatchSet(QStringLiteral("builtin:sgl-kernel-sm120-cuda13"));
    QVERIFY2(set, qPrintable(set.error()));
    const QMap<QString, QByteArray> files = readTree(test::dataPath(QStringLiteral("sgl-kernel-variants/") + variant));
    QVERIFY(files.contains(QStringLiteral("CMakeLists.txt")));

    const SetPlan plan = planSetOnFiles(set.value(), files);
    QString details;
    for (const PatchPlan& p : plan.patches)
        details += QStringLiteral("\n  %1: %2 — %3 %4")
                       .arg(p.id, statusText(p.status), p.reason, p.notes.join(QStringLiteral("; ")));
    QVERIFY2(statusLetters(plan) == expected, qPrintable(statusLetters(plan) + details));

    // Every status carries a reason; conflicts point at the nearest lines.
    for (const PatchPlan& p : plan.patches) {
        QVERIFY2(!p.reason.isEmpty(), qPrintable(p.id));
        if (p.status == PatchStatus::Conflict) {
            QVERIFY2(p.nearestLine > 0 && !p.nearestLines.isEmpty(), qPrintable(p.id + details));
        }
    }

    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QMap<QString, QByteArray> patched = patchedFiles(files, plan);

    // The patched CMake still has a sound control structure, checked by us and by cmake -P.
    const QString cmake = QString::fromUtf8(patched.value(QStringLiteral("CMakeLists.txt")));
    QCOMPARE(cmakeBlockError(cmake), QString());
    QCOMPARE(cmakeParseError(cmake, tmp.path()), QString());
    if (expected.at(0) == QLatin1Char('W')) {
        QVERIFY(cmake.contains(QStringLiteral("if(POLICY CMP0169)")));
        QCOMPARE(cmake.contains(QStringLiteral("if(POLICY CMP0177)")),
            QString::fromUtf8(files.value(QStringLiteral("CMakeLists.txt"))).contains(QStringLiteral("CMP0177")));
    }
    if (expected.at(1) == QLatin1Char('W'))
        QVERIFY(cmake.contains(QStringLiteral("/cccl\")")));
    // CRLF files stay CRLF throughout.
    if (files.value(QStringLiteral("CMakeLists.txt")).contains("\r\n"))
        QCOMPARE(cmake.count(QLatin1Char('\n')), cmake.count(QStringLiteral("\r\n")));

    // The patched Python compiles and imports without flash_ops.
    if (patched.contains(QStringLiteral("python/sgl_kernel/flash_attn.py")) && expected.at(3) != QLatin1Char('C')) {
        const QString py = tmp.path() + QStringLiteral("/check.py");
        QFile f(py);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(patched.value(QStringLiteral("python/sgl_kernel/flash_attn.py")));
        f.close();
        const auto compiled
            = test::runProgram(QStringLiteral("python3"), { QStringLiteral("-m"), QStringLiteral("py_compile"), py });
        QVERIFY2(compiled.exitCode == 0, compiled.err.constData());
        if (expected.at(3) == QLatin1Char('W')) {
            const auto imported
                = importWithoutFlashOps(patched.value(QStringLiteral("python/sgl_kernel/flash_attn.py")),
                    tmp.path() + QStringLiteral("/sandbox"));
            QVERIFY2(imported.exitCode == 0 && imported.out.contains("soft-fail ok"),
                QByteArray(imported.out + imported.err).constData());
        }
    }

    // Idempotent: planning the patched tree finds everything already applied.
    const SetPlan again = planSetOnFiles(set.value(), patched);
    QString expectedAgain = expected;
    expectedAgain.replace(QLatin1Char('W'), QLatin1Char('A'));
    QVERIFY2(statusLetters(again) == expectedAgain, qPrintable(statusLetters(again)));
    for (const FilePlan& f : again.files)
        QVERIFY(!f.changes());
}

void TestBuiltinSet::variantDirsAreAllCovered()
{
    // A new variant folder must get a row above.
    const QStringList dirs
        = QDir(test::dataPath(QStringLiteral("sgl-kernel-variants"))).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QCOMPARE(dirs.size(), 7);
}

void TestBuiltinSet::unpatchedImportRaises()
{
    // The problem is real: the original file raises at import when flash_ops is missing.
    QTemporaryDir tmp;
    QFile f(test::dataPath(QStringLiteral("sgl-kernel-variants/2025-04-fa3-option/python/sgl_kernel/flash_attn.py")));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const auto r = importWithoutFlashOps(f.readAll(), tmp.path());
    QVERIFY(r.exitCode != 0);
    QVERIFY2(r.err.contains("Can not import FA3"), r.err.constData());
}

void TestBuiltinSet::corpus_data()
{
    QTest::addColumn<QString>("folder");
    const QString root = test::dataPath(QStringLiteral("sgl-kernel-corpus"));
    for (const QString& d : QDir(root).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        QTest::newRow(qPrintable(d)) << root + QLatin1Char('/') + d;
}

void TestBuiltinSet::corpus()
{
    QFETCH(QString, folder);
    const QMultiMap<QString, QString> source = readSource(folder);
    static const QRegularExpression sha(QStringLiteral("^[0-9a-f]{40}$"));
    QVERIFY2(source.contains(QStringLiteral("repo")) && sha.match(source.value(QStringLiteral("commit"))).hasMatch()
            && source.contains(QStringLiteral("date")),
        "SOURCE must name repo, commit (40 hex digits) and date");

    // The tree, found from the checkout root as every part of KernelForge finds it.
    LocalTransport local(folder);
    const auto search = sglkernel::findKernelTree(local, folder);
    QVERIFY2(search, qPrintable(search.error()));
    QVERIFY2(search->tree, qPrintable(search->notFound()));
    const sglkernel::KernelTree& tree = *search->tree;
    QCOMPARE(QString::fromLatin1(sglkernel::layoutRule(tree.layout).subdir), tree.subdir);
    QCOMPARE(tree.layout == sglkernel::KernelLayout::Aot ? QStringLiteral("aot") : QStringLiteral("sgl-kernel"),
        source.value(QStringLiteral("layout")));

    const auto set = loadPatchSet(QStringLiteral("builtin:sgl-kernel-sm120-cuda13"));
    QVERIFY2(set, qPrintable(set.error()));
    const QMap<QString, QByteArray> files = readTree(tree.dir);
    const SetPlan plan = planSetOnFiles(set.value(), files);
    QString details = QStringLiteral("\n%1 (%2):").arg(QFileInfo(folder).fileName(), tree.describe());
    for (const PatchPlan& p : plan.patches)
        details += QStringLiteral("\n  %1: %2 %3 - %4 %5")
                       .arg(p.id, statusText(p.status), notApplicableKey(p.notApplicable), p.reason,
                           p.nearestLines.isEmpty() ? p.notes.join(QStringLiteral("; "))
                                                    : QStringLiteral("nearest, line %1: ").arg(p.nearestLine)
                                   + p.nearestLines.join(QStringLiteral(" | ")));

    // Every patch ends applied, already applied or not applicable, and says why.
    for (const PatchPlan& p : plan.patches) {
        QVERIFY2(p.status != PatchStatus::Conflict, qPrintable(QStringLiteral("conflict") + details));
        QVERIFY2(!p.reason.isEmpty(), qPrintable(p.id + details));
        QCOMPARE(p.status == PatchStatus::NotApplicable, p.notApplicable != NotApplicableKind::None);
    }
    for (const QString& e : source.values(QStringLiteral("expect"))) {
        const QStringList w = e.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        QVERIFY2(w.size() >= 2, qPrintable(QStringLiteral("bad expect line: ") + e));
        const auto it = std::find_if(
            plan.patches.cbegin(), plan.patches.cend(), [&](const PatchPlan& p) { return p.id == w[0]; });
        QVERIFY2(it != plan.patches.cend(), qPrintable(QStringLiteral("no patch ") + w[0]));
        QVERIFY2(statusKey(it->status) == w[1] && (w.size() < 3 || notApplicableKey(it->notApplicable) == w[2]),
            qPrintable(QStringLiteral("expected %1%2").arg(e, details)));
    }

    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QMap<QString, QByteArray> patched = patchedFiles(files, plan);
    const QString before = QString::fromUtf8(files.value(QStringLiteral("CMakeLists.txt")));
    const QString after = QString::fromUtf8(patched.value(QStringLiteral("CMakeLists.txt")));

    // The policy prelude runs with this CMake once patched; unpatched it stops where sgl-kernel does.
    const auto [preludeOk, preludeOut] = policyPrelude(after);
    QVERIFY2(preludeOk, qPrintable(preludeOut + details));
    QVERIFY2(sglkernel::unguardedPolicies(after.split(QLatin1Char('\n'))).unguarded.isEmpty(), qPrintable(details));
    if (cmakeOlderThanPolicies()
        && !sglkernel::unguardedPolicies(before.split(QLatin1Char('\n'))).unguarded.isEmpty()) {
        const auto [unpatchedOk, unpatchedOut] = policyPrelude(before);
        QVERIFY2(!unpatchedOk && unpatchedOut.contains(QStringLiteral("is not known to this version of CMake")),
            qPrintable(unpatchedOut));
    }

    // The host compiler reaches CCCL through the patched file (and not through the original),
    // wherever CMake builds the tree (the CCCL patch applies or is already there).
    if (plan.patches[1].status != PatchStatus::NotApplicable) {
        const auto [ccclOk, ccclOut] = ccclReachable(after);
        QVERIFY2(ccclOk, qPrintable(ccclOut + details));
        QVERIFY(sglkernel::addsCcclInclude(after.split(QLatin1Char('\n'))));
        if (!sglkernel::addsCcclInclude(before.split(QLatin1Char('\n')))) {
            const auto [unpatchedOk, unpatchedOut] = ccclReachable(before);
            QVERIFY2(!unpatchedOk, qPrintable(QStringLiteral("CCCL reachable without the patch: ") + unpatchedOut));
        }
    }

    // flash_attn.py imports without flash_ops once patched; where the import patch applies the
    // fallback is checked in full and the original raises, elsewhere it imports as it is.
    const QString flash = QStringLiteral("python/sgl_kernel/flash_attn.py");
    if (patched.contains(flash)) {
        const bool soft = plan.patches[3].status != PatchStatus::NotApplicable;
        const auto imported = importOnce(patched.value(flash), tmp.path() + QStringLiteral("/sandbox"), soft);
        QVERIFY2(imported.exitCode == 0 && imported.out.contains(soft ? "soft-fail ok" : "import ok"),
            qPrintable(QString::fromUtf8(imported.out + imported.err) + details));
        if (plan.patches[3].status == PatchStatus::WillApply) {
            const auto original = importOnce(files.value(flash), tmp.path() + QStringLiteral("/original"), false);
            QVERIFY2(original.exitCode != 0 && original.err.contains("ImportError"),
                qPrintable(QStringLiteral("the original imports without flash_ops?") + details));
        }
    }

    // Planned again, the patched tree has everything in place.
    const SetPlan again = planSetOnFiles(set.value(), patched);
    for (qsizetype i = 0; i < again.patches.size(); ++i) {
        const PatchPlan& p = again.patches[i];
        QVERIFY2(p.status == PatchStatus::AlreadyApplied
                || (p.status == PatchStatus::NotApplicable && plan.patches[i].status == PatchStatus::NotApplicable),
            qPrintable(
                p.id + QStringLiteral(" after patching: ") + statusText(p.status) + QStringLiteral(" - ") + p.reason));
    }

    // What the tree asks for is read from it: the wheel's name (either era) and CMake and torch
    // where the README or sglang's pyproject.toml names them.
    const auto lines = treeLines(tree);
    QString wheel;
    for (const auto& [file, line] : lines) {
        static const QRegularExpression name(QStringLiteral("^name\\s*=\\s*\"([^\"]+)\""));
        if (const auto m = name.match(line); file == QLatin1String("pyproject.toml") && m.hasMatch() && wheel.isEmpty())
            wheel = m.captured(1);
    }
    QVERIFY2(wheel.isEmpty() || wheel == QLatin1String("sgl-kernel") || wheel == QLatin1String("sglang-kernel"),
        qPrintable(wheel));
    bool readmeTorch = false, readmeCmake = false;
    for (const auto& [file, line] : lines) {
        readmeTorch = readmeTorch || (file == QLatin1String("README.md") && line.contains(QLatin1String("torch ==")));
        readmeCmake = readmeCmake || (file == QLatin1String("README.md") && line.contains(QLatin1String("CMake")));
    }
    if (readmeTorch)
        QVERIFY2(sglkernel::torchRequirement(lines), qPrintable(details));
    if (readmeCmake)
        QCOMPARE(
            sglkernel::cmakeRequirement(lines).value_or(sglkernel::TreeRequirement()).version, QStringLiteral("3.31"));
}

void TestBuiltinSet::corpusCoversBothLayouts()
{
    // The corpus is at least 30 versions of 2025-2026, of both layouts.
    const QString root = test::dataPath(QStringLiteral("sgl-kernel-corpus"));
    const QStringList dirs = QDir(root).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QVERIFY2(dirs.size() >= 30, qPrintable(QString::number(dirs.size())));
    int aot = 0, old = 0;
    for (const QString& d : dirs) {
        const QString layout = readSource(root + QLatin1Char('/') + d).value(QStringLiteral("layout"));
        aot += layout == QLatin1String("aot");
        old += layout == QLatin1String("sgl-kernel");
    }
    QVERIFY(aot >= 3);
    QVERIFY(old >= 25);
    QCOMPARE(aot + old, int(dirs.size()));
}

QTEST_GUILESS_MAIN(TestBuiltinSet)
#include "tst_builtinset.moc"
