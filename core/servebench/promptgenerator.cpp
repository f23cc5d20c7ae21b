// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/servebench/promptgenerator.h"

#include <random>

namespace kf {
namespace {

constexpr const char* kWords[] = { "the", "of", "and", "to", "in", "is", "was", "for", "on", "that", "with", "as", "by",
    "at", "from", "his", "it", "an", "were", "are", "which", "this", "be", "or", "had", "also", "first", "one", "their",
    "its", "new", "after", "but", "who", "not", "they", "has", "her", "she", "two", "been", "other", "when", "there",
    "all", "during", "into", "school", "time", "may", "years", "more", "most", "only", "over", "city", "some", "world",
    "would", "where", "later", "up", "such", "used", "many", "can", "state", "about", "national", "out", "known",
    "university", "united", "then", "made", "these", "film", "year", "could", "under", "him", "game", "series",
    "season", "war", "team", "while", "three", "both", "between", "through", "well", "before", "early", "same", "high",
    "second", "since", "part", "music", "house", "water", "light", "small", "river", "great", "south", "north", "work",
    "life", "name", "group", "line", "album", "public", "each", "long", "local", "common", "church", "county", "area",
    "family", "large", "until", "around", "being", "than", "four", "home", "based", "several", "club", "government",
    "history", "league", "end", "following", "people", "own", "day", "system", "began", "became", "released", "members",
    "against", "include", "did", "way", "english" };

} // namespace

QByteArray randomWords(std::mt19937& rng, int words)
{
    constexpr int vocabulary = int(sizeof(kWords) / sizeof(kWords[0]));
    std::uniform_int_distribution<int> pick(0, vocabulary - 1);
    QByteArray p;
    p.reserve(qsizetype(words) * 7);
    for (int w = 0; w < words; ++w) {
        if (w > 0)
            p.append(' ');
        p.append(kWords[pick(rng)]);
    }
    return p;
}

QList<QByteArray> makePrompts(int count, int words, quint32 seed)
{
    std::mt19937 rng(seed);
    QList<QByteArray> prompts;
    prompts.reserve(count);
    for (int i = 0; i < count; ++i)
        prompts.append(randomWords(rng, words));
    return prompts;
}

} // namespace kf
