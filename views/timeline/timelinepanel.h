// SPDX-License-Identifier: MIT
// Timeline with its toolbar: lane filter, sort, expand, fit to incident.
#pragma once

#include "views/timeline/timelineview.h"

class QLineEdit;

namespace fl {

class TimelinePanel : public QWidget
{
    Q_OBJECT
public:
    TimelinePanel(FocusState* focus, QWidget* parent = nullptr);
    TimelineView* view() const { return m_view; }
    QLineEdit* filterEdit() const { return m_filter; }

private:
    FocusState* m_focus;
    TimelineView* m_view;
    QLineEdit* m_filter;
};

} // namespace fl
