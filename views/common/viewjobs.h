// SPDX-License-Identifier: MIT
// What the views build from an analysis (timeline lanes, the chain's Graphviz
// layout, coverage rows, metric series) runs here as jobs, after Hotspot's
// JobTracker (src/jobtracker.h): the work runs on the thread pool and reads
// only what it was given; its result is applied on the GUI thread. Every job
// belongs to a generation: restart() or cancel() ends it, its running work
// sees the cancel flag, and a late result is dropped, never shown. In Inline
// mode (tests, small results) a job runs and applies at once.
#pragma once

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

namespace fl {

struct JobTiming {
    QString name;
    double workMs = 0;   // on the worker thread
    double applyMs = 0;  // on the GUI thread
    double doneAtMs = 0; // since restart()
};

class ViewJobs : public QObject
{
    Q_OBJECT
public:
    enum class Mode { Background, Inline };

    explicit ViewJobs(QObject* parent = nullptr);
    ~ViewJobs() override;

    // Ends the current generation and starts the next one (its clock at zero).
    void restart(Mode mode);
    // Ends the current generation: its work sees the flag, its results are dropped.
    void cancel();
    Mode mode() const { return m_mode; }
    int pending() const { return m_pending; }
    const std::vector<JobTiming>& timings() const { return m_timings; }
    double elapsedMs() const { return static_cast<double>(m_clock.nsecsElapsed()) / 1e6; }

    // `work(const std::atomic<bool>& cancelled)` runs on a worker and returns a
    // value; `apply(value)` runs on the GUI thread unless the generation ended.
    template <class Work, class Apply>
    void run(const QString& name, Work work, Apply apply);

signals:
    void jobFinished(const QString& name);
    // The last pending background job of the generation landed (Inline jobs
    // never pend: they are done when run() returns).
    void allFinished();

private:
    void landed(const QString& name, double workMs, double applyMs);

    Mode m_mode = Mode::Inline;
    int m_pending = 0;
    quint64 m_generation = 0;
    std::shared_ptr<std::atomic<bool>> m_cancel = std::make_shared<std::atomic<bool>>(false);
    QElapsedTimer m_clock;
    std::vector<JobTiming> m_timings;
};

template <class Work, class Apply>
void ViewJobs::run(const QString& name, Work work, Apply apply)
{
    using T = std::invoke_result_t<Work&, const std::atomic<bool>&>;
    if (m_mode == Mode::Inline) {
        QElapsedTimer t;
        t.start();
        T value = work(*m_cancel);
        const double workMs = static_cast<double>(t.nsecsElapsed()) / 1e6;
        t.restart();
        apply(std::move(value));
        m_timings.push_back({name, workMs, static_cast<double>(t.nsecsElapsed()) / 1e6, elapsedMs()});
        emit jobFinished(name);
        return;
    }
    struct Out {
        std::optional<T> value;  // empty: the work threw (logged) or was cancelled
        double ms = 0;
    };
    auto* watcher = new QFutureWatcher<std::shared_ptr<Out>>(this);
    ++m_pending;
    const quint64 generation = m_generation;
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, name, apply = std::move(apply)]() mutable {
        watcher->deleteLater();
        if (generation != m_generation)
            return;
        const std::shared_ptr<Out> out = watcher->result();
        QElapsedTimer t;
        t.start();
        if (out->value)
            apply(std::move(*out->value));
        landed(name, out->ms, static_cast<double>(t.nsecsElapsed()) / 1e6);
    });
    watcher->setFuture(QtConcurrent::run([work = std::move(work), cancel = m_cancel, name]() mutable {
        auto out = std::make_shared<Out>();
        QElapsedTimer t;
        t.start();
        try {
            if (!cancel->load())
                out->value.emplace(work(*cancel));
        } catch (const std::exception& e) {
            qWarning("faultline: view job %s failed: %s", qPrintable(name), e.what());
        }
        out->ms = static_cast<double>(t.nsecsElapsed()) / 1e6;
        return out;
    }));
}

} // namespace fl
