// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QByteArray>
#include <QList>

#include <random>

// Random prompts of a given length without a tokenizer: words drawn (seeded, so a run can be
// repeated) from a list of common short English words, each of which is one token for the
// BPE tokenizers of current models when preceded by a space. A prompt of W words is W tokens
// as an estimate; the server's own count (usage.prompt_tokens, meta_info.prompt_tokens) is
// what results report when it gives one, and a warm-up request calibrates W (ServeBench).
// Every prompt starts with a different word sequence, so prefix caching cannot share them.
namespace kf {

QList<QByteArray> makePrompts(int count, int words, quint32 seed);
// `words` words drawn from the same list with rng (workload.h builds prompts of varying length).
QByteArray randomWords(std::mt19937& rng, int words);

} // namespace kf
