// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QString>

#include <optional>

// Why a patch does not apply to a version, told apart so that a person can trust it: the
// file is not there, upstream already fixed the problem, or the version is older than the
// problem. Every reason names what was looked for and what was found. Pure.
namespace kf::patch {

struct Patch;

enum class NotApplicableKind {
    None,
    NoFile,           // the file the patch changes is not in this tree
    FixedUpstream,    // the problem's place is gone and the file shows upstream's fix (fixed_upstream_if)
    OlderThanProblem, // the problem's place is not there yet (a requirement is missing)
};
QString notApplicableKey(NotApplicableKind k); // "no-file", "fixed-upstream", "older-than-problem"; "" for None

struct Inapplicability
{
    NotApplicableKind kind = NotApplicableKind::None;
    QString reason; // one line, without the leading "not applicable"
};

// The requirements of a YAML patch against the file's text: nullopt when all are met.
// "already fixed upstream (since June 2026: ...): looked for a call set(X ON ...), found none;
// found a call option(X ...) at line 120" or "older than the problem (the option appeared in
// April 2025): looked for ..., found none".
std::optional<Inapplicability> unmetRequirement(const Patch& patch, const QString& text);

// The patch's file is absent: "python/sgl_kernel/flash_attn.py is not there (looked for PATH)";
// `where` is the path looked at (empty: relative to the root).
Inapplicability fileNotThere(const QString& file, const QString& where = {});

} // namespace kf::patch
