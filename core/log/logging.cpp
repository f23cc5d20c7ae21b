// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/log/logging.h"

#include "core/store/paths.h"
#include "core/util/secretregistry.h"
#include "core/util/terminaltext.h"

#include <QDir>

#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>

#include <mutex>

namespace kf::log {
namespace {

// Redacts the payload and shows its control characters escaped (a record is one line, and a
// server's text in it can neither forge another record nor act on the terminal that shows the
// log), then hands the message to the wrapped sinks.
class RedactingSink final : public spdlog::sinks::base_sink<std::mutex>
{
public:
    std::vector<spdlog::sink_ptr> targets;

protected:
    void sink_it_(const spdlog::details::log_msg& msg) override
    {
        std::string clean = SecretRegistry::redact(std::string_view(msg.payload.data(), msg.payload.size()));
        if (const QString text = QString::fromStdString(clean); needsTerminalEscape(text))
            clean = terminalSafe(text).toStdString();
        spdlog::details::log_msg copy(msg.time, msg.source, msg.logger_name, msg.level, clean);
        for (auto& t : targets)
            if (t->should_log(copy.level))
                t->log(copy);
    }
    void flush_() override
    {
        for (auto& t : targets)
            t->flush();
    }
};

constexpr const char* kNames[] = { "app", "ssh", "patch", "build", "monitor", "ui" };

std::mutex g_mutex;
std::shared_ptr<RedactingSink> g_sink; // guarded by g_mutex
QString g_logFile;

std::shared_ptr<spdlog::logger> get(const char* name)
{
    if (auto l = spdlog::get(name))
        return l;
    init({});
    return spdlog::get(name);
}

} // namespace

void init(const Options& options)
{
    std::lock_guard lock(g_mutex);
    auto sink = std::make_shared<RedactingSink>();
    if (options.toStderr) {
        auto err = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
        err->set_pattern("%^[%l]%$ %n: %v");
        sink->targets.push_back(err);
    }
    if (options.toFile) {
        const QString dir
            = options.directory.isEmpty() ? paths::stateDir() + QStringLiteral("/logs") : options.directory;
        QDir().mkpath(dir);
        g_logFile = dir + QStringLiteral("/kernelforge.log");
        try {
            auto file
                = std::make_shared<spdlog::sinks::rotating_file_sink_mt>(g_logFile.toStdString(), 5 * 1024 * 1024, 3);
            file->set_pattern("%Y-%m-%dT%H:%M:%S.%e %l %n [%t] %v");
            sink->targets.push_back(file);
        } catch (const spdlog::spdlog_ex& e) {
            fprintf(stderr, "kernelforge: cannot open log file %s: %s\n", qPrintable(g_logFile), e.what());
            g_logFile.clear();
        }
    }
    g_sink = sink;
    for (const char* name : kNames) {
        spdlog::drop(name);
        auto logger = std::make_shared<spdlog::logger>(name, g_sink);
        logger->set_level(options.level);
        logger->flush_on(spdlog::level::warn);
        spdlog::register_logger(logger);
    }
}

bool parseLevel(const QString& text, spdlog::level::level_enum* level)
{
    const auto l = spdlog::level::from_str(text.toLower().toStdString());
    if (l == spdlog::level::off && text.toLower() != QLatin1String("off"))
        return false;
    *level = l;
    return true;
}

QString logFilePath()
{
    std::lock_guard lock(g_mutex);
    return g_logFile;
}

void flush()
{
    for (const char* name : kNames)
        if (auto l = spdlog::get(name))
            l->flush();
}

void installQtMessageHandler()
{
    qInstallMessageHandler([](QtMsgType type, const QMessageLogContext& ctx, const QString& msg) {
        const QLatin1String category(ctx.category ? ctx.category : "default");
        auto logger
            = category.startsWith(QLatin1String("kf.ui")) || category.startsWith(QLatin1String("qt.")) ? ui() : app();
        const QString line
            = (category == QLatin1String("default") ? QString() : QString(category) + QStringLiteral(": ")) + msg;
        switch (type) {
        case QtDebugMsg: logger->debug("{}", line); break;
        case QtInfoMsg: logger->info("{}", line); break;
        case QtWarningMsg: logger->warn("{}", line); break;
        case QtCriticalMsg: logger->error("{}", line); break;
        case QtFatalMsg:
            logger->critical("{}", line);
            logger->flush();
            abort();
        }
    });
}

std::shared_ptr<spdlog::logger> app()
{
    return get("app");
}
std::shared_ptr<spdlog::logger> ssh()
{
    return get("ssh");
}
std::shared_ptr<spdlog::logger> patch()
{
    return get("patch");
}
std::shared_ptr<spdlog::logger> build()
{
    return get("build");
}
std::shared_ptr<spdlog::logger> monitor()
{
    return get("monitor");
}
std::shared_ptr<spdlog::logger> ui()
{
    return get("ui");
}

} // namespace kf::log
