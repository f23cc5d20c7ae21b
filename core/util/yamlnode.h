// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <yaml-cpp/yaml.h>

#include <functional>
#include <initializer_list>
#include <optional>

// The one YAML reader: every YAML file KernelForge reads (deployment recipes, build profiles,
// patch sets, hosts.yaml, the benchmark reference table) goes through readYaml(), so all of
// them
//  - say an error one way: "FILE:LINE: KEY: why", KEY the field's path from the top
//    ("build.max_jobs", "hosts[2].port", "patches[0].edits[1].replace.with"); a document-level
//    error has no KEY ("FILE:LINE: invalid YAML: ...");
//  - read a boolean one way: true or false (YAML 1.2's spellings: true, True, TRUE, ...). yes, no,
//    on, off, y and n are refused with that rule, as YAML 1.2 tools and YAML 1.1 tools read them
//    differently;
//  - refuse a key written twice (core/util/yamlkeys.h), and a document over a size bound.
// A format's parser is a function of the root YamlNode; a field that does not fit calls fail(),
// which ends the read with that error (an exception inside readYaml(), never outside it).
namespace kf {

constexpr qsizetype kYamlMaxBytes = 1 << 20;

struct YamlError
{
    QString file;
    int line = 0; // 1-based; 0: unknown
    QString key;  // the field's path; empty for the document
    QString why;
    QString message() const; // "FILE:LINE: KEY: why"
};

class YamlNode
{
public:
    YamlNode(YAML::Node node, QString path, QString file);

    const YAML::Node& raw() const { return m_node; }
    const QString& path() const { return m_path; }
    int line() const; // 1-based
    bool isMap() const { return m_node.IsDefined() && m_node.IsMap(); }
    bool isList() const { return m_node.IsDefined() && m_node.IsSequence(); }
    bool isScalar() const { return m_node.IsDefined() && m_node.IsScalar(); }
    bool isAbsent() const { return !m_node.IsDefined() || m_node.IsNull(); }
    QString scalar() const; // this node's text (fails unless a single value)

    // A mapping's fields. An absent key and `key:` (null) read as absent.
    bool has(const char* key) const;
    YamlNode field(const char* key) const; // isAbsent() when missing
    QString text(const char* key, const QString& absent = {}) const;
    QString requiredText(const char* key) const; // missing or empty: "KEY: is required"
    int integer(const char* key, int absent, int min, int max) const;
    double number(const char* key, double absent, double min, double max) const;
    bool boolean(const char* key, bool absent) const;
    // A list of single values; with oneAllowed, a single value is a list of one.
    QStringList texts(const char* key, bool oneAllowed = false) const;
    std::optional<YamlNode> map(const char* key) const; // absent: nullopt; not a map: fails
    QList<YamlNode> list(const char* key) const;        // absent: empty; not a list: fails
    QList<YamlNode> items() const;                      // this list's items, path "KEY[i]"
    struct Entry;
    QList<Entry> entries() const; // this map's fields in order (a key that is not text fails)
    // Fails on the first key not in known ("unknown key (known: a, b)").
    void onlyKeys(const QStringList& known) const;

    // Ends the read: at this node, or at key's line (this node's when the key is missing).
    [[noreturn]] void fail(const QString& why) const;
    [[noreturn]] void fail(const char* key, const QString& why) const;
    // The same form for what is not an error (a warning about an ignored key).
    YamlError at(const QString& why) const;

private:
    QString childPath(const QString& key) const;
    YAML::Node m_node;
    QString m_path;
    QString m_file;
};

struct YamlNode::Entry
{
    QString key;
    YamlNode keyNode;
    YamlNode value;
};

// Parses text (at most maxBytes) and runs body on its root; any failure is one YamlError.
// An empty document is a null root (isAbsent()).
std::optional<YamlError> readYaml(const QByteArray& text, const QString& file,
    const std::function<void(const YamlNode& root)>& body, qsizetype maxBytes = kYamlMaxBytes);

// The same as a Result: the value body makes, or the error's message.
template <typename T>
Result<T> readYamlAs(const QByteArray& text, const QString& file, const std::function<T(const YamlNode& root)>& body,
    qsizetype maxBytes = kYamlMaxBytes)
{
    std::optional<T> value;
    if (const auto error = readYaml(
            text, file, [&](const YamlNode& root) { value = body(root); }, maxBytes))
        return Result<T>::failure(error->message());
    return std::move(*value);
}

} // namespace kf
