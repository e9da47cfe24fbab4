// lineparse_bench: parseLine's cost per line over real log lines (every regular file under the folders given,
// read line by line), repeated until each timed round has seen at least 20 million lines. Prints the best of
// five rounds in ns per line, so that a change to the prefix readers can be timed without a whole analysis.
//   lineparse_bench DIR... (bench/lineparse.sh runs it on the incidents and the held-out lines)
#include "parse/lineparse.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    std::vector<std::string> lines;
    for (int a = 1; a < argc; ++a) {
        for (const auto& entry : std::filesystem::recursive_directory_iterator(argv[a])) {
            if (!entry.is_regular_file())
                continue;
            std::ifstream in(entry.path(), std::ios::binary);
            for (std::string line; std::getline(in, line);)
                lines.push_back(line);
        }
    }
    if (lines.empty()) {
        std::fprintf(stderr, "lineparse_bench: no lines under the folders given\n");
        return 2;
    }
    fl::TimeContext ctx;
    ctx.defaultYear = 2024;
    const size_t passes = std::max<size_t>(1, 20'000'000 / lines.size());
    double best = 1e300;
    uint64_t sink = 0;
    for (int round = 0; round < 5; ++round) {
        const auto t0 = std::chrono::steady_clock::now();
        for (size_t pass = 0; pass < passes; ++pass)
            for (const auto& l : lines) {
                const fl::LineInfo li = fl::parseLine(l, fl::SourceKind::Unknown, ctx);
                sink += static_cast<uint64_t>(li.timeNs) + li.messageStart;
            }
        const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
        best = std::min(best, ns / static_cast<double>(passes * lines.size()));
    }
    std::printf("%zu lines x %zu passes: best of 5 rounds %.1f ns/line (checksum %llu)\n", lines.size(), passes, best,
                static_cast<unsigned long long>(sink % 1000));
    return 0;
}
