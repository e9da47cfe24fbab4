// How a symptom family is named in text, written once: the text report's chain line, the
// workbench's chain titles and the report's chain groups all take their words from here.
#pragma once

#include "model.h"

#include <cstdint>
#include <string>

namespace fl::present {

// "1,249": digits grouped by thousands, whatever the locale.
std::string thousands(uint64_t n);
// "1,249 nodes", "1 node"; `plural` when the word does not take an "s" ("families").
std::string counted(uint64_t n, const std::string& word, const std::string& plural = {});

// "NCCL collective timed out (watchdog) [nccl.watchdog_timeout]", or the symptom id without a title.
std::string familyName(const SymptomFamily& f);
// "ALLREDUCE pg 0 seq 179": the collective every member shares; empty when none.
std::string familyCollective(const SymptomFamily& f);
// The one-line description: name · collective · nodes · ranks · events · first/last time ·
// suppression. "… · 1,249 nodes · 9,992 ranks · 29,976 events · first … · last …"
std::string familyLine(const SymptomFamily& f);
// Its size, for a title beside the symptom id: " · 4 nodes · 32 ranks · 40 events"; empty for one event.
std::string familySize(const SymptomFamily& f);
// Where it happened: "node-[01,03-04] ranks 0-1,3-7". `maxGroups` > 0 caps each list for display
// (compressHostList's cap); 0 writes them whole, as the result document does.
std::string familyPlace(const SymptomFamily& f, size_t maxGroups = 0);
// The same with the GPUs its member events name (`events`: the result's, by id): "node-07 GPU 3 rank 25",
// "node-[01-02] GPUs 0-1,3 ranks 0-9": what tells two families of one title apart.
std::string familyGpuPlace(const SymptomFamily& f, const std::vector<SymptomEvent>& events, size_t maxGroups = 0);

} // namespace fl::present
