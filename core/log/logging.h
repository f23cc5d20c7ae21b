// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QString>

#include <spdlog/spdlog.h>

#include <memory>

// One spdlog logger per subsystem (ssh, patch, build, monitor, ui, app), all writing to the
// same sinks: stderr and a rotating file under the XDG state directory. Every message goes
// through the secret redactor (core/util/secretregistry.h) before it reaches a sink.
namespace kf::log {

struct Options
{
    spdlog::level::level_enum level = spdlog::level::warn;
    QString directory; // empty: paths::stateDir() + "/logs"
    bool toStderr = true;
    bool toFile = true;
};

// Idempotent; safe to call again to change the level or sinks (tests do).
void init(const Options& options = {});
// Parses "trace|debug|info|warn|error|critical|off"; returns false for anything else.
bool parseLevel(const QString& text, spdlog::level::level_enum* level);
QString logFilePath();
void flush();
// Forwards qDebug/qWarning/qCritical into the "app" logger (or "ui" for categories starting "kf.ui").
void installQtMessageHandler();

std::shared_ptr<spdlog::logger> app();
std::shared_ptr<spdlog::logger> ssh();
std::shared_ptr<spdlog::logger> patch();
std::shared_ptr<spdlog::logger> build();
std::shared_ptr<spdlog::logger> monitor();
std::shared_ptr<spdlog::logger> ui();

} // namespace kf::log

// spdlog/fmt formatting of QString (UTF-8).
template <> struct fmt::formatter<QString> : fmt::formatter<std::string_view>
{
    template <typename Ctx> auto format(const QString& s, Ctx& ctx) const -> decltype(ctx.out())
    {
        const QByteArray u = s.toUtf8();
        return fmt::formatter<std::string_view>::format(std::string_view(u.constData(), size_t(u.size())), ctx);
    }
};
template <> struct fmt::formatter<QByteArray> : fmt::formatter<std::string_view>
{
    template <typename Ctx> auto format(const QByteArray& s, Ctx& ctx) const -> decltype(ctx.out())
    {
        return fmt::formatter<std::string_view>::format(std::string_view(s.constData(), size_t(s.size())), ctx);
    }
};
