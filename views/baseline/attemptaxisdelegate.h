// SPDX-License-Identifier: MIT
// Draws AttemptAxisModel's axis column: the failed attempt's span of a family as the upper bar, the healthy
// attempt's span of the same symptom as the lower one, on the axis both share; the alignment point as a line.
// New families in the failed attempt's red, shared ones grey.
#pragma once

#include <QStyledItemDelegate>

namespace fl {

class AttemptAxisDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace fl
