// SPDX-License-Identifier: MIT
// A result analysed elsewhere (a faultline-service session, a row of a collect --history database) as an
// Analysis the views can show: the result itself and, for the Files and Raw views, one file per connector
// report, without bytes (they stay where the result was made).
#pragma once

#include "engine/engine.h"

#include <memory>
#include <string>

namespace fl {

std::shared_ptr<const Analysis> analysisOfStoredResult(Result result, std::string source);

} // namespace fl
