// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/util/secretregistry.h"

#include <algorithm>
#include <mutex>
#include <regex>
#include <set>
#include <string>

namespace kf {
namespace {

std::mutex& registryMutex()
{
    static std::mutex m;
    return m;
}
std::set<std::string>& secrets() // guarded by registryMutex()
{
    static std::set<std::string> s;
    return s;
}

} // namespace

void SecretRegistry::add(const QByteArray& secret)
{
    if (secret.size() < 4)
        return;
    std::lock_guard lock(registryMutex());
    secrets().insert(secret.toStdString());
}

void SecretRegistry::remove(const QByteArray& secret)
{
    std::lock_guard lock(registryMutex());
    secrets().erase(secret.toStdString());
}

void SecretRegistry::clear()
{
    std::lock_guard lock(registryMutex());
    secrets().clear();
}

std::string SecretRegistry::redact(std::string_view text)
{
    std::string out(text);
    {
        std::lock_guard lock(registryMutex());
        // Longest first, so a secret that contains another is replaced whole.
        std::vector<const std::string*> ordered;
        for (const auto& s : secrets())
            ordered.push_back(&s);
        std::sort(ordered.begin(), ordered.end(), [](auto* a, auto* b) { return a->size() > b->size(); });
        for (const std::string* s : ordered) {
            for (size_t pos = out.find(*s); pos != std::string::npos; pos = out.find(*s, pos + 3))
                out.replace(pos, s->size(), "***");
        }
    }
    // Obvious secret-bearing options even when nobody registered the value.
    static const std::regex option(
        R"(((?:password|passwd|passphrase|token|secret)\s*[=:]\s*|--(?:password|passphrase|token)[ =]|sshpass\s+-p\s*)('[^']*'|"[^"]*"|\S+))",
        std::regex::icase);
    if (out.find_first_of("=:-") != std::string::npos)
        out = std::regex_replace(out, option, "$1***");
    return out;
}

void wipe(QByteArray& secret)
{
    if (secret.isEmpty())
        return;
    volatile char* p = secret.data(); // detaches, then overwrites our copy
    for (qsizetype i = 0; i < secret.size(); ++i)
        p[i] = 0;
    secret.clear();
}

void wipe(QString& secret)
{
    if (secret.isEmpty())
        return;
    volatile char16_t* p = reinterpret_cast<char16_t*>(secret.data());
    for (qsizetype i = 0; i < secret.size(); ++i)
        p[i] = 0;
    secret.clear();
}

} // namespace kf
