// SPDX-License-Identifier: MIT
// A small, realistic incident built in code so that view tests do not
// depend on the engine: 4 nodes, 16 ranks, an Xid 79 on node02 GPU 3
// (rank 7) as the root cause, NCCL watchdog timeouts on the other ranks as
// symptoms, evidence pointing into log files the fixture writes.
#pragma once

#include "engine/engine.h"

#include <QString>

#include <memory>

namespace fl::test {

inline constexpr int64_t kRootTimeNs = 1714566896'000'000'000;  // 2024-05-01 12:34:56 UTC
inline constexpr uint32_t kRootEvent = 0;
inline constexpr int kNodes = 4;
inline constexpr int kRanks = 16;

// Writes the logs under `dir` and returns the analysis that points at them.
// `ambiguous`: two initiators at the same time, no root cause.
std::shared_ptr<Analysis> makeIncident(const QString& dir, bool ambiguous = false);

// Groups result.events into result.families / familyEdges with the engine's own
// grouping (core/engine/families.h), roles by core/present's role rule, as the
// engine's report step does. Edges naming events the result does not hold are skipped.
void addFamilies(Result& result);

// Index into bundle.files of the file whose bundle path is `path`, -1 if none.
int fileIndex(const Analysis& a, const std::string& path);

// samples/ambiguous-two-faults as the engine reads it (two GPU faults tied on node-01 and node-03), analysed once
// per test binary: the views of an ambiguous verdict are tested on the engine's own result.
std::shared_ptr<const Analysis> ambiguousSample();

} // namespace fl::test
