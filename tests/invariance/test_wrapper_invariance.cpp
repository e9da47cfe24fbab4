// Name and wrapper invariance (issue #41): the same evidence under neutral file names ("file-03.log",
// "console.log", "output.txt", ...) and with every line behind a collecting tool's prefix (pdsh, docker
// compose, kubectl logs --prefix and --timestamps, Metaflow, Ray with and without the node's address, srun --label,
// mpirun --tag-output, Azure ML), or written again as another collector's records (RFC 5424 with and without
// structured data, journalctl -o short-iso and short-precise, CRI container log files) gives the same status and
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
    // A collector that writes each line again in its own record shape (RFC 5424 relays, journalctl, CRI files):
    // the whole text of a relayed file in, the text as that collector writes it out.
    std::function<std::string(const std::string& text, const Source&, size_t i)> rewrite = nullptr;
};

enum class Record { Rfc5424, Rfc5424Sd, ShortIso, ShortPrecise, Cri };
std::string rewritten(const std::string& text, const Source& s, Record how);
std::string addressOf(const Source& s, size_t i);

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
        // Ray's log monitor names the worker's node by address: "(pid=N, ip=A) ", "(raylet, ip=A) ",
        // "(RayTrainWorker pid=N, ip=A) " (ray/_private/ray_logging.py).
        out.push_back({"ray-pid-ip", nullptr,
                       [](const Source& s, size_t i) { return "(pid=" + std::to_string(4200 + i) + ", ip=" + addressOf(s, i) + ") "; }});
        out.push_back({"raylet-ip", nullptr, [](const Source& s, size_t i) { return "(raylet, ip=" + addressOf(s, i) + ") "; }});
        out.push_back({"ray-actor", nullptr, [](const Source& s, size_t i) {
                           return "(RayTrainWorker pid=" + std::to_string(4200 + i) + ", ip=" + addressOf(s, i) + ") ";
                       }});
        // srun --label: the task id before each line of the job's application output.
        out.push_back({"srun-label", nullptr, [](const Source& s, size_t) {
                           return s.rank < 0 || s.kind != SourceKind::AppLog ? std::string() : std::to_string(s.rank) + ": ";
                       }});
        out.push_back({"mpi", nullptr, [](const Source& s, size_t) {
                           return s.rank < 0 || s.kind != SourceKind::AppLog ? std::string()
                                                                             : "[1," + std::to_string(s.rank) + "]<stderr>:";
                       }});
        out.push_back({"azureml", nullptr, [](const Source& s, size_t i) {
                           return s.kind != SourceKind::AppLog ? std::string()
                                                               : "[rank_" + std::to_string(i) + ", 10.0.0." + std::to_string(i + 1) + "] ";
                       }});
        const auto rewrite = [](Record how) {
            return [how](const std::string& text, const Source& s, size_t) { return rewritten(text, s, how); };
        };
        out.push_back({"rfc5424", nullptr, nullptr, false, rewrite(Record::Rfc5424)});
        out.push_back({"rfc5424-sd", nullptr, nullptr, false, rewrite(Record::Rfc5424Sd)});
        out.push_back({"journal-short-iso", nullptr, nullptr, false, rewrite(Record::ShortIso)});
        out.push_back({"journal-short-precise", nullptr, nullptr, false, rewrite(Record::ShortPrecise)});
        out.push_back({"cri", nullptr, nullptr, false, rewrite(Record::Cri)});
        return out;
    }();
    return v;
}

// One address a node (what Ray prints for a node), a file's own where no node is known.
std::string addressOf(const Source& s, size_t i)
{
    static std::map<std::string, std::string> byNode;
    if (s.node.empty())
        return "10.1.0." + std::to_string(i + 1);
    auto [it, added] = byNode.emplace(s.node, "");
    if (added)
        it->second = "10.0.0." + std::to_string(byNode.size());
    return it->second;
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

// Each line of a file with its own time, else the last one before it in the file (the first one after it for
// the head of a file; a file with no time at all gets one fixed day), and how finely its own stamp tells time.
struct TimedLine {
    std::string text;
    int64_t timeNs = kNoTime;
    int64_t resolutionNs = 0; // 0: the time is not the line's own
};

std::vector<TimedLine> timedLines(const std::string& text, SourceKind kind)
{
    const TimeContext ctx = inferTimeContext(std::string_view(text).substr(0, 1 << 16), kind, 2026);
    std::vector<TimedLine> lines;
    std::istringstream in(text);
    int64_t first = kNoTime;
    for (std::string l; std::getline(in, l);) {
        const LineInfo li = parseLine(l, kind, ctx);
        const bool own = li.timeNs != kNoTime;
        if (own && first == kNoTime)
            first = li.timeNs;
        lines.push_back({std::move(l), li.timeNs, own ? li.resolutionNs : 0});
    }
    int64_t last = first != kNoTime ? first : civilToNs(2026, 1, 1, 0, 0, 0, 0);
    for (TimedLine& l : lines) {
        if (l.timeNs != kNoTime)
            last = l.timeNs;
        l.timeNs = last;
    }
    return lines;
}

// What the runtime would have stamped: a second after the line's own time where it printed one, else after
// the last one before it in the file (the first one after it for the head of a file; a file with no time at
// all gets one fixed day). The stamp differs from the line's own time, so a reader that took it instead would
// show.
std::string receiveStamped(const std::string& text, SourceKind kind)
{
    std::string out;
    for (const TimedLine& l : timedLines(text, kind))
        out += rfc3339Nano(l.timeNs + 1000000000) + " " + l.text + "\n";
    return out;
}

// A BSD syslog line's parts: "Mar 14 09:57:40 node-02 kernel: <message>" -> host, tag ("kernel", "python[12]"),
// message. False for any other line.
bool bsdSyslog(std::string_view l, std::string& host, std::string& tag, std::string& message)
{
    static const std::string_view months = "JanFebMarAprMayJunJulAugSepOctNovDec";
    if (l.size() < 16 || months.find(l.substr(0, 3)) == std::string_view::npos || l[3] != ' ')
        return false;
    size_t p = 4;
    while (p < l.size() && l[p] == ' ')
        ++p;
    while (p < l.size() && l[p] >= '0' && l[p] <= '9')
        ++p;
    if (p >= l.size() || l[p] != ' ')
        return false;
    const size_t clock = l.find(' ', p + 1);
    if (clock == std::string_view::npos || l.substr(clock).size() < 2 || l[clock - 3] != ':')
        return false;
    const size_t hostEnd = l.find(' ', clock + 1);
    if (hostEnd == std::string_view::npos)
        return false;
    const size_t tagEnd = l.find(": ", hostEnd + 1);
    if (tagEnd == std::string_view::npos || tagEnd - hostEnd > 64 || l.substr(hostEnd + 1, tagEnd - hostEnd - 1).find(' ') != std::string_view::npos)
        return false;
    host = l.substr(clock + 1, hostEnd - clock - 1);
    tag = l.substr(hostEnd + 1, tagEnd - hostEnd - 1);
    message = l.substr(tagEnd + 2);
    return true;
}

// Each line of a relayed file as `how` writes it: a syslog line's own time, host, tag and message in that
// record shape; any other line (an application's, Fabric Manager's) as the message of a record from a
// program on the file's node, at its own time or the last one before it. A line whose node nobody names
// stays as it was for the collectors that always print a host (journalctl); RFC 5424 says "-".
std::string rewritten(const std::string& text, const Source& s, Record how)
{
    if (how == Record::Cri && s.kind != SourceKind::AppLog)
        return text; // a container's own output
    std::string out;
    const std::vector<TimedLine> lines = timedLines(text, s.kind);
    for (size_t k = 0; k < lines.size(); ++k) {
        const std::string iso = rfc3339Nano(lines[k].timeNs); // "2026-03-14T09:57:40.123456789Z"
        // A collector prints no finer time than the line had: a whole-second stamp (syslog's) with a made-up
        // fraction would order events the source cannot. journalctl -o short-precise always prints
        // microseconds: a line stamped to the second is left in its "-o short" shape.
        const int64_t res = lines[k].resolutionNs;
        const size_t digits = res <= 0 || res >= 1000000000 ? 0 : res >= 1000000 ? 3 : res >= 1000 ? 6 : 9;
        const std::string secs = iso.substr(0, 19) + (digits ? "." + iso.substr(20, digits) : "");
        if (how == Record::ShortPrecise && digits == 0) {
            out += lines[k].text + "\n";
            continue;
        }
        std::string host, tag, message;
        if (!bsdSyslog(lines[k].text, host, tag, message)) {
            host = s.node;
            tag = s.kind == SourceKind::FabricManager ? "nv-fabricmanager[2231]" : s.kind == SourceKind::SysLog ? "kernel" : "python[4242]";
            message = lines[k].text;
            // dmesg -T's own clock ("[Sat Mar  4 04:10:52 2023] "): the journal prints its time instead.
            if (s.kind == SourceKind::SysLog && message.size() > 27 && message[0] == '[' && message[25] == ']'
                && message[1] >= 'A' && message[1] <= 'Z')
                message.erase(0, message[26] == ' ' ? 27 : 26);
        }
        if (host.empty() && (how == Record::ShortIso || how == Record::ShortPrecise)) {
            out += lines[k].text + "\n";
            continue;
        }
        const size_t bracket = tag.find('[');
        const std::string app = tag.substr(0, bracket);
        const std::string procid = bracket == std::string::npos ? "-" : tag.substr(bracket + 1, tag.size() - bracket - 2);
        switch (how) {
        case Record::Rfc5424:
            out += "<11>1 " + secs + "+00:00 " + (host.empty() ? "-" : host) + " " + app + " " + procid + " - - " + message;
            break;
        case Record::Rfc5424Sd:
            out += "<11>1 " + secs + "Z " + (host.empty() ? "-" : host) + " " + app + " " + procid
                + " log [origin ip=\"10.0.0.9\" software=\"rsyslogd\"][meta sequenceId=\"" + std::to_string(k + 1) + "\"] "
                + message;
            break;
        case Record::ShortIso:
            out += iso.substr(0, 19) + "+0000 " + host + " " + tag + ": " + message;
            break;
        case Record::ShortPrecise: {
            static const char* months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
            const int month = std::stoi(iso.substr(5, 2));
            const std::string day = iso.substr(8, 2);
            out += std::string(months[month - 1]) + " " + (day[0] == '0' ? " " + day.substr(1) : day) + " " + iso.substr(11, 15)
                + " " + host + " " + tag + ": " + message;
            break;
        }
        case Record::Cri:
            out += iso + " stderr F " + lines[k].text;
            break;
        }
        out += "\n";
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
            if (v.rewrite && relayed(s))
                text = v.rewrite(text, s, i);
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

    // One row a variant (each within QTest's per-function time limit); the bundles and their verdicts as they
    // are are made once, on the first row.
    void invariance_data()
    {
        QTest::addColumn<int>("variant");
        for (size_t k = 0; k < variants().size(); ++k)
            QTest::newRow(variants()[k].name.c_str()) << int(k);
    }

    void invariance()
    {
        QFETCH(int, variant);
        const Variant& v = variants()[size_t(variant)];
        QVERIFY(tmp.isValid());
        if (bundles.empty())
            prepare();
        std::string failures;
        for (const auto& [name, src] : bundles) {
            const Loaded& as = asIs.at(name);
            const bool nodeNamed = contentNames(as, as.verdict.node);
            std::string dirName = name + "-" + v.name;
            std::replace(dirName.begin(), dirName.end(), '/', '_');
            const fs::path dst = work / "variants" / dirName;
            makeVariant(src, as, v, dst);
            const Verdict got = load(dst).verdict;
            // Names kept (a wrapper variant): the node must hold; renamed: where the lines name it. A
            // bundle placed nowhere may be placed by what a wrapper names (a pdsh host, an address).
            const bool nodeHolds = as.verdict.node.empty() || (!nodeNamed && v.rename) || got.node == as.verdict.node;
            const bool same = got.status == as.verdict.status && got.domain == as.verdict.domain && nodeHolds;
            cells[name].push_back(same ? "=" : "CHANGED");
            if (!same)
                failures += name + " " + v.name + ": " + got.str() + " (as is " + as.verdict.str() + ")\n";
        }
        QVERIFY2(failures.empty(), failures.c_str());
    }

    // The bundle x variant table.
    void cleanupTestCase()
    {
        if (cells.empty())
            return;
        std::printf("%-34s %-40s", "bundle", "as is");
        for (const Variant& v : variants())
            std::printf(" %-8.8s", v.name.c_str());
        std::printf("\n");
        size_t held = 0, all = 0;
        for (const auto& [name, row] : cells) {
            std::printf("%-34s %-40s", name.c_str(), asIs.at(name).verdict.str().c_str());
            for (const std::string& c : row) {
                std::printf(" %-8s", c.c_str());
                held += c == "=";
                ++all;
            }
            std::printf("\n");
        }
        std::printf("%zu of %zu bundle x variant cells keep their verdict\n", held, all);
        std::fflush(stdout);
    }

private:
    fs::path work;
    std::map<std::string, Loaded> asIs;
    std::map<std::string, std::vector<std::string>> cells; // bundle -> one cell a variant run so far

    void prepare()
    {
        // FAULTLINE_INVARIANCE_KEEP=DIR keeps the variant bundles there (to run another build of the CLI on them).
        const char* keep = std::getenv("FAULTLINE_INVARIANCE_KEEP");
        work = keep && *keep ? fs::path(keep) : fs::path(tmp.path().toStdString());
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
            if (!synth::generate(o, dir.string(), &error))
                QFAIL(error.c_str());
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
        for (const auto& [name, src] : bundles)
            asIs.emplace(name, load(src));
    }
};

QTEST_GUILESS_MAIN(TestWrapperInvariance)
#include "test_wrapper_invariance.moc"
