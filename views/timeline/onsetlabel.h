// SPDX-License-Identifier: MIT
// Where the timeline writes "hang began" beside its dotted line. The root cause and the candidates are pinned
// on top, and their diamonds and A/B labels sit at about that moment: the label goes in the first visible row
// that is not theirs (else the first row, as before there was a choice).
#pragma once

#include "views/timeline/timelinelanes.h"

#include <QRectF>
#include <QSizeF>

namespace fl {

// `x`: the line's x; rows [firstRow, lastRow) are on show from `top`, each `rowHeight` tall.
QRectF onsetLabelRect(const TimelineLanes& lanes, int firstRow, int lastRow, double top, int rowHeight, double x, QSizeF text);

} // namespace fl
