// Name and wrapper invariance (issue #41): the same evidence under neutral file names ("file-03.log",
// "console.log", "output.txt", ...) and with every line behind a collecting tool's prefix (pdsh, docker
// compose, kubectl logs --prefix and --timestamps, Metaflow, Ray, mpirun --tag-output, Azure ML) gives the same status and
// domain, and the same node where the content names that node. A file whose node only its name said keeps
// it as a folder ("node-03/file-05.log"): its name then says nothing of its kind. Bundles: every shipped sample, a few small
// synth bundles of different fault kinds, and the real incidents when their folder is there
// ($FAULTLINE_INCIDENTS, else ../shared/incidents beside the source tree; skipped, and said so, otherwise).
// Prints a bundle x variant table; every cell must hold.
#include "bundle/wrappers.h"
#include "parse/lineparse.h"
#include "synth/synth.h"
#include "testutil.h"

#include <QtTest>

#include <cstdio>
#include <ctime>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using namespace fl;
using fltest::kSource;

namespace {

struct Verdict {
    std::string status, domain, node;
    std::string str() const { return status + "/" + domain + "/" + (node.empty() ? "-" : node); }
};

struct Source {
    std::string path;      // inside the bundle
    SourceKind kind = SourceKind::Unknown;
    std::string node;
    int rank = -1;
    bool nodeFromContent = false; // the engine read the node from the lines, not from the name
    bool notes = false;    // README, expected verdict, source.txt / observation.txt prose: kept as they are
};

struct Loaded {
    Verdict verdict;
    std::vector<Source> sources;
};

Loaded load(const fs::path& dir)
{
    Analysis a = analyze(dir.string(), fltest::shippedOnly());
    Loaded out;
    out.verdict = {std::string(toString(a.result.status)), std::string(toString(a.result.domain)), a.result.rootCause ? a.result.rootCause->node : ""};
    for (const auto& f : a.bundle.files) {
        Source s{f.path, f.kind, f.node, f.rank, f.nodeReason.starts_with("content"), false};
        const std::string base = fs::path(f.path).filename().string();
        s.notes = f.status == FileStatus::Skipped || base == "source.txt" || base == "observation.txt" || base == "workload.json";
        out.sources.push_back(std::move(s));
    }
    return out;
}

// Lines a collecting tool relays: application, kernel and Fabric Manager text. Metrics, snapshots,
// scheduler tables and JSON are files a tool writes, not a console it prefixes.
bool relayed(const Source& s)
{
    return !s.notes && (s.kind == SourceKind::AppLog || s.kind == SourceKind::SysLog || s.kind == SourceKind::FabricManager);
}

std::string extensionFor(const std::string& path)
{
    const std::string ext = fs::path(path).extension().string();
    for (const char* keep : {".csv", ".json", ".prom", ".jsonl"})
        if (ext == keep)
            return ext;
    return ".log";
}

// The prefix a tool puts before each line of the i-th relayed file (empty: the tool does not relay it).
using Prefix = std::function<std::string(const Source&, size_t i)>;

struct Variant {
    std::string name;
    std::function<std::string(const Source&, size_t i)> rename; // new bundle path; empty: keep
    Prefix prefix;                                              // null: none
    bool receiveTimes = false; // kubectl logs --timestamps: each line stamped with the time it was received
};

const std::vector<Variant>& variants()
{
    static const std::vector<Variant> v = [] {
        std::vector<Variant> out;
        out.push_back({"neutral", [](const Source& s, size_t i) {
                           char n[32];
                           std::snprintf(n, sizeof n, "file-%02zu", i + 1);
                           return std::string(n) + extensionFor(s.path);
                       }, nullptr});
        out.push_back({"console", [](const Source& s, size_t i) {
                           static const char* names[] = {"console.log", "output.txt", "nohup.out", "job.err", "stdout"};
                           if (extensionFor(s.path) != ".log")
                               return std::string();
                           // One folder a file: "part-a/console.log" (letters only, no host in it).
                           std::string folder = "part-";
                           for (size_t k = i;; k = k / 26 - 1) {
                               folder.insert(5, 1, char('a' + k % 26));
                               if (k < 26)
                                   break;
                           }
                           return folder + "/" + names[i % 5];
                       }, nullptr});
        out.push_back({"pdsh", nullptr, [](const Source& s, size_t) { return s.node.empty() ? std::string() : s.node + ": "; }});
        out.push_back({"compose", nullptr, [](const Source&, size_t i) {
                           const std::string name = "trainer-" + std::to_string(i + 1);
                           return name + std::string(14 - std::min<size_t>(name.size(), 13), ' ') + "| ";
                       }});
        out.push_back({"kubectl-prefix", nullptr,
                       [](const Source&, size_t i) { return "[pod/trainer-" + std::to_string(i) + "/main] "; }});
        // kubectl logs --timestamps: the time the runtime received each line, RFC 3339 with nanoseconds, before
        // the line's own stamp.
        out.push_back({"kubectl-timestamps", nullptr, nullptr, true});
        out.push_back({"metaflow", nullptr,
                       [](const Source&, size_t i) { return "[1712/train/" + std::to_string(i + 1) + " (pid 4242)] "; }});
        out.push_back({"ray", nullptr, [](const Source&, size_t) { return std::string("(raylet) "); }});
        out.push_back({"mpi", nullptr, [](const Source& s, size_t) {
                           return s.rank < 0 || s.kind != SourceKind::AppLog ? std::string()
                                                                             : "[1," + std::to_string(s.rank) + "]<stderr>:";
                       }});
        out.push_back({"azureml", nullptr, [](const Source& s, size_t i) {
                           return s.kind != SourceKind::AppLog ? std::string()
                                                               : "[rank_" + std::to_string(i) + ", 10.0.0." + std::to_string(i + 1) + "] ";
                       }});
        return out;
    }();
    return v;
}

std::string rfc3339Nano(int64_t ns)
{
    const std::time_t secs = std::time_t(ns / 1000000000);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    char head[32], frac[16];
    std::strftime(head, sizeof head, "%Y-%m-%dT%H:%M:%S", &tm);
    std::snprintf(frac, sizeof frac, ".%09lldZ", static_cast<long long>(ns % 1000000000));
    return std::string(head) + frac;
}

// What the runtime would have stamped: a second after the line's own time where it printed one, else after
// the last one before it in the file (the first one after it for the head of a file; a file with no time at
// all gets one fixed day). The stamp differs from the line's own time, so a reader that took it instead would
// show.
std::string receiveStamped(const std::string& text, SourceKind kind)
{
    const TimeContext ctx = inferTimeContext(std::string_view(text).substr(0, 1 << 16), kind, 2026);
    std::vector<std::string> lines;
    std::vector<int64_t> times;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) {
        times.push_back(parseLine(l, kind, ctx).timeNs);
        lines.push_back(std::move(l));
    }
    int64_t last = civilToNs(2026, 1, 1, 0, 0, 0, 0);
    for (int64_t t : times)
        if (t != kNoTime) {
            last = t;
            break;
        }
    std::string out;
    for (size_t k = 0; k < lines.size(); ++k) {
        if (times[k] != kNoTime)
            last = times[k];
        out += rfc3339Nano(last + 1000000000) + " " + lines[k] + "\n";
    }
    return out;
}

std::string prefixed(const std::string& text, const std::string& prefix)
{
    if (prefix.empty())
        return text;
    std::string out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        out += prefix + l + "\n";
    return out;
}

void makeVariant(const fs::path& src, const Loaded& as, const Variant& v, const fs::path& dst)
{
    fs::create_directories(dst);
    size_t i = 0;
    for (const Source& s : as.sources) {
        const fs::path from = src / s.path;
        std::string to = s.path;
        std::string text = fltest::readFile(from);
        if (!s.notes) {
            if (v.rename) {
                if (std::string n = v.rename(s, i); !n.empty()) {
                    // A node only the name said is kept as people keep it when they collect per host: a
                    // folder. The file's own name says nothing.
                    to = !s.node.empty() && !s.nodeFromContent ? s.node + "/" + n : n;
                }
            }
            if (v.prefix && relayed(s))
                text = prefixed(text, v.prefix(s, i));
            if (v.receiveTimes && relayed(s))
                text = receiveStamped(text, s.kind);
            ++i;
        }
        fs::create_directories((dst / to).parent_path());
        fltest::writeFile(dst / to, text);
    }
}

// Whether the lines of some file name `node` as their host (syslog host field, NCCL "host:pid:tid", ...):
// then renaming the files must not lose it.
bool contentNames(const Loaded& as, const std::string& node)
{
    for (const Source& s : as.sources)
        if (!node.empty() && s.node == node && s.nodeFromContent)
            return true;
    return false;
}

struct Row {
    std::string bundle;
    Verdict asIs;
    std::vector<std::string> cells; // "=" or what changed
};

fs::path incidentsDir()
{
    if (const char* env = std::getenv("FAULTLINE_INCIDENTS"); env && *env)
        return env;
    return fs::path(kSource) / ".." / "shared" / "incidents";
}

} // namespace

class TestWrapperInvariance : public QObject {
    Q_OBJECT

    std::vector<std::pair<std::string, fs::path>> bundles;
    QTemporaryDir tmp;

private slots:
    void wrapperTableReadsItsSamples()
    {
        const std::string problems = checkWrapperShapes();
        QVERIFY2(problems.empty(), problems.c_str());
        // Each shape is found from its own sample lines, and plain lines carry none.
        for (const WrapperShape& shape : wrapperShapes()) {
            std::string head;
            for (std::string_view l : shape.samples)
                head += std::string(l) + "\n";
            QCOMPARE(int(detectWrapper(head)), int(shape.wrapper));
        }
        QCOMPARE(int(detectWrapper("RuntimeError: CUDA error: out of memory\nkernel: NVRM: Xid 79\nERROR: boom\n")),
                 int(LineWrapper::None));
        QCOMPARE(int(detectWrapper("torch.distributed.DistBackendError: NCCL error\nValueError: x\n")), int(LineWrapper::None));
    }

    // A console pasted whole: each node's kernel and application lines in one "console.log" (in a folder
    // that names nothing). Its lines are read by shape, so the verdict stays.
    void combinedConsole_data()
    {
        QTest::addColumn<QString>("fault");
        for (const char* f : {"xid79", "hung_task", "oom", "xid48"})
            QTest::newRow(f) << f;
    }

    void combinedConsole()
    {
        QFETCH(QString, fault);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const fs::path src = fs::path(dir.path().toStdString()) / "src";
        synth::Options o;
        o.fault = fault.toStdString();
        o.nodes = 2;
        o.gpusPerNode = 2;
        o.iterations = 20;
        o.seed = 5;
        std::string error;
        QVERIFY2(synth::generate(o, src.string(), &error), error.c_str());
        fs::remove(src / "truth.json");
        const Loaded as = load(src);
        const fs::path dst = fs::path(dir.path().toStdString()) / "console";
        std::map<std::string, std::string> consoleOf; // node -> its kernel and application lines
        for (const Source& s : as.sources) {
            const std::string text = fltest::readFile(src / s.path);
            if (relayed(s) && s.kind != SourceKind::FabricManager && !s.node.empty())
                consoleOf[s.node] += text;
            else
                fltest::writeFile(dst / s.path, text);
        }
        size_t n = 0;
        for (const auto& [node, text] : consoleOf)
            fltest::writeFile(dst / ("part-" + std::string(1, char('a' + n++))) / "console.log", text);
        const Loaded got = load(dst);
        std::printf("combined console %s: %s (as is %s)\n", o.fault.c_str(), got.verdict.str().c_str(), as.verdict.str().c_str());
        bool read = false;
        for (const Source& s : got.sources)
            read = read || (s.path.ends_with("console.log") && s.kind != SourceKind::Unknown);
        QVERIFY(read);
        QCOMPARE(QString::fromStdString(got.verdict.status), QString::fromStdString(as.verdict.status));
        QCOMPARE(QString::fromStdString(got.verdict.domain), QString::fromStdString(as.verdict.domain));
        QCOMPARE(QString::fromStdString(got.verdict.node), QString::fromStdString(as.verdict.node));
    }

    void invariance()
    {
        QVERIFY(tmp.isValid());
        // FAULTLINE_INVARIANCE_KEEP=DIR keeps the variant bundles there (to run another build of the CLI on them).
        const char* keep = std::getenv("FAULTLINE_INVARIANCE_KEEP");
        const fs::path work = keep && *keep ? fs::path(keep) : fs::path(tmp.path().toStdString());
        for (const auto& e : fs::directory_iterator(fs::path(kSource) / "samples"))
            if (e.is_directory())
                bundles.emplace_back("sample/" + e.path().filename().string(), e.path());
        for (const char* fault : {"xid79", "ib_err12", "oom", "hung_task", "nfs_hang", "cuda_oom", "sxid20034", "node_fail"}) {
            synth::Options o;
            o.fault = fault;
            o.nodes = 2;
            o.gpusPerNode = 2;
            o.iterations = 20;
            o.seed = 7;
            const fs::path dir = work / "synth" / fault;
            std::string error;
            QVERIFY2(synth::generate(o, dir.string(), &error), error.c_str());
            fs::remove(dir / "truth.json");
            bundles.emplace_back(std::string("synth/") + fault, dir);
        }
        const fs::path incidents = incidentsDir();
        if (fs::is_directory(incidents)) {
            for (const auto& e : fs::directory_iterator(incidents))
                if (e.is_directory())
                    bundles.emplace_back("incident/" + e.path().filename().string(), e.path());
        } else {
            std::printf("incidents: no folder at %s (set FAULTLINE_INCIDENTS): that part is skipped\n", incidents.string().c_str());
        }
        std::sort(bundles.begin(), bundles.end());

        std::vector<Row> rows;
        size_t held = 0, cells = 0;
        std::string failures;
        for (const auto& [name, src] : bundles) {
            const Loaded as = load(src);
            Row row{name, as.verdict, {}};
            const bool nodeNamed = contentNames(as, as.verdict.node);
            for (const Variant& v : variants()) {
                std::string dirName = name + "-" + v.name;
                std::replace(dirName.begin(), dirName.end(), '/', '_');
                const fs::path dst = work / "variants" / dirName;
                makeVariant(src, as, v, dst);
                const Verdict got = load(dst).verdict;
                // Names kept (a wrapper variant): the node must hold; renamed: where the lines name it. A
                // bundle placed nowhere may be placed by what a wrapper names (a pdsh host, an address).
                const bool nodeHolds = as.verdict.node.empty() || (!nodeNamed && v.rename) || got.node == as.verdict.node;
                const bool same = got.status == as.verdict.status && got.domain == as.verdict.domain && nodeHolds;
                ++cells;
                if (same) {
                    ++held;
                    row.cells.push_back("=");
                } else {
                    row.cells.push_back(got.str());
                    failures += name + " " + v.name + ": " + got.str() + " (as is " + as.verdict.str() + ")\n";
                }
            }
            rows.push_back(std::move(row));
        }

        std::printf("%-34s %-40s", "bundle", "as is");
        for (const Variant& v : variants())
            std::printf(" %-8.8s", v.name.c_str());
        std::printf("\n");
        for (const Row& r : rows) {
            std::printf("%-34s %-40s", r.bundle.c_str(), r.asIs.str().c_str());
            for (const std::string& c : r.cells)
                std::printf(" %-8s", c == "=" ? "=" : "CHANGED");
            std::printf("\n");
        }
        std::printf("%zu of %zu bundle x variant cells keep their verdict\n", held, cells);
        if (!failures.empty())
            std::printf("changed:\n%s", failures.c_str());
        std::fflush(stdout);
        QVERIFY2(failures.empty(), failures.c_str());
    }
};

QTEST_GUILESS_MAIN(TestWrapperInvariance)
#include "test_wrapper_invariance.moc"
