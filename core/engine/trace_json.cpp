#include "engine/trace_json.h"

#include <array>
#include <string_view>

namespace fl {

using nlohmann::json;

namespace {

// Every TraceAction in declaration order: the name is the wire format.
constexpr std::array<std::string_view, 18> kActions{
    "extracted", "emitted", "moved", "decoded", "set_fields", "copied_fields", "rewrote", "role", "kind",
    "linked", "merged", "suppressed", "evidence_cap", "evidence_role", "chose", "ambiguous", "unattributed", "reported"};
static_assert(kActions.size() == static_cast<size_t>(TraceAction::Reported) + 1, "a TraceAction without a name");

std::string text(const json& j, const char* key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

} // namespace

json traceToJson(const std::vector<TraceStep>& trace)
{
    json out = json::array();
    for (const TraceStep& t : trace) {
        json events = json::array();
        for (EventId e : t.events)
            events.push_back(e.value);
        out.push_back({{"phase", std::string(toString(t.phase))}, {"rule", t.rule}, {"action", kActions[static_cast<size_t>(t.action)]},
                       {"events", std::move(events)}, {"detail", t.detail}, {"change", t.change}});
    }
    return out;
}

std::vector<TraceStep> traceFromJson(const json& steps)
{
    std::vector<TraceStep> out;
    if (!steps.is_array())
        return out;
    for (const json& s : steps) {
        if (!s.is_object())
            continue;
        const std::string action = text(s, "action");
        size_t a = 0;
        while (a < kActions.size() && kActions[a] != action)
            ++a;
        if (a == kActions.size())
            continue;
        const auto phase = phaseFromString(text(s, "phase"));
        if (!phase)
            continue;
        TraceStep t;
        t.phase = *phase;
        t.rule = text(s, "rule");
        t.action = static_cast<TraceAction>(a);
        t.detail = text(s, "detail");
        t.change = text(s, "change");
        if (const auto ev = s.find("events"); ev != s.end() && ev->is_array())
            for (const json& e : *ev)
                if (e.is_number_unsigned() && e.get<uint64_t>() <= UINT32_MAX)
                    t.events.push_back(EventId(static_cast<uint32_t>(e.get<uint64_t>())));
        out.push_back(std::move(t));
    }
    return out;
}

} // namespace fl
