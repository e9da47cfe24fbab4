// SPDX-License-Identifier: MIT
// Workbench figures, offscreen: open-to-verdict on a 1,250-node x 8-GPU
// synthetic bundle (staged), timeline frame time at 10,000 lanes, and the
// jump to a raw line in a 1 GB log. Prints a table; exits 0 whether or not
// the goals are met (the figures are the output).
//
//   gui_bench [--nodes N] [--lanes N] [--frames N] [--log-mb N] [--keep DIR] [--only raw|timeline|open]
#include "synth/synth.h"
#include "views/evidence/rawfileview.h"
#include "views/timeline/timelineview.h"
#include "views/workbench/workbenchview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <random>

using namespace fl;

namespace {

double ms(const QElapsedTimer& t)
{
    return static_cast<double>(t.nsecsElapsed()) / 1e6;
}

double percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    const size_t i = std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size() - 1) + 0.5));
    return v[i];
}

void row(const char* what, double value, const char* goal, bool ok)
{
    if (*goal)
        std::printf("  %-44s %10.1f ms   goal %-8s %s\n", what, value, goal, ok ? "met" : "MISSED");
    else
        std::printf("  %-44s %10.1f ms\n", what, value);
}

int argValue(const QStringList& args, const QString& name, int def)
{
    const int i = static_cast<int>(args.indexOf(name));
    return i >= 0 && i + 1 < args.size() ? args[i + 1].toInt() : def;
}

void openToVerdict(const QString& dir, int nodes)
{
    synth::Options o;
    o.nodes = nodes;
    o.gpusPerNode = 8;
    o.iterations = 30;
    o.fault = "xid79";
    std::string err;
    QElapsedTimer t;
    t.start();
    const std::optional<synth::Truth> truth = synth::generate(o, dir.toStdString(), &err);
    if (!truth) {
        std::printf("synth failed: %s\n", err.c_str());
        return;
    }
    std::printf("Open to verdict: %d nodes x 8 GPUs, 30 iterations, xid79 (generated in %.0f ms)\n", nodes, ms(t));

    AnalyzeOptions opts;
    t.start();
    auto rules = loadRulesFor(opts);
    auto a = std::make_shared<Analysis>();
    a->bundle = loadBundle(dir.toStdString(), opts.load);
    Engine engine(rules);
    engine.ingest(a->bundle);
    const double load = ms(t);
    t.start();
    a->result = engine.attribute(&a->trace);
    a->observations = engine.observations();
    a->metrics = engine.metrics();
    a->bundle.files = engine.files();
    const double attribute = ms(t);
    WorkbenchView w;
    w.resize(1600, 1000);
    t.start();
    w.setAnalysis(a);
    const double model = ms(t);
    t.start();
    w.show();
    const QPixmap frame = w.grab();
    QCoreApplication::processEvents();
    const double paint = ms(t);
    const double total = load + attribute + model + paint;
    std::printf("  files %zu, observations %zu, events %zu, evidence %zu; verdict %s %s/%s on %s (truth: %s)\n",
                a->bundle.files.size(), a->observations.size(), a->result.events.size(), a->result.evidence.size(),
                std::string(toString(a->result.status)).c_str(), std::string(toString(a->result.domain)).c_str(), a->result.subDomain.c_str(),
                a->result.rootCause ? a->result.rootCause->node.c_str() : "-", truth->culpritNode.c_str());
    row("load + scan (rules, bundle, ingest)", load, "", true);
    row("attribute (phases, outcome, report)", attribute, "", true);
    row("model build (all views' setAnalysis)", model, "", true);
    row("first paint (1600x1000 window grab)", paint, "", true);
    row("open to verdict, total", total, "< 3000", total < 3000);
    (void)frame;
}

void timelineFrames(int laneCount, int frames)
{
    std::printf("Timeline: %d lanes, 1600x1000, %d frames\n", laneCount, frames);
    TimelineLanes lanes;
    std::mt19937_64 rng(7);
    const int64_t t0 = 1'773'482'400'000'000'000;  // 2026-03-14 10:00 UTC
    const int64_t span = 3600'000'000'000;
    uint32_t id = 0;
    QElapsedTimer t;
    t.start();
    for (int n = 0; n < laneCount; ++n) {
        const std::string node = "node-" + std::to_string(10000 + n).substr(1);
        for (int e = 0; e < 40; ++e) {
            const auto lv = static_cast<style::Level>(rng() % 3);
            lanes.add(node, static_cast<int>(rng() % 8), {t0 + static_cast<int64_t>(rng() % static_cast<uint64_t>(span)), TimeBasis::Absolute, {}}, lv, EventId(id++));
        }
    }
    lanes.add("node-0042", 3, {t0 + span / 2, TimeBasis::Absolute, {}}, style::Root, EventId(id++));
    lanes.finish();
    const double build = ms(t);
    FocusState focus;
    TimelineView v(&focus);
    v.resize(1600, 1000);
    v.setLanes(std::move(lanes));
    v.show();
    focus.setTimeWindow(t0, t0 + span);
    v.grab();  // warm-up: fonts, caches
    std::vector<double> pan, still;
    for (int i = 0; i < frames; ++i) {
        // A pan step: the per-pixel mark cache is invalid, every lane re-aggregates.
        focus.setTimeWindow(t0 + i * span / 500, t0 + span + i * span / 500, FocusState::History::Coalesce);
        t.start();
        v.grab();
        pan.push_back(ms(t));
        // A repaint with nothing moved (hover line, selection): cache hit.
        focus.setCursor(t0 + span / 2 + i);
        t.start();
        v.grab();
        still.push_back(ms(t));
    }
    std::printf("  lanes built in %.0f ms; %d lanes painted per frame\n", build, v.lastPaintedLanes());
    row("pan frame, median", percentile(pan, 0.5), "< 16", percentile(pan, 0.5) < 16);
    row("pan frame, p95", percentile(pan, 0.95), "< 16", percentile(pan, 0.95) < 16);
    row("repaint frame (cursor move), median", percentile(still, 0.5), "< 16", percentile(still, 0.5) < 16);
    row("repaint frame (cursor move), p95", percentile(still, 0.95), "< 16", percentile(still, 0.95) < 16);
}

void rawJump(const QString& path, int megabytes)
{
    // Realistic application lines, ~130 bytes each.
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        std::printf("cannot write %s\n", qPrintable(path));
        return;
    }
    const uint64_t target = static_cast<uint64_t>(megabytes) << 20;
    RawRef ref;
    const uint64_t refAt = target / 10 * 9;  // evidence near the end: the worst case for a prefix index
    uint64_t written = 0, line = 0;
    QByteArray chunk;
    QElapsedTimer t;
    t.start();
    while (written < target) {
        chunk.clear();
        for (int i = 0; i < 30000; ++i) {
            ++line;
            const QByteArray l = QByteArrayLiteral("2026-03-14T10:") + QByteArray::number(line % 60).rightJustified(2, '0')
                + QByteArrayLiteral(":00.123456Z node-0042 python[41002]: [rank 12] step ") + QByteArray::number(line)
                + QByteArrayLiteral(" loss=2.3417 lr=0.0003 grad_norm=0.87 throughput=1234.5 samples/s\n");
            if (ref.line == 0 && written + static_cast<uint64_t>(chunk.size()) >= refAt) {
                ref.offset = written + static_cast<uint64_t>(chunk.size());
                ref.line = static_cast<uint32_t>(line);
                ref.length = static_cast<uint32_t>(l.size() - 1);
            }
            chunk += l;
        }
        f.write(chunk);
        written += static_cast<uint64_t>(chunk.size());
    }
    f.close();
    std::printf("Raw viewer: %.0f MB log, %llu lines (written in %.0f ms); target line %u at byte %llu\n",
                static_cast<double>(written) / 1048576.0, static_cast<unsigned long long>(line), ms(t), ref.line,
                static_cast<unsigned long long>(ref.offset));
    std::vector<double> jump, byNumber, afterCheckpoints;
    bool correct = true;
    for (int run = 0; run < 5; ++run) {
        {
            RawFileView v;
            v.resize(900, 600);
            v.show();
            t.start();
            const bool opened = v.open(path, QStringLiteral("big.log"));
            v.showRef(ref);
            v.grab();
            jump.push_back(ms(t));
            correct = correct && opened && v.currentLine() == ref.line;  // a file that did not open is a failed run
        }
        {
            RawFileView v;
            v.resize(900, 600);
            v.show();
            t.start();
            const bool opened = v.open(path, QStringLiteral("big.log"));
            v.goToLine(ref.line);
            // Lands when the background checkpoints reach the line (the index timer polls).
            while (opened && v.goToLinePending())
                QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
            v.grab();
            byNumber.push_back(ms(t));
            correct = correct && opened && v.currentLine() == ref.line;
        }
        {
            // The usual case: the file has been open for a moment (the checkpoints are
            // built within ~0.2 s) before someone types a line number.
            RawFileView v;
            v.resize(900, 600);
            v.show();
            const bool opened = v.open(path, QStringLiteral("big.log"));
            while (opened && !v.checkpointsComplete())
                QThread::msleep(1);
            t.start();
            v.goToLine(ref.line);
            const bool landed = !v.goToLinePending();
            v.grab();
            afterCheckpoints.push_back(ms(t));
            correct = correct && opened && landed && v.currentLine() == ref.line;
        }
    }
    std::printf("  target line shown: %s\n", correct ? "yes" : "NO");
    row("open + jump to evidence (RawRef), median", percentile(jump, 0.5), "< 50", percentile(jump, 0.5) < 50);
    row("open + go to line number, median", percentile(byNumber, 0.5), "< 50", percentile(byNumber, 0.5) < 50);
    row("go to line number, checkpoints built, median", percentile(afterCheckpoints, 0.5), "< 50",
        percentile(afterCheckpoints, 0.5) < 50);
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    const int nodes = argValue(args, QStringLiteral("--nodes"), 1250);
    const int laneCount = argValue(args, QStringLiteral("--lanes"), 10000);
    const int frames = std::max(50, argValue(args, QStringLiteral("--frames"), 60));
    const int logMb = argValue(args, QStringLiteral("--log-mb"), 1024);
    QTemporaryDir tmp;
    if (!tmp.isValid()) {
        std::printf("no temp dir\n");
        return 1;
    }
    // --only raw|timeline|open runs one part (the raw viewer alone needs no bundle).
    const int only = args.indexOf(QStringLiteral("--only"));
    const QString part = only >= 0 && only + 1 < args.size() ? args.at(only + 1) : QString();
    if (!part.isEmpty() && part != QLatin1String("raw") && part != QLatin1String("timeline") && part != QLatin1String("open")) {
        std::printf("--only takes raw, timeline or open, not %s\n", qPrintable(part));
        return 2;
    }
    if (!part.isEmpty()) {
        if (part == QLatin1String("raw"))
            rawJump(tmp.filePath(QStringLiteral("big.log")), logMb);
        else if (part == QLatin1String("timeline"))
            timelineFrames(laneCount, frames);
        else
            try {
                openToVerdict(tmp.filePath(QStringLiteral("bundle")), nodes);
            } catch (const std::exception& e) {
                std::printf("open to verdict failed: %s\n", e.what());
                return 1;
            }
        return 0;
    }
    try {
        openToVerdict(tmp.filePath(QStringLiteral("bundle")), nodes);
    } catch (const std::exception& e) {
        std::printf("open to verdict failed: %s\n", e.what());
    }
    timelineFrames(laneCount, frames);
    rawJump(tmp.filePath(QStringLiteral("big.log")), logMb);
    return 0;
}
