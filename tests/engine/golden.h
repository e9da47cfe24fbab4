// The golden form of a result: the part a reviewer checks by eye (verdict,
// root cause, candidates and why they lost, the chain as "symptom@node" arrows,
// evidence roles). Excerpts and byte offsets are covered by other tests.
#pragma once

#include "model.h"

#include <nlohmann/json.hpp>

nlohmann::json goldenOf(const fl::Result& result);
