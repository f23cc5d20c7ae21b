// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/util/yamlkeys.h"

#include "core/util/terminaltext.h"

#include <QHash>
#include <QSet>

#include <yaml-cpp/yaml.h>

#include <vector>

namespace kf {

QString DuplicateYamlKey::message() const
{
    return QStringLiteral("duplicate key '%1' (first at line %2)").arg(key).arg(firstLine);
}

std::optional<DuplicateYamlKey> findDuplicateYamlKey(const YAML::Node& root)
{
    std::vector<YAML::Node> stack { root };
    QSet<qint64> walked; // by position in the text: an alias is its anchor's node
    while (!stack.empty()) {
        const YAML::Node n = stack.back();
        stack.pop_back();
        if (!n.IsDefined() || !(n.IsMap() || n.IsSequence()))
            continue;
        if (const YAML::Mark m = n.Mark(); !m.is_null()) {
            if (walked.contains(m.pos))
                continue;
            walked.insert(m.pos);
        }
        if (n.IsSequence()) {
            for (const YAML::Node& item : n)
                stack.push_back(item);
            continue;
        }
        QHash<QString, int> lines;
        for (const auto& kv : n) {
            if (kv.first.IsScalar()) {
                const QString key = QString::fromStdString(kv.first.Scalar());
                const int line = kv.first.Mark().line + 1;
                if (const auto first = lines.constFind(key); first != lines.cend())
                    return DuplicateYamlKey { terminalSafe(key), line, first.value() };
                lines.insert(key, line);
            }
            stack.push_back(kv.first);
            stack.push_back(kv.second);
        }
    }
    return std::nullopt;
}

} // namespace kf
