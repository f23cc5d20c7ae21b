// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The built-in "sgl-kernel for Blackwell (SM120) on CUDA 13" set against every variant of
// sgl-kernel's CMakeLists.txt and flash_attn.py in tests/data/sgl-kernel-variants/.
#include "core/patch/patchplan.h"
#include "core/patch/patchset.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
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

const char* kTorchStub = "class Tensor:\n    pass\n\n\nclass _Version:\n    cuda = \"13.0\"\n\n\nversion = "
                         "_Version()\nfrom . import nn  # noqa\n";

// Imports flash_attn.py as sgl_kernel.flash_attn in a sandbox where `from sgl_kernel
// import flash_ops` fails (no such module) and torch is a stub.
test::ProcessOutput importWithoutFlashOps(const QByteArray& flashAttn, const QString& dir)
{
    QDir(dir).mkpath(QStringLiteral("sgl_kernel"));
    QDir(dir).mkpath(QStringLiteral("torch"));
    auto write = [&](const QString& rel, const QByteArray& data) {
        QFile f(dir + QLatin1Char('/') + rel);
        (void)f.open(QIODevice::WriteOnly | QIODevice::Truncate);
        f.write(data);
    };
    write(QStringLiteral("sgl_kernel/__init__.py"), {});
    write(QStringLiteral("sgl_kernel/flash_attn.py"), flashAttn);
    write(QStringLiteral("torch/__init__.py"), kTorchStub);
    write(QStringLiteral("torch/nn.py"), {});
    const QString script = QStringLiteral("import sys, warnings\n"
                                          "sys.path.insert(0, %1)\n"
                                          "with warnings.catch_warnings(record=True) as caught:\n"
                                          "    warnings.simplefilter('always')\n"
                                          "    import sgl_kernel.flash_attn as fa\n"
                                          "assert fa.FA3_AVAILABLE is False, 'FA3_AVAILABLE should be False'\n"
                                          "assert fa.is_fa3_supported() is False\n"
                                          "assert any('without FA3' in str(w.message) for w in caught), 'no warning'\n"
                                          "try:\n"
                                          "    fa.flash_attn_with_kvcache(None, None, None)\n"
                                          "except ImportError as e:\n"
                                          "    assert 'FA3 is not available' in str(e), str(e)\n"
                                          "else:\n"
                                          "    raise SystemExit('calling FA3 did not raise')\n"
                                          "print('soft-fail ok')\n")
                               .arg(QStringLiteral("'") + dir + QStringLiteral("'"));
    return test::runProgram(QStringLiteral("python3"), { QStringLiteral("-B"), QStringLiteral("-c"), script }, 60000);
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
    QMap<QString, QByteArray> patched = files;
    for (const FilePlan& f : plan.files)
        if (f.exists)
            patched[f.file] = f.proposed;

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

QTEST_GUILESS_MAIN(TestBuiltinSet)
#include "tst_builtinset.moc"
