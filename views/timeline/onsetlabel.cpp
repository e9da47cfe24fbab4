// SPDX-License-Identifier: MIT
#include "views/timeline/onsetlabel.h"

namespace fl {

QRectF onsetLabelRect(const TimelineLanes& lanes, int firstRow, int lastRow, double top, int rowHeight, double x, QSizeF text)
{
    int at = firstRow;
    for (int row = firstRow; row < lastRow; ++row) {
        const Lane& lane = lanes.lane(lanes.laneAtRow(row));
        if (!lane.pinned && !lane.root) {
            at = row;
            break;
        }
    }
    const double y = top + (at - firstRow) * rowHeight + (rowHeight - text.height()) / 2.0;
    return {x + 4, y, text.width(), text.height()};
}

} // namespace fl
