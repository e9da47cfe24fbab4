// SPDX-License-Identifier: MIT
// The Teach replay's clock (issue #44 item 3): "only what was known at 10:00:41" — a check box and a slider
// over the incident's time axis. It only says the moment; the workbench replays it (WorkbenchView::setReplayTime).
#pragma once

#include "model.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QSlider;

namespace fl {

class ReplayClock : public QWidget
{
    Q_OBJECT
public:
    explicit ReplayClock(QWidget* parent = nullptr);
    // The axis to scrub, [fromNs, toNs]; kNoTime (or an empty span): nothing to scrub, the clock is off.
    void setSpan(int64_t fromNs, int64_t toNs);
    // The moment chosen (kNoTime: every moment, the box unticked).
    int64_t time() const;
    // Ticks the box and moves to `ns` (clamped to the span, in the slider's steps); kNoTime unticks it.
    void setTime(int64_t ns);
    QCheckBox* box() const { return m_box; }
    QSlider* slider() const { return m_slider; }
    QLabel* label() const { return m_label; }

signals:
    void timeChanged(qint64 ns);  // kNoTime: every moment

private:
    void changed();

    QCheckBox* m_box;
    QSlider* m_slider;
    QLabel* m_label;
    int64_t m_from = kNoTime, m_step = 1'000'000'000;
};

} // namespace fl
