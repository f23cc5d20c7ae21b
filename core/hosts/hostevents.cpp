// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/hosts/hostevents.h"

#include "core/events/eventlog.h"
#include "core/hosts/serverfacts.h"

#include <QJsonArray>

namespace kf::timeline {

QJsonObject factsVersions(const ServerFacts& f)
{
    QJsonObject v;
    auto put = [&](const char* name, const QString& value) {
        if (!value.isEmpty())
            v.insert(QLatin1String(name), value);
    };
    put("os", f.os);
    put("kernel", f.kernel);
    put("driver", f.driverVersion);
    put("nvcc", f.nvcc);
    put("cmake", f.cmake);
    put("ninja", f.ninja);
    put("gcc", f.gcc);
    put("python", f.python);
    put("torch", f.torch);
    put("sglang", f.sglang);
    put("sgl-kernel", f.sglKernel);
    put("sglang-kernel", f.sglangKernel);
    if (!f.gpus.isEmpty()) {
        put("gpu", f.gpus.first().name);
        v.insert(QStringLiteral("gpu_count"), QString::number(f.gpus.size()));
        put("compute_capability", f.gpus.first().computeCapability);
    }
    return v;
}

void recordFacts(const QString& host, const ServerFacts& facts)
{
    if (!facts.complete)
        return; // a cut-short run is no evidence that a tool went away
    const QJsonObject versions = factsVersions(facts);
    const auto last = latest(host, kind::FactsChanged);
    if (!last) {
        recordOrWarn(Event { 0, {}, host, kind::FactsChanged, {}, QStringLiteral("Facts not compared: ") + last.error(),
            { { QStringLiteral("versions"), versions } } });
        return;
    }
    const QJsonObject previous
        = last->has_value() ? (*last)->details.value(QStringLiteral("versions")).toObject() : QJsonObject();
    if (last->has_value() && previous == versions)
        return;
    QStringList changed, parts;
    QStringList names = versions.keys() + previous.keys();
    names.removeDuplicates();
    for (const QString& name : std::as_const(names)) {
        const QString a = previous.value(name).toString(), b = versions.value(name).toString();
        if (a == b)
            continue;
        changed.append(name);
        if (name != QLatin1String("os") && name != QLatin1String("kernel"))
            parts.append(
                QStringLiteral("%1 %2 \u2192 %3")
                    .arg(name, a.isEmpty() ? QStringLiteral("none") : a, b.isEmpty() ? QStringLiteral("none") : b));
    }
    Event e;
    e.host = host;
    e.kind = kind::FactsChanged;
    e.summary = last->has_value()
        ? QStringLiteral("Tool versions changed: ")
            + (parts.isEmpty() ? changed.join(QStringLiteral(", ")) : parts.join(QStringLiteral(", ")))
        : QStringLiteral("First facts: driver %1, nvcc %2, CMake %3, PyTorch %4")
              .arg(facts.driverVersion.isEmpty() ? QStringLiteral("none") : facts.driverVersion,
                  facts.nvcc.isEmpty() ? QStringLiteral("none") : facts.nvcc,
                  facts.cmake.isEmpty() ? QStringLiteral("none") : facts.cmake,
                  facts.torch.isEmpty() ? QStringLiteral("none") : facts.torch);
    e.details = { { QStringLiteral("versions"), versions }, { QStringLiteral("previous"), previous },
        { QStringLiteral("changed"), QJsonArray::fromStringList(changed) }, { QStringLiteral("home"), facts.homeDir } };
    recordOrWarn(e);
}

void recordConnection(const QString& host, ConnectionState from, ConnectionState to, const QString& reason)
{
    const bool lost
        = from == ConnectionState::Ready && (to == ConnectionState::Reconnecting || to == ConnectionState::Failed);
    const bool restored = from == ConnectionState::Reconnecting && to == ConnectionState::Ready;
    if (!lost && !restored)
        return;
    Event e;
    e.host = host;
    e.kind = lost ? kind::ConnectionLost : kind::ConnectionRestored;
    e.summary = lost ? QStringLiteral("Connection lost: ") + reason : QStringLiteral("Connection restored");
    e.details = { { QStringLiteral("state"), toString(to) }, { QStringLiteral("reason"), reason } };
    recordOrWarn(e);
}

} // namespace kf::timeline
