// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Safe apply and rollback on LocalTransport: hash check, backup mode, verify, journal.
#include "core/patch/applier.h"
#include "core/patch/patchplan.h"
#include "core/patch/patchset.h"
#include "core/store/database.h"
#include "core/store/historystore.h"
#include "core/transport/localtransport.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

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
    void diffCreatesAndDeletesFiles();

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
    options.overrides.insert(f->file, chosen);
    options.onlyFiles = { f->file };
    const ApplyReport report = applyPlan(*m_transport, p, options);
    QVERIFY(report.ok());
    QCOMPARE(report.files.size(), 1);
    QCOMPARE(readAll(f->path), chosen);
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

QTEST_GUILESS_MAIN(TestApplier)
#include "tst_applier.moc"
