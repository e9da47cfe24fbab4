// SPDX-License-Identifier: MIT
#include "views/baseline/attemptaxisdelegate.h"

#include "views/baseline/attemptaxismodel.h"
#include "views/common/viewstyle.h"

#include <QPainter>

#include <algorithm>

namespace fl {

void AttemptAxisDelegate::paint(QPainter* p, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QStyledItemDelegate::paint(p, option, index);  // selection background
    const qlonglong first = index.data(AttemptAxisModel::AxisFirstRole).toLongLong();
    const qlonglong last = index.data(AttemptAxisModel::AxisLastRole).toLongLong();
    if (last <= first)
        return;
    const QRect r = option.rect.adjusted(4, 2, -4, -2);
    auto x = [&](qlonglong ns) {
        return r.left() + static_cast<int>(static_cast<double>(ns - first) / static_cast<double>(last - first) * r.width());
    };
    const bool isNew = index.data(AttemptAxisModel::NewRole).toBool();
    p->save();
    p->setPen(QPen(QColor(0x9a, 0xa0, 0xa6), 1, Qt::DotLine));
    p->drawLine(x(0), option.rect.top(), x(0), option.rect.bottom());  // the alignment point
    const int half = r.height() / 2;
    auto bar = [&](int role, int roleLast, int top, const QColor& colour) {
        const QVariant a = index.data(role), b = index.data(roleLast);
        if (!a.isValid())
            return;
        const int left = x(a.toLongLong());
        const int right = std::max(x(b.isValid() ? b.toLongLong() : a.toLongLong()), left + 3);  // a one-off line: a tick
        p->fillRect(QRect(left, top, right - left, std::max(half - 1, 2)), colour);
    };
    // This attempt in the views' own red (new) and grey (shared), so "new" reads as the root's colour everywhere;
    // the healthy attempt in the blue of interesting evidence, lighter when shared.
    const QColor here = style::levelColor(isNew ? style::Root : style::Suppressed);
    const QColor there = isNew ? style::levelColor(style::Interesting) : style::levelColor(style::Interesting).lighter(160);
    bar(AttemptAxisModel::HereFirstRole, AttemptAxisModel::HereLastRole, r.top(), here);
    bar(AttemptAxisModel::ThereFirstRole, AttemptAxisModel::ThereLastRole, r.top() + half + 1, there);
    p->restore();
}

} // namespace fl
