// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/applier.h"

#include "core/log/logging.h"
#include "core/patch/journal.h"
#include "core/patch/patchevents.h"
#include "core/patch/rootpath.h"
#include "core/transport/transport.h"
#include "core/util/shellquote.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QSet>
#include <QThread>

#include <algorithm>

namespace kf::patch {

QString outcomeText(FileApply::Outcome o)
{
    switch (o) {
    case FileApply::Written: return QStringLiteral("written");
    case FileApply::Unchanged: return QStringLiteral("unchanged");
    case FileApply::Refused: return QStringLiteral("refused");
    case FileApply::Failed: return QStringLiteral("failed");
    case FileApply::Interrupted: return QStringLiteral("interrupted");
    }
    return {};
}

bool ApplyReport::ok() const
{
    for (const FileApply& f : files)
        if (f.outcome != FileApply::Written && f.outcome != FileApply::Unchanged)
            return false;
    return true;
}

bool ApplyReport::changedSinceReview() const
{
    for (const FileApply& f : files)
        if (f.outcome == FileApply::Refused && !f.unparsable)
            return true;
    return false;
}

bool ApplyReport::interrupted() const
{
    for (const FileApply& f : files)
        if (f.outcome == FileApply::Interrupted)
            return true;
    return false;
}

namespace {

struct Current
{
    bool exists = false;
    quint32 mode = 0;
    quint32 uid = 0;
    quint32 gid = 0;
    QByteArray data;
    QString sha;
};

Result<Current> readCurrent(Transport& t, const QString& path)
{
    const auto st = t.stat(path);
    if (!st)
        return st.withoutValue();
    Current c;
    c.exists = st->exists;
    c.mode = st->mode;
    c.uid = st->uid;
    c.gid = st->gid;
    if (!c.exists)
        return c;
    auto data = t.readFile(path, kMaxPatchedFileBytes);
    if (!data)
        return data.withoutValue();
    c.data = data.value();
    c.sha = sha256Hex(c.data);
    return c;
}

// How many names the file has (1 when it cannot be told: the SFTP protocol does not carry
// link counts, so this asks `stat`).
int hardLinkCount(Transport& t, const QString& path)
{
    CommandSpec spec;
    spec.command = QStringLiteral("stat -c %h -- ") + shellPath(path);
    const ExecResult r = t.exec(spec, 30000);
    bool ok = false;
    const int n = QString::fromUtf8(r.stdOut).trimmed().toInt(&ok);
    return r.ok() && ok && n > 0 ? n : 1;
}

QString parentOf(const QString& path)
{
    const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
    return slash > 0 ? path.left(slash) : QString();
}

Result<void> removeFile(Transport& t, const QString& path)
{
    CommandSpec spec;
    spec.command = QStringLiteral("rm -f -- ") + shellPath(path);
    const ExecResult r = t.exec(spec, 60000);
    if (!r.ok())
        return Result<void>::failure(
            QStringLiteral("cannot remove %1: %2")
                .arg(path, r.error.isEmpty() ? QString::fromUtf8(r.stdErr).trimmed() : r.error));
    return {};
}

// Reads `path` back and compares it with what was written.
Result<void> verifyWritten(Transport& t, const QString& path, const QByteArray& data)
{
    auto back = t.readFile(path);
    if (!back)
        return Result<void>::failure(QStringLiteral("wrote %1 but cannot read it back: %2").arg(path, back.error()));
    if (sha256Hex(back.value()) != sha256Hex(data))
        return Result<void>::failure(
            QStringLiteral("verification failed: %1 does not hold what was written").arg(path));
    return {};
}

// Writes `data` to `path` and reads it back.
Result<void> writeVerified(Transport& t, const QString& path, const QByteArray& data, const WriteOptions& options)
{
    if (const Result<void> s = t.writeFileAtomic(path, data, options); !s)
        return s;
    return verifyWritten(t, path, data);
}

// Tests only (applier.h): waits after a rename until `stop` is set, at most 120 s.
void holdAfterRename(const QString& file, const std::atomic<bool>* stop)
{
    const QString marker = qEnvironmentVariable("KF_TEST_HOLD_AFTER_RENAME");
    if (marker.isEmpty())
        return;
    QFile f(marker);
    if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        f.write(file.toUtf8() + '\n');
    f.close();
    QDeadlineTimer deadline(120000);
    while (!(stop && stop->load()) && !deadline.hasExpired())
        QThread::msleep(20);
}

// What one apply shares between its files.
struct ApplyRun
{
    Transport& transport;
    const SetPlan& plan;
    const ApplyOptions& options;
    HistoryStore history;
    QString stamp;
    QString stampFolder; // canonical, made on first use

    // The apply's backup folder, resolved ("~" and links), made 0700.
    Result<QString> folder()
    {
        if (!stampFolder.isEmpty())
            return stampFolder;
        const QString dir = options.backupRoot + QLatin1Char('/') + stamp;
        if (const Result<void> s = transport.mkpath(dir, 0700); !s)
            return Result<QString>::failure(QStringLiteral("cannot create the backup folder: %1").arg(s.error()));
        const auto real = transport.canonicalPath(dir);
        if (!real)
            return Result<QString>::failure(QStringLiteral("cannot resolve the backup folder: %1").arg(real.error()));
        stampFolder = real.value();
        return stampFolder;
    }

    // The file's state after a write that did not finish as planned, from its content.
    QString settle(const AppliedFile& entry)
    {
        const auto state = settleApply(transport, entry);
        if (!state)
            return QStringLiteral(" (the journal entry #%1 stays pending: %2)").arg(entry.id).arg(state.error());
        switch (state.value()) {
        case AppliedFile::State::NotWritten: return QStringLiteral(" (the file is unchanged)");
        case AppliedFile::State::Done:
            return QStringLiteral(" (the file holds the new text: journal entry #%1 stands)").arg(entry.id);
        case AppliedFile::State::Pending:
            return QStringLiteral(" (the file holds neither text: journal entry #%1 stays pending)").arg(entry.id);
        }
        return {};
    }

    FileApply apply(const FilePlan& f);
};

QString syntaxNote(const FileApply& out, SourceLanguage language)
{
    const QString name = languageName(language);
    switch (out.syntax.kind) {
    case SyntaxVerdict::Parses: return QStringLiteral("; parses as %1").arg(name);
    case SyntaxVerdict::Broken:
        return QStringLiteral("; written although it no longer parses as %1 (%2), as you chose")
            .arg(name, out.syntax.detail);
    case SyntaxVerdict::BrokenBefore:
        return QStringLiteral("; does not parse as %1, as before the apply (%2)").arg(name, out.syntax.detail);
    case SyntaxVerdict::NotChecked:
        return language == SourceLanguage::Other
            ? QString()
            : QStringLiteral("; not checked as %1: %2").arg(name, out.syntax.detail);
    }
    return {};
}

FileApply ApplyRun::apply(const FilePlan& f)
{
    FileApply out;
    out.file = f.file;
    out.path = f.path;
    const auto choice = options.choices.constFind(f.file);
    const bool overridden = choice != options.choices.constEnd();
    if (overridden) {
        out.patchIds = choice->patchIds;
    } else {
        for (int i : f.patches)
            if (plan.patches[i].isReviewable())
                out.patchIds.append(plan.patches[i].id);
    }
    const QByteArray target = overridden ? choice->content : f.proposed;
    const bool remove = overridden ? choice->remove : f.remove;
    if (!remove && f.exists && target == f.original) {
        out.outcome = FileApply::Unchanged;
        out.sha256Before = out.sha256After = f.sha256Before;
        out.message
            = out.patchIds.isEmpty() ? QStringLiteral("nothing to change") : QStringLiteral("no change selected");
        return out;
    }
    if (!remove && !f.exists && out.patchIds.isEmpty()) {
        out.outcome = FileApply::Unchanged;
        out.message = QStringLiteral("nothing to change");
        return out;
    }
    // 0. The path still leads where it did at review time, inside the root.
    if (const auto where = resolveInRoot(transport, plan.root, f.file); !where || where->path != f.path) {
        out.outcome = FileApply::Refused;
        out.message = !where
            ? where.error()
            : QStringLiteral("%1 now resolves to %2, not %3 as reviewed; re-plan").arg(f.file, where->path, f.path);
        return out;
    }
    if (remove && f.viaSymlink) {
        out.outcome = FileApply::Refused;
        out.message = QStringLiteral("%1 is a symlink to %2: deleting through a link is refused (delete the "
                                     "link or its target by hand)")
                          .arg(f.file, f.path);
        return out;
    }
    // 1. Re-read and compare with what was reviewed.
    const auto cur = readCurrent(transport, f.path);
    if (!cur) {
        out.message = cur.error();
        return out;
    }
    if (cur->exists != f.exists || cur->sha != f.sha256Before) {
        out.outcome = FileApply::Refused;
        out.message = !cur->exists ? QStringLiteral("%1 was removed since the review; re-plan").arg(f.file)
            : !f.exists
            ? QStringLiteral("%1 appeared since the review; re-plan").arg(f.file)
            : QStringLiteral("%1 changed since the review (SHA-256 %2 then, %3 now); re-plan and review again")
                  .arg(f.file, f.sha256Before.left(12), cur->sha.left(12));
        return out;
    }
    out.sha256Before = f.sha256Before;
    // 2. Backup in folders only the user can enter, with the original's mode, owner and
    // group (never more readable than the original), verified.
    int links = 1;
    if (f.exists) {
        links = hardLinkCount(transport, f.path);
        const auto dir = folder();
        if (!dir) {
            out.message = dir.error();
            return out;
        }
        out.backupPath = dir.value() + QLatin1Char('/') + f.file;
        if (const Result<void> s = transport.mkpath(parentOf(out.backupPath), 0700); !s) {
            out.message = QStringLiteral("cannot create the backup folder: %1").arg(s.error());
            return out;
        }
        WriteOptions wo;
        wo.mode = int(cur->mode & 07777);
        wo.uid = cur->uid;
        wo.gid = cur->gid;
        if (const Result<void> s = writeVerified(transport, out.backupPath, cur->data, wo); !s) {
            out.message = QStringLiteral("backup failed, nothing changed: %1").arg(s.error());
            return out;
        }
    }
    // 3. The result as the server reads it.
    const SourceLanguage language = languageOf(f.file);
    if (!remove && language != SourceLanguage::Other) {
        const auto dir = folder();
        out.syntax = dir
            ? checkSyntax(transport, SyntaxCheck { f.file, target, f.exists, cur->data, out.backupPath, dir.value() })
            : SyntaxVerdict { SyntaxVerdict::NotChecked, dir.error() };
        if (out.syntax.kind == SyntaxVerdict::Broken && !options.allowBrokenSyntax) {
            out.outcome = FileApply::Refused;
            out.unparsable = true;
            out.message = QStringLiteral("refused, nothing written: the result no longer parses as %1 (%2). Take the "
                                         "hunks of one edit together, or write it anyway (the Apply dialog's "
                                         "\"Write files that no longer parse\", --allow-broken-syntax)")
                              .arg(languageName(language), out.syntax.detail);
            return out;
        }
    }
    // 4. Journal first: from here on the apply is never lost.
    const QString sha256After = remove ? QString() : sha256Hex(target);
    AppliedFile entry;
    entry.host = plan.host;
    entry.root = plan.root;
    entry.file = f.file;
    entry.path = f.path;
    entry.setName = plan.set.name;
    entry.patchIds = out.patchIds;
    entry.backupPath = out.backupPath;
    entry.sha256Before = out.sha256Before;
    entry.sha256After = sha256After;
    entry.appliedAt = QDateTime::currentDateTimeUtc();
    entry.state = AppliedFile::State::Pending;
    const auto id = history.recordApply(entry);
    if (!id) {
        out.message = QStringLiteral("cannot journal the apply, nothing written: %1").arg(id.error());
        return out;
    }
    entry.id = id.value();
    out.journalId = entry.id;
    // 5+6. Swap in the new text atomically, verify, and end the journal entry.
    if (const Result<void> s = remove ? removeFile(transport, f.path) : transport.writeFileAtomic(f.path, target, {});
        !s) {
        out.message = s.error() + settle(entry);
        return out;
    }
    holdAfterRename(f.file, options.stop);
    if (!remove) {
        if (const Result<void> s = verifyWritten(transport, f.path, target); !s) {
            out.message = s.error() + settle(entry);
            return out;
        }
    }
    out.sha256After = sha256After;
    out.outcome = FileApply::Written;
    out.message = remove
        ? QStringLiteral("deleted (backup %1)").arg(out.backupPath)
        : QStringLiteral("written and verified%1")
              .arg(out.backupPath.isEmpty() ? QString() : QStringLiteral(" (backup %1)").arg(out.backupPath));
    if (const Result<void> done = history.setState(entry.id, AppliedFile::State::Done); !done)
        out.message += QStringLiteral("; the journal entry #%1 stays pending (%2): it is settled by the file's content "
                                      "next time")
                           .arg(entry.id)
                           .arg(done.error());
    out.message += syntaxNote(out, language);
    if (f.viaSymlink)
        out.message += QStringLiteral("; written through the symlink %1 to %2 (the link stays)").arg(f.file, f.path);
    if (links > 1)
        out.message += QStringLiteral("; %1 had %2 hard links: this name now has the new text, the other "
                                      "%3 keep the old one")
                           .arg(f.file)
                           .arg(links)
                           .arg(links - 1);
    log::patch()->info("applied {} to {} on {}: {}", plan.set.name.toStdString(), f.path.toStdString(),
        plan.host.toStdString(), out.message.toStdString());
    return out;
}

} // namespace

ApplyReport applyPlan(Transport& transport, const SetPlan& plan, const ApplyOptions& options)
{
    ApplyReport report;
    ApplyRun run { transport, plan, options, HistoryStore(),
        QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"))
            + QStringLiteral("-%1").arg(QRandomGenerator::global()->generate() & 0xffff, 4, 16, QLatin1Char('0')),
        QString() };
    for (const FilePlan& f : plan.files) {
        if (!options.onlyFiles.isEmpty() && !options.onlyFiles.contains(f.file))
            continue;
        if (options.stop && options.stop->load()) {
            FileApply skipped;
            skipped.file = f.file;
            skipped.path = f.path;
            skipped.outcome = FileApply::Interrupted;
            skipped.message = QStringLiteral("not started: interrupted");
            report.files.append(skipped);
            continue;
        }
        report.files.append(run.apply(f));
    }
    timeline::recordPatchApplied(plan, options, report);
    return report;
}

Result<RollbackOutcome> rollbackApply(Transport& transport, qint64 journalId)
{
    HistoryStore history;
    const auto entry = history.entry(journalId);
    if (!entry)
        return entry.withoutValue();
    AppliedFile e = entry.value();
    if (e.host != transport.describe())
        return Result<RollbackOutcome>::failure(QStringLiteral("apply %1 of %2 was made on %3, not on %4")
                                                    .arg(journalId)
                                                    .arg(e.file, e.host, transport.describe()));
    if (e.rolledBack())
        return Result<RollbackOutcome>::failure(QStringLiteral("apply %1 of %2 was already rolled back at %3")
                                                    .arg(journalId)
                                                    .arg(e.file, e.rolledBackAt.toString(Qt::ISODate)));
    if (e.state == AppliedFile::State::Pending) {
        const auto settled = settleApply(transport, e);
        if (!settled)
            return settled.withoutValue();
        e.state = settled.value();
    }
    if (e.state == AppliedFile::State::NotWritten)
        return Result<RollbackOutcome>::failure(QStringLiteral(
            "apply %1 never reached %2 (it was cut off before the file was replaced): nothing to roll back")
                                                    .arg(journalId)
                                                    .arg(e.file));
    // The journal names the file by its real path: it must still be where the file resolves
    // inside the root (a symlink planted since then would redirect the restore).
    const auto where = resolveInRoot(transport, e.root, e.file);
    if (!where)
        return Result<RollbackOutcome>::failure(
            QStringLiteral("not rolling back apply %1: %2").arg(journalId).arg(where.error()));
    auto samePlace = [&] {
        if (where->path == e.path)
            return true;
        // Journals written before paths were resolved hold root + "/" + file with the root
        // as given: only that root is resolved (a folder inside it resolved now would follow
        // a link planted since the apply).
        const QString suffix = QLatin1Char('/') + e.file;
        if (!e.path.endsWith(suffix))
            return false;
        const QString root = e.path.chopped(suffix.size());
        const auto realRoot = root.isEmpty() ? Result<QString>(QString()) : transport.canonicalPath(root);
        return realRoot && realRoot.value() + suffix == where->path;
    };
    if (!samePlace())
        return Result<RollbackOutcome>::failure(
            QStringLiteral("not rolling back apply %1: %2 now resolves to %3, but the apply wrote %4")
                .arg(journalId)
                .arg(e.file, where->path, e.path));
    const auto cur = readCurrent(transport, where->path);
    if (!cur)
        return cur.withoutValue();
    RollbackOutcome out;
    out.journalId = journalId;
    out.file = e.file;
    // A rollback cut off after it restored the file and before its journal entry.
    if (e.state == AppliedFile::State::Done && (e.sha256Before.isEmpty() ? !cur->exists : cur->sha == e.sha256Before)
        && e.sha256Before != e.sha256After) {
        if (const Result<void> s = history.markRolledBack(journalId, QDateTime::currentDateTimeUtc()); !s)
            return s;
        out.message = QStringLiteral("%1 already holds what it held before apply %2 (an earlier rollback ended "
                                     "before its journal entry): marked rolled back")
                          .arg(e.file)
                          .arg(journalId);
        return out;
    }
    const bool expectAbsent = e.sha256After.isEmpty();
    if (expectAbsent ? cur->exists : (!cur->exists || cur->sha != e.sha256After))
        return Result<RollbackOutcome>::failure(QStringLiteral(
            "%1 changed after the apply (expected SHA-256 %2, found %3); not rolling back over someone else's edits")
                                                    .arg(e.file,
                                                        expectAbsent ? QStringLiteral("(absent)")
                                                                     : e.sha256After.left(12),
                                                        cur->exists ? cur->sha.left(12) : QStringLiteral("(absent)")));
    if (e.sha256Before.isEmpty()) {
        if (const Result<void> s = removeFile(transport, where->path); !s)
            return s;
        out.message = QStringLiteral("removed %1 (the apply had created it)").arg(e.file);
    } else {
        auto backup = transport.readFile(e.backupPath, kMaxPatchedFileBytes);
        if (!backup)
            return Result<RollbackOutcome>::failure(
                QStringLiteral("cannot read the backup %1: %2").arg(e.backupPath, backup.error()));
        if (sha256Hex(backup.value()) != e.sha256Before)
            return Result<RollbackOutcome>::failure(
                QStringLiteral("the backup %1 does not match the journaled SHA-256; not restoring").arg(e.backupPath));
        // The backup carries the original's mode, owner and group: restore all three.
        const auto bst = transport.stat(e.backupPath);
        WriteOptions wo;
        if (bst && bst->exists) {
            wo.mode = int(bst->mode & 07777);
            wo.uid = bst->uid;
            wo.gid = bst->gid;
        }
        if (const Result<void> s = writeVerified(transport, where->path, backup.value(), wo); !s)
            return s;
        out.message = QStringLiteral("restored %1 from %2").arg(e.file, e.backupPath);
    }
    if (const Result<void> s = history.markRolledBack(journalId, QDateTime::currentDateTimeUtc()); !s)
        out.message += QStringLiteral(" (but the journal could not be updated: %1)").arg(s.error());
    log::patch()->info("rolled back apply {} on {}: {}", journalId, e.host.toStdString(), out.message.toStdString());
    return out;
}

int RollbackPlan::laterCount() const
{
    return int(std::count_if(steps.cbegin(), steps.cend(), [](const RollbackStep& s) { return !s.requested; }));
}

namespace {

QString entryText(const AppliedFile& e)
{
    return QStringLiteral("#%1 %2/%3 (%4%5), applied %6")
        .arg(e.id)
        .arg(e.root, e.file, e.setName,
            e.patchIds.isEmpty() ? QString() : QStringLiteral(": ") + e.patchIds.join(QStringLiteral(", ")),
            e.appliedAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
}

// Entries that stand for the same file (same host; same path, or same root and file).
bool sameFile(const AppliedFile& a, const AppliedFile& b)
{
    return a.host == b.host && (a.path == b.path || (a.root == b.root && a.file == b.file));
}

} // namespace

QString RollbackPlan::describe() const
{
    QString s;
    if (!steps.isEmpty()) {
        s += QStringLiteral("Roll back on %1, in this order:\n").arg(host);
        for (const RollbackStep& step : steps)
            s += QStringLiteral("  \u2022 %1%2\n")
                     .arg(entryText(step.entry),
                         step.requested ? QString()
                                        : QStringLiteral(" \u2014 a later change to the same file, undone first"));
        if (laterCount() > 0)
            s += QStringLiteral("\nA change can only be undone while its file holds what it wrote, so the later "
                                "changes to the same file (%1) are undone first, newest first.\n")
                     .arg(laterCount());
        s += QStringLiteral("\nEach file is checked against what the apply wrote, restored from its backup "
                            "atomically and verified.\n");
    }
    if (!refused.isEmpty()) {
        s += steps.isEmpty() ? QStringLiteral("Nothing can be rolled back:\n") : QStringLiteral("\nNot rolled back:\n");
        for (const QString& r : refused)
            s += QStringLiteral("  \u2022 %1\n").arg(r);
    }
    return s.trimmed();
}

Result<RollbackPlan> planRollback(const QString& host, const QList<qint64>& idsIn)
{
    HistoryStore history;
    RollbackPlan plan;
    plan.host = host;
    QList<qint64> ids = idsIn;
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    QList<AppliedFile> requested; // oldest first
    for (qint64 id : std::as_const(ids)) {
        const auto e = history.entry(id);
        if (!e)
            return e.withoutValue();
        if (e->host != host)
            plan.refused.append(
                QStringLiteral("%1: it was applied on %2, not on %3").arg(entryText(*e), e->host, host));
        else if (e->rolledBack())
            plan.refused.append(
                QStringLiteral("%1: already rolled back at %2")
                    .arg(entryText(*e), e->rolledBackAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))));
        else if (e->state == AppliedFile::State::NotWritten)
            plan.refused.append(QStringLiteral("%1: it never reached the file (cut off before the file was replaced)")
                                    .arg(entryText(*e)));
        else
            requested.append(e.value());
    }
    QSet<qint64> covered, wanted;
    for (const AppliedFile& e : std::as_const(requested))
        wanted.insert(e.id);
    QMap<qint64, RollbackStep> steps;
    for (const AppliedFile& first : std::as_const(requested)) {
        if (covered.contains(first.id))
            continue;
        // Every standing apply of this file from `first` on, oldest first.
        const auto later = history.standingAfter(first);
        if (!later)
            return later.withoutValue();
        QList<AppliedFile> chain { first };
        for (qsizetype i = later->size() - 1; i >= 0; --i)
            chain.append(later->at(i));
        // The newest place where the file changed between two applies outside KernelForge:
        // nothing at or before it can be undone by undoing what follows.
        qsizetype brokenAfter = -1;
        for (qsizetype i = chain.size() - 2; i >= 0 && brokenAfter < 0; --i)
            if (chain[i + 1].sha256Before != chain[i].sha256After)
                brokenAfter = i;
        qsizetype from = chain.size();
        for (qsizetype i = 0; i < chain.size(); ++i) {
            if (!wanted.contains(chain[i].id) || !sameFile(chain[i], first))
                continue;
            covered.insert(chain[i].id);
            if (i <= brokenAfter) {
                const AppliedFile& a = chain[brokenAfter];
                const AppliedFile& b = chain[brokenAfter + 1];
                plan.refused.append(
                    QStringLiteral("%1: %2 was changed outside KernelForge between apply #%3 and apply #%4 (#%3 left "
                                   "SHA-256 %5, #%4 found %6), so undoing the later applies would not bring back "
                                   "what it wrote; roll back #%4 and later ones, then restore the file by hand")
                        .arg(entryText(chain[i]), chain[i].file)
                        .arg(a.id)
                        .arg(b.id)
                        .arg(a.sha256After.isEmpty() ? QStringLiteral("(absent)") : a.sha256After.left(12),
                            b.sha256Before.isEmpty() ? QStringLiteral("(absent)") : b.sha256Before.left(12)));
                continue;
            }
            from = std::min(from, i);
        }
        for (qsizetype i = from; i < chain.size(); ++i)
            steps.insert(chain[i].id, RollbackStep { chain[i], wanted.contains(chain[i].id) });
    }
    for (const RollbackStep& step : std::as_const(steps))
        plan.steps.prepend(step); // newest first
    return plan;
}

QList<RollbackResult> runRollback(Transport& transport, const RollbackPlan& plan, const std::atomic<bool>* stop)
{
    QList<RollbackResult> out;
    QList<AppliedFile> failed; // files whose rollback stopped
    for (const RollbackStep& step : plan.steps) {
        RollbackResult r { step, false, QString() };
        const auto blocker = std::find_if(
            failed.cbegin(), failed.cend(), [&](const AppliedFile& f) { return sameFile(f, step.entry); });
        if (stop && stop->load()) {
            r.message = QStringLiteral("not started: interrupted");
        } else if (blocker != failed.cend()) {
            r.message = QStringLiteral("not attempted: undoing the later apply #%1 of %2 failed")
                            .arg(blocker->id)
                            .arg(step.entry.file);
        } else if (const auto done = rollbackApply(transport, step.entry.id); done) {
            r.ok = true;
            r.message = done->message;
        } else {
            r.message = done.error();
            failed.append(step.entry);
        }
        out.append(r);
    }
    timeline::recordPatchRolledBack(plan, out);
    return out;
}

} // namespace kf::patch
