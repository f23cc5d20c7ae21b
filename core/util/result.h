// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QString>

#include <optional>
#include <utility>

namespace kf {

// Outcome of an operation that can fail with a message a person understands.
// Errors travel inside the value (STYLE.md rule 3); no bool* out-parameters.
class Status
{
public:
    Status() = default;
    static Status failure(QString message)
    {
        Status s;
        s.m_error = message.isEmpty() ? QStringLiteral("unknown error") : std::move(message);
        return s;
    }
    explicit operator bool() const { return m_error.isEmpty(); }
    bool ok() const { return m_error.isEmpty(); }
    const QString& error() const { return m_error; }

private:
    QString m_error;
};

template <typename T> class Result
{
public:
    Result(T value)
        : m_value(std::move(value))
    { } // NOLINT(google-explicit-constructor): returning a value is success
    static Result failure(QString message)
    {
        Result r;
        r.m_error = message.isEmpty() ? QStringLiteral("unknown error") : std::move(message);
        return r;
    }
    Result(const Status& failed)
        : m_error(failed.error())
    { } // NOLINT: propagate a failed Status
    explicit operator bool() const { return m_value.has_value(); }
    bool ok() const { return m_value.has_value(); }
    const T& value() const& { return *m_value; }
    T& value() & { return *m_value; }
    T&& value() && { return std::move(*m_value); }
    const T* operator->() const { return &*m_value; }
    const T& operator*() const { return *m_value; }
    const QString& error() const { return m_error; }
    Status status() const { return ok() ? Status() : Status::failure(m_error); }

private:
    Result() = default;
    std::optional<T> m_value;
    QString m_error;
};

} // namespace kf
