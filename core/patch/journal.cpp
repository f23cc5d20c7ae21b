// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/journal.h"

#include "core/log/logging.h"
#include "core/patch/rootpath.h"
#include "core/transport/transport.h"

namespace kf::patch {

Result<std::optional<QString>> fileSha256(Transport& transport, const QString& path)
{
    const auto st = transport.stat(path);
    if (!st)
        return st.withoutValue();
    if (!st->exists)
        return std::optional<QString>();
    const auto data = transport.readFile(path, kMaxPatchedFileBytes);
    if (!data)
        return data.withoutValue();
    return std::optional<QString>(sha256Hex(data.value()));
}

Result<AppliedFile::State> settleApply(Transport& transport, const AppliedFile& e)
{
    if (e.state != AppliedFile::State::Pending)
        return e.state;
    const auto sha = fileSha256(transport, e.path);
    if (!sha)
        return Result<AppliedFile::State>::failure(
            QStringLiteral("cannot settle apply %1 of %2: %3").arg(e.id).arg(e.file, sha.error()));
    const QString now = sha->value_or(QString());
    AppliedFile::State state = AppliedFile::State::Pending;
    if (now == e.sha256After)
        state = AppliedFile::State::Done;
    else if (now == e.sha256Before)
        state = AppliedFile::State::NotWritten;
    if (state == AppliedFile::State::Pending) {
        log::patch()->warn("apply {} of {} on {} stays pending: the file holds neither what it found nor what it "
                           "wrote (SHA-256 {})",
            e.id, e.file.toStdString(), e.host.toStdString(), now.left(12).toStdString());
        return state;
    }
    if (const Result<void> s = HistoryStore().setState(e.id, state); !s)
        return s;
    log::patch()->info("apply {} of {} on {} settled: {}", e.id, e.file.toStdString(), e.host.toStdString(),
        journalStateKey(state).toStdString());
    return state;
}

Result<int> settlePendingApplies(Transport& transport, const QString& root)
{
    const auto rows = HistoryStore().pending(transport.describe(), root);
    if (!rows)
        return rows.withoutValue();
    int still = 0;
    for (const AppliedFile& e : rows.value()) {
        const auto state = settleApply(transport, e);
        if (!state)
            return state.withoutValue();
        still += state.value() == AppliedFile::State::Pending;
    }
    return still;
}

Result<int> normalizeJournalRoots(Transport& transport)
{
    HistoryStore history;
    const QString host = transport.describe();
    const auto roots = history.roots(host);
    if (!roots)
        return roots.withoutValue();
    const auto canonical = canonicalRoots(transport, roots.value());
    if (!canonical)
        return canonical.withoutValue();
    int changed = 0;
    for (qsizetype i = 0; i < roots->size(); ++i) {
        const std::optional<QString>& c = canonical->at(i);
        if (!c || *c == roots->at(i))
            continue;
        const auto n = history.renameRoot(host, roots->at(i), *c);
        if (!n)
            return n.withoutValue();
        changed += n.value();
    }
    if (changed > 0)
        log::patch()->info("journal on {}: {} rows now name their root canonically", host.toStdString(), changed);
    return changed;
}

void tidyJournal(Transport& transport)
{
    const std::string host = transport.describe().toStdString();
    if (const auto renamed = normalizeJournalRoots(transport); !renamed)
        log::patch()->warn("journal roots on {} not normalized: {}", host, renamed.error().toStdString());
    if (const auto pending = settlePendingApplies(transport); !pending)
        log::patch()->warn("pending applies on {} not settled: {}", host, pending.error().toStdString());
}

QMap<QString, FileBase> journalBases(
    Transport& transport, const QString& root, const QString& setName, const QMap<QString, QString>& current)
{
    QMap<QString, FileBase> bases;
    const auto rows = HistoryStore().standing(transport.describe(), root);
    if (!rows) {
        log::patch()->warn("no bases from the journal: {}", rows.error().toStdString());
        return bases;
    }
    for (auto it = current.cbegin(); it != current.cend(); ++it) {
        QList<AppliedFile> mine; // this file's standing applies, newest first
        for (const AppliedFile& e : rows.value())
            if (e.file == it.key())
                mine.append(e);
        if (mine.isEmpty() || mine.first().setName != setName || mine.first().sha256After != it.value()
            || mine.first().sha256After.isEmpty())
            continue;
        qsizetype oldest = 0;
        while (oldest + 1 < mine.size() && mine[oldest + 1].setName == setName
            && mine[oldest + 1].sha256After == mine[oldest].sha256Before)
            ++oldest;
        const AppliedFile& first = mine[oldest];
        if (first.sha256Before.isEmpty()) {
            bases.insert(it.key(), FileBase { false, {}, first.id });
            continue;
        }
        const auto backup = transport.readFile(first.backupPath, kMaxPatchedFileBytes);
        if (!backup || sha256Hex(backup.value()) != first.sha256Before) {
            log::patch()->warn("{}: planned from the file itself: the backup {} of apply {} {}", it.key().toStdString(),
                first.backupPath.toStdString(), first.id,
                backup ? "does not match its journaled SHA-256" : backup.error().toStdString());
            continue;
        }
        bases.insert(it.key(), FileBase { true, backup.value(), first.id });
    }
    return bases;
}

} // namespace kf::patch
