// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QString>

#include <optional>

namespace YAML {
class Node;
}

// A mapping key written twice: yaml-cpp keeps both entries and node[key] answers the first,
// where other YAML tools (PyYAML, yq, Ansible) take the last, so the file would mean one thing
// to KernelForge and another to whoever reviewed it. Every YAML reader refuses such a file,
// through this one check, run on the loaded document (nested mappings included).
namespace kf {

struct DuplicateYamlKey
{
    QString key;             // control characters escaped
    int line = 0;            // 1-based: the second one
    int firstLine = 0;       // the first one
    QString message() const; // "duplicate key 'name' (first at line 3)"
};

// Linear in the document: an alias's node is walked once, however often it is referenced.
std::optional<DuplicateYamlKey> findDuplicateYamlKey(const YAML::Node& root);

} // namespace kf
