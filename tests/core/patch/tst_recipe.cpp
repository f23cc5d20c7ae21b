// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/patchplan.h"
#include "core/patch/patchset.h"
#include "core/patch/recipe.h"

#include <QTest>

using namespace kf::patch;

namespace {

RecipeEdit makeEdit(RecipeEdit::Kind kind, const QString& literal, const QString& regex)
{
    RecipeEdit e;
    e.kind = kind;
    e.match.literal = literal;
    e.match.regex = regex;
    return e;
}

} // namespace

class TestRecipe : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void edits_data();
    void edits();
    void yamlErrors_data();
    void yamlErrors();
    void planStatuses_data();
    void planStatuses();
};

void TestRecipe::edits_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("literal");
    QTest::addColumn<QString>("regex");
    QTest::addColumn<QString>("with"); // replace: with; insert/ensure: text; wrap: before|after
    QTest::addColumn<QString>("input");
    QTest::addColumn<int>("outcome");
    QTest::addColumn<QString>("output");

    QTest::newRow("replace literal") << int(RecipeEdit::Replace) << QStringLiteral("ON") << QString()
                                     << QStringLiteral("OFF") << QStringLiteral("set(X ON)\n")
                                     << int(EditOutcome::Changed) << QStringLiteral("set(X OFF)\n");
    QTest::newRow("replace regex captures")
        << int(RecipeEdit::Replace) << QString() << QStringLiteral(R"(^(\s*)set\((\w+) ON\)$)")
        << QStringLiteral("\\1option(\\2 \"\" ON)") << QStringLiteral("  set(FA3 ON)\n") << int(EditOutcome::Changed)
        << QStringLiteral("  option(FA3 \"\" ON)\n");
    QTest::newRow("replace missing") << int(RecipeEdit::Replace) << QStringLiteral("nothing") << QString()
                                     << QStringLiteral("x") << QStringLiteral("a\n") << int(EditOutcome::Missing)
                                     << QStringLiteral("a\n");
    QTest::newRow("replace keeps CRLF") << int(RecipeEdit::Replace) << QStringLiteral("b") << QString()
                                        << QStringLiteral("B\nB2") << QStringLiteral("a\r\nb\r\n")
                                        << int(EditOutcome::Changed) << QStringLiteral("a\r\nB\r\nB2\r\n");
    QTest::newRow("insert after multi-line anchor")
        << int(RecipeEdit::InsertAfter) << QString() << QStringLiteral(R"(^inc\([^()]*\)$)")
        << QStringLiteral("added\n") << QStringLiteral("inc(\n  a\n)\nrest\n") << int(EditOutcome::Changed)
        << QStringLiteral("inc(\n  a\n)\nadded\nrest\n");
    QTest::newRow("insert before") << int(RecipeEdit::InsertBefore) << QStringLiteral("option(") << QString()
                                   << QStringLiteral("# note\n") << QStringLiteral("a\noption(X)\n")
                                   << int(EditOutcome::Changed) << QStringLiteral("a\n# note\noption(X)\n");
    QTest::newRow("insert already there")
        << int(RecipeEdit::InsertAfter) << QStringLiteral("a") << QString() << QStringLiteral("added\n")
        << QStringLiteral("a\n  added\n") << int(EditOutcome::AlreadyThere) << QStringLiteral("a\n  added\n");
    QTest::newRow("insert anchor missing")
        << int(RecipeEdit::InsertAfter) << QStringLiteral("zzz") << QString() << QStringLiteral("x\n")
        << QStringLiteral("a\n") << int(EditOutcome::Missing) << QStringLiteral("a\n");
    QTest::newRow("wrap each line") << int(RecipeEdit::Wrap) << QString()
                                    << QStringLiteral(R"(^\s*cmake_policy\(SET (CMP\d+) \w+\)$)")
                                    << QStringLiteral("if(POLICY \\1)|endif()")
                                    << QStringLiteral("a\ncmake_policy(SET CMP0169 OLD)\nb\n")
                                    << int(EditOutcome::Changed)
                                    << QStringLiteral(
                                           "a\nif(POLICY CMP0169)\n  cmake_policy(SET CMP0169 OLD)\nendif()\nb\n");
    QTest::newRow("wrap keeps indentation")
        << int(RecipeEdit::Wrap) << QStringLiteral("cmake_policy") << QString() << QStringLiteral("if(1)|endif()")
        << QStringLiteral("  cmake_policy(X)\n") << int(EditOutcome::Changed)
        << QStringLiteral("  if(1)\n    cmake_policy(X)\n  endif()\n");
    QTest::newRow("wrap already wrapped")
        << int(RecipeEdit::Wrap) << QString() << QStringLiteral(R"(^\s*cmake_policy\(SET (CMP\d+) \w+\)$)")
        << QStringLiteral("if(POLICY \\1)|endif()")
        << QStringLiteral("if(POLICY CMP0169)\n  cmake_policy(SET CMP0169 OLD)\nendif()\n")
        << int(EditOutcome::AlreadyThere)
        << QStringLiteral("if(POLICY CMP0169)\n  cmake_policy(SET CMP0169 OLD)\nendif()\n");
    QTest::newRow("ensure at end") << int(RecipeEdit::Ensure) << QString() << QString() << QStringLiteral("tail\n")
                                   << QStringLiteral("a") << int(EditOutcome::Changed) << QStringLiteral("a\ntail\n");
    QTest::newRow("ensure present") << int(RecipeEdit::Ensure) << QString() << QString() << QStringLiteral("x\ny\n")
                                    << QStringLiteral("a\n  x\n  y\nb\n") << int(EditOutcome::AlreadyThere)
                                    << QStringLiteral("a\n  x\n  y\nb\n");
    QTest::newRow("ensure after anchor") << int(RecipeEdit::Ensure) << QStringLiteral("import os") << QString()
                                         << QStringLiteral("import sys\n") << QStringLiteral("import os\nx = 1\n")
                                         << int(EditOutcome::Changed)
                                         << QStringLiteral("import os\nimport sys\nx = 1\n");
}

void TestRecipe::edits()
{
    QFETCH(int, kind);
    QFETCH(QString, literal);
    QFETCH(QString, regex);
    QFETCH(QString, with);
    QFETCH(QString, input);
    QFETCH(int, outcome);
    QFETCH(QString, output);
    RecipeEdit e = makeEdit(RecipeEdit::Kind(kind), literal, regex);
    if (kind == RecipeEdit::Replace) {
        e.with = with;
    } else if (kind == RecipeEdit::Wrap) {
        e.before = with.section(QLatin1Char('|'), 0, 0);
        e.after = with.section(QLatin1Char('|'), 1, 1);
    } else {
        e.text = with;
    }
    QString text = input;
    const EditOutcome o = applyEdit(e, &text);
    QCOMPARE(int(o.kind), outcome);
    QCOMPARE(text, output);
    if (o.kind != EditOutcome::Missing && kind != RecipeEdit::Replace) {
        // Inserts, wraps and ensures recognise their own result: a second run changes nothing.
        QString again = text;
        QCOMPARE(int(applyEdit(e, &again).kind), int(EditOutcome::AlreadyThere));
        QCOMPARE(again, text);
    }
}

void TestRecipe::yamlErrors_data()
{
    QTest::addColumn<QString>("yaml");
    QTest::addColumn<QString>("expected"); // "source:LINE: text"
    QTest::newRow("syntax") << QStringLiteral("name: x\npatches:\n  - id: a\n    file: [unclosed\n")
                            << QStringLiteral("t.yaml:5:");
    QTest::newRow("no patches") << QStringLiteral("name: x\n")
                                << QStringLiteral("t.yaml:1: \"patches\" must be a non-empty list");
    QTest::newRow("unknown edit") << QStringLiteral(
        "name: x\npatches:\n  - id: a\n    file: f\n    edits:\n      - frobnicate: {find: x}\n")
                                  << QStringLiteral("t.yaml:6: unknown edit kind \"frobnicate\"");
    QTest::newRow("bad regex") << QStringLiteral(
        "name: x\npatches:\n  - id: a\n    file: f\n    edits:\n      - replace: {regex: '(', with: y}\n")
                               << QStringLiteral("t.yaml:6: invalid regular expression");
    QTest::newRow("unknown key") << QStringLiteral("name: x\npatches:\n  - id: a\n    file: f\n    edits:\n      - "
                                                   "replace:\n          find: a\n          wiht: b\n")
                                 << QStringLiteral("t.yaml:8: unknown key \"wiht\"");
    QTest::newRow("escaping root") << QStringLiteral(
        "name: x\npatches:\n  - id: a\n    file: ../etc/passwd\n    edits:\n      - ensure: {text: x}\n")
                                   << QStringLiteral("t.yaml:4: \"file\": path \"../etc/passwd\" leaves the root");
    QTest::newRow("duplicate id") << QStringLiteral(
        "name: x\npatches:\n  - id: a\n    file: f\n    edits: [{ensure: {text: x}}]\n  - id: a\n    file: f\n    "
        "edits: [{ensure: {text: y}}]\n")
                                  << QStringLiteral("t.yaml:6: duplicate patch id");
}

void TestRecipe::yamlErrors()
{
    QFETCH(QString, yaml);
    QFETCH(QString, expected);
    const auto set = parsePatchSetYaml(yaml.toUtf8(), QStringLiteral("t.yaml"));
    QVERIFY(!set);
    QVERIFY2(set.error().startsWith(expected), qPrintable(set.error()));
}

void TestRecipe::planStatuses_data()
{
    QTest::addColumn<QString>("text"); // "<absent>" for a missing file
    QTest::addColumn<int>("status");
    const QString absent = QStringLiteral("<absent>");
    QTest::newRow("will apply") << QStringLiteral("option(FA3 OFF)\nset(FA3 ON)\n") << int(PatchStatus::WillApply);
    QTest::newRow("already applied") << QStringLiteral("option(FA3 OFF)\nif(NOT USER)\n  set(FA3 ON)\nendif()\n")
                                     << int(PatchStatus::AlreadyApplied);
    QTest::newRow("not applicable: no option") << QStringLiteral("set(FA3 ON)\n") << int(PatchStatus::NotApplicable);
    QTest::newRow("not applicable: file absent") << absent << int(PatchStatus::NotApplicable);
    QTest::newRow("conflict: set moved away")
        << QStringLiteral("option(FA3 OFF)\nset(FA3 \"ON\")\n") << int(PatchStatus::Conflict);
}

void TestRecipe::planStatuses()
{
    QFETCH(QString, text);
    QFETCH(int, status);
    const QByteArray yaml = R"(
name: t
patches:
  - id: fa3
    file: CMakeLists.txt
    requires: {regex: '^option\(FA3'}
    applied_if: 'if(NOT USER)'
    edits:
      - replace:
          regex: '^set\(FA3 ON\)$'
          with: |-
            if(NOT USER)
              set(FA3 ON)
            endif()
)";
    const auto set = parsePatchSetYaml(yaml, QStringLiteral("t.yaml"));
    QVERIFY2(set, qPrintable(set.error()));
    const std::optional<QString> input
        = text == QLatin1String("<absent>") ? std::nullopt : std::optional<QString>(text);
    const PatchPlan p = planPatch(set->patches.first(), input);
    QCOMPARE(int(p.status), status);
    QVERIFY(!p.reason.isEmpty());
    if (p.status == PatchStatus::Conflict)
        QCOMPARE(p.nearestLines.isEmpty(), false);
    if (p.status == PatchStatus::WillApply) {
        QCOMPARE(p.reason, QStringLiteral("1 of 1 edit changes the file")); // the set has one edit
        const PatchPlan again = planPatch(set->patches.first(), p.textAfter);
        QCOMPARE(int(again.status), int(PatchStatus::AlreadyApplied));
    }
}

QTEST_GUILESS_MAIN(TestRecipe)
#include "tst_recipe.moc"
