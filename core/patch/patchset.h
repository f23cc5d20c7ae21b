// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/patch/edits.h"
#include "core/patch/unifieddiff.h"
#include "core/util/result.h"

#include <QList>
#include <QString>
#include <QStringList>

// A patch set: named patches, each changing one file, from YAML edits or a unified diff.
//
// YAML format (every edit finds its place by content):
//
//   name: sgl-kernel-sm120-cuda13          # id, [a-z0-9-]
//   title: sgl-kernel for Blackwell (SM120) on CUDA 13
//   description: |  ...
//   target:
//     name: sgl-kernel           # this name: the tree is found as core/sglkernel/kerneltree.h finds it
//     markers: [CMakeLists.txt, python/sgl_kernel]   # other targets: must exist below the root
//     subdirs: [sub/dir]                             # other targets: tried when the root is a parent
//   patches:
//     - id: cmake-policy-guards
//       title: Guard cmake_policy(SET ...) for older CMake
//       file: CMakeLists.txt                         # relative to the root
//       why: |  a paragraph for the reviewer
//       requires:   [CONDITION, ...]  # all must match, else "not applicable": the problem is not in this version
//       requires_note: text shown with it ("the option appeared in April 2025")
//       fixed_upstream_if: [CONDITION, ...]  # a requirement failed and one of these matches: "not
//                                     # applicable: already fixed upstream" instead of "older than the problem"
//       fixed_upstream_note: since when, in words ("June 2026: the option's default is a variable")
//       applied_if: [CONDITION, ...]  # any matches: "already applied" (e.g. a hand-made fix); edits not run
//       edits:
//         - replace:       {PLACE(find), with: TEXT, first: bool}
//         - insert_before: {PLACE(anchor), text: BLOCK}
//         - insert_after:  {PLACE(anchor), text: BLOCK}
//         - wrap:          {PLACE(lines) but no python, before: BLOCK, after: BLOCK, indent: "  ", first: bool}
//         - ensure:        {text: BLOCK, after: TEXT | after_regex: RE}   # at the end without an anchor
//       each edit may add: optional: bool, label: TEXT, done_if: CONDITION
//   PLACE(key): exactly one of
//     key: TEXT                       a literal substring (find / anchor), or lines containing it (lines)
//     regex: RE                       PCRE (QRegularExpression), multi-line (^/$ at line breaks)
//     command: NAME | {name: NAME, args: [ARG | {regex: RE}, ...], exact: bool, top_level: bool}
//                                     a CMake call read as CMake (core/util/cmakescript.h): named NAME
//                                     (any case), holding each ARG among its arguments in any order
//                                     (exact: and nothing else; top_level: outside if/foreach/...);
//                                     comments, bracket comments and line breaks inside the call do not
//                                     matter. \1..\9 in with/before/after are its arguments.
//     python: LINE-RE | [LINE-RE, ...]  consecutive Python logical lines (core/patch/pythonlines.h),
//                                     each matching a whole normalized line; comments, blank lines,
//                                     brackets over several lines and trailing commas do not matter
//   CONDITION: a string (literal substring) or {contains: TEXT}, {regex: RE}, {command: ...} or
//   {python: ...}. Regex \1.. in with/before/after refer to captures.
namespace kf::patch {

struct Patch
{
    QString id;
    QString title;
    QString why;
    QString file;                  // relative to the patch set's root
    QList<Condition> requirements; // YAML "requires"
    QString requiresNote;
    QList<Condition> fixedUpstreamIf; // YAML "fixed_upstream_if"
    QString fixedUpstreamNote;
    QList<Condition> appliedIf;
    QList<Edit> edits;
    bool fromDiff = false;
    FileDiff diff; // when fromDiff
    int yamlLine = 0;
};

struct PatchSet
{
    QString name;
    QString title;
    QString description;
    QString source; // "builtin:NAME", a file path, ...
    QString targetName;
    QStringList markers; // relative paths that identify the target's root
    QStringList subdirs; // where the target may sit below a given root
    QList<Patch> patches;
};

// Parses a YAML patch set; errors name the source and the YAML line ("file.yaml:12: ...").
Result<PatchSet> parsePatchSetYaml(const QByteArray& yaml, const QString& sourceName);
// One patch per file of a unified diff. strip < 0: guess (-p1 for a/ b/ paths, else -p0).
Result<PatchSet> patchSetFromDiff(const QString& diffText, const QString& sourceName, int strip = -1);
// "builtin:NAME" (resources :/patchsets/NAME.yaml), a .yaml/.yml file, or a diff file.
Result<PatchSet> loadPatchSet(const QString& spec, int strip = -1);
// Names of the built-in sets.
QStringList builtinPatchSets();

} // namespace kf::patch
