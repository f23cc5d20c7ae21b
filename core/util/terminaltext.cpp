// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/util/terminaltext.h"

#include <algorithm>

namespace kf {

namespace {

bool isBidiControl(char16_t c)
{
    return c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

bool escaped(char16_t c, LineBreaks lineBreaks)
{
    if (c < 0x20)
        return lineBreaks == LineBreaks::Escape || (c != u'\n' && c != u'\t');
    return (c >= 0x7F && c <= 0x9F) || isBidiControl(c);
}

} // namespace

bool needsTerminalEscape(QStringView text, LineBreaks lineBreaks)
{
    return std::any_of(text.begin(), text.end(), [lineBreaks](QChar c) { return escaped(c.unicode(), lineBreaks); });
}

QString terminalSafe(QStringView text, LineBreaks lineBreaks)
{
    if (!needsTerminalEscape(text, lineBreaks))
        return text.toString();
    QString out;
    out.reserve(text.size() + 16);
    for (const QChar ch : text) {
        const char16_t c = ch.unicode();
        if (!escaped(c, lineBreaks)) {
            out += ch;
            continue;
        }
        switch (c) {
        case u'\n': out += QStringLiteral("\\n"); break;
        case u'\r': out += QStringLiteral("\\r"); break;
        case u'\t': out += QStringLiteral("\\t"); break;
        default:
            out += c < 0x20 ? QStringLiteral("\\x%1").arg(uint(c), 2, 16, QLatin1Char('0'))
                            : QStringLiteral("\\u%1").arg(uint(c), 4, 16, QLatin1Char('0'));
        }
    }
    return out;
}

} // namespace kf
