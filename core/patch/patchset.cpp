// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/patchset.h"

#include "core/util/pathcheck.h"
#include "core/util/yamlnode.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace kf::patch {
namespace {

void checkRegex(const QString& re, const YamlNode& at)
{
    const QRegularExpression r(re);
    if (!r.isValid())
        at.fail(QStringLiteral("invalid regular expression /%1/: %2 (at offset %3)")
                    .arg(re, r.errorString())
                    .arg(r.patternErrorOffset()));
}

ArgumentPattern argumentPattern(const YamlNode& n)
{
    ArgumentPattern a;
    if (n.isScalar()) {
        a.literal = n.scalar();
    } else if (n.isMap() && n.raw().size() == 1 && n.has("regex")) {
        a.regex = n.text("regex");
        checkRegex(a.regex, n.field("regex"));
    } else {
        n.fail(QStringLiteral("an argument is a string or {regex: RE}"));
    }
    return a;
}

// command: NAME | {name: NAME, args: [ARG | {regex: RE}, ...], exact: bool, top_level: bool}
CommandPattern commandPattern(const YamlNode& n)
{
    CommandPattern p;
    if (n.isScalar()) {
        p.name = n.scalar();
    } else if (n.isMap()) {
        n.onlyKeys(
            { QStringLiteral("name"), QStringLiteral("args"), QStringLiteral("exact"), QStringLiteral("top_level") });
        p.name = n.text("name");
        p.exact = n.boolean("exact", false);
        p.topLevel = n.boolean("top_level", false);
        for (const YamlNode& a : n.list("args"))
            p.arguments.append(argumentPattern(a));
    } else {
        n.fail(QStringLiteral("is a name or a map (name, args, exact, top_level)"));
    }
    static const QRegularExpression identifier(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    if (!p.name.isEmpty() && !identifier.match(p.name).hasMatch())
        n.fail(QStringLiteral("\"%1\" is not a CMake command name").arg(p.name));
    if (p.name.isEmpty() && p.arguments.isEmpty())
        n.fail(QStringLiteral("a command anchor needs a name or arguments"));
    return p;
}

// python: LINE-RE | [LINE-RE, ...]
QStringList pythonPattern(const YamlNode& n)
{
    QStringList lines;
    if (n.isScalar()) {
        lines.append(n.scalar());
    } else if (n.isList() && n.raw().size() > 0) {
        for (const YamlNode& l : n.items()) {
            if (!l.isScalar())
                l.fail(QStringLiteral("each Python line is a regular expression (a string)"));
            lines.append(l.scalar());
        }
    } else {
        n.fail(QStringLiteral("is a line's regular expression or a list of them"));
    }
    for (const QString& l : lines) {
        if (l.isEmpty())
            n.fail(QStringLiteral("an empty Python line matches nothing"));
        checkRegex(l, n);
    }
    return lines;
}

// Reads the structured anchors of a map (command, python) into c; how many were there.
int structuredPlace(const YamlNode& body, Condition& c)
{
    int n = 0;
    if (body.has("command")) {
        c.command = commandPattern(body.field("command"));
        ++n;
    }
    if (body.has("python")) {
        c.python = pythonPattern(body.field("python"));
        ++n;
    }
    return n;
}

Condition condition(const YamlNode& n)
{
    Condition c;
    c.yamlLine = n.line();
    if (n.isScalar()) {
        c.literal = n.scalar();
    } else if (n.isMap()) {
        c.literal = n.text("contains");
        c.regex = n.text("regex");
        const int kinds = int(!c.literal.isEmpty()) + int(!c.regex.isEmpty()) + structuredPlace(n, c);
        if (kinds != 1)
            n.fail(
                QStringLiteral("a condition needs exactly one of \"contains\", \"regex\", \"command\" or \"python\""));
    } else {
        n.fail(
            QStringLiteral("a condition is a string or a map with \"contains\", \"regex\", \"command\" or \"python\""));
    }
    if (c.isRegex())
        checkRegex(c.regex, n);
    return c;
}

QList<Condition> conditions(const YamlNode& n, const char* key)
{
    QList<Condition> out;
    const YamlNode v = n.field(key);
    if (v.isAbsent())
        return out;
    if (v.isList()) {
        for (const YamlNode& item : v.items())
            out.append(condition(item));
    } else {
        out.append(condition(v));
    }
    return out;
}

// {find|anchor|lines: TEXT}, {regex: RE}, {command: ...} or {python: ...}
Condition place(const YamlNode& body, const char* literalKey, bool pythonAllowed = true)
{
    Condition c;
    c.yamlLine = body.line();
    c.literal = body.text(literalKey);
    c.regex = body.text("regex");
    const int kinds = int(!c.literal.isEmpty()) + int(!c.regex.isEmpty()) + structuredPlace(body, c);
    const QString choices
        = QStringLiteral("\"%1\", \"regex\", \"command\"%2")
              .arg(QString::fromUtf8(literalKey), pythonAllowed ? QStringLiteral(" or \"python\"") : QString());
    if (kinds > 1)
        body.fail(QStringLiteral("use one of %1, not several").arg(choices));
    if (kinds == 0)
        body.fail(QStringLiteral("missing %1").arg(choices));
    if (!pythonAllowed && !c.python.isEmpty())
        body.fail(QStringLiteral("a Python anchor cannot be wrapped line by line; use %1").arg(choices));
    if (c.isRegex())
        checkRegex(c.regex, body.field("regex"));
    return c;
}

Edit edit(const YamlNode& n)
{
    if (!n.isMap() || n.raw().size() != 1)
        n.fail(QStringLiteral("an edit is a map with one key: replace, insert_before, insert_after, wrap or ensure"));
    const YamlNode::Entry entry = n.entries().constFirst();
    const QString kind = entry.key;
    const YamlNode& body = entry.value;
    if (!body.isMap())
        body.fail(QStringLiteral("the body of \"%1\" must be a map").arg(kind));
    body.onlyKeys({ QStringLiteral("find"), QStringLiteral("regex"), QStringLiteral("with"), QStringLiteral("first"),
        QStringLiteral("anchor"), QStringLiteral("text"), QStringLiteral("lines"), QStringLiteral("before"),
        QStringLiteral("after"), QStringLiteral("after_regex"), QStringLiteral("indent"), QStringLiteral("optional"),
        QStringLiteral("label"), QStringLiteral("done_if"), QStringLiteral("command"), QStringLiteral("python") });
    Edit e;
    e.yamlLine = n.line();
    e.optional = body.boolean("optional", false);
    e.firstOnly = body.boolean("first", false);
    e.label = body.text("label");
    if (body.has("done_if"))
        e.doneIf = condition(body.field("done_if"));
    if (kind == QLatin1String("replace")) {
        e.kind = Edit::Replace;
        e.match = place(body, "find");
        if (!body.field("with").raw().IsDefined())
            body.fail(QStringLiteral("replace needs \"with\""));
        e.with = body.text("with");
    } else if (kind == QLatin1String("insert_before") || kind == QLatin1String("insert_after")) {
        e.kind = kind == QLatin1String("insert_before") ? Edit::InsertBefore : Edit::InsertAfter;
        e.match = place(body, "anchor");
        e.text = body.requiredText("text");
    } else if (kind == QLatin1String("wrap")) {
        e.kind = Edit::Wrap;
        e.match = place(body, "lines", false);
        e.before = body.requiredText("before");
        e.after = body.requiredText("after");
        if (body.field("indent").raw().IsDefined())
            e.indent = body.text("indent");
    } else if (kind == QLatin1String("ensure")) {
        e.kind = Edit::Ensure;
        if (body.has("command") || body.has("python"))
            body.fail(QStringLiteral("ensure takes \"after\" or \"after_regex\""));
        e.text = body.requiredText("text");
        e.match.yamlLine = n.line();
        e.match.literal = body.text("after");
        e.match.regex = body.text("after_regex");
        if (!e.match.literal.isEmpty() && !e.match.regex.isEmpty())
            body.fail(QStringLiteral("use either \"after\" or \"after_regex\", not both"));
        if (e.match.isRegex())
            checkRegex(e.match.regex, body.field("after_regex"));
    } else {
        entry.keyNode.fail(QStringLiteral("unknown edit kind (replace, insert_before, insert_after, wrap, ensure)"));
    }
    if (e.label.isEmpty())
        e.label = e.kindName();
    return e;
}

} // namespace

Result<PatchSet> parsePatchSetYaml(const QByteArray& yaml, const QString& sourceName)
{
    return readYamlAs<PatchSet>(yaml, sourceName, [&](const YamlNode& root) {
        PatchSet set;
        set.source = sourceName;
        if (!root.isMap())
            root.fail(QStringLiteral("the top level must be a map (name, title, patches, ...)"));
        set.name = root.requiredText("name");
        set.title = root.text("title");
        set.description = root.text("description");
        if (const auto t = root.map("target")) {
            set.targetName = t->text("name");
            set.markers = t->texts("markers", true);
            set.subdirs = t->texts("subdirs", true);
        }
        const QList<YamlNode> patches = root.list("patches");
        if (patches.isEmpty())
            root.fail("patches", QStringLiteral("must be a non-empty list"));
        QStringList ids;
        for (const YamlNode& pn : patches) {
            Patch p;
            p.yamlLine = pn.line();
            if (!pn.isMap())
                pn.fail(QStringLiteral("a patch is a map (id, title, why, file, edits)"));
            p.id = pn.requiredText("id");
            if (ids.contains(p.id))
                pn.fail("id", QStringLiteral("duplicate patch id \"%1\"").arg(p.id));
            ids.append(p.id);
            p.title = pn.text("title");
            if (p.title.isEmpty())
                p.title = p.id;
            p.why = pn.text("why").trimmed();
            const auto file = normalizeRelativePath(pn.requiredText("file"));
            if (!file)
                pn.fail("file", file.error());
            p.file = file.value();
            p.requirements = conditions(pn, "requires");
            p.requiresNote = pn.text("requires_note").trimmed();
            p.fixedUpstreamIf = conditions(pn, "fixed_upstream_if");
            p.fixedUpstreamNote = pn.text("fixed_upstream_note").trimmed();
            p.appliedIf = conditions(pn, "applied_if");
            const QList<YamlNode> edits = pn.list("edits");
            if (edits.isEmpty())
                pn.fail("edits", QStringLiteral("patch \"%1\" needs a non-empty list of edits").arg(p.id));
            for (const YamlNode& en : edits)
                p.edits.append(edit(en));
            set.patches.append(p);
        }
        return set;
    });
}

Result<PatchSet> patchSetFromDiff(const QString& diffText, const QString& sourceName, int strip)
{
    const UnifiedDiff diff = parseUnifiedDiff(diffText);
    if (!diff)
        return Result<PatchSet>::failure(
            QStringLiteral("%1:%2: %3").arg(sourceName).arg(diff.errorLine).arg(diff.error));
    if (strip < 0)
        strip = guessStripLevel(diff);
    PatchSet set;
    set.source = sourceName;
    set.name = QFileInfo(sourceName).completeBaseName();
    set.title = diff.subject.isEmpty() ? QFileInfo(sourceName).fileName() : diff.subject;
    for (const FileDiff& f : diff.files) {
        Patch p;
        p.fromDiff = true;
        p.diff = f;
        p.file = f.targetPath(strip);
        if (p.file.isEmpty())
            return Result<PatchSet>::failure(QStringLiteral("%1:%2: cannot strip %3 path component(s) from \"%4\"")
                                                 .arg(sourceName)
                                                 .arg(f.sourceLine)
                                                 .arg(strip)
                                                 .arg(f.oldPath));
        // Every path the diff names must stay inside the root, the one it writes and the other.
        for (const QString& named : { f.oldPath, f.newPath }) {
            if (named == QLatin1String("/dev/null"))
                continue;
            const QString stripped = stripComponents(named, strip);
            const auto checked = normalizeRelativePath(stripped.isEmpty() ? named : stripped);
            if (!checked)
                return Result<PatchSet>::failure(
                    QStringLiteral("%1:%2: %3").arg(sourceName).arg(f.sourceLine).arg(checked.error()));
        }
        const auto target = normalizeRelativePath(p.file);
        if (!target)
            return Result<PatchSet>::failure(
                QStringLiteral("%1:%2: %3").arg(sourceName).arg(f.sourceLine).arg(target.error()));
        p.file = target.value();
        if (f.isBinary)
            return Result<PatchSet>::failure(QStringLiteral("%1:%2: binary diff for %3 is not supported")
                                                 .arg(sourceName)
                                                 .arg(f.sourceLine)
                                                 .arg(p.file));
        p.id = p.file;
        p.title = f.isNew ? QStringLiteral("create %1").arg(p.file)
            : f.isDeleted ? QStringLiteral("delete %1").arg(p.file)
                          : QStringLiteral("change %1").arg(p.file);
        p.why = diff.subject.isEmpty() ? QStringLiteral("From %1 (%2 hunk%3).")
                                             .arg(QFileInfo(sourceName).fileName())
                                             .arg(f.hunks.size())
                                             .arg(f.hunks.size() == 1 ? QString() : QStringLiteral("s"))
                                       : diff.subject;
        p.yamlLine = f.sourceLine;
        set.patches.append(p);
    }
    return set;
}

QStringList builtinPatchSets()
{
    QStringList names;
    for (const QString& f :
        QDir(QStringLiteral(":/patchsets")).entryList({ QStringLiteral("*.yaml") }, QDir::Files, QDir::Name))
        names.append(QFileInfo(f).completeBaseName());
    return names;
}

Result<PatchSet> loadPatchSet(const QString& spec, int strip)
{
    QString path = spec;
    QString sourceName = spec;
    if (spec.startsWith(QLatin1String("builtin:"))) {
        const QString name = spec.mid(8);
        path = QStringLiteral(":/patchsets/%1.yaml").arg(name);
        if (!QFile::exists(path))
            return Result<PatchSet>::failure(QStringLiteral("no built-in patch set \"%1\" (known: %2)")
                                                 .arg(name, builtinPatchSets().join(QStringLiteral(", "))));
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Result<PatchSet>::failure(QStringLiteral("cannot read %1: %2").arg(spec, f.errorString()));
    const QByteArray data = f.readAll();
    if (path.endsWith(QLatin1String(".yaml")) || path.endsWith(QLatin1String(".yml"))) {
        auto set = parsePatchSetYaml(data, sourceName);
        if (set && spec.startsWith(QLatin1String("builtin:")))
            set.value().source = spec;
        return set;
    }
    return patchSetFromDiff(QString::fromUtf8(data), sourceName, strip);
}

} // namespace kf::patch
