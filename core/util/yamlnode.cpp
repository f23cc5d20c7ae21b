// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/util/yamlnode.h"

#include "core/util/terminaltext.h"
#include "core/util/yamlkeys.h"

#include <QLocale>

#include <cmath>

namespace kf {
namespace {

// Thrown by YamlNode::fail() only, caught by readYaml() only.
struct Failure
{
    YamlError error;
};

const QStringList kTrue { QStringLiteral("true"), QStringLiteral("True"), QStringLiteral("TRUE") };
const QStringList kFalse { QStringLiteral("false"), QStringLiteral("False"), QStringLiteral("FALSE") };

QString shown(const QString& value)
{
    constexpr int kMax = 80;
    const QString safe = terminalSafe(value);
    return safe.size() > kMax ? safe.left(kMax) + QStringLiteral("...") : safe;
}

} // namespace

QString YamlError::message() const
{
    QString out = file;
    if (line > 0)
        out += QLatin1Char(':') + QString::number(line);
    out += QStringLiteral(": ");
    if (!key.isEmpty())
        out += terminalSafe(key) + QStringLiteral(": ");
    return out + why;
}

YamlNode::YamlNode(YAML::Node node, QString path, QString file)
    : m_node(std::move(node))
    , m_path(std::move(path))
    , m_file(std::move(file))
{ }

int YamlNode::line() const
{
    const YAML::Mark m = m_node.IsDefined() ? m_node.Mark() : YAML::Mark::null_mark();
    return m.is_null() || m.line < 0 ? 0 : m.line + 1;
}

QString YamlNode::childPath(const QString& key) const
{
    return m_path.isEmpty() ? key : m_path + QLatin1Char('.') + key;
}

YamlError YamlNode::at(const QString& why) const
{
    return YamlError { m_file, line(), m_path, why };
}

void YamlNode::fail(const QString& why) const
{
    throw Failure { at(why) };
}

void YamlNode::fail(const char* key, const QString& why) const
{
    const YamlNode f = field(key);
    throw Failure { YamlError { m_file, f.line() > 0 ? f.line() : line(), f.path(), why } };
}

QString YamlNode::scalar() const
{
    if (!isScalar())
        fail(QStringLiteral("must be a single value"));
    return QString::fromStdString(m_node.Scalar());
}

bool YamlNode::has(const char* key) const
{
    return !field(key).isAbsent();
}

YamlNode YamlNode::field(const char* key) const
{
    // A missing key gives yaml-cpp's invalid node: copied, never assigned (that throws), and
    // asked only through the guards below.
    return YamlNode(
        isMap() ? m_node[key] : YAML::Node(YAML::NodeType::Undefined), childPath(QString::fromUtf8(key)), m_file);
}

QString YamlNode::text(const char* key, const QString& absent) const
{
    const YamlNode f = field(key);
    return f.isAbsent() ? absent : f.scalar();
}

QString YamlNode::requiredText(const char* key) const
{
    const QString v = text(key);
    if (v.isEmpty())
        fail(key, QStringLiteral("is required"));
    return v;
}

namespace {

// This node's number from min to max (a whole one when asked); anything else fails with the rule.
double numberIn(const YamlNode& f, double min, double max, bool whole)
{
    const QString s = f.scalar();
    bool ok = false;
    const double v = whole ? double(s.trimmed().toLongLong(&ok)) : s.trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(v) || v < min || v > max)
        f.fail(QStringLiteral("must be a %1 from %2 to %3, not '%4'")
                   .arg(whole ? QStringLiteral("whole number") : QStringLiteral("number"))
                   .arg(min, 0, 'g', QLocale::FloatingPointShortest)
                   .arg(max, 0, 'g', QLocale::FloatingPointShortest)
                   .arg(shown(s)));
    return v;
}

} // namespace

int YamlNode::integer(const char* key, int absent, int min, int max) const
{
    const YamlNode f = field(key);
    return f.isAbsent() ? absent : int(numberIn(f, min, max, true));
}

double YamlNode::number(const char* key, double absent, double min, double max) const
{
    const YamlNode f = field(key);
    return f.isAbsent() ? absent : numberIn(f, min, max, false);
}

bool YamlNode::boolean(const char* key, bool absent) const
{
    const YamlNode f = field(key);
    if (f.isAbsent())
        return absent;
    const QString s = f.isScalar() ? f.scalar() : QStringLiteral("a list or map");
    if (kTrue.contains(s))
        return true;
    if (kFalse.contains(s))
        return false;
    f.fail(QStringLiteral("must be true or false, not '%1'").arg(shown(s)));
}

QStringList YamlNode::texts(const char* key, bool oneAllowed) const
{
    const YamlNode f = field(key);
    if (f.isAbsent())
        return {};
    if (oneAllowed && f.isScalar())
        return { f.scalar() };
    if (!f.isList())
        f.fail(oneAllowed ? QStringLiteral("must be a value or a list of values") : QStringLiteral("must be a list"));
    QStringList out;
    for (const YamlNode& item : f.items()) {
        if (!item.isScalar())
            item.fail(QStringLiteral("must be a single value"));
        out.append(item.scalar());
    }
    return out;
}

std::optional<YamlNode> YamlNode::map(const char* key) const
{
    const YamlNode f = field(key);
    if (f.isAbsent())
        return std::nullopt;
    if (!f.isMap())
        f.fail(QStringLiteral("must be a mapping"));
    return f;
}

QList<YamlNode> YamlNode::list(const char* key) const
{
    const YamlNode f = field(key);
    if (f.isAbsent())
        return {};
    if (!f.isList())
        f.fail(QStringLiteral("must be a list"));
    return f.items();
}

QList<YamlNode> YamlNode::items() const
{
    QList<YamlNode> out;
    if (!isList())
        return out;
    int i = 0;
    for (const YAML::Node& item : m_node)
        out.append(YamlNode(item, m_path + QStringLiteral("[%1]").arg(i++), m_file));
    return out;
}

QList<YamlNode::Entry> YamlNode::entries() const
{
    QList<Entry> out;
    if (!isMap())
        return out;
    for (const auto& kv : m_node) {
        const YamlNode keyNode(kv.first, m_path, m_file);
        if (!kv.first.IsScalar())
            keyNode.fail(QStringLiteral("a key must be a single value"));
        const QString key = QString::fromStdString(kv.first.Scalar());
        out.append(
            Entry { key, YamlNode(kv.first, childPath(key), m_file), YamlNode(kv.second, childPath(key), m_file) });
    }
    return out;
}

void YamlNode::onlyKeys(const QStringList& known) const
{
    for (const Entry& e : entries())
        if (!known.contains(e.key))
            e.keyNode.fail(QStringLiteral("unknown key (known: %1)").arg(known.join(QStringLiteral(", "))));
}

std::optional<YamlError> readYaml(const QByteArray& text, const QString& file,
    const std::function<void(const YamlNode& root)>& body, qsizetype maxBytes)
{
    if (text.size() > maxBytes)
        return YamlError { file, 0, {}, QStringLiteral("larger than %1 bytes").arg(maxBytes) };
    YAML::Node root;
    try {
        root = YAML::Load(text.toStdString());
    } catch (const YAML::Exception& e) {
        return YamlError { file, e.mark.is_null() ? 0 : e.mark.line + 1, {},
            QStringLiteral("invalid YAML: ") + terminalSafe(QString::fromStdString(e.msg)) };
    }
    if (const auto duplicate = findDuplicateYamlKey(root))
        return YamlError { file, duplicate->line, duplicate->key,
            QStringLiteral("duplicate key (first at line %1)").arg(duplicate->firstLine) };
    try {
        body(YamlNode(root, QString(), file));
    } catch (const Failure& f) {
        return f.error;
    } catch (const YAML::Exception& e) { // a conversion the parser did not guard
        return YamlError { file, e.mark.is_null() ? 0 : e.mark.line + 1, {},
            QStringLiteral("invalid YAML: ") + terminalSafe(QString::fromStdString(e.msg)) };
    }
    return std::nullopt;
}

} // namespace kf
