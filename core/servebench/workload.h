// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>

#include <optional>

// What each request of a level asks: its prompt and how many tokens it wants back. Without a
// tokenizer, lengths are in tokens and prompts are made of words (promptgenerator.h); the
// warm-up's reported prompt_tokens give the words per token, so a prompt of L tokens has
// round(L x wordsPerToken) words, and the server's own counts are what results report.
//
// Datasets:
//   random         prompts of random common words. With a range ratio r, each request's
//                  input and output lengths are drawn uniformly from an integer range whose
//                  meaning is named, because the tools that spell it the same disagree
//                  (sgl-project/sglang#7253):
//                    sglang  [max(int(L x r), 1), L]            (python/sglang/benchmark/
//                            datasets/common.py compute_random_lens; r in [0, 1]; r = 0 is
//                            [1, L], r = 1 fixed)
//                    vllm    [floor(L x (1 - r)), ceil(L x (1 + r))], output low at least 1
//                            (vllm/benchmarks/datasets/random.py get_sampling_params; r in
//                            [0, 1); r = 0 fixed; KernelForge subtracts no special tokens)
//                  Without a ratio every request has exactly L.
//   sharegpt       a ShareGPT-format JSON file (ShareGPT_V3_unfiltered_cleaned_split.json):
//                    [{"conversations": [{"from": "human", "value": P}, {"from": "gpt",
//                    "value": C}, ...]}, ...]
//                  as both tools read it: conversations of at least two turns, the first
//                  turn the prompt and the second the completion, shuffled with the seed;
//                  vLLM's filter (is_valid_sequence: prompt and completion >= 4 tokens,
//                  prompt <= 1024, both <= 2048) applied to lengths estimated as words /
//                  wordsPerToken; output = the completion's estimated length, or the fixed
//                  output length when one is given.
//   shared-prefix  SGLang's generated-shared-prefix: `groups` system prompts of `prefixTokens`
//                  each, `perGroup` questions of `questionTokens` per group, prompt =
//                  system + "\n\n" + question; groups shuffled, questions of a group in a
//                  row: a cache-hit workload (the server's prefix cache should hold each
//                  system prompt after its first request).
// uniquePrefix (random, sharegpt): every prompt starts with a word no other prompt of the run
// (or of another run: `salt` is fresh per run) starts with, so no prefix cache can serve any
// of it: a 0 % hit baseline. Without a tokenizer "no shared first token" is what is
// guaranteed; a tokenizer that splits that word can still match its first piece.
namespace kf {

enum class Dataset { Random, ShareGpt, SharedPrefix };
enum class RangeMeaning { Sglang, Vllm };

QString datasetName(Dataset d); // "random", "sharegpt", "shared-prefix"
std::optional<Dataset> datasetFromName(const QString& name);
QString rangeMeaningName(RangeMeaning m); // "sglang", "vllm"
std::optional<RangeMeaning> rangeMeaningFromName(const QString& name);

struct LengthRange
{
    int low = 0;
    int high = 0; // inclusive
    bool operator==(const LengthRange&) const = default;
};
// The range a length L is drawn from with ratio r, as that tool computes it; output: the
// output length (vLLM raises its low end to 1). Empty (low > high) when r is outside the
// tool's domain.
LengthRange lengthRange(RangeMeaning meaning, int length, double ratio, bool output);
// Empty when the ratio is usable with that meaning, else why not.
QString rangeRatioError(RangeMeaning meaning, double ratio);

// One conversation of a ShareGPT file: the first human turn and the reply's word count.
struct SharePair
{
    QByteArray prompt; // UTF-8
    int promptWords = 0;
    int completionWords = 0;
};
// Parses a ShareGPT-format JSON document (bounded: at most maxPairs conversations kept, each
// prompt at most 1 MiB). Fails when it is not a JSON array of such objects.
Result<QList<SharePair>> parseShareGpt(QByteArrayView json, int maxPairs = 1000000);

struct WorkloadSpec
{
    Dataset dataset = Dataset::Random;
    int inputTokens = 1024;
    int outputTokens = 128; // sharegpt: 0 takes each completion's length
    double rangeRatio = -1; // < 0: none (fixed lengths)
    RangeMeaning rangeMeaning = RangeMeaning::Vllm;
    double wordsPerToken = 1.0;
    QList<SharePair> shareGpt;
    int prefixGroups = 4;
    int prefixPerGroup = 8;
    int prefixTokens = 512;
    int questionTokens = 64;
    bool uniquePrefix = false;
    QByteArray salt; // the run's: makes unique prefixes differ between runs
};

struct WorkloadRequest
{
    QByteArray prompt;
    int promptTokens = 0; // the length asked for (the estimate until the server counts)
    int outputTokens = 0;
    int group = -1; // shared-prefix: its system prompt
};

// `count` requests (shared-prefix: groups x perGroup, whatever count says), seeded.
// Fails when a ShareGPT list has too few usable conversations.
Result<QList<WorkloadRequest>> makeWorkload(const WorkloadSpec& spec, int count, quint32 seed);

} // namespace kf
