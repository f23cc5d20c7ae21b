// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/patch/recipe.h"
#include "core/patch/unifieddiff.h"
#include "core/util/result.h"

#include <QList>
#include <QString>
#include <QStringList>

// A patch set: named patches, each changing one file, from a YAML recipe or a unified diff.
//
// YAML format (every edit finds its place by content):
//
//   name: sgl-kernel-sm120-cuda13          # id, [a-z0-9-]
//   title: sgl-kernel for Blackwell (SM120) on CUDA 13
//   description: |  ...
//   target:
//     name: sgl-kernel
//     markers: [CMakeLists.txt, python/sgl_kernel]   # must exist below the root
//     subdirs: [sgl-kernel]                          # tried when the root is a parent checkout
//   patches:
//     - id: cmake-policy-guards
//       title: Guard cmake_policy(SET ...) for older CMake
//       file: CMakeLists.txt                         # relative to the root
//       why: |  a paragraph for the reviewer
//       requires:   [CONDITION, ...]  # all must match, else "not applicable" (target absent in this version)
//       requires_note: text shown with "not applicable"
//       applied_if: [CONDITION, ...]  # any matches: "already applied" (e.g. a hand-made fix); edits not run
//       edits:
//         - replace:       {find: TEXT | regex: RE, with: TEXT, first: bool}
//         - insert_before: {anchor: TEXT | regex: RE, text: BLOCK}
//         - insert_after:  {anchor: TEXT | regex: RE, text: BLOCK}
//         - wrap:          {lines: TEXT | regex: RE, before: BLOCK, after: BLOCK, indent: "  ", first: bool}
//         - ensure:        {text: BLOCK, after: TEXT | after_regex: RE}   # at the end without an anchor
//       each edit may add: optional: bool, label: TEXT, done_if: CONDITION
//   CONDITION: a string (literal substring) or {contains: TEXT} or {regex: RE}
//   Regexes are PCRE (QRegularExpression), multi-line (^/$ at line breaks); \1.. in
//   with/before/after refer to captures.
namespace kf::patch {

struct Patch
{
    QString id;
    QString title;
    QString why;
    QString file;                  // relative to the patch set's root
    QList<Condition> requirements; // YAML "requires"
    QString requiresNote;
    QList<Condition> appliedIf;
    QList<RecipeEdit> edits;
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
