// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/patchset.h"
#include "tests/fuzz/fuzzinput.h"

namespace {

using kf::fuzz::FuzzInput;

QByteArray scalar(FuzzInput& in)
{
    switch (in.below(9)) {
    case 8:
        return in.pick({ "{name: set, args: [A, {regex: '('}]}", "{name: 'a b'}", "{args: []}", "[try:, 'x']",
            "{name: include_directories, args: ['${X}'], exact: true, top_level: yes}", "{argz: 1}" });
    case 0:
        return in.pick({ "'^[ \\t]*cmake_policy\\s*\\(\\s*SET'", "'('", "'(a*)*b'", "'\\1'", "'[^#\\n]*/cccl\\b'", "''",
            "'^include_directories\\s*\\([^()]*\\)[ \\t]*$'" });
    case 1: return in.pick({ "true", "false", "yes", "~", "null", "0", "-1" });
    case 2: return in.pick({ "CMakeLists.txt", "../escape.txt", "/abs/path", "python/sgl_kernel/__init__.py" });
    case 3: return in.pick({ "[]", "[a, b]", "{}", "[CMakeLists.txt, python/sgl_kernel]" });
    case 4: return "|\n      line one\n      line \\1 two";
    case 5: return in.number();
    case 6: return "\"" + in.raw(10).replace('"', '\'').replace('\n', ' ') + "\"";
    default: return in.pick({ "if(POLICY \\1)", "endif()", "guard", "x" });
    }
}

// An edit: one of the operations with its keys (and sometimes keys of another operation).
QByteArray edit(FuzzInput& in, const QByteArray& indent)
{
    QByteArray out
        = indent + "- " + in.pick({ "wrap", "insert_after", "insert_before", "replace", "ensure", "x" }) + ":\n";
    const int keys = in.below(6);
    for (int k = 0; k < keys; ++k) {
        out += indent + "    "
            + in.pick({ "label", "regex", "before", "after", "optional", "text", "with", "find", "anchor", "first",
                "indent", "lines", "contains", "after_regex", "command", "python" });
        out += ": " + scalar(in) + "\n";
    }
    return out;
}

// A patch set: target, patches with requires / applied_if / done_if conditions and edits,
// keys in any order, some missing, some duplicated, some of the wrong type.
QByteArray patchSet(FuzzInput& in)
{
    QByteArray out;
    if (in.chance(90))
        out += "name: " + scalar(in) + "\n";
    if (in.chance(70))
        out += "title: " + scalar(in) + "\n";
    if (in.chance(80)) {
        out += "target:\n  name: sgl-kernel\n";
        out += "  markers: " + scalar(in) + "\n";
        if (in.chance(50))
            out += "  subdirs: " + scalar(in) + "\n";
    }
    out += in.chance(90) ? QByteArray("patches:\n") : "patches: " + scalar(in) + "\n";
    const int patches = in.below(4);
    for (int p = 0; p < patches; ++p) {
        out += "  - id: " + scalar(in) + "\n";
        out += "    file: " + scalar(in) + "\n";
        if (in.chance(40))
            out += "    why: " + scalar(in) + "\n";
        for (const char* cond : { "requires", "applied_if", "done_if", "fixed_upstream_if" }) {
            if (in.chance(40)) {
                out += "    " + QByteArray(cond) + ":\n";
                const int n = 1 + in.below(2);
                for (int c = 0; c < n; ++c) {
                    out += "      - " + in.pick({ "regex", "contains", "file", "command", "python" });
                    out += ": " + scalar(in) + "\n";
                }
            }
        }
        out += "    edits:\n";
        const int edits = in.below(4);
        for (int e = 0; e < edits; ++e)
            out += edit(in, "      ");
    }
    if (in.chance(10))
        out += in.raw(30);
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    (void)kf::patch::parsePatchSetYaml(
        QByteArray(reinterpret_cast<const char*>(data), qsizetype(size)), QStringLiteral("fuzz.yaml"));
    FuzzInput in(data, size);
    (void)kf::patch::parsePatchSetYaml(patchSet(in), QStringLiteral("fuzz.yaml"));
    return 0;
}
