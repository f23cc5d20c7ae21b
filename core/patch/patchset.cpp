// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/patchset.h"

#include "core/util/pathcheck.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <yaml-cpp/yaml.h>

#include <stdexcept>

namespace kf::patch {
namespace {

// Thrown inside the parser only; turned into a Result at the boundary.
struct YamlError : std::runtime_error
{
    YamlError(int line, const QString& message)
        : std::runtime_error(message.toStdString())
        , line(line)
    { }
    int line;
};

int lineOf(const YAML::Node& n)
{
    return n.Mark().line >= 0 ? n.Mark().line + 1 : 0;
}

QString str(const YAML::Node& n, const char* key, bool required = false, const YAML::Node& owner = {})
{
    const YAML::Node v = n[key];
    if (!v || v.IsNull()) {
        if (required)
            throw YamlError(lineOf(owner ? owner : n), QStringLiteral("missing \"%1\"").arg(QString::fromUtf8(key)));
        return {};
    }
    if (!v.IsScalar())
        throw YamlError(lineOf(v), QStringLiteral("\"%1\" must be a string").arg(QString::fromUtf8(key)));
    return QString::fromStdString(v.as<std::string>());
}

bool boolean(const YAML::Node& n, const char* key)
{
    const YAML::Node v = n[key];
    if (!v)
        return false;
    try {
        return v.as<bool>();
    } catch (const YAML::Exception&) {
        throw YamlError(lineOf(v), QStringLiteral("\"%1\" must be true or false").arg(QString::fromUtf8(key)));
    }
}

void checkRegex(const QString& re, int line)
{
    const QRegularExpression r(re);
    if (!r.isValid())
        throw YamlError(line,
            QStringLiteral("invalid regular expression /%1/: %2 (at offset %3)")
                .arg(re, r.errorString())
                .arg(r.patternErrorOffset()));
}

ArgumentPattern argumentPattern(const YAML::Node& n)
{
    ArgumentPattern a;
    if (n.IsScalar()) {
        a.literal = QString::fromStdString(n.as<std::string>());
    } else if (n.IsMap() && n.size() == 1 && n["regex"]) {
        a.regex = str(n, "regex");
        checkRegex(a.regex, lineOf(n));
    } else {
        throw YamlError(lineOf(n), QStringLiteral("an argument is a string or {regex: RE}"));
    }
    return a;
}

// command: NAME | {name: NAME, args: [ARG | {regex: RE}, ...], exact: bool, top_level: bool}
CommandPattern commandPattern(const YAML::Node& n)
{
    CommandPattern p;
    if (n.IsScalar()) {
        p.name = QString::fromStdString(n.as<std::string>());
    } else if (n.IsMap()) {
        for (const auto& kv : n) {
            const QString key = QString::fromStdString(kv.first.as<std::string>());
            if (key != QLatin1String("name") && key != QLatin1String("args") && key != QLatin1String("exact")
                && key != QLatin1String("top_level"))
                throw YamlError(lineOf(kv.first),
                    QStringLiteral("unknown key \"%1\" in command (name, args, exact, top_level)").arg(key));
        }
        p.name = str(n, "name");
        p.exact = boolean(n, "exact");
        p.topLevel = boolean(n, "top_level");
        if (const YAML::Node args = n["args"]) {
            if (!args.IsSequence())
                throw YamlError(lineOf(args), QStringLiteral("\"args\" must be a list"));
            for (const auto& a : args)
                p.arguments.append(argumentPattern(a));
        }
    } else {
        throw YamlError(lineOf(n), QStringLiteral("\"command\" is a name or a map (name, args, exact, top_level)"));
    }
    static const QRegularExpression identifier(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    if (!p.name.isEmpty() && !identifier.match(p.name).hasMatch())
        throw YamlError(lineOf(n), QStringLiteral("\"%1\" is not a CMake command name").arg(p.name));
    if (p.name.isEmpty() && p.arguments.isEmpty())
        throw YamlError(lineOf(n), QStringLiteral("a command anchor needs a name or arguments"));
    return p;
}

// python: LINE-RE | [LINE-RE, ...]
QStringList pythonPattern(const YAML::Node& n)
{
    QStringList lines;
    if (n.IsScalar()) {
        lines.append(QString::fromStdString(n.as<std::string>()));
    } else if (n.IsSequence() && n.size() > 0) {
        for (const auto& l : n) {
            if (!l.IsScalar())
                throw YamlError(lineOf(l), QStringLiteral("each Python line is a regular expression (a string)"));
            lines.append(QString::fromStdString(l.as<std::string>()));
        }
    } else {
        throw YamlError(lineOf(n), QStringLiteral("\"python\" is a line's regular expression or a list of them"));
    }
    for (const QString& l : lines) {
        if (l.isEmpty())
            throw YamlError(lineOf(n), QStringLiteral("an empty Python line matches nothing"));
        checkRegex(l, lineOf(n));
    }
    return lines;
}

// Reads the structured anchors of a map (command, python) into c; how many were there.
int structuredPlace(const YAML::Node& body, Condition& c)
{
    int n = 0;
    if (const YAML::Node v = body["command"]) {
        c.command = commandPattern(v);
        ++n;
    }
    if (const YAML::Node v = body["python"]) {
        c.python = pythonPattern(v);
        ++n;
    }
    return n;
}

Condition condition(const YAML::Node& n)
{
    Condition c;
    c.yamlLine = lineOf(n);
    if (n.IsScalar()) {
        c.literal = QString::fromStdString(n.as<std::string>());
    } else if (n.IsMap()) {
        c.literal = str(n, "contains");
        c.regex = str(n, "regex");
        const int kinds = int(!c.literal.isEmpty()) + int(!c.regex.isEmpty()) + structuredPlace(n, c);
        if (kinds != 1)
            throw YamlError(c.yamlLine,
                QStringLiteral("a condition needs exactly one of \"contains\", \"regex\", \"command\" or \"python\""));
    } else {
        throw YamlError(c.yamlLine,
            QStringLiteral("a condition is a string or a map with \"contains\", \"regex\", \"command\" or \"python\""));
    }
    if (c.isRegex())
        checkRegex(c.regex, c.yamlLine);
    return c;
}

QList<Condition> conditions(const YAML::Node& n, const char* key)
{
    QList<Condition> out;
    const YAML::Node v = n[key];
    if (!v)
        return out;
    if (v.IsSequence()) {
        for (const auto& item : v)
            out.append(condition(item));
    } else {
        out.append(condition(v));
    }
    return out;
}

// {find|anchor|lines: TEXT}, {regex: RE}, {command: ...} or {python: ...}
Condition place(const YAML::Node& body, const char* literalKey, int line, bool pythonAllowed = true)
{
    Condition c;
    c.yamlLine = line;
    c.literal = str(body, literalKey);
    c.regex = str(body, "regex");
    const int kinds = int(!c.literal.isEmpty()) + int(!c.regex.isEmpty()) + structuredPlace(body, c);
    const QString choices
        = QStringLiteral("\"%1\", \"regex\", \"command\"%2")
              .arg(QString::fromUtf8(literalKey), pythonAllowed ? QStringLiteral(" or \"python\"") : QString());
    if (kinds > 1)
        throw YamlError(line, QStringLiteral("use one of %1, not several").arg(choices));
    if (kinds == 0)
        throw YamlError(line, QStringLiteral("missing %1").arg(choices));
    if (!pythonAllowed && !c.python.isEmpty())
        throw YamlError(line, QStringLiteral("a Python anchor cannot be wrapped line by line; use %1").arg(choices));
    if (c.isRegex())
        checkRegex(c.regex, line);
    return c;
}

RecipeEdit edit(const YAML::Node& n)
{
    const int line = lineOf(n);
    if (!n.IsMap() || n.size() != 1)
        throw YamlError(line,
            QStringLiteral("an edit is a map with one key: replace, insert_before, insert_after, wrap or ensure"));
    const std::string kind = n.begin()->first.as<std::string>();
    const YAML::Node body = n.begin()->second;
    if (!body.IsMap())
        throw YamlError(line, QStringLiteral("the body of \"%1\" must be a map").arg(QString::fromStdString(kind)));
    static const QStringList known = { QStringLiteral("find"), QStringLiteral("regex"), QStringLiteral("with"),
        QStringLiteral("first"), QStringLiteral("anchor"), QStringLiteral("text"), QStringLiteral("lines"),
        QStringLiteral("before"), QStringLiteral("after"), QStringLiteral("after_regex"), QStringLiteral("indent"),
        QStringLiteral("optional"), QStringLiteral("label"), QStringLiteral("done_if"), QStringLiteral("command"),
        QStringLiteral("python") };
    for (const auto& kv : body) {
        const QString key = QString::fromStdString(kv.first.as<std::string>());
        if (!known.contains(key))
            throw YamlError(
                lineOf(kv.first), QStringLiteral("unknown key \"%1\" in %2").arg(key, QString::fromStdString(kind)));
    }
    RecipeEdit e;
    e.yamlLine = line;
    e.optional = boolean(body, "optional");
    e.firstOnly = boolean(body, "first");
    e.label = str(body, "label");
    if (body["done_if"])
        e.doneIf = condition(body["done_if"]);
    if (kind == "replace") {
        e.kind = RecipeEdit::Replace;
        e.match = place(body, "find", line);
        if (!body["with"])
            throw YamlError(line, QStringLiteral("replace needs \"with\""));
        e.with = str(body, "with");
    } else if (kind == "insert_before" || kind == "insert_after") {
        e.kind = kind == "insert_before" ? RecipeEdit::InsertBefore : RecipeEdit::InsertAfter;
        e.match = place(body, "anchor", line);
        e.text = str(body, "text", true, n);
    } else if (kind == "wrap") {
        e.kind = RecipeEdit::Wrap;
        e.match = place(body, "lines", line, false);
        e.before = str(body, "before", true, n);
        e.after = str(body, "after", true, n);
        if (body["indent"])
            e.indent = str(body, "indent");
    } else if (kind == "ensure") {
        e.kind = RecipeEdit::Ensure;
        if (body["command"] || body["python"])
            throw YamlError(line, QStringLiteral("ensure takes \"after\" or \"after_regex\""));
        e.text = str(body, "text", true, n);
        e.match.yamlLine = line;
        e.match.literal = str(body, "after");
        e.match.regex = str(body, "after_regex");
        if (!e.match.literal.isEmpty() && !e.match.regex.isEmpty())
            throw YamlError(line, QStringLiteral("use either \"after\" or \"after_regex\", not both"));
        if (e.match.isRegex())
            checkRegex(e.match.regex, line);
    } else {
        throw YamlError(line,
            QStringLiteral("unknown edit kind \"%1\" (replace, insert_before, insert_after, wrap, ensure)")
                .arg(QString::fromStdString(kind)));
    }
    if (e.label.isEmpty())
        e.label = e.kindName();
    return e;
}

QStringList stringList(const YAML::Node& n, const char* key)
{
    QStringList out;
    const YAML::Node v = n[key];
    if (!v)
        return out;
    if (v.IsScalar())
        return { QString::fromStdString(v.as<std::string>()) };
    if (!v.IsSequence())
        throw YamlError(lineOf(v), QStringLiteral("\"%1\" must be a list of strings").arg(QString::fromUtf8(key)));
    for (const auto& item : v)
        out.append(QString::fromStdString(item.as<std::string>()));
    return out;
}

} // namespace

Result<PatchSet> parsePatchSetYaml(const QByteArray& yaml, const QString& sourceName)
{
    PatchSet set;
    set.source = sourceName;
    try {
        const YAML::Node root = YAML::Load(yaml.toStdString());
        if (!root.IsMap())
            throw YamlError(lineOf(root), QStringLiteral("the top level must be a map (name, title, patches, ...)"));
        set.name = str(root, "name", true, root);
        set.title = str(root, "title");
        set.description = str(root, "description");
        if (const YAML::Node t = root["target"]) {
            set.targetName = str(t, "name");
            set.markers = stringList(t, "markers");
            set.subdirs = stringList(t, "subdirs");
        }
        const YAML::Node patches = root["patches"];
        if (!patches || !patches.IsSequence() || patches.size() == 0)
            throw YamlError(
                patches ? lineOf(patches) : lineOf(root), QStringLiteral("\"patches\" must be a non-empty list"));
        QStringList ids;
        for (const auto& pn : patches) {
            Patch p;
            p.yamlLine = lineOf(pn);
            if (!pn.IsMap())
                throw YamlError(p.yamlLine, QStringLiteral("a patch is a map (id, title, why, file, edits)"));
            p.id = str(pn, "id", true, pn);
            if (ids.contains(p.id))
                throw YamlError(p.yamlLine, QStringLiteral("duplicate patch id \"%1\"").arg(p.id));
            ids.append(p.id);
            p.title = str(pn, "title");
            if (p.title.isEmpty())
                p.title = p.id;
            p.why = str(pn, "why").trimmed();
            const auto file = normalizeRelativePath(str(pn, "file", true, pn));
            if (!file)
                throw YamlError(lineOf(pn["file"]), QStringLiteral("\"file\": %1").arg(file.error()));
            p.file = file.value();
            p.requirements = conditions(pn, "requires");
            p.requiresNote = str(pn, "requires_note").trimmed();
            p.fixedUpstreamIf = conditions(pn, "fixed_upstream_if");
            p.fixedUpstreamNote = str(pn, "fixed_upstream_note").trimmed();
            p.appliedIf = conditions(pn, "applied_if");
            const YAML::Node edits = pn["edits"];
            if (!edits || !edits.IsSequence() || edits.size() == 0)
                throw YamlError(edits ? lineOf(edits) : p.yamlLine,
                    QStringLiteral("patch \"%1\" needs a non-empty \"edits\" list").arg(p.id));
            for (const auto& en : edits)
                p.edits.append(edit(en));
            set.patches.append(p);
        }
    } catch (const YamlError& e) {
        return Result<PatchSet>::failure(
            QStringLiteral("%1:%2: %3").arg(sourceName).arg(e.line).arg(QString::fromStdString(e.what())));
    } catch (const YAML::Exception& e) {
        return Result<PatchSet>::failure(
            QStringLiteral("%1:%2: %3").arg(sourceName).arg(e.mark.line + 1).arg(QString::fromStdString(e.msg)));
    }
    return set;
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
