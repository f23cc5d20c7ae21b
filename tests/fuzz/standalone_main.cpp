// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Replays a fuzz target's seed corpus and crash regressions without libFuzzer:
//   fuzz_<parser> CORPUS_LIST PARSER DATA_DIR REGRESSION_DIR
// CORPUS_LIST lines are "<parser> <path relative to DATA_DIR>". Every input is also fed
// truncated at every 61st byte and with one flipped byte, cheap cousins of what libFuzzer does.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

std::string readFile(const std::filesystem::path& p)
{
    std::ifstream f(p, std::ios::binary);
    return { std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>() };
}

void feed(const std::string& s)
{
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s CORPUS_LIST PARSER DATA_DIR REGRESSION_DIR\n", argv[0]);
        return 2;
    }
    const std::string parser = argv[2];
    const std::filesystem::path dataDir = argv[3];
    std::vector<std::filesystem::path> inputs;
    std::ifstream list(argv[1]);
    for (std::string line; std::getline(list, line);) {
        std::istringstream words(line);
        std::string who, rel;
        if (words >> who >> rel && who == parser)
            inputs.push_back(dataDir / rel);
    }
    if (std::filesystem::is_directory(argv[4]))
        for (const auto& e : std::filesystem::directory_iterator(argv[4]))
            inputs.push_back(e.path());
    if (inputs.empty()) {
        fprintf(stderr, "no corpus for %s\n", parser.c_str());
        return 1;
    }
    size_t runs = 0;
    for (const auto& p : inputs) {
        if (!std::filesystem::exists(p)) {
            fprintf(stderr, "missing corpus file %s\n", p.c_str());
            return 1;
        }
        const std::string s = readFile(p);
        feed(s);
        ++runs;
        for (size_t cut = 0; cut < s.size(); cut += 61, ++runs)
            feed(s.substr(0, cut));
        for (size_t i = 0; i < s.size(); i += 97, ++runs) {
            std::string m = s;
            m[i] = char(m[i] ^ 0x5a);
            feed(m);
        }
    }
    printf("%s: %zu inputs, %zu runs, no crash\n", parser.c_str(), inputs.size(), runs);
    return 0;
}
