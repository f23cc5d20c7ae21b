// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QString>
#include <QtGlobal>

#include <optional>
#include <utility>

namespace kf {

// What kind of failure an error is, for callers that act on it (retry or not, fall back or
// not). The message is always for a person; the kind is for code.
enum class ErrorKind {
    Failed,      // the default: this attempt failed (retrying later may help)
    Permanent,   // retrying cannot help (host key refused, authentication refused)
    NotFound,    // the thing asked for does not exist (a file, a job, a stored secret)
    Unsupported, // the other side lacks the feature (an SFTP extension, a field)
};

namespace detail {
struct Error
{
    QString message;
    ErrorKind kind = ErrorKind::Failed;
};
inline Error makeError(QString message, ErrorKind kind)
{
    return { message.isEmpty() ? QStringLiteral("unknown error") : std::move(message), kind };
}
// A failure's value was read: a bug, never undefined behaviour. Stops the program in every build.
[[noreturn]] inline void valueOfFailure()
{
    qFatal("Result: the value of a failure was read (check ok() first)");
}
} // namespace detail

template <typename T = void> class Result;

// The outcome of an operation that returns nothing but can fail with a message a person
// understands. Errors travel inside the value (docs/STYLE.md, "Errors"); no bool* or
// QString* out-parameters, and a dropped result is a compiler warning.
template <> class [[nodiscard]] Result<void>
{
public:
    Result() = default; // success
    static Result failure(QString message, ErrorKind kind = ErrorKind::Failed)
    {
        Result r;
        r.m_error = detail::makeError(std::move(message), kind);
        return r;
    }
    explicit operator bool() const { return !m_error; }
    bool ok() const { return !m_error; }
    const QString& error() const { return m_error ? m_error->message : emptyMessage(); }
    ErrorKind kind() const { return m_error ? m_error->kind : ErrorKind::Failed; }

private:
    static const QString& emptyMessage()
    {
        static const QString empty;
        return empty;
    }
    std::optional<detail::Error> m_error;
};

// A value, or the error that kept it from being made.
template <typename T> class [[nodiscard]] Result
{
public:
    Result(T value)
        : m_value(std::move(value))
    { } // NOLINT(google-explicit-constructor): returning a value is success
    static Result failure(QString message, ErrorKind kind = ErrorKind::Failed)
    {
        Result r;
        r.m_error = detail::makeError(std::move(message), kind);
        return r;
    }
    // Propagates a failed Result<void> (or another Result's error: failure(other)).
    Result(const Result<void>& failed)
        : m_error(detail::Error { failed.error(), failed.kind() })
    {
        Q_ASSERT(!failed.ok());
    } // NOLINT(google-explicit-constructor)
    explicit operator bool() const { return m_value.has_value(); }
    bool ok() const { return m_value.has_value(); }
    // Reading the value of a failure stops the program (detail::valueOfFailure).
    const T& value() const& { return checked(); }
    T& value() & { return const_cast<T&>(checked()); }
    T&& value() && { return std::move(const_cast<T&>(checked())); }
    const T* operator->() const { return &checked(); }
    const T& operator*() const { return checked(); }
    const QString& error() const { return m_error.message; }
    ErrorKind kind() const { return m_error.kind; }
    // The outcome without the value, to return from a Result<void> function.
    Result<void> withoutValue() const { return ok() ? Result<void>() : Result<void>::failure(error(), kind()); }

private:
    Result() = default;
    const T& checked() const
    {
        if (Q_UNLIKELY(!m_value))
            detail::valueOfFailure();
        return *m_value;
    }
    std::optional<T> m_value;
    detail::Error m_error;
};

} // namespace kf
