// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "tests/fuzz/fuzzinput.h"

#include <QByteArray>

#include <vector>

// Documents of one YAML format from its schema, for the harness of each format read by
// core/util/yamlnode.h: the format's keys in any order, some missing, some written twice,
// values of the right kind and of every wrong one (a list where a value goes, yes for a
// boolean, a number out of range, a control character), block and flow style, aliases.
namespace kf::fuzz {

struct YamlField
{
    enum Kind { Text, Bool, Int, Texts, Map, Maps };
    const char* key;
    Kind kind;
    std::vector<YamlField> fields = {}; // of a Map, or of each item of Maps
};

class YamlGen
{
public:
    explicit YamlGen(FuzzInput& in)
        : m_in(in)
    { }

    QByteArray document(const std::vector<YamlField>& top)
    {
        QByteArray out = map(top, "");
        if (m_in.chance(5))
            out += m_in.raw(40);
        return out;
    }

private:
    QByteArray scalar()
    {
        switch (m_in.below(8)) {
        case 0: return m_in.number();
        case 1: return m_in.pick({ "true", "false", "yes", "no", "on", "True", "FALSE", "y", "~", "null" });
        case 2: return m_in.pick({ "''", "\"\"", "\"a\\tb\"", "\"\\e[2Kx\"", "'a: b'", "\"line\\nbreak\"" });
        case 3: return m_in.pick({ "*a", "&a x", "!!str 1", "!!int x", "? k", "|\n  block\n  text", ">-\n  folded" });
        case 4: return m_in.pick({ "make", "pip install -e .", "/opt/sglang", "H200", "bf16", "sgl-kernel" });
        case 5: return "\"" + m_in.raw(12).replace('"', '\'').replace('\\', '/').replace('\n', ' ') + "\"";
        default: return m_in.pick({ "a", "x y", "-DA=1", "8", "30000", "0.5", "1e309", "-1", "[]", "{}" });
        }
    }

    QByteArray value(const YamlField& f, const QByteArray& indent)
    {
        if (m_in.chance(4))
            return " " + m_in.pick({ "[a, b]", "{k: v}", "", "[[x]]", "{a: [1, {b: 2}]}", "&a [*a]" }) + "\n";
        switch (f.kind) {
        // Mostly a value of the right kind (so that documents get past their first field), else any.
        case YamlField::Text:
            return " "
                + (m_in.chance(50) ? m_in.pick({ "a", "make", "m", "/opt/x", "H200", "bf16", "sm_120a" }) : scalar())
                + "\n";
        case YamlField::Bool:
            return " "
                + (m_in.chance(60) ? m_in.pick({ "true", "false" })
                                   : m_in.pick({ "True", "TRUE", "False", "yes", "no", "on", "off", "1", "~" }))
                + "\n";
        case YamlField::Int:
            return " " + (m_in.chance(60) ? QByteArray::number(1 + m_in.below(8)) : m_in.number()) + "\n";
        case YamlField::Texts: {
            if (m_in.chance(40)) {
                QByteArray flow = " [";
                for (int i = m_in.below(4); i > 0; --i)
                    flow += scalar() + (i > 1 ? ", " : "");
                return flow + "]\n";
            }
            QByteArray block = "\n";
            for (int i = m_in.below(4); i > 0; --i)
                block += indent + "  - " + scalar() + "\n";
            return block;
        }
        case YamlField::Map: return "\n" + map(f.fields, indent + "  ");
        case YamlField::Maps: {
            QByteArray block = "\n";
            for (int i = m_in.below(4); i > 0; --i) {
                const QByteArray item = map(f.fields, indent + "    ");
                block += indent + "  -" + (item.isEmpty() ? QByteArray(" {}\n") : " " + item.mid(indent.size() + 4));
            }
            return block;
        }
        }
        return "\n";
    }

    QByteArray map(const std::vector<YamlField>& fields, const QByteArray& indent)
    {
        if (++m_depth > 6) {
            --m_depth;
            return {};
        }
        QByteArray out;
        for (const YamlField& f : fields) {
            const int times = m_in.chance(75) ? (m_in.chance(4) ? 2 : 1) : 0;
            for (int t = 0; t < times; ++t)
                out += indent + f.key + ":" + value(f, indent);
        }
        if (m_in.chance(5))
            out += indent + m_in.pick({ "unknown", "password", "x-extra", "\"\\u0007\"" }) + ": " + scalar() + "\n";
        --m_depth;
        return out;
    }

    FuzzInput& m_in;
    int m_depth = 0;
};

} // namespace kf::fuzz
