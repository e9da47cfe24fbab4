#include "sessions.h"

#include "archive_member.h"

#include "engine/baseline_json.h"
#include "baseline/compare.h"
#include "present/timefmt.h"

#include "bundle/iso_time.h"
#include "bundle/mapped_file.h"
#include "engine/engine.h"
#include "engine/result_json.h"
#include "engine/trace_json.h"
#include "rules/sha256.h"

#include <re2/re2.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <random>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unistd.h>

namespace fl::service {

namespace fs = std::filesystem;
using nlohmann::json;

int64_t nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string newSessionId()
{
    static thread_local std::mt19937_64 rng{std::random_device{}()};
    char buf[40];
    std::snprintf(buf, sizeof buf, "s-%016llx%08llx", static_cast<unsigned long long>(rng()),
                  static_cast<unsigned long long>(rng() & 0xffffffffu));
    return buf;
}

std::string safeRelativePath(const std::string& path)
{
    auto bad = [&](const char* why) { return ApiError(400, "bad_path", "file name '" + path + "': " + why); };
    if (path.empty() || path.size() > 1024)
        throw bad("empty or longer than 1024 bytes");
    if (path.find('\0') != std::string::npos || path.find('\\') != std::string::npos)
        throw bad("contains NUL or a backslash");
    if (path.front() == '/')
        throw bad("absolute paths are refused");
    size_t start = 0;
    while (start <= path.size()) {
        const size_t end = std::min(path.find('/', start), path.size());
        const std::string part = path.substr(start, end - start);
        if (part.empty() || part == "." || part == "..")
            throw bad("empty, '.' or '..' components are refused");
        start = end + 1;
    }
    return path;
}

namespace {

// A temporary folder removed with everything in it when the object dies.
struct TempDir {
    std::string path;
    explicit TempDir(const std::string& parent)
    {
        std::string tmpl = parent + "/session-XXXXXX";
        if (!::mkdtemp(tmpl.data()))
            throw std::runtime_error("cannot create a temporary folder under " + parent);
        path = tmpl;
    }
    ~TempDir()
    {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
};

struct TempFile {
    std::string path;
    ~TempFile()
    {
        if (!path.empty())
            ::unlink(path.c_str());
    }
};

void writeFile(const std::string& path, std::string_view bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out.flush())
        throw std::runtime_error("cannot write " + path);
}

// Through core's MappedFile (mmap, or one sized read() where mapping fails): an istreambuf_iterator copy
// went byte by byte through the stream buffer and regrew the string, ~0.1 s CPU for a 20 MB bundle's 709
// files (docs/performance.md).
std::string readWhole(const std::string& path)
{
    MappedFile file;
    std::string error;
    if (!file.open(path, &error))
        throw std::runtime_error("cannot read " + path + ": " + error);
    std::string bytes(file.data());
    if (file.changed())
        throw std::runtime_error("cannot read " + path + ": " + file.changeReason());
    return bytes;
}

// Whether the loader kept a file's bytes (in memory or on disk), and what they are.
bool hasBytes(const SourceFile& f) { return f.memory || !f.diskPath.empty(); }
std::string contentOf(const SourceFile& f)
{
    return f.memory ? std::string(*f.memory) : readWhole(f.diskPath);
}

const json* member(const json& j, const char* key)
{
    if (!j.is_object())
        return nullptr;
    auto it = j.find(key);
    return it == j.end() || it->is_null() ? nullptr : &*it;
}

std::string optString(const json& j, const char* key, const std::string& where, bool allowInt = false)
{
    const json* v = member(j, key);
    if (!v)
        return {};
    if (v->is_string())
        return v->get<std::string>();
    if (allowInt && v->is_number_integer())
        return std::to_string(v->get<int64_t>());
    throw ApiError(400, "bad_request", where + key + ": expected a string");
}

std::string optTime(const json& j, const char* key, const std::string& where)
{
    std::string t = optString(j, key, where);
    if (!t.empty() && !parseIso8601Ns(t))
        throw ApiError(400, "bad_request", where + key + ": '" + t + "' is not an ISO 8601 time (2024-05-01T10:00:00Z)");
    return t;
}

const json& optObject(const json& j, const char* key, const std::string& where)
{
    static const json empty = json::object();
    const json* v = member(j, key);
    if (!v)
        return empty;
    if (!v->is_object())
        throw ApiError(400, "bad_request", where + key + ": expected an object");
    return *v;
}

// The session's request as a workload.json (docs/bundle-format.md), for sessions whose evidence carries none.
json manifestFor(const SessionRecord& s)
{
    const json req = json::parse(s.requestJson);
    json m = json::object();
    if (!s.workloadId.empty())
        m["workload_id"] = s.workloadId;
    if (s.attempt >= 0)
        m["attempt"] = s.attempt;
    const json& scope = req.value("scope", json::object());
    if (scope.contains("nodes"))
        m["nodes"] = scope["nodes"];
    if (scope.contains("ranks")) {
        json ranks = json::array();
        for (const auto& r : scope["ranks"])
            if (r.is_object())
                ranks.push_back(r);
        if (!ranks.empty())
            m["ranks"] = ranks;
    }
    const json& wc = req.value("workload_context", json::object());
    json window = json::object();
    if (scope.contains("start_time"))
        window["start"] = scope["start_time"];
    if (scope.contains("end_time"))
        window["end"] = scope["end_time"];
    else if (wc.contains("job_end_time"))
        window["end"] = wc["job_end_time"];
    if (!window.empty())
        m["window"] = window;
    const json& fc = req.value("failure_context", json::object());
    json failure = json::object();
    for (const char* k : {"detected_at", "detection_signal"})
        if (fc.contains(k))
            failure[k] = fc[k];
    if (!failure.empty())
        m["failure"] = failure;
    return m;
}

std::string nodesOf(const Result& r)
{
    std::set<std::string> nodes(r.affectedNodes.begin(), r.affectedNodes.end());
    if (r.rootCause && !r.rootCause->node.empty())
        nodes.insert(r.rootCause->node);
    std::string out = ",";
    for (const auto& n : nodes)
        out += n + ",";
    return out;
}

// withContent false: the path and size only, for an archive stored whole (Store::putArchive).
FileRecord recordOf(const SourceFile& f, bool withContent)
{
    FileRecord r;
    r.path = f.path;
    if (withContent) {
        r.content = contentOf(f);
        r.size = r.content.size();
    } else {
        r.size = f.memory ? f.memory->size() : fs::file_size(f.diskPath);
    }
    r.addedNs = nowNs();
    return r;
}

// A path may not also be a folder of another path of the session ("a" and "a/b"): the
// session could never be laid out as a bundle again. Checked against what is stored.
void refuseFolderClashes(Store& store, const SessionId& id, const std::vector<FileRecord>& incoming)
{
    std::set<std::string> paths;
    for (const auto& f : store.files(id))
        paths.insert(f.path);
    for (const auto& f : incoming)
        paths.insert(f.path);
    for (const auto& p : paths) {
        auto it = paths.lower_bound(p + "/");
        if (it != paths.end() && it->compare(0, p.size() + 1, p + "/") == 0)
            throw ApiError(409, "path_conflict", "file '" + p + "' would also be the folder of '" + *it + "'");
    }
}

// The files a run read, with their sizes then: its result's connector reports (docs/result-schema.md).
std::map<std::string, uint64_t> inputsOf(const Result& result)
{
    std::map<std::string, uint64_t> out;
    for (const ConnectorReport& c : result.connectors)
        out[c.file] = c.bytes;
    return out;
}

} // namespace

SessionService::SessionService(Store& store, std::shared_ptr<const RuleSet> rules, SessionServiceOptions options)
    : store_(store), rules_(std::move(rules)), rulesDigest_(rules_->digest()), options_(std::move(options))
{
    options_.load.threads = options_.threadsPerAnalysis; // loading an upload is part of its analysis
    fs::create_directories(options_.tmpDir);
}

SessionRecord SessionService::create(const json& request)
{
    if (!request.is_object())
        throw ApiError(400, "bad_request", "the body must be a JSON object");
    SessionRecord s;
    s.id.value = newSessionId();
    s.createdNs = nowNs();
    s.workloadId = optString(request, "workload_id", "", true);
    s.userId = optString(request, "user_id", "");
    const json& scope = optObject(request, "scope", "");
    const json& fc = optObject(request, "failure_context", "");
    const json& wc = optObject(request, "workload_context", "");
    json norm = json::object();
    json nscope = json::object();
    if (const json* nodes = member(scope, "nodes")) {
        if (!nodes->is_array() || !std::all_of(nodes->begin(), nodes->end(), [](const json& n) { return n.is_string(); }))
            throw ApiError(400, "bad_request", "scope.nodes: expected an array of strings");
        nscope["nodes"] = *nodes;
    }
    if (const json* ranks = member(scope, "ranks")) {
        if (!ranks->is_array())
            throw ApiError(400, "bad_request", "scope.ranks: expected an array");
        for (const auto& r : *ranks)
            if (!r.is_number_integer() && !(r.is_object() && r.contains("rank") && r["rank"].is_number_integer()))
                throw ApiError(400, "bad_request", "scope.ranks: expected integers or {rank, node, gpu} objects");
        nscope["ranks"] = *ranks;
    }
    for (const char* k : {"start_time", "end_time"})
        if (auto t = optTime(scope, k, "scope."); !t.empty())
            nscope[k] = t;
    json nfc = json::object();
    if (auto t = optTime(fc, "detected_at", "failure_context."); !t.empty())
        nfc["detected_at"] = t;
    if (auto sig = optString(fc, "detection_signal", "failure_context."); !sig.empty())
        nfc["detection_signal"] = sig;
    json nwc = json::object();
    if (auto w = optString(wc, "workflow_id", "workload_context.", true); !w.empty())
        nwc["workflow_id"] = w;
    if (auto t = optTime(wc, "job_end_time", "workload_context."); !t.empty())
        nwc["job_end_time"] = t;
    auto intField = [](const json& j, const char* key, const std::string& where) -> std::optional<int> {
        const json* v = member(j, key);
        if (!v)
            return std::nullopt;
        if (!v->is_number_integer() || v->get<int64_t>() < 0 || v->get<int64_t>() > 1'000'000)
            throw ApiError(400, "bad_request", where + key + ": expected an integer 0..1000000");
        return static_cast<int>(v->get<int64_t>());
    };
    if (auto a = intField(request, "attempt", ""))
        s.attempt = *a;
    if (auto a = intField(wc, "attempt_index", "workload_context.")) {
        nwc["attempt_index"] = *a;
        if (s.attempt < 0)
            s.attempt = *a;
    }
    norm["scope"] = nscope;
    norm["failure_context"] = nfc;
    norm["workload_context"] = nwc;
    s.requestJson = norm.dump(-1, ' ', false, json::error_handler_t::replace);
    store_.createSession(s);
    return s;
}

SessionRecord SessionService::require(const SessionId& id)
{
    auto s = store_.session(id);
    if (!s)
        throw ApiError(404, "not_found", "no session '" + id.value + "'");
    return *s;
}

IngestReport SessionService::ingestFiles(const SessionId& id, std::vector<FileRecord> files)
{
    require(id);
    std::set<std::string> seen;
    for (auto& f : files) {
        safeRelativePath(f.path);
        if (!seen.insert(f.path).second)
            throw ApiError(400, "bad_request", "file '" + f.path + "' given twice in one request");
        if (!f.kind.empty() && !sourceKindFromString(f.kind))
            throw ApiError(400, "bad_request", "file '" + f.path + "': unknown kind '" + f.kind + "'");
        f.size = f.content.size();
        f.addedNs = nowNs();
    }
    refuseFolderClashes(store_, id, files);
    try {
        store_.putFiles(id, files);
    } catch (const StoreError& e) {
        rethrowIfGone(id, e);
    }
    IngestReport rep;
    for (auto& f : files) {
        f.content.clear();
        rep.files.push_back(std::move(f));
    }
    return rep;
}

std::string SessionService::writeTemp(const std::string& bytes) const
{
    std::string tmpl = options_.tmpDir + "/upload-XXXXXX";
    const int fd = ::mkstemp(tmpl.data());
    if (fd < 0)
        throw std::runtime_error("cannot create a temporary file under " + options_.tmpDir);
    ::close(fd);
    writeFile(tmpl, bytes);
    return tmpl;
}

namespace {

// What the loader says of an upload names our temporary file, and of a member the folder it was expanded into
// ($TMPDIR/faultline-XXXXXX, core's ExtractionDir): the client knows neither, so a member is named by its path
// in the archive and the file as "the upload". Also keeps a result's warnings the same for the same archive.
std::string aboutUpload(std::string text, const std::string& uploadPath)
{
    static const RE2 extracted([] {
        const char* tmp = std::getenv("TMPDIR"); // set before any thread starts (main.cpp), read as ExtractionDir does
        std::string base = tmp && *tmp ? tmp : "/tmp";
        while (base.size() > 1 && base.back() == '/')
            base.pop_back();
        return RE2::QuoteMeta(base) + "/+faultline-[A-Za-z0-9]{6}/";
    }());
    RE2::GlobalReplace(&text, extracted, "");
    for (const auto& [from, to] : {std::pair{uploadPath + "/", std::string()}, std::pair{uploadPath, std::string("the upload")}})
        for (size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
            text.replace(at, from.size(), to);
    return text;
}

// Loads an uploaded archive with the loader's own refusal of escaping paths, links and bombs.
Bundle loadUpload(const std::string& path, const LoadOptions& load, const Progress& progress)
{
    Bundle b;
    try {
        b = loadBundle(path, load, progress);
    } catch (const BundleError& e) {
        const std::string what = e.file == path ? std::string(e.what()).substr(path.size() + 2) : e.what();
        throw ApiError(400, "bad_archive", "the body is not a readable archive: " + aboutUpload(what, path));
    }
    for (auto& w : b.warnings)
        w = aboutUpload(std::move(w), path);
    for (auto& f : b.files)
        f.statusReason = aboutUpload(std::move(f.statusReason), path);
    return b;
}

IngestReport recordsOf(const Bundle& b, std::vector<FileRecord>& out, bool withContent)
{
    IngestReport rep;
    rep.warnings = b.warnings;
    for (const auto& f : b.files) {
        if (f.status == FileStatus::Error || !hasBytes(f)) {
            rep.warnings.push_back(f.path + ": not stored: " + f.statusReason);
            continue;
        }
        std::error_code ec;
        if (!f.memory && !fs::is_regular_file(f.diskPath, ec)) {
            rep.warnings.push_back(f.path + ": not stored: not a regular file");
            continue;
        }
        out.push_back(recordOf(f, withContent));
    }
    return rep;
}

// The archive can be kept instead of its members when loading it again gives the same paths: not for
// a bare compressed log, which becomes a bundle of one file named after the temporary upload.
bool keepArchiveWhole(const Bundle& b, const std::string& uploadPath)
{
    const std::string name = fs::path(uploadPath).filename().string();
    return b.isArchive && std::none_of(b.files.begin(), b.files.end(), [&](const SourceFile& f) { return f.path == name; });
}

// The loader's file for each path of an unpacked archive: of a path given twice the last copy, as extracting
// in order leaves it (the earlier ones are marked superseded); none when that copy could not be read.
std::unordered_map<std::string_view, const SourceFile*> membersOf(const Bundle& b)
{
    std::unordered_map<std::string_view, const SourceFile*> out;
    for (const auto& f : b.files)
        out[f.path] = &f;
    std::erase_if(out, [](const auto& m) { return m.second->status == FileStatus::Error || !hasBytes(*m.second); });
    return out;
}

const SourceFile& memberOf(const std::unordered_map<std::string_view, const SourceFile*>& members,
                           const SessionId& id, int archive, const std::string& path)
{
    const auto it = members.find(path);
    if (it == members.end())
        throw std::runtime_error("session " + id.value + ": '" + path + "' is not in its stored archive " +
                                 std::to_string(archive) + " (archive limits changed since?)");
    return *it->second;
}

} // namespace

Bundle SessionService::unpackArchive(const SessionId& id, int archive, const Progress& progress) const
{
    auto bytes = store_.archiveContent(id, archive);
    if (!bytes)
        throw std::runtime_error("session " + id.value + ": stored archive " + std::to_string(archive) + " is missing");
    TempFile upload{writeTemp(*bytes)};
    bytes.reset();
    return loadUpload(upload.path, options_.load, progress);
}

std::string SessionService::archivedContent(const SessionId& id, const FileRecord& f) const
{
    auto bytes = store_.archiveContent(id, f.archive);
    if (!bytes)
        throw std::runtime_error("session " + id.value + ": stored archive " + std::to_string(f.archive) + " is missing");
    if (auto member = readArchiveMember(*bytes, f.path, f.size))
        return std::move(*member);
    bytes.reset();
    // A member this reading cannot be sure of (expanded by the loader, a name it changed): the loader's way.
    const Bundle b = unpackArchive(id, f.archive, Progress{});
    return contentOf(memberOf(membersOf(b), id, f.archive, f.path));
}

void SessionService::storeUpload(const SessionId& id, const Bundle& b, const std::string& uploadPath,
                                 const std::string& bytes, bool refuseClashes, IngestReport& rep,
                                 std::vector<FileRecord>& records)
{
    const bool whole = keepArchiveWhole(b, uploadPath);
    rep = recordsOf(b, records, !whole);
    if (refuseClashes)
        refuseFolderClashes(store_, id, records);
    try {
        if (whole)
            store_.putArchive(id, bytes, nowNs(), records);
        else
            store_.putFiles(id, records);
    } catch (const StoreError& e) {
        rethrowIfGone(id, e);
    }
}

IngestReport SessionService::ingestArchive(const SessionId& id, const std::string& bytes, const Progress& progress)
{
    require(id);
    TempFile upload{writeTemp(bytes)};
    const Bundle b = loadUpload(upload.path, options_.load, progress);
    if (progress.cancelled())
        throw ApiError(504, "deadline_exceeded", "the deadline passed while the archive was extracted");
    std::vector<FileRecord> records;
    IngestReport rep;
    storeUpload(id, b, upload.path, bytes, true, rep, records);
    for (auto& r : records) {
        r.content.clear();
        rep.files.push_back(std::move(r));
    }
    return rep;
}

RunOutcome SessionService::runEngine(const SessionRecord& s, const Bundle& bundle, const std::string& phase,
                                     const Progress& progress, double loadMs, const std::string& inputDigest,
                                     const std::function<void()>& beforeRun, const Bundle* baseline)
{
    const auto t0 = std::chrono::steady_clock::now();
    RunOutcome out;
    Analysis failed = analysisOf(bundle, progress);
    if (progress.cancelled()) {
        out.cancelled = true;
        return out;
    }
    std::string resultJson;
    if (baseline) {
        // The healthy attempt with the same rules, then what is new (core/baseline/compare.h); the failed
        // attempt's files are read again there for the lines no rule knows, so its folder is still here.
        const Analysis healthy = analysisOf(*baseline, progress);
        if (progress.cancelled()) {
            out.cancelled = true;
            return out;
        }
        resultJson = resultToStringWithBaseline(failed.result, baseline::compare(failed, healthy));
    } else {
        resultJson = resultToString(failed.result);
    }
    const Result& result = failed.result;
    out.run.createdNs = nowNs();
    out.run.phase = phase;
    out.run.status = std::string(toString(result.status));
    out.run.domain = toString(result.domain);
    out.run.nodes = nodesOf(result);
    out.run.elapsedMs = loadMs + std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    out.run.resultJson = std::move(resultJson);
    out.run.inputDigest = inputDigest;
    const history::CausePlace cause = history::causePlace(result);
    if (!cause.fingerprint.empty() && !cause.node.empty())
        out.run.cause = RunCause{cause, !result.workloadId.empty() ? result.workloadId
                                        : !s.workloadId.empty()     ? s.workloadId
                                                                    : s.id.value,
                                 formatTimeUtc(out.run.createdNs / 1'000'000'000 * 1'000'000'000)};
    if (beforeRun)
        beforeRun();
    try {
        out.run.run = store_.addRun(s.id, out.run);
    } catch (const StoreError& e) {
        rethrowIfGone(s.id, e);
    }
    return out;
}

Analysis SessionService::analysisOf(const Bundle& bundle, const Progress& progress) const
{
    Engine engine(rules_);
    engine.setKeepMetricSamples(false); // the result document carries no samples
    engine.setKeepMetricSeries(false);  // nor series
    engine.setThreads(options_.threadsPerAnalysis);
    engine.ingest(bundle, progress);
    Analysis a;
    if (progress.cancelled())
        return a;
    a.result = engine.attributeOnce();
    // What a comparison with a baseline reads besides the result: the files as scanned (nodes, times, where the
    // lines are) and the observations (which lines a rule covered).
    a.bundle.manifest = bundle.manifest;
    a.bundle.files = engine.files();
    a.observations = engine.observations();
    a.placement = engine.placement();
    a.rules = rules_;
    return a;
}

void SessionService::rethrowIfGone(const SessionId& id, const StoreError& e)
{
    if (!store_.session(id))
        throw ApiError(404, "not_found", "session '" + id.value + "' was deleted meanwhile; nothing was stored");
    throw e;
}

DeletedCounts SessionService::remove(const SessionId& id)
{
    auto n = store_.deleteSession(id);
    if (!n)
        throw ApiError(404, "not_found", "no session '" + id.value + "'");
    return *n;
}

Bundle SessionService::materialise(const SessionRecord& s, const std::string& dirPath, const Progress& progress,
                                   const std::set<std::string>* only)
{
    const SessionId& id = s.id;
    std::map<std::string, FileRecord> declared;
    std::map<int, std::vector<std::string>> archived; // archive number -> its paths still current
    bool hasManifest = false;
    auto place = [&](const std::string& path) {
        const fs::path target = fs::path(dirPath) / path;
        std::error_code ec;
        fs::create_directories(target.parent_path(), ec);
        if (ec)
            throw ApiError(409, "path_conflict", "file '" + path + "' collides with another file's folder");
        return target;
    };
    store_.forEachFile(id, [&](const FileRecord& f) {
        if (only && !only->count(f.path))
            return;
        if (f.archive)
            archived[f.archive].push_back(f.path);
        else
            writeFile(place(f.path).string(), f.content);
        if (f.path == "workload.json")
            hasManifest = true;
        if (!f.kind.empty() || !f.node.empty() || f.rank >= 0) {
            FileRecord meta = f;
            meta.content.clear();
            declared.emplace(f.path, std::move(meta));
        }
    });
    for (const auto& [archive, paths] : archived) {
        const Bundle ab = unpackArchive(id, archive, progress);
        const auto members = membersOf(ab); // one lookup per path: archives hold thousands of files
        for (const auto& path : paths) {
            const SourceFile* m = &memberOf(members, id, archive, path);
            const fs::path target = place(path);
            std::error_code ec;
            if (m->memory)
                writeFile(target.string(), *m->memory);
            else
                fs::rename(m->diskPath, target, ec); // the extraction is ours and goes when `ab` does
            if (ec)
                fs::copy_file(m->diskPath, target, fs::copy_options::overwrite_existing);
        }
    }
    if (!hasManifest) {
        const json m = manifestFor(s);
        if (!m.empty())
            writeFile(dirPath + "/workload.json", m.dump(2));
    }
    Bundle b;
    try {
        b = loadBundle(dirPath, options_.load, progress);
    } catch (const BundleError& e) {
        std::string what = e.what(); // name the session's file, not our temporary folder
        for (size_t at; (at = what.find(dirPath + "/")) != std::string::npos;)
            what.erase(at, dirPath.size() + 1);
        throw ApiError(422, "bad_bundle", "session " + id.value + ": " + what);
    }
    // What the client declared wins over what the loader inferred from names and content.
    for (auto& f : b.files) {
        auto it = declared.find(f.path);
        if (it == declared.end())
            continue;
        if (!it->second.kind.empty()) {
            f.kind = *sourceKindFromString(it->second.kind);
            f.kindReason = "declared by the client";
            if (f.status == FileStatus::Unrecognized) {
                f.status = FileStatus::Ok;
                f.statusReason.clear();
            }
        }
        if (!it->second.node.empty()) {
            f.node = it->second.node;
            f.nodeReason = "declared by the client";
        }
        if (it->second.rank >= 0) {
            f.rank = it->second.rank;
            f.rankReason = "declared by the client";
        }
    }
    return b;
}

RunOutcome SessionService::attribute(const SessionId& id, const std::string& phase, const Progress& progress,
                                     const std::optional<SessionId>& baseline)
{
    const SessionRecord s = require(id);
    const auto t0 = std::chrono::steady_clock::now();
    TempDir dir(options_.tmpDir);
    const Bundle b = materialise(s, dir.path, progress);
    std::optional<TempDir> baseDir;
    std::optional<Bundle> base;
    if (baseline) {
        const SessionRecord h = requireBaseline(*baseline, id);
        baseDir.emplace(options_.tmpDir);
        base = materialise(h, baseDir->path, progress);
    }
    const double loadMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return runEngine(s, b, phase, progress, loadMs, {}, {}, base ? &*base : nullptr);
}

SessionRecord SessionService::requireBaseline(const SessionId& baseline, const SessionId& failed)
{
    if (baseline == failed)
        throw ApiError(400, "bad_request", "baseline: a session cannot be its own baseline");
    auto s = store_.session(baseline);
    if (!s)
        throw ApiError(404, "not_found", "baseline: no session '" + baseline.value + "'");
    return *s;
}

std::optional<json> SessionService::trace(const SessionId& id, int runNo, const Progress& progress)
{
    const SessionRecord s = require(id);
    const auto run = store_.run(id, runNo);
    if (!run)
        throw ApiError(404, "not_found", "session " + id.value + (runNo ? " has no run " + std::to_string(runNo)
                                                                          : std::string(" has no result yet: POST .../attribute")));
    // Only what that run read: evidence added since belongs to later runs.
    std::set<std::string> inputs;
    for (const auto& [path, bytes] : inputsOf(resultFromJson(json::parse(run->resultJson))))
        inputs.insert(path);
    TempDir dir(options_.tmpDir);
    const Bundle b = materialise(s, dir.path, progress, &inputs);
    Engine engine(rules_);
    engine.setKeepMetricSamples(false);
    engine.setKeepMetricSeries(false);
    engine.setThreads(options_.threadsPerAnalysis);
    engine.ingest(b, progress);
    if (progress.cancelled())
        return std::nullopt;
    std::vector<TraceStep> steps;
    const Result result = engine.attributeOnce(&steps);
    // The trace explains the stored run only if the same files and rules give the same result again.
    if (resultToString(result) != run->resultJson)
        throw ApiError(409, "result_changed",
                       "run " + std::to_string(run->run) + " of session " + id.value +
                           " was made from other files or rules than the service has now (a file it read was replaced since, "
                           "or the rules changed); attribute again, then ask for the new run's trace");
    return json{{"session_id", id.value}, {"run", run->run}, {"trace", traceToJson(steps)}};
}

std::string SessionService::bundleDigest(const std::string& bytes) const
{
    const LoadOptions& l = options_.load;
    return "sha256:" + sha256Hex(bytes) + " rules " + rulesDigest_ + " engine " FAULTLINE_VERSION " limits " +
           std::to_string(l.maxEntryBytes) + "/" + std::to_string(l.maxTotalBytes) + "/" + std::to_string(l.maxEntries);
}

std::optional<std::pair<SessionRecord, RunRecord>> SessionService::earlierBundleRun(const std::string& digest)
{
    const auto ref = store_.runByInput(digest);
    if (!ref)
        return std::nullopt;
    auto s = store_.session(ref->session);
    auto r = s ? store_.run(ref->session, ref->run) : std::nullopt;
    if (!r)
        return std::nullopt; // deleted meanwhile
    return std::pair{std::move(*s), std::move(*r)};
}

std::pair<SessionRecord, RunOutcome> SessionService::analyzeArchive(const std::string& bytes, const std::string& digest,
                                                                    const Progress& progress,
                                                                    const std::optional<SessionId>& baseline)
{
    const auto t0 = std::chrono::steady_clock::now();
    // The baseline first: an unknown one is refused before anything is stored.
    std::optional<TempDir> baseDir;
    std::optional<Bundle> base;
    if (baseline) {
        const SessionRecord h = requireBaseline(*baseline, SessionId{});
        baseDir.emplace(options_.tmpDir);
        base = materialise(h, baseDir->path, progress);
    }
    TempFile upload{writeTemp(bytes)};
    const Bundle b = loadUpload(upload.path, options_.load, progress);
    if (progress.cancelled())
        throw ApiError(504, "deadline_exceeded", "the deadline passed while the archive was extracted");
    SessionRecord s;
    s.id.value = newSessionId();
    s.createdNs = nowNs();
    if (b.manifest) {
        s.workloadId = b.manifest->workloadId;
        s.attempt = b.manifest->attempt;
    }
    s.requestJson = R"({"failure_context":{},"scope":{},"workload_context":{}})";
    // The archive is stored once (1.6 MB for the bench's bundle) rather than its 709 members read back from
    // the extraction (20 MB); evidence and later runs extract what they need from it. Storing it (two commits,
    // each waiting for its fsync) and analysing it need nothing of each other, so the store works beside the
    // engine. The run is stored only once the session and its files are (its row refers to them), and a store
    // that failed fails the request, as it did when it came first.
    auto stored = std::async(std::launch::async, [&] {
        std::vector<FileRecord> records;
        IngestReport rep;
        store_.createSession(s);
        storeUpload(s.id, b, upload.path, bytes, false, rep, records); // as before: a bundle is analysed as it came
    });
    const double loadMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    // If the engine throws, ~future waits for the store before the upload's temporary file goes.
    RunOutcome run = runEngine(s, b, "bundle", progress, loadMs, digest, [&] { stored.get(); }, base ? &*base : nullptr);
    if (stored.valid()) // cancelled: no run was stored, the session and its files are
        stored.get();
    return {s, std::move(run)};
}

json SessionService::evidenceLines(const SessionId& id, int run, const std::string& evidenceId, int context)
{
    require(id);
    auto r = store_.run(id, run);
    if (!r)
        throw ApiError(404, "not_found", "session '" + id.value + "' has no run " + (run ? std::to_string(run) : "yet"));
    const Result result = resultFromJson(json::parse(r->resultJson));
    const std::optional<EvidenceId> wanted = evidenceIdFromString(evidenceId);
    auto item = std::find_if(result.evidence.begin(), result.evidence.end(),
                             [&](const EvidenceItem& e) { return wanted && e.id == *wanted; });
    if (item == result.evidence.end())
        throw ApiError(404, "not_found", "run " + std::to_string(r->run) + " has no evidence '" + evidenceId + "'");
    const std::string file = item->file;
    const int64_t line = item->ref.line;
    const int64_t count = item->ref.lineCount; // at least 1 as read
    auto stored = store_.file(id, file);
    if (!stored)
        throw ApiError(404, "not_found", "evidence '" + evidenceId + "' refers to '" + file +
                                             "', which this service did not store (a generated manifest?)");
    const std::string bytes = stored->archive ? archivedContent(id, *stored) : std::move(stored->content);
    stored.reset();
    const std::string* content = &bytes;
    // A file posted again under the same path replaces the stored one: never show its new lines as the run's.
    const auto inputs = inputsOf(result);
    if (auto it = inputs.find(file); it != inputs.end() && it->second != content->size())
        throw ApiError(409, "result_changed",
                       "'" + file + "' was replaced since run " + std::to_string(r->run) + " read it (" +
                           std::to_string(it->second) + " bytes then, " + std::to_string(content->size()) +
                           " now); its lines are no longer that run's evidence");
    const int64_t first = std::max<int64_t>(1, line - context), last = line + count - 1 + context;
    json lines = json::array();
    int64_t n = 1;
    size_t pos = 0;
    // A final newline ends the last line; it does not start an empty one after it (the raw viewer then showed a
    // blank "line 8 / 8" under a 7-line file).
    while (pos < content->size() && n <= last) {
        size_t end = content->find('\n', pos);
        if (end == std::string::npos)
            end = content->size();
        if (n >= first) {
            std::string text = content->substr(pos, end - pos);
            if (!text.empty() && text.back() == '\r')
                text.pop_back();
            lines.push_back({{"line", n}, {"text", text}, {"evidence", n >= line && n < line + count}});
        }
        if (end == content->size())
            break;
        pos = end + 1;
        ++n;
    }
    return {{"session_id", id.value}, {"run", r->run},         {"evidence_id", toString(item->id)}, {"file", file},
            {"line", line},           {"line_count", count}, {"lines", lines}};
}

} // namespace fl::service
