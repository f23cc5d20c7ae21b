// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/applicability.h"

#include "core/patch/patchset.h"

namespace kf::patch {

QString notApplicableKey(NotApplicableKind k)
{
    switch (k) {
    case NotApplicableKind::None: return {};
    case NotApplicableKind::NoFile: return QStringLiteral("no-file");
    case NotApplicableKind::FixedUpstream: return QStringLiteral("fixed-upstream");
    case NotApplicableKind::OlderThanProblem: return QStringLiteral("older-than-problem");
    }
    return {};
}

std::optional<Inapplicability> unmetRequirement(const Patch& patch, const QString& text)
{
    for (const Condition& missing : patch.requirements) {
        if (missing.matches(text))
            continue;
        const QString lookedFor = QStringLiteral("looked for %1 in %2, found none").arg(missing.describe(), patch.file);
        for (const Condition& fixed : patch.fixedUpstreamIf) {
            if (const int line = fixed.firstLine(text)) {
                const QString since = patch.fixedUpstreamNote.isEmpty()
                    ? QString()
                    : QStringLiteral(" since ") + patch.fixedUpstreamNote;
                return Inapplicability { NotApplicableKind::FixedUpstream,
                    QStringLiteral("already fixed upstream%1: %2; found %3 at line %4")
                        .arg(since, lookedFor, fixed.describe())
                        .arg(line) };
            }
        }
        const QString note = patch.requiresNote.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(patch.requiresNote);
        return Inapplicability { NotApplicableKind::OlderThanProblem,
            QStringLiteral("older than the problem%1: %2").arg(note, lookedFor) };
    }
    return std::nullopt;
}

Inapplicability fileNotThere(const QString& file, const QString& where)
{
    return { NotApplicableKind::NoFile,
        QStringLiteral("%1 is not there (looked for %2, no such file)").arg(file, where.isEmpty() ? file : where) };
}

} // namespace kf::patch
