// Small helpers the engine-level tests share: where the repository is, the
// shipped rules only (never the developer's own), and whole-file I/O.
#pragma once

#include "engine/engine.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace fltest {

inline const std::string kSource = FAULTLINE_SOURCE_DIR;

inline fl::AnalyzeOptions shippedOnly()
{
    fl::AnalyzeOptions o;
    o.userConfigRules = false;
    o.shippedRulesDir = kSource + "/rules";
    return o;
}

inline void writeFile(const std::filesystem::path& p, const std::string& content)
{
    std::filesystem::create_directories(p.parent_path());
    std::ofstream out(p, std::ios::binary);
    out << content;
}

// "attributed", "ambiguous", "unattributed".
inline std::string statusOf(const fl::Result& r)
{
    return std::string(fl::toString(r.status));
}

// The candidate for `symptom`, or null.
inline const fl::Candidate* candidateFor(const fl::Result& r, const std::string& symptom)
{
    for (const auto& c : r.candidates)
        if (c.symptom == symptom)
            return &c;
    return nullptr;
}

inline std::string readFile(const std::filesystem::path& p)
{
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

} // namespace fltest
