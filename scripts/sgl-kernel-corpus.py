#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Adds one upstream sglang version to tests/data/sgl-kernel-corpus/: reads the kernel tree's
# files at a commit of a local sglang clone (either layout) and writes a MODEL of them, not the
# files: what the built-in patch set and the build checks read, nothing else (see the corpus
# README for why and for the rules). Prints the folder it wrote.
#
#   scripts/sgl-kernel-corpus.py GIT_DIR COMMIT [--repo sgl-project/sglang] [--out DIR]
#
# The model of each file:
#   CMakeLists.txt  the calls that matter (cmake_minimum_required, project, cmake_policy,
#                   if/elseif/else/endif and the other block commands, include_directories,
#                   option, find_package(CUDAToolkit), set/list of the FA3, COMPILE_THREADS and
#                   CCCL variables, anything naming POLICY or cccl), each as written with its
#                   line breaks and the comments inside it; comment words masked to "x" (the
#                   punctuation stays: a comment holding parentheses still holds them).
#   flash_attn.py   every top-level statement as written but function and class bodies (a
#                   signature, then "..."), docstrings dropped, comment words masked.
#   README.md       the lines naming a torch or CMake version; pyproject.toml (kernel and
#                   sglang's python/) the name, version and torch lines.
import argparse
import ast
import datetime
import hashlib
import io
import os
import re
import subprocess
import sys
import tokenize

LAYOUTS = [("python/sglang/kernels/aot", "aot"), ("sgl-kernel", "sgl-kernel")]
WORD = re.compile(r"[A-Za-z0-9_]+")


def git(gitdir, *args, check=True):
    r = subprocess.run(["git", "-C", gitdir, *args], capture_output=True)
    if check and r.returncode != 0:
        raise SystemExit(r.stderr.decode(errors="replace"))
    return r.stdout if r.returncode == 0 else None


def mask(comment):
    return WORD.sub("x", comment)


# ---- CMake -------------------------------------------------------------------------------

def cmake_commands(text):
    """(name, args, begin, end, comments) per call; comments as (begin, end) inside it."""
    i, n, out = 0, len(text), []

    def bracket_len(at):
        if at < n and text[at] == "[":
            j = at + 1
            while j < n and text[j] == "=":
                j += 1
            if j < n and text[j] == "[":
                return j + 1 - at
        return 0

    def skip_bracket(at, open_len):
        close = "]" + "=" * (open_len - 2) + "]"
        k = text.find(close, at + open_len)
        if k < 0:
            raise SystemExit("unterminated bracket in CMakeLists.txt")
        return k + len(close)

    def comment(at):
        b = bracket_len(at + 1)
        if b:
            return skip_bracket(at + 1, b)
        k = text.find("\n", at)
        return n if k < 0 else k

    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif c == "#":
            i = comment(i)
        elif c.isalpha() or c == "_":
            b = i
            while i < n and (text[i].isalnum() or text[i] == "_"):
                i += 1
            name = text[b:i]
            while i < n and text[i] in " \t":
                i += 1
            if i >= n or text[i] != "(":
                raise SystemExit(f"{name} without '(' in CMakeLists.txt")
            i += 1
            depth, args, comments = 0, [], []
            while True:
                if i >= n:
                    raise SystemExit(f"{name}( never closed")
                c = text[i]
                if c.isspace():
                    i += 1
                elif c == "#":
                    e = comment(i)
                    comments.append((i, e))
                    i = e
                elif c == ")" and depth == 0:
                    i += 1
                    break
                elif c in "()":
                    depth += 1 if c == "(" else -1
                    i += 1
                elif c == '"':
                    k = i + 1
                    while k < n and text[k] != '"':
                        k += 2 if text[k] == "\\" else 1
                    args.append(text[i + 1:k])
                    i = k + 1
                elif bracket_len(i):
                    bl = bracket_len(i)
                    e = skip_bracket(i, bl)
                    args.append(text[i + bl:e - bl])
                    i = e
                else:
                    k = i
                    while k < n and not text[k].isspace() and text[k] not in '()#"':
                        k += 2 if text[k] == "\\" else 1
                    args.append(text[i:k])
                    i = k
            out.append((name, args, b, i, comments))
        else:
            raise SystemExit(f"unexpected {c!r} in CMakeLists.txt")
    return out


BLOCKS = {"if", "elseif", "else", "endif", "foreach", "endforeach", "while", "endwhile", "function",
          "endfunction", "macro", "endmacro", "block", "endblock"}
ALWAYS = {"cmake_minimum_required", "project", "cmake_policy", "include_directories", "option"}
VARIABLES = re.compile(r"FA3|COMPILE_THREADS|CCCL|cccl", re.I)


def kept(name, args):
    low = name.lower()
    if low in BLOCKS or low in ALWAYS:
        return True
    if low == "find_package" and args and args[0] == "CUDAToolkit":
        return True
    if low in ("set", "list") and any(VARIABLES.search(a) for a in args[:2]):
        return True
    return any("POLICY" in a or "cccl" in a.lower() for a in args)


def model_cmake(text):
    text = text.replace("\r\n", "\n")
    lines_out = []
    for name, args, b, e, comments in cmake_commands(text):
        if not kept(name, args):
            continue
        line_start = text.rfind("\n", 0, b) + 1
        indent = text[line_start:b] if not text[line_start:b].strip() else ""
        body = text[b:e]
        for cb, ce in reversed(comments):
            body = body[:cb - b] + mask(text[cb:ce]) + body[ce - b:]
        # a comment after the call on its line stays with it
        eol = text.find("\n", e)
        rest = text[e:eol if eol >= 0 else len(text)]
        tail = ""
        if rest.strip().startswith("#"):
            tail = rest[:len(rest) - len(rest.lstrip())] + mask(rest.strip())
        lines_out.append(indent + body + tail)
    return "\n".join(lines_out) + "\n"


# ---- Python ------------------------------------------------------------------------------

def masked_source(src):
    """The source with each comment's words masked (tokenize finds the comments)."""
    lines = src.splitlines(keepends=True)
    edits = []
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type == tokenize.COMMENT:
            edits.append((tok.start, tok.end, mask(tok.string)))
    for (sr, sc), (er, ec), new in reversed(edits):
        line = lines[sr - 1]
        lines[sr - 1] = line[:sc] + new + line[ec:]
    return "".join(lines)


def model_python(src):
    src = masked_source(src.replace("\r\n", "\n"))
    lines = src.split("\n")
    tree = ast.parse(src)
    out = []
    for node in tree.body:
        if isinstance(node, ast.Expr) and isinstance(getattr(node, "value", None), ast.Constant) \
                and isinstance(node.value.value, str):
            continue  # a docstring
        first = min([d.lineno for d in getattr(node, "decorator_list", [])] + [node.lineno])
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body[0]
            head = lines[first - 1:body.lineno - 1] if body.lineno > node.lineno else \
                [lines[node.lineno - 1][:lines[node.lineno - 1].index(":") + 1]]
            while head and not head[-1].rstrip().endswith(":"):
                head = head[:-1]  # comments between the signature and the body
            indent = re.match(r"\s*", lines[first - 1]).group(0)
            out.append("\n\n" + "\n".join(head) + "\n" + indent + "    ...")
        else:
            out.append("\n".join(lines[first - 1:node.end_lineno]))
    return "\n".join(out).strip("\n") + "\n"


# ---- The rest ------------------------------------------------------------------------------

def model_lines(text, pattern):
    rx = re.compile(pattern, re.I)
    return "".join(l + "\n" for l in text.replace("\r\n", "\n").split("\n") if rx.search(l))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gitdir")
    ap.add_argument("commit")
    ap.add_argument("--repo", default="sgl-project/sglang")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "tests", "data",
                                                  "sgl-kernel-corpus"))
    a = ap.parse_args()
    commit = git(a.gitdir, "rev-parse", a.commit).decode().strip()
    date = git(a.gitdir, "log", "-1", "--format=%cs", commit).decode().strip()
    layout = None
    for sub, name in LAYOUTS:
        if git(a.gitdir, "cat-file", "-e", f"{commit}:{sub}/CMakeLists.txt", check=False) is not None:
            layout = (sub, name)
            break
    if not layout:
        raise SystemExit(f"{commit}: no CMakeLists.txt in python/sglang/kernels/aot or sgl-kernel")
    sub, name = layout
    folder = os.path.join(a.out, f"{date}-{commit[:10]}")
    files = [
        (f"{sub}/CMakeLists.txt", model_cmake),
        (f"{sub}/python/sgl_kernel/flash_attn.py", model_python),
        (f"{sub}/README.md", lambda t: model_lines(t, r"requires\s+torch|\btorch\s*(==|>=)|\bcmake\s*(>=|\u2265)")),
        (f"{sub}/pyproject.toml", lambda t: model_lines(t, r"^\s*(\[project\]|name\s*=|version\s*=|\"torch)")),
        ("python/pyproject.toml",
         lambda t: model_lines(t, r"^\s*(\[project\]|name\s*=|\"torch\s*==|\"sglang-kernel|\"sgl-kernel)")),
    ]
    source = [f"repo: {a.repo}", f"commit: {commit}", f"date: {date}", f"layout: {name}",
              "made: scripts/sgl-kernel-corpus.py (a model of the files, see ../README.md)"]
    written = []
    for path, model in files:
        data = git(a.gitdir, "show", f"{commit}:{path}", check=False)
        if data is None:
            continue
        text = data.decode("utf-8")
        dest = os.path.join(folder, path)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "w", encoding="utf-8", newline="") as f:
            f.write(model(text))
        source.append(f"file: {path} sha256 {hashlib.sha256(data).hexdigest()}")
        written.append(path)
    marker = os.path.join(folder, sub, "python", "sgl_kernel", "__init__.py")
    if not os.path.exists(os.path.join(folder, sub, "python", "sgl_kernel", "flash_attn.py")):
        os.makedirs(os.path.dirname(marker), exist_ok=True)
        with open(marker, "w") as f:
            f.write("# the package folder (a marker of the kernel tree); this version has no flash_attn.py\n")
    with open(os.path.join(folder, "SOURCE"), "w") as f:
        f.write("\n".join(source) + "\n")
    print(folder)


if __name__ == "__main__":
    main()
