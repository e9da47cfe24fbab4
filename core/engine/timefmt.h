#pragma once
#include "model.h"
#include <string>
namespace fl {
// "2026-03-14T10:00:41.123456789Z"; trailing zero groups of the fraction are
// dropped (…41Z, …41.123Z). kNoTime -> "".
std::string formatTimeUtc(int64_t ns);
}
