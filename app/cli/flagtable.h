// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

// The one flag parser of kernelforge-cli: each (sub)command lists its flags in a table and
// take() removes them, with their values, from the arguments; what is left (positional words,
// flags of another table) stays in order for the next step. A value follows its flag
// ("--profile NAME", "-p 22") or, for a long flag, is joined by '=' ("--timeout=30").
// Everything after a "--" is left alone.
//
//   bool json = false;
//   QString profile;
//   FlagTable flags;
//   flags.add("--json", &json).add("--profile", &profile);
//   if (const auto taken = flags.take(args); !taken) ... usage error (exit 2): taken.error()
namespace kf::cli {

// A path as the CLI keeps and prints it: QDir::cleanPath's lexical form, for a local path and
// a server's alike ("./a/../b/" -> "b", "build//x/" -> "build/x", "~/sgl/" -> "~/sgl"); an
// empty path stays empty. Patch roots are printed as their canonical folder (patch::canonicalRoot).
QString cleanPath(const QString& path);

class FlagTable
{
public:
    // A switch: present sets *on.
    FlagTable& add(const char* name, bool* on);
    // A value: the last one given wins.
    FlagTable& add(const char* name, QString* value);
    // A path, kept (and so printed) in its clean form: cleanPath().
    FlagTable& addPath(const char* name, QString* path);
    // A repeatable value: every one is appended.
    FlagTable& add(const char* name, QStringList* values);
    // A whole number >= minimum; anything else is a usage error "<name> needs <what>: <value>".
    FlagTable& add(const char* name, int* value, int minimum, const char* what);
    FlagTable& add(const char* name, qint64* value, qint64 minimum, const char* what);
    // A whole number from minimum to maximum.
    FlagTable& add(const char* name, int* value, int minimum, int maximum, const char* what);
    // A value the command checks or converts as it is read; a failure is a usage error.
    FlagTable& add(const char* name, std::function<Result<void>(const QString& value)> apply);
    // One of a set of names, read by fromName; anything else is "<name> needs one of <choices>".
    template <typename T>
    FlagTable& add(const char* name, T* value, std::optional<T> (*fromName)(const QString&), const char* choices)
    {
        return add(name, [flag = QString::fromUtf8(name), value, fromName, choices](const QString& v) {
            const std::optional<T> chosen = fromName(v);
            if (!chosen)
                return Result<void>::failure(
                    QStringLiteral("%1 needs one of %2: %3").arg(flag, QString::fromUtf8(choices), v));
            *value = *chosen;
            return Result<void>();
        });
    }

    // Removes every flag of the table (and its value) before the first "--" from args.
    // Fails on a flag without its value or a value that apply() refuses; the message names
    // the flag ("--count needs a value").
    Result<void> take(QStringList& args) const;
    // take(), and then nothing may be left: "unknown option <the first word left>".
    Result<void> takeAll(QStringList& args) const;

private:
    struct Flag
    {
        QString name;
        bool takesValue = true;
        std::function<Result<void>(const QString&)> apply;
    };
    QList<Flag> m_flags;
};

} // namespace kf::cli
