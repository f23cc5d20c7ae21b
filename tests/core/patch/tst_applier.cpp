// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Safe apply and rollback on LocalTransport: hash check, backup mode, verify, journal.
#include "core/patch/applier.h"
#include "core/patch/journal.h"
#include "core/patch/patchplan.h"
#include "core/patch/patchset.h"
#include "core/patch/review.h"
#include "core/patch/rootpath.h"
#include "core/store/database.h"
#include "core/store/historystore.h"
#include "core/transport/localtransport.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QtConcurrent>

#include <sys/stat.h>

using namespace kf;
using namespace kf::patch;

class TestApplier : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void applyThenAlreadyAppliedThenRollback();
    void refusesWhenChangedSinceReview();
    void backupKeepsRestrictiveMode();
    void rollbackRefusesOverLaterEdits();
    void reviewerOverrideIsWritten();
    void rollbackOfAnOlderApplyUndoesTheLaterOnesFirst();
    void rollbackRefusesAcrossAnOutsideEdit();
    void rootsAreCanonical();
    void oldJournalRootsAreRenamed();
    void journalsWithTheRootAsTypedRollBack();
    void diffCreatesAndDeletesFiles();
    void theApplyIsJournaledBeforeTheRename();
    void aResultThatNoLongerParsesIsRefused();
    void aBrokenCMakeResultIsRefused();
    void aCutOffApplyIsRolledForwardAndBack();
    void aCutOffRollbackIsFinishedByContent();

private:
    void copyVariant(const QString& variant);
    SetPlan plan();
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<LocalTransport> m_transport;
    QString m_root;
    PatchSet m_set;
};

void TestApplier::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    store::setDatabasePath(m_dir->filePath(QStringLiteral("history.sqlite")));
    QDir().mkpath(m_dir->filePath(QStringLiteral("home")));
    m_transport = std::make_unique<LocalTransport>(m_dir->filePath(QStringLiteral("home")));
    m_root = m_dir->filePath(QStringLiteral("tree"));
    const auto set = loadPatchSet(QStringLiteral("builtin:sgl-kernel-sm120-cuda13"));
    QVERIFY2(set, qPrintable(set.error()));
    m_set = set.value();
    copyVariant(QStringLiteral("2025-10-cmp0177"));
}

void TestApplier::copyVariant(const QString& variant)
{
    const QString src = test::dataPath(QStringLiteral("sgl-kernel-variants/") + variant);
    for (const QString& rel : { QStringLiteral("CMakeLists.txt"), QStringLiteral("python/sgl_kernel/flash_attn.py"),
             QStringLiteral("python/sgl_kernel/__init__.py") }) {
        QDir().mkpath(QFileInfo(m_root + QLatin1Char('/') + rel).absolutePath());
        QFile::remove(m_root + QLatin1Char('/') + rel);
        QVERIFY(QFile::copy(src + QLatin1Char('/') + rel, m_root + QLatin1Char('/') + rel));
        QFile::setPermissions(m_root + QLatin1Char('/') + rel,
            QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
    }
}

SetPlan TestApplier::plan()
{
    return planSet(*m_transport, m_set, m_root);
}

static QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void TestApplier::applyThenAlreadyAppliedThenRollback()
{
    const QByteArray original = readAll(m_root + QStringLiteral("/CMakeLists.txt"));
    const SetPlan p = plan();
    QVERIFY2(p, qPrintable(p.error));
    QCOMPARE(p.count(PatchStatus::WillApply), 4);
    const ApplyReport report = applyPlan(*m_transport, p);
    QVERIFY(report.ok());
    QCOMPARE(report.files.size(), 2);
    for (const FileApply& f : report.files) {
        QCOMPARE(f.outcome, FileApply::Written);
        QVERIFY(f.journalId > 0);
        QVERIFY(QFile::exists(m_transport->resolve(f.backupPath)));
        QCOMPARE(sha256Hex(readAll(f.path)), f.sha256After);
    }
    // The second apply changes nothing and says so.
    const SetPlan second = plan();
    QCOMPARE(second.count(PatchStatus::AlreadyApplied), 4);
    const ApplyReport again = applyPlan(*m_transport, second);
    for (const FileApply& f : again.files)
        QCOMPARE(f.outcome, FileApply::Unchanged);
    auto standing = HistoryStore().standing(m_transport->describe(), p.root, m_set.name);
    QVERIFY(standing);
    QCOMPARE(standing->size(), 2);
    // Rollback restores the exact bytes and is journaled.
    for (const AppliedFile& a : standing.value()) {
        const auto r = rollbackApply(*m_transport, a.id);
        QVERIFY2(r, qPrintable(r.error()));
    }
    QCOMPARE(readAll(m_root + QStringLiteral("/CMakeLists.txt")), original);
    QCOMPARE(HistoryStore().standing(m_transport->describe(), p.root, m_set.name)->size(), 0);
    QVERIFY(!rollbackApply(*m_transport, standing->first().id)); // not twice
    QCOMPARE(plan().count(PatchStatus::WillApply), 4);
}

void TestApplier::refusesWhenChangedSinceReview()
{
    const SetPlan p = plan();
    {
        QFile f(m_root + QStringLiteral("/CMakeLists.txt"));
        QVERIFY(f.open(QIODevice::Append));
        f.write("# edited by someone else meanwhile\n");
    }
    const QByteArray concurrent = readAll(m_root + QStringLiteral("/CMakeLists.txt"));
    const ApplyReport report = applyPlan(*m_transport, p);
    QVERIFY(!report.ok());
    QVERIFY(report.changedSinceReview());
    for (const FileApply& f : report.files) {
        if (f.file == QLatin1String("CMakeLists.txt")) {
            QCOMPARE(f.outcome, FileApply::Refused);
            QVERIFY2(f.message.contains(QStringLiteral("changed since the review")), qPrintable(f.message));
        } else {
            QCOMPARE(f.outcome, FileApply::Written); // other files are independent
        }
    }
    QCOMPARE(readAll(m_root + QStringLiteral("/CMakeLists.txt")), concurrent);
    // Re-planning picks up the new text and applies.
    QVERIFY(applyPlan(*m_transport, plan()).ok());
}

void TestApplier::backupKeepsRestrictiveMode()
{
    const QString file = m_root + QStringLiteral("/CMakeLists.txt");
    QVERIFY(::chmod(QFile::encodeName(file).constData(), 0600) == 0);
    const ApplyReport report = applyPlan(*m_transport, plan());
    QVERIFY(report.ok());
    for (const FileApply& f : report.files) {
        if (f.file != QLatin1String("CMakeLists.txt"))
            continue;
        struct stat st
        { };
        QVERIFY(::stat(QFile::encodeName(m_transport->resolve(f.backupPath)).constData(), &st) == 0);
        QCOMPARE(st.st_mode & 0777, 0600u); // never more readable than the original
        QVERIFY(::stat(QFile::encodeName(file).constData(), &st) == 0);
        QCOMPARE(st.st_mode & 0777, 0600u); // and the patched file keeps its mode
    }
}

void TestApplier::rollbackRefusesOverLaterEdits()
{
    const ApplyReport report = applyPlan(*m_transport, plan());
    QVERIFY(report.ok());
    {
        QFile f(m_root + QStringLiteral("/CMakeLists.txt"));
        QVERIFY(f.open(QIODevice::Append));
        f.write("# later edit\n");
    }
    for (const FileApply& f : report.files) {
        const auto r = rollbackApply(*m_transport, f.journalId);
        if (f.file == QLatin1String("CMakeLists.txt")) {
            QVERIFY(!r);
            QVERIFY2(r.error().contains(QStringLiteral("changed after the apply")), qPrintable(r.error()));
        } else {
            QVERIFY2(r, qPrintable(r.error()));
        }
    }
    QVERIFY(readAll(m_root + QStringLiteral("/CMakeLists.txt")).endsWith("# later edit\n"));
}

void TestApplier::reviewerOverrideIsWritten()
{
    const SetPlan p = plan();
    const FilePlan* f = p.fileFor(QStringLiteral("CMakeLists.txt"));
    QVERIFY(f);
    ApplyOptions options;
    const QByteArray chosen = f->original + "# reviewer's choice\n";
    options.choices.insert(f->file, FileChoice { chosen, false, { QStringLiteral("cccl-include-dir") } });
    options.onlyFiles = { f->file };
    const ApplyReport report = applyPlan(*m_transport, p, options);
    QVERIFY(report.ok());
    QCOMPARE(report.files.size(), 1);
    QCOMPARE(readAll(f->path), chosen);
    // The journal names the patches the reviewer took, not every patch of the file.
    QCOMPARE(HistoryStore().entry(report.files.first().journalId)->patchIds,
        QStringList { QStringLiteral("cccl-include-dir") });
}

// Apply the first patch, then the rest; roll back the older apply of CMakeLists.txt: the
// later one is undone first, newest first, and the file is back to the original.
void TestApplier::rollbackOfAnOlderApplyUndoesTheLaterOnesFirst()
{
    const QByteArray original = readAll(m_root + QStringLiteral("/CMakeLists.txt"));
    const QByteArray originalPy = readAll(m_root + QStringLiteral("/python/sgl_kernel/flash_attn.py"));
    SetPlan p = plan();
    const FilePlan* cmake = p.fileFor(QStringLiteral("CMakeLists.txt"));
    QVERIFY(cmake);
    // The first patch alone (as the review writes it).
    const PatchPlan& first = p.patches[cmake->patches.first()];
    ApplyOptions options;
    options.onlyFiles = { cmake->file };
    options.choices.insert(cmake->file, FileChoice { first.textAfter.toUtf8(), false, { first.id } });
    const ApplyReport one = applyPlan(*m_transport, p, options);
    QVERIFY(one.ok());
    const qint64 older = one.files.first().journalId;
    const ApplyReport rest = applyPlan(*m_transport, plan());
    QVERIFY(rest.ok());
    QCOMPARE(rest.files.size(), 2);
    qint64 newer = 0, python = 0;
    for (const FileApply& f : rest.files)
        (f.file == cmake->file ? newer : python) = f.journalId;
    QVERIFY(newer > older && python > 0);

    // Before: rolling back the older one alone is refused (the file holds the later text).
    const auto alone = rollbackApply(*m_transport, older);
    QVERIFY(!alone);
    QVERIFY2(alone.error().contains(QStringLiteral("changed after the apply")), qPrintable(alone.error()));

    const auto rollback = planRollback(m_transport->describe(), { older });
    QVERIFY2(rollback, qPrintable(rollback.error()));
    QVERIFY(rollback->refused.isEmpty());
    QCOMPARE(rollback->steps.size(), 2);
    QCOMPARE(rollback->steps[0].entry.id, newer);
    QVERIFY(!rollback->steps[0].requested);
    QCOMPARE(rollback->steps[1].entry.id, older);
    QVERIFY(rollback->steps[1].requested);
    QCOMPARE(rollback->laterCount(), 1);
    const QString text = rollback->describe();
    QVERIFY2(text.indexOf(QStringLiteral("#%1 ").arg(newer)) < text.indexOf(QStringLiteral("#%1 ").arg(older)),
        qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("a later change to the same file, undone first")), qPrintable(text));
    for (const RollbackResult& r : runRollback(*m_transport, rollback.value()))
        QVERIFY2(r.ok, qPrintable(r.message));
    QCOMPARE(readAll(m_root + QStringLiteral("/CMakeLists.txt")), original);
    QVERIFY(readAll(m_root + QStringLiteral("/python/sgl_kernel/flash_attn.py")) != originalPy); // not selected
    QVERIFY(HistoryStore().entry(older)->rolledBack());
    QVERIFY(HistoryStore().entry(newer)->rolledBack());
    QVERIFY(!HistoryStore().entry(python)->rolledBack());
    // Again: refused with the reason, nothing to do.
    const auto twice = planRollback(m_transport->describe(), { older });
    QVERIFY(twice->steps.isEmpty());
    QVERIFY2(twice->describe().contains(QStringLiteral("already rolled back")), qPrintable(twice->describe()));
}

// When the file was edited by hand between two applies, undoing the later one cannot bring
// back what the earlier one wrote: the earlier one is refused, and nothing is done for it.
void TestApplier::rollbackRefusesAcrossAnOutsideEdit()
{
    SetPlan p = plan();
    const FilePlan* cmake = p.fileFor(QStringLiteral("CMakeLists.txt"));
    const PatchPlan& first = p.patches[cmake->patches.first()];
    ApplyOptions options;
    options.onlyFiles = { cmake->file };
    options.choices.insert(cmake->file, FileChoice { first.textAfter.toUtf8(), false, { first.id } });
    const qint64 older = applyPlan(*m_transport, p, options).files.first().journalId;
    {
        QFile f(m_root + QStringLiteral("/CMakeLists.txt"));
        QVERIFY(f.open(QIODevice::Append));
        f.write("# an edit by hand\n");
    }
    const ApplyReport rest = applyPlan(*m_transport, plan());
    QVERIFY(rest.ok());
    const QByteArray now = readAll(m_root + QStringLiteral("/CMakeLists.txt"));
    const auto rollback = planRollback(m_transport->describe(), { older });
    QVERIFY2(rollback, qPrintable(rollback.error()));
    QVERIFY(rollback->steps.isEmpty());
    QCOMPARE(rollback->refused.size(), 1);
    QVERIFY2(rollback->refused.first().contains(QStringLiteral("changed outside KernelForge")),
        qPrintable(rollback->refused.first()));
    QVERIFY(runRollback(*m_transport, rollback.value()).isEmpty());
    QCOMPARE(readAll(m_root + QStringLiteral("/CMakeLists.txt")), now);
}

// Roots are named one way: "~/x", "x/", "x/./" and a symlink to x are the same folder.
void TestApplier::rootsAreCanonical()
{
    const QString real = QFileInfo(m_root).canonicalFilePath();
    QVERIFY(QFile::link(m_root, m_dir->filePath(QStringLiteral("home/link"))));
    const auto all = canonicalRoots(*m_transport,
        { m_root + QStringLiteral("/"), m_root + QStringLiteral("/./python/.."), QStringLiteral("~/link"),
            QStringLiteral("link"), m_root + QStringLiteral("/nope"), QStringLiteral("-odd") });
    QVERIFY2(all, qPrintable(all.error()));
    QCOMPARE(all->size(), 6);
    for (int i = 0; i < 4; ++i)
        QCOMPARE(all->at(i).value_or(QString()), real);
    QVERIFY(!all->at(4));
    QVERIFY(!all->at(5));
    QCOMPARE(plan().root, real);
    const auto missing = canonicalRoot(*m_transport, m_root + QStringLiteral("/nope"));
    QVERIFY(!missing);
    QVERIFY2(missing.error().contains(QStringLiteral("no such folder")), qPrintable(missing.error()));
}

// Journals from before roots were canonical are renamed to the canonical root.
void TestApplier::oldJournalRootsAreRenamed()
{
    const ApplyReport report = applyPlan(*m_transport, plan());
    QVERIFY(report.ok());
    const QString real = plan().root;
    const QString typed = m_root + QStringLiteral("/./");
    QCOMPARE(HistoryStore().renameRoot(m_transport->describe(), real, typed).value(), 2);
    QCOMPARE(HistoryStore().standing(m_transport->describe(), real)->size(), 0);
    const auto renamed = normalizeJournalRoots(*m_transport);
    QVERIFY2(renamed, qPrintable(renamed.error()));
    QCOMPARE(renamed.value(), 2);
    const auto standing = HistoryStore().standing(m_transport->describe(), real);
    QCOMPARE(standing->size(), 2);
    for (const AppliedFile& a : standing.value())
        QCOMPARE(a.path, real + QLatin1Char('/') + a.file);
    QCOMPARE(normalizeJournalRoots(*m_transport).value(), 0);
}

// Journals from before paths were resolved hold the root as typed (here through a symlink
// to the tree, and with "/./"): rollback resolves that root and restores the file.
void TestApplier::journalsWithTheRootAsTypedRollBack()
{
    const QByteArray original = readAll(m_root + QStringLiteral("/CMakeLists.txt"));
    const ApplyReport report = applyPlan(*m_transport, plan());
    QVERIFY(report.ok());
    const QString real = plan().root;
    QVERIFY(QFile::link(m_root, m_dir->filePath(QStringLiteral("tree-link"))));
    const QString typed = m_dir->filePath(QStringLiteral("tree-link/."));
    QCOMPARE(HistoryStore().renameRoot(m_transport->describe(), real, typed).value(), 2);
    const auto standing = HistoryStore().standing(m_transport->describe(), typed);
    QCOMPARE(standing->size(), 2);
    for (const AppliedFile& a : standing.value()) {
        QCOMPARE(a.path, typed + QLatin1Char('/') + a.file);
        const auto r = rollbackApply(*m_transport, a.id);
        QVERIFY2(r, qPrintable(r.error()));
    }
    QCOMPARE(readAll(m_root + QStringLiteral("/CMakeLists.txt")), original);
}

void TestApplier::diffCreatesAndDeletesFiles()
{
    QFile::remove(m_root + QStringLiteral("/python/sgl_kernel/__init__.py"));
    const QString diff
        = QStringLiteral("diff --git a/NOTES.md b/NOTES.md\nnew file mode 100644\n--- /dev/null\n+++ b/NOTES.md\n@@ "
                         "-0,0 +1,2 @@\n+# Notes\n+SM120 build\n"
                         "diff --git a/python/sgl_kernel/flash_attn.py b/python/sgl_kernel/flash_attn.py\ndeleted file "
                         "mode 100644\n--- a/python/sgl_kernel/flash_attn.py\n+++ /dev/null\n");
    const auto set = patchSetFromDiff(diff, QStringLiteral("x.diff"));
    QVERIFY2(set, qPrintable(set.error()));
    const SetPlan p = planSet(*m_transport, set.value(), m_root);
    QCOMPARE(p.count(PatchStatus::WillApply), 2);
    const ApplyReport report = applyPlan(*m_transport, p);
    QVERIFY(report.ok());
    QCOMPARE(readAll(m_root + QStringLiteral("/NOTES.md")), QByteArray("# Notes\nSM120 build\n"));
    QVERIFY(!QFile::exists(m_root + QStringLiteral("/python/sgl_kernel/flash_attn.py")));
    QCOMPARE(planSet(*m_transport, set.value(), m_root).count(PatchStatus::AlreadyApplied), 2);
    for (const FileApply& f : report.files) {
        const auto r = rollbackApply(*m_transport, f.journalId);
        QVERIFY2(r, qPrintable(r.error()));
    }
    QVERIFY(!QFile::exists(m_root + QStringLiteral("/NOTES.md")));
    QVERIFY(QFile::exists(m_root + QStringLiteral("/python/sgl_kernel/flash_attn.py")));
}

// Journal first (issue #30): while the new file is in place but not yet verified, its entry
// is already in the journal as pending; a stop there finishes that file, starts no other and
// leaves the entry done, so a rollback restores the file.
void TestApplier::theApplyIsJournaledBeforeTheRename()
{
    const QByteArray original = readAll(m_root + QStringLiteral("/CMakeLists.txt"));
    const QString marker = m_dir->filePath(QStringLiteral("held"));
    qputenv("KF_TEST_HOLD_AFTER_RENAME", QFile::encodeName(marker));
    const SetPlan p = plan();
    std::atomic<bool> stop { false };
    ApplyOptions options;
    options.stop = &stop;
    LocalTransport* transport = m_transport.get();
    QFuture<ApplyReport> running
        = QtConcurrent::run([transport, p, options] { return applyPlan(*transport, p, options); });
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(marker), 60000);
    qunsetenv("KF_TEST_HOLD_AFTER_RENAME");
    QCOMPARE(readAll(marker).trimmed(), QByteArray("CMakeLists.txt"));
    const auto pending = HistoryStore().pending(m_transport->describe());
    QVERIFY2(pending, qPrintable(pending.error()));
    QCOMPARE(pending->size(), 1);
    QCOMPARE(pending->first().file, QStringLiteral("CMakeLists.txt"));
    QCOMPARE(pending->first().sha256After, sha256Hex(readAll(m_root + QStringLiteral("/CMakeLists.txt"))));
    stop = true;
    running.waitForFinished();
    const ApplyReport report = running.result();
    QVERIFY(report.interrupted());
    QVERIFY(!report.ok());
    QCOMPARE(report.files.size(), 2);
    QCOMPARE(report.files[0].outcome, FileApply::Written);
    QCOMPARE(report.files[1].outcome, FileApply::Interrupted);
    QCOMPARE(report.files[1].message, QStringLiteral("not started: interrupted"));
    QVERIFY(HistoryStore().pending(m_transport->describe())->isEmpty());
    const auto r = rollbackApply(*m_transport, report.files[0].journalId);
    QVERIFY2(r, qPrintable(r.error()));
    QCOMPARE(readAll(m_root + QStringLiteral("/CMakeLists.txt")), original);
}

// The first path: the python patch with only some hunks of its try/except edit is no
// longer Python; the apply refuses it with the reason and writes nothing, unless overridden.
void TestApplier::aResultThatNoLongerParsesIsRefused()
{
    const QString py = QStringLiteral("python/sgl_kernel/flash_attn.py");
    const QByteArray original = readAll(m_root + QLatin1Char('/') + py);
    const SetPlan p = plan();
    Review review(p);
    int patch = -1;
    for (int i = 0; i < review.patchCount(); ++i)
        if (p.patches[i].id == QLatin1String("fa3-import-soft-fail"))
            patch = i;
    QVERIFY(patch >= 0);
    // Some split of the try/except edit does not compile: find it.
    QByteArray broken;
    for (int h = 0; h < review.hunkCount(patch) && broken.isEmpty(); ++h) {
        Review attempt(p);
        attempt.setHunkAccepted(patch, h, false);
        const QString file = m_dir->filePath(QStringLiteral("attempt.py"));
        QVERIFY(test::writeFile(file, attempt.resultFor(py)));
        if (test::runProgram(QStringLiteral("python3"), { QStringLiteral("-m"), QStringLiteral("py_compile"), file })
                .exitCode
            != 0) {
            review = attempt;
            broken = attempt.resultFor(py);
        }
    }
    QVERIFY2(!broken.isEmpty(), "every single rejected hunk still compiles: nothing to refuse");
    ApplyOptions options = review.applyOptions();
    options.onlyFiles = { py };
    const ApplyReport refused = applyPlan(*m_transport, p, options);
    QCOMPARE(refused.files.size(), 1);
    const FileApply& f = refused.files.first();
    QCOMPARE(f.outcome, FileApply::Refused);
    QVERIFY(f.unparsable);
    QVERIFY(!refused.changedSinceReview());
    QCOMPARE(f.syntax.kind, SyntaxVerdict::Broken);
    QVERIFY2(f.message.contains(QStringLiteral("no longer parses as Python (line ")), qPrintable(f.message));
    QVERIFY2(f.message.contains(QStringLiteral("--allow-broken-syntax")), qPrintable(f.message));
    QVERIFY2(!f.message.contains(m_dir->path()), qPrintable(f.message)); // the scratch copy is not named
    QCOMPARE(readAll(m_root + QLatin1Char('/') + py), original);
    QVERIFY(HistoryStore().applies(m_transport->describe())->isEmpty());
    // The reviewer's override writes it, and says so.
    options.allowBrokenSyntax = true;
    const ApplyReport written = applyPlan(*m_transport, p, options);
    QCOMPARE(written.files.first().outcome, FileApply::Written);
    QVERIFY2(written.files.first().message.contains(QStringLiteral("written although it no longer parses as Python")),
        qPrintable(written.files.first().message));
    QCOMPARE(readAll(m_root + QLatin1Char('/') + py), broken);
    // A whole apply parses, and says so.
    QVERIFY(rollbackApply(*m_transport, written.files.first().journalId));
    const ApplyReport whole = applyPlan(*m_transport, plan());
    for (const FileApply& w : whole.files) {
        QCOMPARE(w.syntax.kind, SyntaxVerdict::Parses);
        QVERIFY2(w.message.contains(QStringLiteral("parses as ")), qPrintable(w.message));
    }
}

void TestApplier::aBrokenCMakeResultIsRefused()
{
    const SetPlan p = plan();
    const FilePlan* f = p.fileFor(QStringLiteral("CMakeLists.txt"));
    ApplyOptions options;
    options.onlyFiles = { f->file };
    options.choices.insert(
        f->file, FileChoice { f->proposed + "if(NOT WIN32)\n  set(x y)\n", false, { QStringLiteral("x") } });
    const ApplyReport report = applyPlan(*m_transport, p, options);
    QCOMPARE(report.files.first().outcome, FileApply::Refused);
    QVERIFY2(report.files.first().message.contains(QStringLiteral("no longer parses as CMake (line ")),
        qPrintable(report.files.first().message));
    QVERIFY2(report.files.first().message.contains(QStringLiteral("has no endif()")),
        qPrintable(report.files.first().message));
    QCOMPARE(readAll(f->path), f->original);
}

// An apply cut off after the rename (its entry pending): the next plan settles it by the
// file's content (the new text: done), the patches read as applied, and a rollback restores.
void TestApplier::aCutOffApplyIsRolledForwardAndBack()
{
    const QByteArray original = readAll(m_root + QStringLiteral("/CMakeLists.txt"));
    const SetPlan p = plan();
    const ApplyReport report = applyPlan(*m_transport, p);
    QVERIFY(report.ok());
    // As if the process died before it marked the entries done.
    for (const FileApply& f : report.files)
        QVERIFY(HistoryStore().setState(f.journalId, AppliedFile::State::Pending));
    QVERIFY(HistoryStore().standing(m_transport->describe(), p.root)->isEmpty());
    const SetPlan again = plan();
    QCOMPARE(again.count(PatchStatus::AlreadyApplied), 4);
    QCOMPARE(HistoryStore().standing(m_transport->describe(), p.root)->size(), 2);
    for (const FileApply& f : report.files)
        QVERIFY(rollbackApply(*m_transport, f.journalId));
    QCOMPARE(readAll(m_root + QStringLiteral("/CMakeLists.txt")), original);
}

// A rollback cut off after it restored the file and before its journal entry: the next
// rollback finds the original there and finishes the entry instead of refusing.
void TestApplier::aCutOffRollbackIsFinishedByContent()
{
    const QByteArray original = readAll(m_root + QStringLiteral("/CMakeLists.txt"));
    const ApplyReport report = applyPlan(*m_transport, plan());
    QVERIFY(report.ok());
    const FileApply& cmake = report.files.first();
    QCOMPARE(cmake.file, QStringLiteral("CMakeLists.txt"));
    QVERIFY(test::writeFile(cmake.path, original));
    const auto r = rollbackApply(*m_transport, cmake.journalId);
    QVERIFY2(r, qPrintable(r.error()));
    QVERIFY2(r->message.contains(QStringLiteral("marked rolled back")), qPrintable(r->message));
    QVERIFY(HistoryStore().entry(cmake.journalId)->rolledBack());
}

QTEST_GUILESS_MAIN(TestApplier)
#include "tst_applier.moc"
