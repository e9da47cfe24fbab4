// The history's answers as JSON (GET /v2/history/offenders, GET /v2/sessions/{id}/history): the rows behind an
// offender or a "seen before?" with links to their results.
#pragma once

#include "store.h"

#include <nlohmann/json.hpp>

namespace fl::service {

nlohmann::json offendersJson(const std::vector<history::Offender>& offenders);
nlohmann::json seenJson(const history::CausePlace& place, const std::vector<history::SeenAt>& seen);

} // namespace fl::service
