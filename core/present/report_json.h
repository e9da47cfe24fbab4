// Tolerant readers of a result document for the report: a RESULT.json handed to
// us may be from another version, or hostile; a field of the wrong type reads as
// absent, never throws.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace fl::present::reportjson {

inline const nlohmann::json& member(const nlohmann::json& j, const char* key)
{
    static const nlohmann::json none;
    if (!j.is_object())
        return none;
    auto it = j.find(key);
    return it == j.end() ? none : *it;
}

inline const nlohmann::json& array(const nlohmann::json& j, const char* key)
{
    static const nlohmann::json empty = nlohmann::json::array();
    const nlohmann::json& v = member(j, key);
    return v.is_array() ? v : empty;
}

inline std::string str(const nlohmann::json& j, const char* key)
{
    const nlohmann::json& v = member(j, key);
    return v.is_string() ? v.get<std::string>() : std::string();
}

// -1 when absent, null or not an integer (ranks, GPUs, lines use -1 for "unknown").
inline int64_t integer(const nlohmann::json& j, const char* key)
{
    const nlohmann::json& v = member(j, key);
    if (v.is_number_integer())
        return v.get<int64_t>();
    if (v.is_number_unsigned())
        return v.get<uint64_t>() > uint64_t(INT64_MAX) ? -1 : static_cast<int64_t>(v.get<uint64_t>());
    return -1;
}

// "node-02 GPU 0 rank 2" for an object with node / gpu / pci_bus / rank (present::place).
std::string placeOf(const nlohmann::json& j);
// Its "time" as printed, "no time" without one.
std::string timeOf(const nlohmann::json& j);

inline bool boolean(const nlohmann::json& j, const char* key)
{
    const nlohmann::json& v = member(j, key);
    return v.is_boolean() && v.get<bool>();
}

} // namespace fl::present::reportjson

namespace fl::present::reportjson {

// The chain reduced to what a reader can take in: the root cause (or, without
// one, the candidates) each as itself, and what they led to. From a 2.0 result
// that is its symptom families (`symptom_chain.families`, reached along
// `family_edges`); from an older one without families, every event reachable
// from the focus merged by symptom id.
struct ChainNode {
    bool focus = false;   // a root cause or candidate, drawn as itself
    bool root = false;
    std::string symptom;
    std::string where;    // focus: place(); a family: placeOfMany(); per-event groups: empty
    std::string when;     // focus: its time as printed, "no time" without one
    size_t events = 0;
    size_t nodes = 0;
};
struct ChainSummary {
    std::vector<ChainNode> nodes;                  // focus first, then families in result order (or by symptom id)
    std::vector<std::pair<size_t, size_t>> edges;  // indexes into nodes, sorted, unique
    size_t symptomsLeftOut = 0;                    // groups beyond the cap
};
ChainSummary summariseChain(const nlohmann::json& result, size_t maxFocus, size_t maxSymptoms);

} // namespace fl::present::reportjson
