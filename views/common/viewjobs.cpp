// SPDX-License-Identifier: MIT
#include "views/common/viewjobs.h"

namespace fl {

ViewJobs::ViewJobs(QObject* parent) : QObject(parent)
{
    m_clock.start();
}

ViewJobs::~ViewJobs()
{
    // Workers hold only what they were given; let them finish before the
    // watchers (our children) go.
    cancel();
    for (QFutureWatcherBase* w : findChildren<QFutureWatcherBase*>())
        w->waitForFinished();
}

void ViewJobs::cancel()
{
    m_cancel->store(true);
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    ++m_generation;
    m_pending = 0;
}

void ViewJobs::restart(Mode mode)
{
    cancel();
    m_mode = mode;
    m_timings.clear();
    m_clock.restart();
}

void ViewJobs::landed(const QString& name, double workMs, double applyMs)
{
    m_timings.push_back({name, workMs, applyMs, elapsedMs()});
    emit jobFinished(name);
    if (--m_pending == 0)
        emit allFinished();
}

} // namespace fl
