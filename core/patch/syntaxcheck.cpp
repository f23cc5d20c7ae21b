// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/syntaxcheck.h"

#include "core/patch/cmakesyntax.h"
#include "core/transport/transport.h"

#include <QRegularExpression>

namespace kf::patch {
namespace {

constexpr int kTimeoutMs = 60000;
constexpr qint64 kMaxOutput = 64 * 1024;
constexpr qsizetype kMaxDetail = 240;

// One line of what the server printed: printable characters only, bounded.
QString tidy(QString s)
{
    QString out;
    for (const QChar c : std::as_const(s)) {
        if (out.size() >= kMaxDetail)
            break;
        out += c.isPrint() ? c : QChar(QLatin1Char(' '));
    }
    return out.simplified();
}

// `py_compile`'s report: "  File "P", line 9 / the line / ^^^ / SyntaxError: ..." -> "line 9: SyntaxError: ...".
QString compileError(const QString& output)
{
    static const QRegularExpression lineRe(QStringLiteral("line (\\d+)"));
    QString error;
    const QStringList lines = output.split(QLatin1Char('\n'));
    for (qsizetype i = lines.size() - 1; i >= 0 && error.isEmpty(); --i)
        if (!lines[i].trimmed().isEmpty() && !lines[i].startsWith(QLatin1String("kf-syntax")))
            error = lines[i].trimmed();
    QString line;
    for (auto it = lineRe.globalMatch(output); it.hasNext();)
        line = it.next().captured(1);
    return tidy(line.isEmpty() ? error : QStringLiteral("line %1: %2").arg(line, error));
}

// $1 the copy to compile, $2 the scratch folder (removed at the end), $3 the original ("": none).
const char* const kPythonScript = R"(py=$(command -v python3 2>/dev/null || command -v python 2>/dev/null)
if [ -z "$py" ]; then rm -rf -- "$2"; echo kf-syntax-no-python; exit 0; fi
PYTHONPYCACHEPREFIX="$2/pycache"; export PYTHONPYCACHEPREFIX
"$py" -m py_compile "$1" 2>&1
echo "kf-syntax-new $?"
if [ -n "$3" ]; then
  mkdir -p -- "$2/old" && cp -- "$3" "$2/old/${1##*/}" && "$py" -m py_compile "$2/old/${1##*/}" >/dev/null 2>&1
  echo "kf-syntax-old $?"
fi
rm -rf -- "$2"
)";

SyntaxVerdict notChecked(const QString& why)
{
    return { SyntaxVerdict::NotChecked, tidy(why) };
}

SyntaxVerdict checkPython(Transport& transport, const SyntaxCheck& check)
{
    const QString name = check.file.section(QLatin1Char('/'), -1);
    const QString dir = check.scratchDir + QStringLiteral("/python-check");
    const QString copy = dir + QStringLiteral("/new/") + name;
    if (const Result<void> made = transport.mkpath(dir + QStringLiteral("/new"), 0700); !made)
        return notChecked(QStringLiteral("cannot make %1: %2").arg(dir, made.error()));
    WriteOptions wo;
    wo.mode = 0600;
    if (const Result<void> written = transport.writeFileAtomic(copy, check.text, wo); !written)
        return notChecked(QStringLiteral("cannot write the copy to check: %1").arg(written.error()));
    CommandSpec spec;
    spec.command = QString::fromLatin1(kPythonScript);
    spec.arguments = { copy, dir, check.originalExists ? check.originalPath : QString() };
    spec.maxOutputBytes = kMaxOutput;
    const ExecResult r = transport.exec(spec, kTimeoutMs);
    const QString out = QString::fromUtf8(r.stdOut + r.stdErr).replace(copy, check.file);
    if (!r.error.isEmpty() || !r.ok())
        return notChecked(QStringLiteral("the check did not run: %1")
                              .arg(r.error.isEmpty() ? QStringLiteral("exit status %1").arg(r.exitCode) : r.error));
    if (out.contains(QLatin1String("kf-syntax-no-python")))
        return notChecked(QStringLiteral("no python3 or python on the server's PATH"));
    static const QRegularExpression newRe(
        QStringLiteral("^kf-syntax-new (\\d+)$"), QRegularExpression::MultilineOption);
    static const QRegularExpression oldRe(
        QStringLiteral("^kf-syntax-old (\\d+)$"), QRegularExpression::MultilineOption);
    const auto newRc = newRe.match(out);
    if (!newRc.hasMatch())
        return notChecked(QStringLiteral("the check printed no result"));
    if (newRc.captured(1) == QLatin1String("0"))
        return { SyntaxVerdict::Parses, {} };
    const QString detail = compileError(out.left(newRc.capturedStart()));
    const auto oldRc = oldRe.match(out);
    if (oldRc.hasMatch() && oldRc.captured(1) != QLatin1String("0"))
        return { SyntaxVerdict::BrokenBefore, detail };
    return { SyntaxVerdict::Broken, detail };
}

SyntaxVerdict checkCMake(const SyntaxCheck& check)
{
    const CMakeSyntax now = checkCMakeSyntax(QString::fromUtf8(check.text));
    if (now.ok)
        return { SyntaxVerdict::Parses, {} };
    if (check.originalExists && !checkCMakeSyntax(QString::fromUtf8(check.original)).ok)
        return { SyntaxVerdict::BrokenBefore, now.message };
    return { SyntaxVerdict::Broken, now.message };
}

} // namespace

SourceLanguage languageOf(const QString& file)
{
    const QString name = file.section(QLatin1Char('/'), -1);
    if (name.endsWith(QLatin1String(".py")) || name.endsWith(QLatin1String(".pyi")))
        return SourceLanguage::Python;
    if (name == QLatin1String("CMakeLists.txt") || name.endsWith(QLatin1String(".cmake")))
        return SourceLanguage::CMake;
    return SourceLanguage::Other;
}

QString languageName(SourceLanguage language)
{
    switch (language) {
    case SourceLanguage::Python: return QStringLiteral("Python");
    case SourceLanguage::CMake: return QStringLiteral("CMake");
    case SourceLanguage::Other: break;
    }
    return {};
}

SyntaxVerdict checkSyntax(Transport& transport, const SyntaxCheck& check)
{
    switch (languageOf(check.file)) {
    case SourceLanguage::Python: return checkPython(transport, check);
    case SourceLanguage::CMake: return checkCMake(check);
    case SourceLanguage::Other: break;
    }
    return notChecked(QStringLiteral("no check for this kind of file"));
}

} // namespace kf::patch
