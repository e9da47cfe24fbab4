// SPDX-License-Identifier: MIT
// The workbench's view as a shareable state (core/store/state_file.h, issue #45 item 5): what File → Copy
// link writes and what `faultline --state FILE|LINK` applies once the state's analysis is shown.
#pragma once

#include "store/state_file.h"

#include <QString>

namespace fl {

class WorkbenchView;

// The view of `wb` over the bundle at `bundlePath`: the tab (the side tab when it is not the first one, the
// Verdict, else the centre tab), the selected evidence item, the time window, the mode (quiz while an
// exercise hides the verdict, review on the Compare or Review tab) and the Teach replay's step (1-based) and
// moment while it is on.
store::WorkbenchState stateOf(const WorkbenchView& wb, const QString& bundlePath);

// Shows the Teach replay at `step` (1-based; below 1: the last step) and, unless kNoTime, only what was known at
// `atNs` (the Teach tab's clock, in its whole-second steps); nothing when neither is given. False when the
// analysis has no trace to replay.
bool applyReplay(WorkbenchView& wb, int step, int64_t atNs);

// Shows `s`'s tab (any panel id; review mode without a tab opens the Review tab), Teach step, time window and
// selection in `wb`, whose analysis is the state's. Returns what could not be applied (an unknown tab or
// evidence id), empty when everything was.
QString applyState(WorkbenchView& wb, const store::WorkbenchState& s);

} // namespace fl
