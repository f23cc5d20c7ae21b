// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "app/cli/flagtable.h"

#include <QDir>

#include <limits>

namespace kf::cli {

namespace {

template <typename T>
std::function<Result<void>(const QString&)> wholeNumber(
    const char* name, T* value, T minimum, T maximum, const char* what)
{
    return [flag = QString::fromUtf8(name), value, minimum, maximum, what](const QString& v) {
        bool ok = false;
        const qint64 n = v.toLongLong(&ok);
        if (!ok || n < minimum || n > maximum)
            return Result<void>::failure(QStringLiteral("%1 needs %2: %3").arg(flag, QString::fromUtf8(what), v));
        *value = T(n);
        return Result<void>();
    };
}

} // namespace

FlagTable& FlagTable::add(const char* name, bool* on)
{
    m_flags.append({ QString::fromUtf8(name), false, [on](const QString&) {
                        *on = true;
                        return Result<void>();
                    } });
    return *this;
}

FlagTable& FlagTable::add(const char* name, QString* value)
{
    return add(name, [value](const QString& v) {
        *value = v;
        return Result<void>();
    });
}

QString cleanPath(const QString& path)
{
    return path.isEmpty() ? path : QDir::cleanPath(path);
}

FlagTable& FlagTable::addPath(const char* name, QString* path)
{
    return add(name, [path](const QString& v) {
        *path = cleanPath(v);
        return Result<void>();
    });
}

FlagTable& FlagTable::add(const char* name, QStringList* values)
{
    return add(name, [values](const QString& v) {
        values->append(v);
        return Result<void>();
    });
}

FlagTable& FlagTable::add(const char* name, qint64* value, qint64 minimum, const char* what)
{
    return add(name, wholeNumber(name, value, minimum, std::numeric_limits<qint64>::max(), what));
}

FlagTable& FlagTable::add(const char* name, int* value, int minimum, const char* what)
{
    return add(name, value, minimum, std::numeric_limits<int>::max(), what);
}

FlagTable& FlagTable::add(const char* name, int* value, int minimum, int maximum, const char* what)
{
    return add(name, wholeNumber(name, value, minimum, maximum, what));
}

FlagTable& FlagTable::add(const char* name, std::function<Result<void>(const QString& value)> apply)
{
    m_flags.append({ QString::fromUtf8(name), true, std::move(apply) });
    return *this;
}

Result<void> FlagTable::take(QStringList& args) const
{
    for (qsizetype i = 0; i < args.size();) {
        const QString a = args.at(i);
        if (a == QLatin1String("--"))
            break;
        const Flag* flag = nullptr;
        QString value;
        bool joined = false; // "--name=value"
        for (const Flag& f : m_flags) {
            if (a == f.name) {
                flag = &f;
                break;
            }
            if (f.takesValue && f.name.startsWith(QLatin1String("--")) && a.startsWith(f.name + QLatin1Char('='))) {
                flag = &f;
                value = a.mid(f.name.size() + 1);
                joined = true;
                break;
            }
        }
        if (!flag) {
            ++i;
            continue;
        }
        args.removeAt(i);
        if (flag->takesValue && !joined) {
            if (i >= args.size())
                return Result<void>::failure(QStringLiteral("option %1 needs a value").arg(flag->name));
            value = args.takeAt(i);
        }
        if (const Result<void> applied = flag->apply(value); !applied)
            return applied;
    }
    return {};
}

Result<void> FlagTable::takeAll(QStringList& args) const
{
    if (const Result<void> taken = take(args); !taken)
        return taken;
    if (!args.isEmpty())
        return Result<void>::failure(QStringLiteral("unknown option ") + args.first());
    return {};
}

} // namespace kf::cli
