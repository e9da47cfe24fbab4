#include "bundle/bundle.h"
#include "bundle/bundle_entry.h"
#include "bundle/decompress.h"
#include "bundle/extraction_dir.h"
#include "bundle/mapped_file.h"
#include "bundle/sniff.h"
#include "workers.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <mutex>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fl {

namespace fs = std::filesystem;

BundleError::BundleError(std::string f, std::string message)
    : std::runtime_error(f + ": " + message)
    , file(std::move(f))
{
}

namespace {

constexpr uint64_t kMaxManifestBytes = 16ull << 20;

// Drops the top folder all the entries share (CommonTopFolder).
void stripCommonTop(std::vector<BundleEntry>& entries)
{
    CommonTopFolder common;
    for (const auto& e : entries)
        if (!e.escaped)
            common.add(e.path);
    const size_t drop = common.folder().size();
    if (drop == 0)
        return;
    for (auto& e : entries)
        if (!e.escaped)
            e.path.erase(0, drop + 1);
}

// Marks every copy of a duplicated archive path but the last: extracting in
// order would have left the last one on disk.
void markSuperseded(std::vector<SourceFile>& files)
{
    for (size_t i = 0; i + 1 < files.size(); ++i) {
        if (files[i].path == files[i + 1].path && files[i].status != FileStatus::Error) {
            files[i].status = FileStatus::Skipped;
            files[i].statusReason = "replaced by a later archive entry with the same path";
        }
    }
}

// An entry's bytes, at most `maxBytes` of them, from memory or from disk (the head read, never mapped).
bool openEntry(MappedFile& map, const BundleEntry& e, std::string* error, size_t maxBytes = SIZE_MAX)
{
    if (e.memory) {
        map.openMemory(e.memory, maxBytes);
        return true;
    }
    return maxBytes == SIZE_MAX ? map.open(e.diskPath, error) : map.openHead(e.diskPath, error, maxBytes);
}

// A file whose head is blank: whether the whole of it is (the scan stops at the first other byte).
bool restIsBlank(const BundleEntry& e)
{
    MappedFile map;
    std::string error;
    return openEntry(map, e, &error) && isBlank(map.data());
}

// `map`: the file's head, already open (see probeEntry).
void classifyHead(SourceFile& f, const BundleEntry& e, bool extracted, const MappedFile& map)
{
    const std::string_view head = map.data();
    f.size = map.fileSize();
    f.modifiedNs = extracted ? e.mtimeNs : map.modifiedNs();
    constexpr size_t kBinarySniffBytes = 8192;
    // Like git, judge binary from the first 8 KiB: enough to see a NUL or a
    // wall of invalid bytes, and it is read for every one of tens of thousands of files.
    if (looksBinary(head.substr(0, kBinarySniffBytes))) {
        classifyFile(f, {});
        f.status = FileStatus::Skipped;
        f.statusReason = "binary";
        return;
    }
    // Only a head of whitespace makes the rest worth a look; the scan stops at the first other byte.
    if (isBlank(head) && (map.fileSize() <= head.size() || restIsBlank(e))) {
        classifyFile(f, {});
        f.status = FileStatus::Empty;
        f.statusReason = map.fileSize() == 0 ? "0 bytes" : "only whitespace";
        return;
    }
    classifyFile(f, head);
}

// Only the head is read: the scan reads the rest of what it parses. False (and
// `f` an error row) when it cannot be read.
bool openHead(SourceFile& f, const BundleEntry& e, MappedFile& map)
{
    std::string error;
    if (openEntry(map, e, &error, kHeadBytes))
        return true;
    classifyFile(f, {});
    f.status = FileStatus::Error;
    f.statusReason = error;
    return false;
}

void probeAndClassify(SourceFile& f, const BundleEntry& e, bool extracted)
{
    if (e.status != FileStatus::Ok) {
        classifyFile(f, {}); // the name alone still tells kind, node and rank for the coverage table
        f.status = e.status;
        f.statusReason = e.reason;
        return;
    }
    MappedFile map;
    if (openHead(f, e, map))
        classifyHead(f, e, extracted, map);
}

// What the parallel pass learned of one entry.
enum class Probed : uint8_t {
    NotRead,    // loading was cancelled first
    Classified, // kind, node, rank and status are known
    Compressed, // expanded afterwards, one at a time: it writes into the bundle's extraction folder
};

// One open per file: its head tells a compressed log by its magic number and
// otherwise classifies it. Touches nothing but `f`, so entries probe in parallel.
Probed probeEntry(SourceFile& f, const BundleEntry& e, bool extracted, std::string_view& compression)
{
    if (e.status != FileStatus::Ok) {
        probeAndClassify(f, e, extracted);
        return Probed::Classified;
    }
    MappedFile map;
    if (!openHead(f, e, map))
        return Probed::Classified;
    compression = compressionOf(map.data().substr(0, 16));
    if (!compression.empty())
        return Probed::Compressed;
    classifyHead(f, e, extracted, map);
    return Probed::Classified;
}

// The first bytes of a file, for its magic number.
std::string headOf(const std::string& disk)
{
    std::string head(16, '\0');
    const int fd = ::open(disk.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return {};
    const ssize_t n = ::read(fd, head.data(), head.size());
    ::close(fd);
    head.resize(n > 0 ? size_t(n) : 0);
    return head;
}

// A compressed log (rotated "syslog.1.gz", "kern.log.xz") is expanded into the
// bundle's extraction folder and read from there; its coverage row keeps its
// own name. On failure `e` carries the error.
void expandCompressed(Bundle& bundle, BundleEntry& e, SourceFile& f, const LoadOptions& options, std::string_view kind)
{
    if (!bundle.isArchive) { // the copy is made now; the log was written when the original was
        struct stat st {};
        if (::stat(e.diskPath.c_str(), &st) == 0)
            e.mtimeNs = int64_t(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
    }
    if (!bundle.extraction)
        bundle.extraction = std::make_shared<ExtractionDir>(bundle.root);
    const std::string dst = bundle.extraction->path() + "/z" + std::to_string(f.index.value) + ".log";
    const Decompressed d = decompressFile(e.diskPath, dst, std::min(options.maxEntryBytes, options.maxTotalBytes));
    if (!d.error.empty()) {
        e.status = FileStatus::Error;
        e.reason = std::string(kind) + ": " + d.error;
        e.diskPath.clear();
        return;
    }
    e.diskPath = dst;
    e.size = d.size;
}

} // namespace

Bundle loadBundle(const std::string& path, const LoadOptions& options, const Progress& progress)
{
    if (path.empty())
        throw BundleError(path, "no bundle path given");
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st)) {
        throw BundleError(path, "no such file or folder" + (ec && ec != std::errc::no_such_file_or_directory
                                                                 ? " (" + ec.message() + ")" : std::string()));
    }

    Bundle bundle;
    bundle.root = path;
    EntryList list;
    bool bareCompressed = false;
    if (fs::is_directory(st)) {
        list = walkFolder(path, options, progress);
    } else if (fs::is_regular_file(st)) {
        bundle.isArchive = true;
        bundle.extraction = std::make_shared<ExtractionDir>(path);
        try {
            list = extractArchive(path, bundle.extraction->path(), options, progress);
        } catch (const BundleError&) {
            // A bare compressed log ("syslog.gz", "kern.log.xz") is a bundle of that one file, expanded
            // below as a rotated log inside a bundle is; its time is the file's (the year of syslog clocks).
            if (compressionOf(headOf(path)).empty())
                throw;
            list = {};
            bareCompressed = true;
            list.add(fs::path(path).filename().string(), path, fs::file_size(path, ec), FileStatus::Ok, {});
            struct stat fst {};
            if (::stat(path.c_str(), &fst) == 0)
                list.entries.back().mtimeNs = int64_t(fst.st_mtim.tv_sec) * 1'000'000'000 + fst.st_mtim.tv_nsec;
        }
        stripCommonTop(list.entries);
        if (list.entries.empty())
            list.warnings.push_back(path + ": the archive holds no files");
    } else {
        throw BundleError(path, "neither a folder nor an archive file");
    }
    bundle.warnings = std::move(list.warnings);

    auto& entries = list.entries;
    std::sort(entries.begin(), entries.end(), [](const BundleEntry& a, const BundleEntry& b) {
        return a.path != b.path ? a.path < b.path : a.order < b.order;
    });

    uint64_t total = 0;
    for (const auto& e : entries)
        total += e.status == FileStatus::Ok ? e.size : 0;
    uint64_t done = 0;
    // The listing may already have been cut short by the same cancel; one warning is enough.
    bool cancelled = std::any_of(bundle.warnings.begin(), bundle.warnings.end(),
                                 [](const std::string& w) { return w.find("cancelled") != std::string::npos; });
    // Tens of thousands of files are each opened for their head: on every core,
    // each entry into its own slot, so the order (and the ids) do not depend on scheduling.
    bundle.files.resize(entries.size());
    std::vector<Probed> probed(entries.size(), Probed::NotRead);
    std::vector<std::string_view> compression(entries.size());
    for (size_t i = 0; i < entries.size(); ++i) {
        SourceFile& f = bundle.files[i];
        f.index = FileId(static_cast<uint32_t>(i));
        f.path = entries[i].path;
        f.diskPath = entries[i].diskPath;
        f.memory = entries[i].memory;
        f.size = entries[i].size;
    }
    std::atomic<size_t> next{0};
    std::mutex progressMutex;
    auto worker = [&] {
        while (true) {
            const size_t i = next.fetch_add(1);
            if (i >= entries.size() || cancelled || progress.cancelled())
                return;
            const BundleEntry& e = entries[i];
            probed[i] = probeEntry(bundle.files[i], e, bundle.isArchive, compression[i]);
            if (bundle.isArchive)
                continue;
            const std::lock_guard lock(progressMutex);
            done += e.status == FileStatus::Ok ? e.size : 0;
            progress("load", done, total);
        }
    };
    // A handful of files is not worth a thread.
    runOnEveryCore(entries.size() < 64 ? 1 : entries.size(), worker, options.threads);

    size_t notRead = 0;
    for (size_t i = 0; i < entries.size(); ++i) {
        const BundleEntry& e = entries[i];
        SourceFile& f = bundle.files[i];
        if (probed[i] == Probed::Compressed && (cancelled || progress.cancelled()))
            probed[i] = Probed::NotRead;
        if (probed[i] == Probed::NotRead) {
            // Not "the files after it": the other workers may have read some of those already.
            ++notRead;
            cancelled = true;
            classifyFile(f, {});
            f.status = FileStatus::Skipped;
            f.statusReason = "loading cancelled";
        } else if (probed[i] == Probed::Compressed) {
            BundleEntry expanded = e;
            expandCompressed(bundle, expanded, f, options, compression[i]);
            // classified by its name without ".gz", shown under its own
            f.path = withoutCompressionSuffix(e.path);
            f.diskPath = expanded.diskPath;
            f.size = expanded.size;
            probeAndClassify(f, expanded, true);
            f.path = e.path;
        }
    }
    if (notRead > 0)
        bundle.warnings.push_back(path + ": loading cancelled; " + std::to_string(notRead) + " of "
                                  + std::to_string(entries.size()) + " files were not read (status \"loading cancelled\")");
    // A lone compressed stream that does not expand is unusable input, not a bundle with one bad file.
    if (bareCompressed && bundle.files.size() == 1 && bundle.files[0].status == FileStatus::Error)
        throw BundleError(path, "neither an archive nor a readable compressed log: " + bundle.files[0].statusReason);
    markSuperseded(bundle.files);
    if (bundle.isArchive)
        progress("load", total, total);

    for (SourceFile& f : bundle.files) {
        if (f.kind != SourceKind::Manifest || f.status != FileStatus::Skipped || f.statusReason != "manifest")
            continue;
        const std::string shown = (fs::path(path) / f.path).string();
        if (f.size > kMaxManifestBytes)
            throw BundleError(shown, "manifest larger than 16 MiB");
        MappedFile map;
        std::string error;
        if (!openSource(map, f, &error))
            throw BundleError(shown, error);
        bundle.manifest = parseManifest(map.data(), shown);
    }
    return bundle;
}

} // namespace fl
