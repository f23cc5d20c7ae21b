// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QByteArray>
#include <QString>

namespace kf {
class Transport;
}

// A patched file is checked as the server will read it before it replaces the original
// (core/patch/applier.h), when KernelForge knows its language:
//   Python (*.py, *.pyi): the server's python (python3, else python, on the PATH a command
//     gets there) runs `-m py_compile` on a copy of the new text in a scratch folder of ours
//     (one command through Transport::exec, bounded in time and output; byte code goes to a
//     PYTHONPYCACHEPREFIX inside that folder, which the command removes);
//   CMake (CMakeLists.txt, *.cmake): checkCMakeSyntax (core/patch/cmakesyntax.h), here.
// When the new text does not parse, the original is checked the same way, so a file that
// "no longer parses" is told from one that did not parse before either. What the server
// says is hostile: only its printable characters are kept, one line, at most 240 of them.
namespace kf::patch {

enum class SourceLanguage { Other, Python, CMake };
SourceLanguage languageOf(const QString& file);
QString languageName(SourceLanguage language); // "Python", "CMake", ""

struct SyntaxVerdict
{
    enum Kind {
        Parses,
        Broken,       // the new text does not parse, the original did (or there was none)
        BrokenBefore, // neither parses: not the patch's doing
        NotChecked,   // an unknown language, no python on the server, the check itself failed
    };
    Kind kind = NotChecked;
    QString detail; // Broken*: "line 9: SyntaxError: expected 'except' or 'finally' block"; NotChecked: why
};

struct SyntaxCheck
{
    QString file;    // relative to the root: the language and the name in messages
    QByteArray text; // what would be written
    bool originalExists = false;
    QByteArray original;  // what the file holds now
    QString originalPath; // a copy of it on the target (the backup), for the server's python
    QString scratchDir;   // an existing folder of ours on the target (0700) for the copy that is compiled
};

// Blocking (Python: a write and one command on the target).
SyntaxVerdict checkSyntax(Transport& transport, const SyntaxCheck& check);

} // namespace kf::patch
