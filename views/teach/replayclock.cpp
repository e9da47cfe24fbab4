// SPDX-License-Identifier: MIT
#include "views/teach/replayclock.h"

#include "views/common/viewstyle.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>

#include <algorithm>

namespace fl {

namespace {
constexpr int64_t kSecond = 1'000'000'000;
constexpr int kMaxSteps = 100'000;  // a day in seconds would be 86,400
} // namespace

ReplayClock::ReplayClock(QWidget* parent)
    : QWidget(parent)
    , m_box(new QCheckBox(tr("Only what was known at"), this))
    , m_slider(new QSlider(Qt::Horizontal, this))
    , m_label(new QLabel(this))
{
    m_box->setObjectName(QStringLiteral("replayClockBox"));
    m_slider->setObjectName(QStringLiteral("replayClockSlider"));
    m_box->setToolTip(tr("Replay the incident's time too: the timeline and the evidence leave out every line "
                         "printed after this moment"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_box);
    layout->addWidget(m_slider, 1);
    layout->addWidget(m_label);
    connect(m_box, &QCheckBox::toggled, this, &ReplayClock::changed);
    // Replayed where the slider is let go (each moment rebuilds the timeline); the time follows the drag.
    connect(m_slider, &QSlider::valueChanged, this, &ReplayClock::changed);
    connect(m_slider, &QSlider::sliderReleased, this, &ReplayClock::changed);
    setSpan(kNoTime, kNoTime);
}

void ReplayClock::setSpan(int64_t fromNs, int64_t toNs)
{
    const QSignalBlocker b1(m_box), b2(m_slider);
    const bool usable = fromNs != kNoTime && toNs != kNoTime && toNs > fromNs;
    m_from = usable ? fromNs : kNoTime;
    // Whole seconds while the span allows (the lesson's "10:00:41"), coarser steps past kMaxSteps of them.
    m_step = usable ? std::max<int64_t>(kSecond, (toNs - fromNs + kMaxSteps - 1) / kMaxSteps) : kSecond;
    m_slider->setRange(0, usable ? static_cast<int>((toNs - fromNs + m_step - 1) / m_step) : 0);
    m_slider->setValue(m_slider->maximum());
    m_box->setChecked(false);
    setEnabled(usable);
    m_slider->setEnabled(false);
    m_label->setText(usable ? style::utc(fromNs + static_cast<int64_t>(m_slider->value()) * m_step, false) : QString());
}

int64_t ReplayClock::time() const
{
    if (!m_box->isChecked() || m_from == kNoTime)
        return kNoTime;
    return m_from + static_cast<int64_t>(m_slider->value()) * m_step;
}

void ReplayClock::setTime(int64_t ns)
{
    if (m_from == kNoTime)
        return;
    {
        const QSignalBlocker b1(m_box), b2(m_slider);
        m_box->setChecked(ns != kNoTime);
        if (ns != kNoTime)
            m_slider->setValue(static_cast<int>(std::clamp<int64_t>((ns - m_from) / m_step, 0, m_slider->maximum())));
    }
    changed();
}

void ReplayClock::changed()
{
    m_slider->setEnabled(m_box->isChecked());
    if (m_from != kNoTime)
        m_label->setText(style::utc(m_from + static_cast<int64_t>(m_slider->value()) * m_step, false));
    if (!m_slider->isSliderDown())
        emit timeChanged(time());
}

} // namespace fl
