// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/events/verification.h"

#include "core/events/eventlog.h"

#include <QJsonArray>

namespace kf::timeline {
namespace {

QJsonValue optionalBool(const std::optional<bool>& v)
{
    return v ? QJsonValue(*v) : QJsonValue();
}

std::optional<bool> optionalBool(const QJsonValue& v)
{
    return v.isBool() ? std::optional<bool>(v.toBool()) : std::nullopt;
}

QStringList strings(const QJsonValue& v)
{
    QStringList out;
    for (const QJsonValue& s : v.toArray())
        out.append(s.toString());
    return out;
}

} // namespace

QJsonObject VerificationResult::toJson() const
{
    QJsonArray libs;
    for (const VerifiedLibrary& l : libraries)
        libs.append(QJsonObject { { QStringLiteral("name"), l.name }, { QStringLiteral("origin"), l.origin },
            { QStringLiteral("targets"), QJsonArray::fromStringList(l.targets) } });
    return { { QStringLiteral("ok"), ok }, { QStringLiteral("summary"), summary }, { QStringLiteral("dir"), dir },
        { QStringLiteral("import_ok"), optionalBool(importOk) }, { QStringLiteral("fa3"), optionalBool(fa3) },
        { QStringLiteral("gpus"), QJsonArray::fromStringList(gpuCapabilities) }, { QStringLiteral("libraries"), libs },
        { QStringLiteral("launch_blockers"), QJsonArray::fromStringList(launchBlockers) },
        { QStringLiteral("home"), home }, { QStringLiteral("made_by"), QJsonArray::fromStringList(madeBy) } };
}

VerificationResult VerificationResult::fromJson(const QJsonObject& o)
{
    VerificationResult r;
    r.ok = o.value(QStringLiteral("ok")).toBool();
    r.summary = o.value(QStringLiteral("summary")).toString();
    r.dir = o.value(QStringLiteral("dir")).toString();
    r.importOk = optionalBool(o.value(QStringLiteral("import_ok")));
    r.fa3 = optionalBool(o.value(QStringLiteral("fa3")));
    r.gpuCapabilities = strings(o.value(QStringLiteral("gpus")));
    r.launchBlockers = strings(o.value(QStringLiteral("launch_blockers")));
    r.home = o.value(QStringLiteral("home")).toString();
    r.madeBy = strings(o.value(QStringLiteral("made_by")));
    for (const QJsonValue& v : o.value(QStringLiteral("libraries")).toArray()) {
        const QJsonObject l = v.toObject();
        r.libraries.append({ l.value(QStringLiteral("name")).toString(), l.value(QStringLiteral("origin")).toString(),
            strings(l.value(QStringLiteral("targets"))) });
    }
    return r;
}

QString libraryStem(const QString& fileName)
{
    const qsizetype dot = fileName.indexOf(QLatin1Char('.'));
    return dot < 0 ? fileName : fileName.left(dot);
}

void recordVerification(const QString& host, const VerificationResult& result)
{
    Event e;
    e.host = host;
    e.kind = kind::VerifyResult;
    e.summary = (result.ok ? QStringLiteral("Verification passed: ") : QStringLiteral("Verification failed: "))
        + result.summary;
    e.details = result.toJson();
    recordOrWarn(e);
}

} // namespace kf::timeline
