// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// kernelforge-cli patch plan|apply|rollback|status: review and apply patch sets on a tree,
// locally or (with the ssh transport) on a server.
#include "app/cli/cli.h"
#include "app/cli/flagtable.h"
#include "app/cli/interrupttrap.h"
#include "app/cli/sshoptions.h"

#include "core/hosts/destination.h"
#include "core/patch/applier.h"
#include "core/patch/journal.h"
#include "core/patch/patchevents.h"
#include "core/patch/patchplan.h"
#include "core/patch/patchset.h"
#include "core/patch/review.h"
#include "core/store/historystore.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <memory>
#include <optional>

namespace {

using namespace kf;
using namespace kf::patch;

constexpr int kExitAllApplied = 0;
constexpr int kExitSomeNotApplied = 1;
constexpr int kExitError = 2;

void usage(QTextStream& s)
{
    s << "Usage: kernelforge-cli patch plan|apply|rollback|status --set SET --root PATH [options]\n\n"
      << "  plan      show each patch's status (will apply, partly applied, already applied, not\n"
      << "            applicable, conflict), its hunks and the unified diff of what would change\n"
      << "  apply     apply what applies (re-read + hash check, backup, syntax check, journal,\n"
      << "            atomic write, verify) and report the rest\n"
      << "  rollback  restore every file this set changed under the root from its backup\n"
      << "            (--id N: one journal entry); later applies to the same files are\n"
      << "            undone first, newest first\n"
      << "  status    statuses without the diff, plus the apply history for this root\n\n"
      << "Options:\n"
      << "  --set SET      builtin:NAME, FILE.yaml, or a unified diff FILE.patch/.diff\n"
      << "  --root PATH    an sglang checkout (sgl-kernel/ or python/sglang/kernels/aot/ inside), an\n"
      << "                 sgl-kernel or aot folder; local or user@host:PATH over SSH\n"
      << "  -p PORT -i KEY -J JUMP --known-hosts FILE --accept-new   SSH options (with user@host:PATH)\n"
      << "  --strip N      path components to strip from a diff (patch -pN; default: guessed)\n"
      << "  --json         one JSON object per patch (id, file, status, reason, sha256_before,\n"
      << "                 sha256_after; plan: its hunks with index, id, old and new lines)\n"
      << "  --reject PATCH:HUNK   apply: leave out that hunk of that patch (HUNK: its index or id\n"
      << "                 as plan lists them; PATCH alone: the whole patch); repeatable\n"
      << "  --allow-broken-syntax apply: write a Python or CMake file even when the result no\n"
      << "                 longer parses (checked as the server reads it; refused otherwise)\n"
      << "  --id N         rollback: only this journal entry\n\n"
      << "Roots are named by their real path (symlinks, ~, . and .. resolved), so ./sgl and\n"
      << "/abs/path/sgl are one tree in the history. Ctrl-C (or SIGTERM) during apply or rollback\n"
      << "finishes the file in flight, starts no other, prints what was done and exits 130.\n\n"
      << "Exit status: 0 everything applied or already applied (rollback: rolled back), 1 some\n"
      << "patch did not apply (conflict, not applicable, refused; rollback: nothing to roll back\n"
      << "or refused), 2 errors, 130 interrupted.\n"
      << "Built-in sets: " << builtinPatchSets().join(QStringLiteral(", ")) << '\n';
    s.flush();
}

struct Options
{
    QString action;
    QString set;
    QString root;
    int strip = -1;
    bool json = false;
    qint64 id = 0;
    QStringList rejects; // --reject PATCH[:HUNK]
    bool allowBrokenSyntax = false;
};

// One --reject: the patch id, and the hunk (its 1-based index or its id; empty: the whole
// patch). The hunk is what follows the last ':' when that is a number or a hunk id.
struct Rejection
{
    QString patch;
    QString hunk;
};

Rejection parseRejection(const QString& value)
{
    static const QRegularExpression hunkRe(QStringLiteral("^([1-9][0-9]{0,5}|[0-9a-f]{16})$"));
    const qsizetype colon = value.lastIndexOf(QLatin1Char(':'));
    if (colon > 0 && hunkRe.match(value.mid(colon + 1)).hasMatch())
        return { value.left(colon), value.mid(colon + 1) };
    return { value, {} };
}

void printJson(const QJsonObject& o)
{
    cli::out() << QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)) << '\n';
}

QString indentLines(const QStringList& lines, int firstLine)
{
    QString s;
    for (qsizetype i = 0; i < lines.size(); ++i)
        s += QStringLiteral("        %1 | %2\n").arg(firstLine + int(i), 5).arg(lines[i]);
    return s;
}

// "hunk 2 [3f2a...] line 40, in the file: +if(POLICY CMP0177)", the hunks `patch apply
// --reject` names.
QString hunkLine(const PatchHunk& h, int index)
{
    return QStringLiteral("hunk %1 [%2] line %3, %4%5: %6")
        .arg(index + 1)
        .arg(hunkId(h.oldLines, h.newLines))
        .arg(h.change.oldStart + 1)
        .arg(h.inPlace ? QStringLiteral("in the file") : QStringLiteral("to add"),
            h.groupLabel.isEmpty() ? QString() : QStringLiteral(", edit: ") + h.groupLabel, h.sample(60));
}

void printPlanText(const SetPlan& plan, bool withDiff)
{
    QTextStream& o = cli::out();
    o << "Patch set: " << plan.set.name;
    if (!plan.set.title.isEmpty())
        o << " (" << plan.set.title << ")";
    o << "\nRoot: " << plan.host << ":" << plan.root << "\n";
    if (!plan.rootNote.isEmpty())
        o << plan.rootNote << '\n';
    o << '\n';
    for (const PatchPlan& p : plan.patches) {
        o << "  [" << statusText(p.status);
        if (p.status == PatchStatus::PartlyApplied)
            o << " (" << p.partsText() << ")";
        o << "] " << p.id << "  " << p.file << "\n      " << p.reason << '\n';
        for (const QString& n : p.notes)
            o << "      - " << n << '\n';
        for (qsizetype h = 0; h < p.patchHunks.size(); ++h)
            o << "      " << hunkLine(p.patchHunks[h], int(h)) << '\n';
        if (p.status == PatchStatus::Conflict && !p.nearestLines.isEmpty())
            o << "      nearest lines:\n" << indentLines(p.nearestLines, p.nearestLine);
    }
    o << "\nSummary: " << plan.countsText() << '\n';
    if (withDiff) {
        const QString diff = planDiff(plan);
        if (!diff.isEmpty())
            o << '\n' << diff;
    }
    o.flush();
}

QJsonObject patchJson(const SetPlan& plan, const PatchPlan& p, const QString& status, const QString& reason)
{
    const FilePlan* f = plan.fileFor(p.file);
    QJsonObject o;
    o[QStringLiteral("id")] = p.id;
    o[QStringLiteral("file")] = p.file;
    o[QStringLiteral("status")] = status;
    o[QStringLiteral("reason")] = reason;
    if (p.status == PatchStatus::NotApplicable)
        o[QStringLiteral("not_applicable")] = notApplicableKey(p.notApplicable);
    if (!plan.rootNote.isEmpty())
        o[QStringLiteral("tree")] = plan.rootNote;
    o[QStringLiteral("sha256_before")] = f ? f->sha256Before : QString();
    o[QStringLiteral("sha256_after")] = f ? (f->changes() ? f->sha256After : f->sha256Before) : QString();
    if (p.status == PatchStatus::PartlyApplied)
        o[QStringLiteral("parts")] = p.partsText();
    QJsonArray hunks;
    for (qsizetype h = 0; h < p.patchHunks.size(); ++h) {
        const PatchHunk& ph = p.patchHunks[h];
        hunks.append(QJsonObject { { QStringLiteral("index"), int(h) + 1 },
            { QStringLiteral("id"), hunkId(ph.oldLines, ph.newLines) },
            { QStringLiteral("old_start"), ph.change.oldStart + 1 },
            { QStringLiteral("old"), QJsonArray::fromStringList(ph.oldLines) },
            { QStringLiteral("new"), QJsonArray::fromStringList(ph.newLines) },
            { QStringLiteral("in_place"), ph.inPlace }, { QStringLiteral("edit"), ph.group + 1 },
            { QStringLiteral("edit_label"), ph.groupLabel } });
    }
    if (!hunks.isEmpty())
        o[QStringLiteral("hunks")] = hunks;
    return o;
}

int exitFor(const SetPlan& plan)
{
    return (plan.count(PatchStatus::Conflict) + plan.count(PatchStatus::NotApplicable)) > 0 ? kExitSomeNotApplied
                                                                                            : kExitAllApplied;
}

int runPlan(const Options& opt, const SetPlan& plan, bool withDiff)
{
    if (opt.json) {
        for (const PatchPlan& p : plan.patches)
            printJson(patchJson(plan, p, statusKey(p.status), p.reason));
    } else {
        printPlanText(plan, withDiff);
    }
    return exitFor(plan);
}

// The review a terminal user makes with --reject (what the window's tree and diff make):
// fails with a usage error naming what is not in the plan.
Result<Review> reviewWithRejections(const SetPlan& plan, const QStringList& rejects)
{
    Review review(plan);
    for (const QString& value : rejects) {
        const Rejection r = parseRejection(value);
        int patch = -1;
        for (int i = 0; i < review.patchCount() && patch < 0; ++i)
            if (plan.patches[i].id == r.patch)
                patch = i;
        if (patch < 0)
            return Result<Review>::failure(
                QStringLiteral("--reject %1: no patch '%2' in %3").arg(value, r.patch, plan.set.name));
        if (!review.isReviewable(patch))
            return Result<Review>::failure(QStringLiteral("--reject %1: %2 is %3, nothing of it to apply")
                                               .arg(value, r.patch, statusText(plan.patches[patch].status)));
        if (r.hunk.isEmpty()) {
            review.setPatchAccepted(patch, false);
            continue;
        }
        int hunk = -1;
        for (int h = 0; h < review.hunkCount(patch) && hunk < 0; ++h)
            if (QString::number(h + 1) == r.hunk
                || hunkId(review.hunk(patch, h).oldLines, review.hunk(patch, h).newLines) == r.hunk)
                hunk = h;
        if (hunk < 0)
            return Result<Review>::failure(QStringLiteral("--reject %1: %2 has no hunk %3 (it has %4; see patch plan)")
                                               .arg(value, r.patch, r.hunk)
                                               .arg(review.hunkCount(patch)));
        if (review.isHunkInPlace(patch, hunk))
            return Result<Review>::failure(
                QStringLiteral("--reject %1: hunk %2 of %3 is already in the file (patch rollback undoes it)")
                    .arg(value, r.hunk, r.patch));
        review.setHunkAccepted(patch, hunk, false);
    }
    return review;
}

int runApply(const Options& opt, Transport& transport, const SetPlan& plan)
{
    const auto reviewed = reviewWithRejections(plan, opt.rejects);
    if (!reviewed)
        return cli::usageError(QStringLiteral("kernelforge-cli patch"), reviewed.error());
    const Review& review = reviewed.value();
    for (const QString& split : review.splitEdits())
        cli::err() << "kernelforge-cli patch: warning: " << split << '\n';
    ApplyOptions options = review.applyOptions();
    options.allowBrokenSyntax = opt.allowBrokenSyntax;
    const cli::InterruptTrap trap;
    options.stop = trap.stopFlag();
    const ApplyReport report = options.onlyFiles.isEmpty() ? ApplyReport() : applyPlan(transport, plan, options);
    bool failed = false, refused = false;
    QMap<QString, FileApply> byFile;
    for (const FileApply& f : report.files) {
        byFile.insert(f.file, f);
        failed = failed || f.outcome == FileApply::Failed;
        refused = refused || f.outcome == FileApply::Refused;
    }
    QTextStream& o = cli::out();
    if (!opt.json)
        o << "Patch set: " << plan.set.name << "\nRoot: " << plan.host << ":" << plan.root << "\n"
          << (plan.rootNote.isEmpty() ? QString() : plan.rootNote + QLatin1Char('\n')) << '\n';
    for (int i = 0; i < review.patchCount(); ++i) {
        const PatchPlan& p = plan.patches[i];
        QString status = statusKey(p.status), reason = p.reason;
        const auto f = byFile.constFind(p.file);
        const bool taken = review.isReviewable(i) && review.state(i) != ReviewState::Rejected
            && review.state(i) != ReviewState::PartlyApplied && review.state(i) != ReviewState::Conflict;
        if (review.isReviewable(i) && !taken) {
            status = review.state(i) == ReviewState::Rejected ? QStringLiteral("rejected") : statusKey(p.status);
            reason = review.stateReason(i);
        } else if (taken && f != byFile.cend()) {
            switch (f->outcome) {
            case FileApply::Written:
                status = review.state(i) == ReviewState::WillApply ? QStringLiteral("applied")
                                                                   : QStringLiteral("partly-applied");
                break;
            case FileApply::Unchanged: status = QStringLiteral("already-applied"); break;
            case FileApply::Refused: status = QStringLiteral("refused"); break;
            case FileApply::Failed: status = QStringLiteral("failed"); break;
            case FileApply::Interrupted: status = QStringLiteral("interrupted"); break;
            }
            reason = f->message;
            if (status == QLatin1String("partly-applied"))
                reason = review.stateReason(i) + QStringLiteral("; ") + reason;
        }
        if (opt.json) {
            QJsonObject j = patchJson(plan, p, status, reason);
            j.remove(QStringLiteral("hunks"));
            if (f != byFile.cend() && f->outcome == FileApply::Written) {
                j[QStringLiteral("sha256_after")] = f->sha256After;
                j[QStringLiteral("backup")] = f->backupPath;
                j[QStringLiteral("journal_id")] = f->journalId;
            } else if (p.isReviewable()) {
                j[QStringLiteral("sha256_after")]
                    = plan.fileFor(p.file) ? plan.fileFor(p.file)->sha256Before : QString();
            }
            printJson(j);
        } else {
            o << "  [" << QString(status).replace(QLatin1Char('-'), QLatin1Char(' ')) << "] " << p.id << "  " << p.file
              << "\n      " << reason << '\n';
            if (p.status == PatchStatus::Conflict && !p.nearestLines.isEmpty())
                o << "      nearest lines:\n" << indentLines(p.nearestLines, p.nearestLine);
        }
    }
    if (!opt.json) {
        if (report.changedSinceReview())
            o << "\nSome files changed since they were read; run 'patch plan' again and review.\n";
        o.flush();
    }
    if (trap.interrupted()) {
        int written = 0, notStarted = 0;
        for (const FileApply& f : report.files) {
            written += f.outcome == FileApply::Written;
            notStarted += f.outcome == FileApply::Interrupted;
        }
        cli::err() << "kernelforge-cli patch: interrupted by " << trap.signalName() << ": " << written
                   << " file(s) written and journaled, " << notStarted
                   << " not started; 'patch rollback' undoes what was written\n";
        cli::err().flush();
        return cli::kExitInterrupted;
    }
    if (failed)
        return kExitError;
    if (refused)
        return kExitSomeNotApplied;
    return exitFor(plan);
}

int runRollback(const Options& opt, Transport& transport, const SetPlan& plan)
{
    // Journals written before roots were canonical name them as typed; bring them in line
    // (and settle what an interrupted apply left pending).
    tidyJournal(transport);
    QList<qint64> ids;
    if (opt.id > 0) {
        ids.append(opt.id);
    } else {
        auto standing = HistoryStore().standing(transport.describe(), plan.root, plan.set.name);
        if (!standing) {
            cli::err() << "kernelforge-cli patch: " << standing.error() << '\n';
            return kExitError;
        }
        for (const AppliedFile& e : standing.value())
            ids.append(e.id);
    }
    if (ids.isEmpty()) {
        const QString reason = QStringLiteral("nothing to roll back: no standing apply of %1 on %2:%3")
                                   .arg(plan.set.name, transport.describe(), plan.root);
        if (opt.json)
            printJson(QJsonObject { { QStringLiteral("status"), QStringLiteral("nothing-to-roll-back") },
                { QStringLiteral("reason"), reason } });
        cli::err() << "kernelforge-cli patch: " << reason << '\n';
        return kExitSomeNotApplied;
    }
    const auto rollback = planRollback(transport.describe(), ids);
    if (!rollback) {
        cli::err() << "kernelforge-cli patch: " << rollback.error() << '\n';
        return kExitError;
    }
    QTextStream& o = cli::out();
    if (!opt.json && rollback->laterCount() > 0)
        o << "Later applies to the same files are undone first, newest first (a change can only be undone while "
             "its file holds what it wrote).\n";
    int rc = rollback->refused.isEmpty() ? kExitAllApplied : kExitSomeNotApplied;
    const cli::InterruptTrap trap;
    for (const RollbackResult& r : runRollback(transport, rollback.value(), trap.stopFlag())) {
        const AppliedFile& e = r.step.entry;
        if (opt.json) {
            printJson(QJsonObject { { QStringLiteral("journal_id"), e.id }, { QStringLiteral("file"), e.file },
                { QStringLiteral("root"), e.root }, { QStringLiteral("requested"), r.step.requested },
                { QStringLiteral("status"), r.ok ? QStringLiteral("rolled-back") : QStringLiteral("refused") },
                { QStringLiteral("reason"), r.message }, { QStringLiteral("sha256_before"), e.sha256After },
                { QStringLiteral("sha256_after"), r.ok ? e.sha256Before : e.sha256After } });
        } else {
            o << "  [" << (r.ok ? "rolled back" : "refused") << "] #" << e.id << " " << e.root << '/' << e.file
              << (r.step.requested ? "" : " (a later apply, undone first)") << "\n      " << r.message << '\n';
        }
        if (!r.ok)
            rc = kExitSomeNotApplied;
    }
    for (const QString& why : rollback->refused) {
        if (opt.json)
            printJson(QJsonObject {
                { QStringLiteral("status"), QStringLiteral("refused") }, { QStringLiteral("reason"), why } });
        else
            o << "  [refused] " << why << '\n';
    }
    o.flush();
    if (trap.interrupted()) {
        cli::err() << "kernelforge-cli patch: interrupted by " << trap.signalName()
                   << ": the rollback in flight was finished, the rest not started\n";
        return cli::kExitInterrupted;
    }
    return rc;
}

int runStatus(const Options& opt, Transport& transport, const SetPlan& plan)
{
    const int rc = runPlan(opt, plan, false);
    if (opt.json)
        return rc;
    tidyJournal(transport);
    auto rows = HistoryStore().applies(transport.describe(), plan.root);
    QTextStream& o = cli::out();
    o << "\nHistory on " << transport.describe() << ":" << plan.root << ":\n";
    if (!rows || rows->isEmpty())
        o << "  (no applies recorded)\n";
    else
        for (const AppliedFile& a : rows.value())
            o << "  #" << a.id << "  " << a.appliedAt.toLocalTime().toString(Qt::ISODate) << "  " << a.setName << "  "
              << a.file << "  "
              << (a.rolledBack()
                         ? QStringLiteral("rolled back %1").arg(a.rolledBackAt.toLocalTime().toString(Qt::ISODate))
                         : a.stands() ? QStringLiteral("standing")
                                      : journalStateKey(a.state))
              << "  backup " << (a.backupPath.isEmpty() ? QStringLiteral("-") : a.backupPath) << '\n';
    o.flush();
    return rc;
}

int runPatch(const QStringList& argsIn)
{
    QStringList args = argsIn;
    Options opt;
    if (args.isEmpty() || args.first() == QLatin1String("--help") || args.first() == QLatin1String("-h")) {
        usage(args.isEmpty() ? cli::err() : cli::out());
        return args.isEmpty() ? kExitError : 0;
    }
    opt.action = args.takeFirst();
    if (!QStringList {
            QStringLiteral("plan"), QStringLiteral("apply"), QStringLiteral("rollback"), QStringLiteral("status") }
             .contains(opt.action)) {
        cli::err() << "kernelforge-cli patch: unknown action '" << opt.action << "'\n";
        usage(cli::err());
        return kExitError;
    }
    // --root user@host:PATH goes over SSH: the shared parser takes the ssh options (-p -i -J
    // --known-hosts --accept-new --no-reconnect --timeout) and reads it as the destination.
    std::optional<cli::SshCliOptions> ssh;
    if (const qsizetype r = args.indexOf(QStringLiteral("--root")); r >= 0 && r + 1 < args.size()) {
        const QString value = args[r + 1];
        if (hasRemoteColon(value)) {
            args.remove(r, 2);
            auto so = cli::takeSshOptions(args, value);
            if (!so) {
                cli::err() << "kernelforge-cli patch: " << so.error() << '\n';
                return kExitError;
            }
            if (so->remotePath.isEmpty()) {
                cli::err() << "kernelforge-cli patch: --root needs a path: user@host:PATH\n";
                return kExitError;
            }
            ssh = so.value();
            opt.root = cli::cleanPath(so->remotePath);
        }
    }
    if (args.contains(QStringLiteral("--help"))) {
        usage(cli::out());
        return 0;
    }
    const QString me = QStringLiteral("kernelforge-cli patch");
    cli::FlagTable flags;
    flags.add("--set", &opt.set)
        .addPath("--root", &opt.root)
        .add("--strip", &opt.strip, 0, "a number of path components >= 0")
        .add("--id", &opt.id, 1, "a journal id (see patch status)")
        .add("--reject", &opt.rejects)
        .add("--allow-broken-syntax", &opt.allowBrokenSyntax)
        .add("--json", &opt.json);
    if (const auto taken = flags.takeAll(args); !taken)
        return cli::usageError(me, taken.error(), usage);
    if ((!opt.rejects.isEmpty() || opt.allowBrokenSyntax) && opt.action != QLatin1String("apply"))
        return cli::usageError(me, QStringLiteral("--reject and --allow-broken-syntax go with apply"), usage);
    if (opt.set.isEmpty() || opt.root.isEmpty()) {
        cli::err() << "kernelforge-cli patch: --set and --root are required\n";
        usage(cli::err());
        return kExitError;
    }
    const auto set = loadPatchSet(opt.set, opt.strip);
    if (!set) {
        cli::err() << "kernelforge-cli patch: " << set.error() << '\n';
        return kExitError;
    }
    for (const QString& value : std::as_const(opt.rejects)) {
        const QString id = parseRejection(value).patch;
        if (std::none_of(set->patches.cbegin(), set->patches.cend(), [&](const Patch& p) { return p.id == id; }))
            return cli::usageError(me, QStringLiteral("--reject %1: no patch '%2' in %3").arg(value, id, set->name));
    }
    const auto opened = cli::openTarget({ ssh.value_or(cli::SshCliOptions {}), !ssh });
    if (!opened)
        return cli::connectionError(QStringLiteral("kernelforge-cli patch"), opened.error());
    const std::shared_ptr<Transport> transport = opened->transport;
    QString root = opt.root;
    if (!ssh && !root.startsWith(QLatin1Char('/')) && !root.startsWith(QLatin1String("~/")))
        root = QDir::cleanPath(QDir::current().absoluteFilePath(root));
    const auto st = transport->stat(root);
    if (!st || !st->exists || !st->isDir) {
        cli::err() << "kernelforge-cli patch: " << (st ? QStringLiteral("%1 is not a folder").arg(root) : st.error())
                   << '\n';
        return kExitError;
    }
    const SetPlan plan = planSet(*transport, set.value(), root);
    if (!plan) {
        cli::err() << "kernelforge-cli patch: " << plan.error << '\n';
        return kExitError;
    }
    if (opt.action == QLatin1String("plan")) {
        timeline::recordPatchPlanned(plan);
        return runPlan(opt, plan, true);
    }
    if (opt.action == QLatin1String("apply"))
        return runApply(opt, *transport, plan);
    if (opt.action == QLatin1String("rollback"))
        return runRollback(opt, *transport, plan);
    return runStatus(opt, *transport, plan);
}

const cli::Registration reg { "patch", "Plan, apply and roll back patch sets (YAML edits or unified diffs)",
    &runPatch };

} // namespace
