// Literal pre-filter: the RE2 alternation of every rule literal (what
// CompiledRules::nextCandidate ran before Hyperscan, and still runs without it:
// one DFA pass over every byte) against Hyperscan's multi-literal matcher over
// the same files, with the same literals, counting the same candidate lines.
// Built only when libhs is installed (bench/prefilter.sh).
//
//   prefilter_bench RULES_DIR BUNDLE_DIR [RUNS]
#include "bundle/bundle.h"
#include "bundle/mapped_file.h"
#include "rules/matcher.h"
#include "rules/ruleset.h"

#include <hs.h>
#include <re2/re2.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kKinds = static_cast<int>(fl::SourceKind::Unknown) + 1;

struct HsKind {
    hs_database_t* db = nullptr;
    hs_scratch_t* scratch = nullptr;
    bool everyLine = false;
};

struct LineCounter {
    const char* data = nullptr;
    size_t size = 0;
    size_t lineEnd = 0; // candidate lines end before here (exclusive): later matches on them are skipped
    uint64_t lines = 0;
    bool any = false;
};

int onMatch(unsigned, unsigned long long, unsigned long long to, unsigned, void* ctx)
{
    auto& c = *static_cast<LineCounter*>(ctx);
    if (c.any && to <= c.lineEnd)
        return 0;
    const void* nl = std::memchr(c.data + to, '\n', c.size - to);
    c.lineEnd = nl ? static_cast<size_t>(static_cast<const char*>(nl) - c.data) : c.size;
    c.any = true;
    ++c.lines;
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: prefilter_bench RULES_DIR BUNDLE_DIR [RUNS]\n");
        return 2;
    }
    const int runs = argc > 3 ? std::max(1, std::atoi(argv[3])) : 3;
    fl::RuleSet rules;
    rules.loadDirectory(argv[1]);
    rules.compile();
    const fl::Bundle bundle = fl::loadBundle(argv[2]);

    // The same literals per source kind as CompiledRules::build.
    std::vector<HsKind> hs(kKinds);
    std::vector<std::unique_ptr<RE2>> re2(kKinds);
    for (int k = 0; k < kKinds; ++k) {
        std::map<std::string, unsigned> lits; // literal -> flags, deduplicated
        for (const fl::Rule& r : rules.rules()) {
            if (r.phase != fl::Phase::Extract)
                continue;
            if (!r.sources.empty() && std::find(r.sources.begin(), r.sources.end(), static_cast<fl::SourceKind>(k)) == r.sources.end())
                continue;
            const auto ls = fl::prefilterLiterals(r);
            if (ls.empty())
                hs[k].everyLine = true;
            for (const auto& l : ls)
                lits[l] |= r.ignoreCase ? HS_FLAG_CASELESS : 0u;
        }
        if (lits.empty() || hs[k].everyLine)
            continue;
        std::vector<std::string> quoted; // as CompiledRules::build writes the alternation
        for (const auto& [l, f] : lits) {
            quoted.push_back(RE2::QuoteMeta(l));
            if (f & HS_FLAG_CASELESS)
                quoted.push_back("(?i:" + RE2::QuoteMeta(l) + ")");
        }
        std::sort(quoted.begin(), quoted.end());
        std::string alternation;
        for (const auto& q : quoted)
            alternation += (alternation.empty() ? "" : "|") + q;
        RE2::Options o;
        o.set_log_errors(false);
        o.set_max_mem(64 << 20);
        re2[k] = std::make_unique<RE2>(alternation, o);
        std::vector<const char*> exprs;
        std::vector<size_t> lens;
        std::vector<unsigned> flags, ids;
        for (const auto& [l, f] : lits) {
            exprs.push_back(l.data());
            lens.push_back(l.size());
            flags.push_back(f);
            ids.push_back(static_cast<unsigned>(ids.size()));
        }
        hs_compile_error_t* err = nullptr;
        if (hs_compile_lit_multi(exprs.data(), flags.data(), ids.data(), lens.data(), static_cast<unsigned>(exprs.size()),
                                 HS_MODE_BLOCK, nullptr, &hs[k].db, &err) != HS_SUCCESS) {
            std::fprintf(stderr, "hyperscan: %s\n", err ? err->message : "compile failed");
            return 1;
        }
        hs_alloc_scratch(hs[k].db, &hs[k].scratch);
    }

    std::vector<fl::MappedFile> maps(bundle.files.size());
    uint64_t bytes = 0;
    for (size_t i = 0; i < bundle.files.size(); ++i) {
        const auto& f = bundle.files[i];
        if (f.status != fl::FileStatus::Ok || f.kind == fl::SourceKind::Metrics || f.kind == fl::SourceKind::Manifest ||
            f.kind == fl::SourceKind::Unknown)
            continue;
        std::string e;
        if (maps[i].open(f.diskPath, &e)) {
            bytes += maps[i].data().size();
            for (char c : maps[i].data()) // fault every page in before timing
                bytes += (c == 0x7f);
        }
    }

    double bestRe2 = 1e30, bestHs = 1e30;
    uint64_t re2Lines = 0, hsLines = 0;
    for (int r = 0; r < runs; ++r) {
        auto t = Clock::now();
        re2Lines = 0;
        for (size_t i = 0; i < maps.size(); ++i) {
            const std::string_view data = maps[i].data();
            const int k = static_cast<int>(bundle.files[i].kind);
            if (data.empty() || (!re2[k] && !hs[k].everyLine))
                continue;
            if (hs[k].everyLine) {
                re2Lines += static_cast<uint64_t>(std::count(data.begin(), data.end(), '\n')) + (data.back() != '\n');
                continue;
            }
            const re2::StringPiece text(data.data(), data.size());
            size_t pos = 0;
            re2::StringPiece hit;
            while (pos < data.size() && re2[k]->Match(text, pos, data.size(), RE2::UNANCHORED, &hit, 1)) {
                ++re2Lines;
                const size_t eol = data.find('\n', static_cast<size_t>(hit.data() - data.data()));
                if (eol == std::string_view::npos)
                    break;
                pos = eol + 1;
            }
        }
        bestRe2 = std::min(bestRe2, std::chrono::duration<double>(Clock::now() - t).count());

        t = Clock::now();
        hsLines = 0;
        for (size_t i = 0; i < maps.size(); ++i) {
            const std::string_view data = maps[i].data();
            const HsKind& h = hs[static_cast<int>(bundle.files[i].kind)];
            if (data.empty() || (!h.db && !h.everyLine))
                continue;
            if (h.everyLine) { // the RE2 side visits every line as well
                hsLines += static_cast<uint64_t>(std::count(data.begin(), data.end(), '\n')) + (data.back() != '\n');
                continue;
            }
            LineCounter c{data.data(), data.size()};
            hs_scan(h.db, data.data(), static_cast<unsigned>(data.size()), 0, h.scratch, onMatch, &c);
            hsLines += c.lines;
        }
        bestHs = std::min(bestHs, std::chrono::duration<double>(Clock::now() - t).count());
    }
    const double mb = static_cast<double>(bytes) / 1048576.0;
    std::printf("%s\n", hs_version()); // Hyperscan or Vectorscan: the libhs.so.5 loaded
    std::printf("%.1f MB searched, best of %d runs, one thread\n", mb, runs);
    std::printf("%-34s %8.3f s %8.0f MB/s %10llu candidate lines\n", "RE2 alternation (before)", bestRe2, mb / bestRe2,
                static_cast<unsigned long long>(re2Lines));
    std::printf("%-34s %8.3f s %8.0f MB/s %10llu candidate lines\n", "Hyperscan hs_compile_lit_multi", bestHs, mb / bestHs,
                static_cast<unsigned long long>(hsLines));
    std::printf("ratio RE2 / Hyperscan: %.2f%s\n", bestRe2 / bestHs, re2Lines == hsLines ? "" : "  (candidate counts differ)");
    for (auto& h : hs) {
        hs_free_scratch(h.scratch);
        hs_free_database(h.db);
    }
    return 0;
}
