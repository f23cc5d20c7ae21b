// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/edits.h"
#include "core/patch/patchplan.h"
#include "core/patch/patchset.h"

#include <QTest>

using namespace kf::patch;

namespace {

Edit makeEdit(Edit::Kind kind, const QString& literal, const QString& regex)
{
    Edit e;
    e.kind = kind;
    e.match.literal = literal;
    e.match.regex = regex;
    return e;
}

} // namespace

class TestEdits : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void edits_data();
    void edits();
    void yamlErrors_data();
    void yamlErrors();
    void planStatuses_data();
    void planStatuses();
    void commandAnchors_data();
    void commandAnchors();
    void pythonAnchors_data();
    void pythonAnchors();
    void structuredYamlErrors_data();
    void structuredYamlErrors();
    void notApplicableReasons_data();
    void notApplicableReasons();
};

void TestEdits::edits_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("literal");
    QTest::addColumn<QString>("regex");
    QTest::addColumn<QString>("with"); // replace: with; insert/ensure: text; wrap: before|after
    QTest::addColumn<QString>("input");
    QTest::addColumn<int>("outcome");
    QTest::addColumn<QString>("output");

    QTest::newRow("replace literal") << int(Edit::Replace) << QStringLiteral("ON") << QString() << QStringLiteral("OFF")
                                     << QStringLiteral("set(X ON)\n") << int(EditOutcome::Changed)
                                     << QStringLiteral("set(X OFF)\n");
    QTest::newRow("replace regex captures")
        << int(Edit::Replace) << QString() << QStringLiteral(R"(^(\s*)set\((\w+) ON\)$)")
        << QStringLiteral("\\1option(\\2 \"\" ON)") << QStringLiteral("  set(FA3 ON)\n") << int(EditOutcome::Changed)
        << QStringLiteral("  option(FA3 \"\" ON)\n");
    QTest::newRow("replace missing") << int(Edit::Replace) << QStringLiteral("nothing") << QString()
                                     << QStringLiteral("x") << QStringLiteral("a\n") << int(EditOutcome::Missing)
                                     << QStringLiteral("a\n");
    QTest::newRow("replace keeps CRLF") << int(Edit::Replace) << QStringLiteral("b") << QString()
                                        << QStringLiteral("B\nB2") << QStringLiteral("a\r\nb\r\n")
                                        << int(EditOutcome::Changed) << QStringLiteral("a\r\nB\r\nB2\r\n");
    QTest::newRow("insert after multi-line anchor")
        << int(Edit::InsertAfter) << QString() << QStringLiteral(R"(^inc\([^()]*\)$)") << QStringLiteral("added\n")
        << QStringLiteral("inc(\n  a\n)\nrest\n") << int(EditOutcome::Changed)
        << QStringLiteral("inc(\n  a\n)\nadded\nrest\n");
    QTest::newRow("insert before") << int(Edit::InsertBefore) << QStringLiteral("option(") << QString()
                                   << QStringLiteral("# note\n") << QStringLiteral("a\noption(X)\n")
                                   << int(EditOutcome::Changed) << QStringLiteral("a\n# note\noption(X)\n");
    QTest::newRow("insert already there")
        << int(Edit::InsertAfter) << QStringLiteral("a") << QString() << QStringLiteral("added\n")
        << QStringLiteral("a\n  added\n") << int(EditOutcome::AlreadyThere) << QStringLiteral("a\n  added\n");
    QTest::newRow("insert anchor missing")
        << int(Edit::InsertAfter) << QStringLiteral("zzz") << QString() << QStringLiteral("x\n")
        << QStringLiteral("a\n") << int(EditOutcome::Missing) << QStringLiteral("a\n");
    QTest::newRow("wrap each line") << int(Edit::Wrap) << QString()
                                    << QStringLiteral(R"(^\s*cmake_policy\(SET (CMP\d+) \w+\)$)")
                                    << QStringLiteral("if(POLICY \\1)|endif()")
                                    << QStringLiteral("a\ncmake_policy(SET CMP0169 OLD)\nb\n")
                                    << int(EditOutcome::Changed)
                                    << QStringLiteral(
                                           "a\nif(POLICY CMP0169)\n  cmake_policy(SET CMP0169 OLD)\nendif()\nb\n");
    QTest::newRow("wrap keeps indentation")
        << int(Edit::Wrap) << QStringLiteral("cmake_policy") << QString() << QStringLiteral("if(1)|endif()")
        << QStringLiteral("  cmake_policy(X)\n") << int(EditOutcome::Changed)
        << QStringLiteral("  if(1)\n    cmake_policy(X)\n  endif()\n");
    QTest::newRow("wrap already wrapped")
        << int(Edit::Wrap) << QString() << QStringLiteral(R"(^\s*cmake_policy\(SET (CMP\d+) \w+\)$)")
        << QStringLiteral("if(POLICY \\1)|endif()")
        << QStringLiteral("if(POLICY CMP0169)\n  cmake_policy(SET CMP0169 OLD)\nendif()\n")
        << int(EditOutcome::AlreadyThere)
        << QStringLiteral("if(POLICY CMP0169)\n  cmake_policy(SET CMP0169 OLD)\nendif()\n");
    QTest::newRow("ensure at end") << int(Edit::Ensure) << QString() << QString() << QStringLiteral("tail\n")
                                   << QStringLiteral("a") << int(EditOutcome::Changed) << QStringLiteral("a\ntail\n");
    QTest::newRow("ensure present") << int(Edit::Ensure) << QString() << QString() << QStringLiteral("x\ny\n")
                                    << QStringLiteral("a\n  x\n  y\nb\n") << int(EditOutcome::AlreadyThere)
                                    << QStringLiteral("a\n  x\n  y\nb\n");
    QTest::newRow("ensure after anchor") << int(Edit::Ensure) << QStringLiteral("import os") << QString()
                                         << QStringLiteral("import sys\n") << QStringLiteral("import os\nx = 1\n")
                                         << int(EditOutcome::Changed)
                                         << QStringLiteral("import os\nimport sys\nx = 1\n");
}

void TestEdits::edits()
{
    QFETCH(int, kind);
    QFETCH(QString, literal);
    QFETCH(QString, regex);
    QFETCH(QString, with);
    QFETCH(QString, input);
    QFETCH(int, outcome);
    QFETCH(QString, output);
    Edit e = makeEdit(Edit::Kind(kind), literal, regex);
    if (kind == Edit::Replace) {
        e.with = with;
    } else if (kind == Edit::Wrap) {
        e.before = with.section(QLatin1Char('|'), 0, 0);
        e.after = with.section(QLatin1Char('|'), 1, 1);
    } else {
        e.text = with;
    }
    QString text = input;
    const EditOutcome o = applyEdit(e, &text);
    QCOMPARE(int(o.kind), outcome);
    QCOMPARE(text, output);
    if (o.kind != EditOutcome::Missing && kind != Edit::Replace) {
        // Inserts, wraps and ensures recognise their own result: a second run changes nothing.
        QString again = text;
        QCOMPARE(int(applyEdit(e, &again).kind), int(EditOutcome::AlreadyThere));
        QCOMPARE(again, text);
    }
}

void TestEdits::yamlErrors_data()
{
    QTest::addColumn<QString>("yaml");
    QTest::addColumn<QString>("expected"); // "source:LINE: text"
    QTest::newRow("syntax") << QStringLiteral("name: x\npatches:\n  - id: a\n    file: [unclosed\n")
                            << QStringLiteral("t.yaml:5:");
    QTest::newRow("no patches") << QStringLiteral("name: x\n")
                                << QStringLiteral("t.yaml:1: patches: must be a non-empty list");
    QTest::newRow("unknown edit") << QStringLiteral(
        "name: x\npatches:\n  - id: a\n    file: f\n    edits:\n      - frobnicate: {find: x}\n")
                                  << QStringLiteral("t.yaml:6: patches[0].edits[0].frobnicate: unknown edit kind");
    QTest::newRow("bad regex") << QStringLiteral(
        "name: x\npatches:\n  - id: a\n    file: f\n    edits:\n      - replace: {regex: '(', with: y}\n")
                               << QStringLiteral(
                                      "t.yaml:6: patches[0].edits[0].replace.regex: invalid regular expression");
    QTest::newRow("unknown key") << QStringLiteral("name: x\npatches:\n  - id: a\n    file: f\n    edits:\n      - "
                                                   "replace:\n          find: a\n          wiht: b\n")
                                 << QStringLiteral(
                                        "t.yaml:8: patches[0].edits[0].replace.wiht: unknown key (known: find,");
    QTest::newRow("escaping root") << QStringLiteral(
        "name: x\npatches:\n  - id: a\n    file: ../etc/passwd\n    edits:\n      - ensure: {text: x}\n")
                                   << QStringLiteral(
                                          "t.yaml:4: patches[0].file: path \"../etc/passwd\" leaves the root");
    QTest::newRow("duplicate id") << QStringLiteral(
        "name: x\npatches:\n  - id: a\n    file: f\n    edits: [{ensure: {text: x}}]\n  - id: a\n    file: f\n    "
        "edits: [{ensure: {text: y}}]\n")
                                  << QStringLiteral("t.yaml:6: patches[1].id: duplicate patch id");
}

void TestEdits::yamlErrors()
{
    QFETCH(QString, yaml);
    QFETCH(QString, expected);
    const auto set = parsePatchSetYaml(yaml.toUtf8(), QStringLiteral("t.yaml"));
    QVERIFY(!set);
    QVERIFY2(set.error().startsWith(expected), qPrintable(set.error()));
}

void TestEdits::planStatuses_data()
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

void TestEdits::planStatuses()
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

namespace {

// A one-patch set on CMakeLists.txt (or flash_attn.py) with the given YAML for its edits.
PatchPlan planOne(const QString& file, const QString& patchYaml, const std::optional<QString>& text)
{
    const QString yaml = QStringLiteral("name: t\npatches:\n  - id: p\n    file: %1\n").arg(file) + patchYaml;
    const auto set = parsePatchSetYaml(yaml.toUtf8(), QStringLiteral("t.yaml"));
    if (!set) {
        PatchPlan failed;
        failed.reason = set.error();
        return failed;
    }
    return planPatch(set->patches.first(), text);
}

const char* kCcclEdit = R"(    edits:
      - insert_after:
          command: {name: include_directories, args: ['${PROJECT_SOURCE_DIR}/include'], top_level: true}
          text: |
            include_directories(${CUDA}/cccl)
)";

const char* kPolicyEdit = R"(    edits:
      - wrap:
          command: {name: cmake_policy, args: [SET, CMP0177]}
          before: if(POLICY \2)
          after: endif()
)";

const char* kFa3Edit = R"(    edits:
      - replace:
          command: {name: set, args: [SGL_KERNEL_ENABLE_FA3, 'ON'], exact: true}
          with: |-
            if(NOT USER_SET)
              set(SGL_KERNEL_ENABLE_FA3 ON CACHE BOOL "" FORCE)
            endif()
          done_if: {command: {name: if, args: [NOT, USER_SET]}}
)";

} // namespace

void TestEdits::commandAnchors_data()
{
    QTest::addColumn<QString>("edit");
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("output"); // empty: a conflict
    const QString cccl = QString::fromUtf8(kCcclEdit);
    QTest::newRow("include block holding a comment with parentheses")
        << cccl
        << QStringLiteral(
               "include_directories(\n    ${PROJECT_SOURCE_DIR}/include\n    # the SM90 mixed-input "
               "collective (see ../jit) lives there\n    ${PROJECT_SOURCE_DIR}/../jit/include\n)\nset(A 1)\n")
        << QStringLiteral("include_directories(\n    ${PROJECT_SOURCE_DIR}/include\n    # the SM90 mixed-input "
                          "collective (see ../jit) lives there\n    ${PROJECT_SOURCE_DIR}/../jit/include\n)\n"
                          "include_directories(${CUDA}/cccl)\nset(A 1)\n");
    QTest::newRow("bracket comment inside, arguments reordered, trailing comment")
        << cccl
        << QStringLiteral(
               "INCLUDE_DIRECTORIES( ${PROJECT_SOURCE_DIR}/csrc #[[ (x)\n ]] \"${PROJECT_SOURCE_DIR}/include\" "
               ") # (done)\n")
        << QStringLiteral(
               "INCLUDE_DIRECTORIES( ${PROJECT_SOURCE_DIR}/csrc #[[ (x)\n ]] \"${PROJECT_SOURCE_DIR}/include\" "
               ") # (done)\ninclude_directories(${CUDA}/cccl)\n");
    QTest::newRow("a commented-out call is no anchor")
        << cccl << QStringLiteral("# include_directories(${PROJECT_SOURCE_DIR}/include)\nset(A 1)\n") << QString();
    QTest::newRow("a nested call is not top level")
        << cccl << QStringLiteral("if(X)\n  include_directories(${PROJECT_SOURCE_DIR}/include)\nendif()\n")
        << QString();
    const QString policy = QString::fromUtf8(kPolicyEdit);
    QTest::newRow("policy call over two lines with a comment")
        << policy << QStringLiteral("cmake_policy(SET # (install paths)\n  CMP0177 NEW)\nset(A 1)\n")
        << QStringLiteral("if(POLICY CMP0177)\n  cmake_policy(SET # (install paths)\n    CMP0177 NEW)\nendif()\n"
                          "set(A 1)\n");
    QTest::newRow("policy already guarded, a comment between")
        << policy
        << QStringLiteral("if(POLICY CMP0177) # (3.31)\n  # guarded\n  cmake_policy(SET CMP0177 NEW)\nendif()\n")
        << QStringLiteral("if(POLICY CMP0177) # (3.31)\n  # guarded\n  cmake_policy(SET CMP0177 NEW)\nendif()\n");
    const QString fa3 = QString::fromUtf8(kFa3Edit);
    QTest::newRow("forced set, indented, trailing comment")
        << fa3 << QStringLiteral("if(CUDA)\n    set(SGL_KERNEL_ENABLE_FA3 ON) # (default)\nendif()\n")
        << QStringLiteral("if(CUDA)\n    if(NOT USER_SET)\n      set(SGL_KERNEL_ENABLE_FA3 ON CACHE BOOL \"\" FORCE)\n"
                          "    endif() # (default)\nendif()\n");
    QTest::newRow("a set with more arguments is another call")
        << fa3 << QStringLiteral("set(SGL_KERNEL_ENABLE_FA3 ON CACHE BOOL \"x\")\n") << QString();
}

void TestEdits::commandAnchors()
{
    QFETCH(QString, edit);
    QFETCH(QString, input);
    QFETCH(QString, output);
    const PatchPlan p = planOne(QStringLiteral("CMakeLists.txt"), edit, input);
    if (output.isEmpty()) {
        QCOMPARE(int(p.status), int(PatchStatus::Conflict));
        QVERIFY2(p.reason.contains(QStringLiteral("call")), qPrintable(p.reason));
        return;
    }
    QVERIFY2(p.status == PatchStatus::WillApply || (p.status == PatchStatus::AlreadyApplied && output == input),
        qPrintable(statusText(p.status) + QStringLiteral(": ") + p.reason));
    QCOMPARE(p.textAfter, output);
    const PatchPlan again = planOne(QStringLiteral("CMakeLists.txt"), edit, p.textAfter);
    QCOMPARE(int(again.status), int(PatchStatus::AlreadyApplied));
}

void TestEdits::pythonAnchors_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<bool>("applies");
    const QString tail = QStringLiteral("\n\ndef f():\n    return 1\n");
    QTest::newRow("upstream 2026") << QStringLiteral("try:\n    from sgl_kernel import flash_ops\nexcept:\n    raise "
                                                     "ImportError(\n        \"Can not import FA3.\"\n    )\n")
            + tail << true;
    QTest::newRow("comments, blank lines, parenthesized import, trailing comma")
        << QStringLiteral(
               "try:  # (FA3)\n\n    # the kernels\n    from sgl_kernel import (\n        flash_ops,  # noqa\n"
               "    )\n\nexcept ImportError as e:  # (missing)\n    raise ImportError(\n        \"x (y)\",\n"
               "    ) from e\n")
            + tail
        << true;
    QTest::newRow("indented inside a block")
        << QStringLiteral("if True:\n    try:\n        from sgl_kernel import flash_ops\n    except Exception:\n"
                          "        raise RuntimeError(\"no\")\n")
            + tail
        << true;
    QTest::newRow("logs before raising: not this shape")
        << QStringLiteral("try:\n    from sgl_kernel import flash_ops\nexcept:\n    log(\"x\")\n    raise "
                          "ImportError(\"x\")\n")
            + tail
        << false;
}

void TestEdits::pythonAnchors()
{
    QFETCH(QString, input);
    QFETCH(bool, applies);
    const QString edit = QStringLiteral(R"(    edits:
      - replace:
          python: ['try:', 'from sgl_kernel import flash_ops', 'except( .+)?:', 'raise \w*Error\(.*\)( from \w+)?']
          with: |-
            try:
                from sgl_kernel import flash_ops
            except Exception:
                flash_ops = None
          done_if: {python: 'flash_ops = None'}
)");
    const PatchPlan p = planOne(QStringLiteral("flash_attn.py"), edit, input);
    if (!applies) {
        QCOMPARE(int(p.status), int(PatchStatus::Conflict));
        return;
    }
    QVERIFY2(p.status == PatchStatus::WillApply, qPrintable(p.reason));
    QVERIFY2(p.textAfter.contains(QStringLiteral("except Exception:\n")), qPrintable(p.textAfter));
    QVERIFY2(!p.textAfter.contains(QStringLiteral("raise")), qPrintable(p.textAfter));
    QVERIFY(p.textAfter.endsWith(QStringLiteral("\n\ndef f():\n    return 1\n")));
    // The replacement keeps the block's indentation on every line, and it still compiles.
    const int at = int(p.textAfter.indexOf(QStringLiteral("try:")));
    const QString indent
        = p.textAfter.mid(p.textAfter.lastIndexOf(QLatin1Char('\n'), at) + 1).section(QStringLiteral("try:"), 0, 0);
    QVERIFY2(p.textAfter.contains(indent + QStringLiteral("    flash_ops = None")), qPrintable(p.textAfter));
    QCOMPARE(int(planOne(QStringLiteral("flash_attn.py"), edit, p.textAfter).status), int(PatchStatus::AlreadyApplied));
}

void TestEdits::structuredYamlErrors_data()
{
    QTest::addColumn<QString>("edits");
    QTest::addColumn<QString>("expected");
    QTest::newRow("two places")
        << QStringLiteral("      - replace: {find: a, command: set, with: b}\n")
        << QStringLiteral(
               "t.yaml:6: patches[0].edits[0].replace: use one of \"find\", \"regex\", \"command\" or \"python\"");
    QTest::newRow("bad command name")
        << QStringLiteral("      - replace: {command: 'set x', with: b}\n")
        << QStringLiteral("t.yaml:6: patches[0].edits[0].replace.command: \"set x\" is not a CMake command name");
    QTest::newRow("unknown command key")
        << QStringLiteral("      - replace: {command: {name: set, argz: [A]}, with: b}\n")
        << QStringLiteral(
               "t.yaml:6: patches[0].edits[0].replace.command.argz: unknown key (known: name, args, exact, top_level)");
    QTest::newRow("bad argument regex")
        << QStringLiteral("      - replace: {command: {name: set, args: [{regex: '('}]}, with: b}\n")
        << QStringLiteral("t.yaml:6: patches[0].edits[0].replace.command.args[0].regex: invalid regular expression");
    QTest::newRow("python wrap")
        << QStringLiteral("      - wrap: {python: 'x', before: a, after: b}\n")
        << QStringLiteral("t.yaml:6: patches[0].edits[0].wrap: a Python anchor cannot be wrapped line by line");
    QTest::newRow("empty python line")
        << QStringLiteral("      - replace: {python: [''], with: b}\n")
        << QStringLiteral("t.yaml:6: patches[0].edits[0].replace.python: an empty Python line matches nothing");
}

void TestEdits::structuredYamlErrors()
{
    QFETCH(QString, edits);
    QFETCH(QString, expected);
    const QString yaml = QStringLiteral("name: x\npatches:\n  - id: a\n    file: f\n    edits:\n") + edits;
    const auto set = parsePatchSetYaml(yaml.toUtf8(), QStringLiteral("t.yaml"));
    QVERIFY(!set);
    QVERIFY2(set.error().startsWith(expected), qPrintable(set.error()));
}

void TestEdits::notApplicableReasons_data()
{
    QTest::addColumn<QString>("text"); // "<absent>": no file
    QTest::addColumn<int>("kind");
    QTest::addColumn<QStringList>("reasonHas");
    QTest::newRow("older than the problem")
        << QStringLiteral("set(OTHER ON)\n") << int(NotApplicableKind::OlderThanProblem)
        << QStringList { "older than the problem (the option appeared in April 2025)",
               "looked for a call option(FA3 ...) in CMakeLists.txt, found none" };
    QTest::newRow("fixed upstream") << QStringLiteral("set(DEFAULT_FA3 ON)\n\n option(FA3 \"x\" ${DEFAULT_FA3})\n")
                                    << int(NotApplicableKind::FixedUpstream)
                                    << QStringList {
                                           "already fixed upstream since June 2026 (the default is a variable)",
                                           "looked for a call set(FA3 ON ...) in CMakeLists.txt, found none",
                                           "found a call option(FA3 ${DEFAULT_FA3} ...) at line 3"
                                       };
    QTest::newRow("no file") << QStringLiteral("<absent>") << int(NotApplicableKind::NoFile)
                             << QStringList { "CMakeLists.txt is not there (looked for CMakeLists.txt, no such file)" };
}

void TestEdits::notApplicableReasons()
{
    QFETCH(QString, text);
    QFETCH(int, kind);
    QFETCH(QStringList, reasonHas);
    const QString patch = QStringLiteral(R"(    requires:
      - command: {name: option, args: [FA3]}
      - command: {name: set, args: [FA3, 'ON']}
    requires_note: the option appeared in April 2025
    fixed_upstream_if:
      - command: {name: option, args: [FA3, '${DEFAULT_FA3}']}
    fixed_upstream_note: June 2026 (the default is a variable)
    edits:
      - replace: {command: {name: set, args: [FA3, 'ON']}, with: 'set(FA3 OFF)'}
)");
    const std::optional<QString> input
        = text == QLatin1String("<absent>") ? std::nullopt : std::optional<QString>(text);
    const PatchPlan p = planOne(QStringLiteral("CMakeLists.txt"), patch, input);
    QCOMPARE(int(p.status), int(PatchStatus::NotApplicable));
    QCOMPARE(int(p.notApplicable), kind);
    for (const QString& part : reasonHas)
        QVERIFY2(p.reason.contains(part), qPrintable(p.reason));
    // The problem present: it applies.
    const PatchPlan present
        = planOne(QStringLiteral("CMakeLists.txt"), patch, QStringLiteral("option(FA3 \"x\" OFF)\nset(FA3 ON)\n"));
    QCOMPARE(int(present.status), int(PatchStatus::WillApply));
    QCOMPARE(int(present.notApplicable), int(NotApplicableKind::None));
}

QTEST_GUILESS_MAIN(TestEdits)
#include "tst_edits.moc"
