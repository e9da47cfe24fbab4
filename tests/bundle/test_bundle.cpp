#include "archive_writer.h"
#include "bundle/bundle.h"
#include "bundle/extraction_dir.h"
#include "bundle/gzip_whole.h"
#include "bundle/iso_time.h"
#include "bundle/mapped_file.h"
#include "bundle/sniff.h"

#include <QtTest>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <mutex>
#include <random>

#include <sys/stat.h>
#include <unistd.h>

using namespace fl;

// fl::toString returns string_view, which QCOMPARE cannot print: compare the names instead.
#define ECOMPARE(actual, expected) QCOMPARE(std::string(toString(actual)), std::string(toString(expected)))
using fltest::ArchiveFormat;
using fltest::ArchiveItem;
namespace fs = std::filesystem;

namespace {

void writeFile(const fs::path& p, std::string_view bytes)
{
    fs::create_directories(p.parent_path());
    std::ofstream out(p, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string readFile(const std::string& p)
{
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const SourceFile* find(const Bundle& b, std::string_view path)
{
    for (const auto& f : b.files)
        if (f.path == path)
            return &f;
    return nullptr;
}

std::string joined(const std::vector<std::string>& v)
{
    std::string s;
    for (const auto& x : v)
        s += x + "\n";
    return s;
}

const char* kSyslog = "May 19 07:08:57 node-02 kernel: [680111.646286] NVRM: Xid (PCI:0000:10:1c): 79, pid=1850, GPU has fallen off the bus.\n"
                      "May 19 07:08:58 node-02 systemd[1]: Started Session 4.\n";
const char* kNccl = "node-2:5776:5898 [0] NCCL INFO NET/IB : Using [0]ibP111p0s0:1/IB\n"
                    "node-2:5776:5902 [0] transport/net_ib.cc:1296 NCCL WARN NET/IB : Got completion from peer\n";

// Lines of printable pseudo-random text: gzip cannot shrink them much, so a cut
// archive breaks inside the data rather than after it.
std::string noiseText(size_t bytes, unsigned seed)
{
    std::mt19937 rng(seed);
    std::string s;
    s.reserve(bytes);
    while (s.size() < bytes) {
        s.push_back(static_cast<char>('!' + rng() % 90));
        if (s.size() % 100 == 99)
            s.push_back('\n');
    }
    return s;
}

fs::path incidentsDir()
{
    for (const fs::path& p : {fs::path(FAULTLINE_SOURCE_DIR) / ".." / "shared" / "incidents", fs::path("/work/shared/incidents")})
        if (fs::is_directory(p))
            return p;
    return {};
}

// Every evidence file of shared/incidents with the kind, node and rank a person
// would give it from its name and first lines.
struct IncidentRow {
    const char* file;
    const char* kind;
    const char* node;
    int rank;
};
const IncidentRow kIncidentRows[] = {
    {"case04/applog-job-array-attempt1-rank-unknown.log", "applog", "", -1},
    {"case04/applog-job-array-attempt2-rank0.log", "applog", "", 0},
    // torchrun's default<N> is a local rank (issue #15): no global rank from the name
    {"case05/applog-rank-default3.log", "applog", "", -1},
    {"case06/applog-rank-default7-throughput.log", "applog", "", -1},
    {"case07/pyspy-stuck-process.txt", "applog", "", -1}, // py-spy stacks full of torch frames
    {"case07/pyspy-summary-all-nodes.txt", "applog", "", -1},
    {"case08/applog-node-2-rank0.log", "applog", "node-2", 0},
    {"case09/applog-r11i6n2-rank1.log", "applog", "r11i6n2", 1},
    {"case09/applog-rank-any.log", "applog", "", -1},
    {"case09/nslookup.txt", "hostmap", "", -1},
    {"case15/applog-rank-last.log", "applog", "", -1},
    {"case16/observation.txt", "applog", "", -1},
    {"case16/xid-alert-ip-26-0-146-100.log", "syslog", "ip-26-0-146-100", -1},
    {"case17/observation.txt", "applog", "", -1},
    {"case17/xid-alert-ip-26-0-147-135.log", "syslog", "ip-26-0-147-135", -1},
    {"case18/applog-main_log-tail.log", "applog", "", -1},
    {"case18/dmesg-jean-zay-iam06.log", "syslog", "jean-zay-iam06", -1},
    {"case18/nvidia-smi-jean-zay-iam06.csv", "gpu_snapshot", "jean-zay-iam06", -1},
    {"case18/ps-jean-zay-iam06.txt", "applog", "jean-zay-iam06", -1},
    {"case18/pyspy-barrier-counts-per-node.txt", "applog", "", -1}, // no file-wide shape: read line by line (linesByShape)
    {"case18/strace-jean-zay-iam06-pid280058.txt", "applog", "jean-zay-iam06", -1},
    {"case19/applog-rank0.log", "applog", "", 0},
    {"case19/slurm-srun-stderr.log", "scheduler", "", -1},
    {"case27/dmesg-node.log", "syslog", "", -1},
    {"case27/k8s-gpu-feature-discovery.log", "scheduler", "", -1},
    {"case27/nvidia-smi.txt", "gpu_snapshot", "", -1},
};

} // namespace

class TestBundle : public QObject {
    Q_OBJECT

private slots:
    void directoryBundle()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        writeFile(root / "syslog-node-02.log", kSyslog);
        writeFile(root / "applog-node-2-rank0.log", kNccl);
        // No host on the line (a host there would win over the folder, issue #41): the folder names the node.
        writeFile(root / "node-03" / "syslog", "[    2.030405] kernel: hello\n");
        writeFile(root / "deep" / "er" / "fabricmanager.log", "[Jul 23 2024 07:53:55] [ERROR] [tid 841] detected NVSwitch fatal error 20034\n");
        writeFile(root / "workload.json", R"({"workload_id": "job-17", "attempt": 2, "nodes": ["node-02", "node-03"]})");

        const Bundle b = loadBundle(root.string());
        QVERIFY(!b.isArchive);
        QCOMPARE(b.files.size(), size_t(5));
        for (size_t i = 0; i < b.files.size(); ++i) {
            QCOMPARE(b.files[i].index, FileId(uint32_t(i)));
            if (i > 0)
                QVERIFY(b.files[i - 1].path < b.files[i].path);
        }
        const SourceFile* sys = find(b, "syslog-node-02.log");
        QVERIFY(sys);
        ECOMPARE(sys->kind, SourceKind::SysLog);
        QCOMPARE(sys->node, std::string("node-02"));
        ECOMPARE(sys->status, FileStatus::Ok);
        QCOMPARE(sys->size, uint64_t(std::string_view(kSyslog).size()));
        QCOMPARE(readFile(sys->diskPath), std::string(kSyslog));

        const SourceFile* folderNode = find(b, "node-03/syslog");
        QVERIFY(folderNode);
        ECOMPARE(folderNode->kind, SourceKind::SysLog);
        QCOMPARE(folderNode->node, std::string("node-03"));
        QVERIFY2(folderNode->nodeReason.find("folder") != std::string::npos, folderNode->nodeReason.c_str());

        const SourceFile* fm = find(b, "deep/er/fabricmanager.log");
        QVERIFY(fm);
        ECOMPARE(fm->kind, SourceKind::FabricManager);

        const SourceFile* manifest = find(b, "workload.json");
        QVERIFY(manifest);
        ECOMPARE(manifest->kind, SourceKind::Manifest);
        ECOMPARE(manifest->status, FileStatus::Skipped);
        QCOMPARE(manifest->statusReason, std::string("manifest"));
        QVERIFY(b.manifest.has_value());
        QCOMPARE(b.manifest->workloadId, std::string("job-17"));
        QCOMPARE(b.manifest->attempt, 2);
        QCOMPARE(b.manifest->nodes.size(), size_t(2));
    }

    void directorySymlinks()
    {
        QTemporaryDir tmp, outside;
        const fs::path root = tmp.path().toStdString();
        writeFile(root / "syslog-node-01.log", kSyslog);
        writeFile(fs::path(outside.path().toStdString()) / "secret.log", "do not read\n");
        fs::create_symlink(fs::path(outside.path().toStdString()) / "secret.log", root / "escape.log");
        fs::create_symlink(root / "syslog-node-01.log", root / "alias.log");
        fs::create_symlink(root / "missing.log", root / "broken.log");
        fs::create_directory_symlink(root, root / "loop");

        const Bundle b = loadBundle(root.string());
        const SourceFile* escape = find(b, "escape.log");
        QVERIFY(escape);
        ECOMPARE(escape->status, FileStatus::Error);
        QVERIFY2(escape->statusReason.find("outside the bundle") != std::string::npos, escape->statusReason.c_str());
        QVERIFY(escape->diskPath.empty());
        const SourceFile* alias = find(b, "alias.log");
        QVERIFY(alias);
        ECOMPARE(alias->status, FileStatus::Skipped);
        ECOMPARE(find(b, "broken.log")->status, FileStatus::Error);
        ECOMPARE(find(b, "loop")->status, FileStatus::Skipped); // not followed: no endless recursion
        ECOMPARE(find(b, "syslog-node-01.log")->status, FileStatus::Ok);
        QCOMPARE(b.files.size(), size_t(5));
    }

    void archiveFormats_data()
    {
        QTest::addColumn<int>("format");
        QTest::addColumn<QString>("name");
        QTest::newRow("tar") << int(ArchiveFormat::Tar) << "b.tar";
        QTest::newRow("tar.gz") << int(ArchiveFormat::TarGz) << "b.tar.gz";
        QTest::newRow("tgz") << int(ArchiveFormat::TarGz) << "b.tgz";
        QTest::newRow("tar.zst") << int(ArchiveFormat::TarZst) << "b.tar.zst";
        QTest::newRow("zip") << int(ArchiveFormat::Zip) << "b.zip";
    }

    void archiveFormats()
    {
        QFETCH(int, format);
        QFETCH(QString, name);
        QTemporaryDir tmp;
        const std::string archive = (fs::path(tmp.path().toStdString()) / name.toStdString()).string();
        const std::string err = fltest::writeArchive(archive, ArchiveFormat(format),
            {{"bundle/", "", ArchiveItem::Type::Dir},
             {"bundle/syslog-node-02.log", kSyslog},
             {"bundle/ranks/applog-node-2-rank0.log", kNccl},
             {"bundle/workload.json", R"({"workload_id": "w1", "timezone": "+02:00"})"}});
        QVERIFY2(err.empty(), err.c_str());

        std::string extractedTo;
        {
            const Bundle b = loadBundle(archive);
            QVERIFY(b.isArchive);
            QVERIFY2(b.warnings.empty(), joined(b.warnings).c_str());
            QCOMPARE(b.files.size(), size_t(3));
            QCOMPARE(b.files[0].path, std::string("ranks/applog-node-2-rank0.log")); // top folder stripped
            QCOMPARE(b.files[1].path, std::string("syslog-node-02.log"));
            QCOMPARE(b.files[2].path, std::string("workload.json"));
            ECOMPARE(b.files[0].kind, SourceKind::AppLog);
            QCOMPARE(b.files[0].rank, 0);
            QCOMPARE(b.files[1].node, std::string("node-02"));
            QCOMPARE(readFile(b.files[1].diskPath), std::string(kSyslog));
            QVERIFY(b.manifest);
            QCOMPARE(b.manifest->timezoneOffsetSec, 7200);
            QVERIFY(b.extraction);
            extractedTo = b.extraction->path();
            QVERIFY(fs::is_directory(extractedTo));
            QVERIFY(b.files[1].diskPath.starts_with(extractedTo));
        }
        QVERIFY2(!fs::exists(extractedTo), "extraction folder must go with the last Bundle");
    }

    void archiveRefusesEscapingEntries()
    {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        const std::string archive = (dir / "evil.tar").string();
        const std::string err = fltest::writeArchive(archive, ArchiveFormat::Tar,
            {{"../escaped.log", "evil\n"},
             {"/tmp/absolute-faultline-test.log", "evil\n"},
             {"a/../../up.log", "evil\n"},
             {"link.log", "/etc/passwd", ArchiveItem::Type::Symlink},
             {"hard.log", "syslog-node-01.log", ArchiveItem::Type::Hardlink},
             {"syslog-node-01.log", kSyslog}});
        QVERIFY2(err.empty(), err.c_str());
        const Bundle b = loadBundle(archive);
        QCOMPARE(b.files.size(), size_t(6)); // every refused entry is still listed
        size_t errors = 0;
        for (const auto& f : b.files) {
            if (f.path == "syslog-node-01.log") {
                ECOMPARE(f.status, FileStatus::Ok);
                continue;
            }
            ++errors;
            ECOMPARE(f.status, FileStatus::Error);
            QVERIFY(f.diskPath.empty());
            QVERIFY2(!f.statusReason.empty(), f.path.c_str());
        }
        QCOMPARE(errors, size_t(5));
        QVERIFY(find(b, "../escaped.log")->statusReason.find("'..'") != std::string::npos);
        QVERIFY(find(b, "/tmp/absolute-faultline-test.log")->statusReason.find("absolute") != std::string::npos);
        QVERIFY(find(b, "link.log")->statusReason.find("symbolic link") != std::string::npos);
        QVERIFY(find(b, "hard.log")->statusReason.find("hard link") != std::string::npos);
        QVERIFY(!fs::exists(dir / "escaped.log"));
        QVERIFY(!fs::exists(dir.parent_path() / "escaped.log"));
        QVERIFY(!fs::exists("/tmp/absolute-faultline-test.log"));
        // All files of the extraction folder are plain files directly inside it.
        for (const auto& entry : fs::recursive_directory_iterator(b.extraction->path()))
            QVERIFY(entry.is_regular_file() && entry.path().parent_path() == fs::path(b.extraction->path()));
    }

    void archiveEntryCountLimit()
    {
        QTemporaryDir tmp;
        const std::string archive = (fs::path(tmp.path().toStdString()) / "many.tar.gz").string();
        std::vector<ArchiveItem> items;
        for (int i = 0; i < 6; ++i)
            items.push_back({"f" + std::to_string(i) + ".log", "line " + std::to_string(i) + "\n"});
        QVERIFY(fltest::writeArchive(archive, ArchiveFormat::TarGz, items).empty());
        LoadOptions opt;
        opt.maxEntries = 3;
        const Bundle b = loadBundle(archive, opt);
        QCOMPARE(b.files.size(), size_t(4));
        QCOMPARE(b.files[3].path, std::string("f3.log"));
        ECOMPARE(b.files[3].status, FileStatus::Error);
        QVERIFY(b.files[3].statusReason.find("entry limit") != std::string::npos);
        QCOMPARE(b.warnings.size(), size_t(1));
        QVERIFY(b.warnings[0].find(archive) != std::string::npos);
    }

    void archiveSizeLimits()
    {
        QTemporaryDir tmp;
        const std::string archive = (fs::path(tmp.path().toStdString()) / "sizes.zip").string();
        QVERIFY(fltest::writeArchive(archive, ArchiveFormat::Zip,
                                     {{"a.log", std::string(100, 'a') + "\n"},
                                      {"big.log", std::string(500, 'b') + "\n"},
                                      {"c.log", std::string(100, 'c') + "\n"},
                                      {"d.log", std::string(100, 'd') + "\n"}})
                    .empty());
        LoadOptions perEntry;
        perEntry.maxEntryBytes = 200;
        const Bundle b = loadBundle(archive, perEntry);
        QCOMPARE(b.files.size(), size_t(4));
        ECOMPARE(find(b, "big.log")->status, FileStatus::Error);
        QVERIFY(find(b, "big.log")->statusReason.find("per-entry limit") != std::string::npos);
        QVERIFY(find(b, "d.log")->status != FileStatus::Error); // the refusal did not stop the archive
        QCOMPARE(readFile(find(b, "d.log")->diskPath), std::string(100, 'd') + "\n");

        LoadOptions total;
        total.maxTotalBytes = 250;
        const Bundle t = loadBundle(archive, total);
        QCOMPARE(readFile(find(t, "a.log")->diskPath), std::string(100, 'a') + "\n");
        ECOMPARE(find(t, "big.log")->status, FileStatus::Error);
        QVERIFY(find(t, "big.log")->statusReason.find("total limit") != std::string::npos);
        QVERIFY(!find(t, "c.log")); // expansion stopped there
        QCOMPARE(t.warnings.size(), size_t(1));
        QVERIFY(t.warnings[0].find("total size limit") != std::string::npos);
    }

    // inflateWholeGzip (the fast path for .tar.gz) answers only when it is sure to give the streaming
    // reader's bytes; every other case must come back empty so the streaming reader decides.
    void wholeGzip()
    {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        const std::string text = noiseText(300'000, 7);
        const std::string gz = fltest::compressed(text, "gzip");
        const auto at = [&](const std::string& name, std::string_view bytes) {
            writeFile(dir / name, bytes);
            return (dir / name).string();
        };
        const auto whole = inflateWholeGzip(at("one.gz", gz), 1u << 20);
        QVERIFY(whole);
        QCOMPARE(std::string(whole->data(), whole->size), text);
        QVERIFY(!inflateWholeGzip(at("one.gz", gz), text.size() - 1)); // expands past the bound
        QVERIFY(inflateWholeGzip(at("one.gz", gz), text.size()));
        QVERIFY(!inflateWholeGzip(at("two.gz", gz + fltest::compressed("more\n", "gzip")), 1u << 20));
        QVERIFY(!inflateWholeGzip(at("trailing.gz", gz + "x"), 1u << 20));
        QVERIFY(!inflateWholeGzip(at("cut.gz", std::string_view(gz).substr(0, gz.size() / 2)), 1u << 20));
        std::string lying = gz; // the trailer's size one byte short: decoding overruns it
        lying[lying.size() - 4] = char(static_cast<unsigned char>(lying[lying.size() - 4]) - 1);
        QVERIFY(!inflateWholeGzip(at("lying.gz", lying), 1u << 20));
        std::string badCrc = gz;
        badCrc[badCrc.size() - 8] ^= 1;
        QVERIFY(!inflateWholeGzip(at("crc.gz", badCrc), 1u << 20));
        QVERIFY(!inflateWholeGzip(at("plain.log", text), 1u << 20));
        QVERIFY(!inflateWholeGzip((dir / "missing.gz").string(), 1u << 20));

        // A .tar.gz with a second gzip member after the archive streams as before: every member is read.
        const std::string tgz = (dir / "b.tar.gz").string();
        QVERIFY(fltest::writeArchive(tgz, ArchiveFormat::TarGz,
                                     {{"b/syslog-node-02.log", kSyslog}, {"b/applog-node-2-rank0.log", kNccl}}).empty());
        const std::string twoMembers = at("b2.tar.gz", readFile(tgz) + fltest::compressed(std::string(1024, '\0'), "gzip"));
        QVERIFY(!inflateWholeGzip(twoMembers, 1u << 20));
        QVERIFY(inflateWholeGzip(tgz, 1u << 20));
        for (const std::string& path : {tgz, twoMembers}) {
            const Bundle b = loadBundle(path);
            QCOMPARE(b.files.size(), size_t(2));
            QCOMPARE(readFile(find(b, "syslog-node-02.log")->diskPath), std::string(kSyslog));
            QCOMPARE(readFile(find(b, "applog-node-2-rank0.log")->diskPath), std::string(kNccl));
        }
    }

    void truncatedTarGz()
    {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        const std::string whole = (dir / "whole.tar.gz").string();
        std::vector<ArchiveItem> items;
        for (int i = 0; i < 8; ++i)
            items.push_back({"bundle/part" + std::to_string(i) + ".log", noiseText(40'000, unsigned(i))});
        QVERIFY(fltest::writeArchive(whole, ArchiveFormat::TarGz, items).empty());
        const std::string bytes = readFile(whole);
        const std::string cut = (dir / "cut.tar.gz").string();
        writeFile(cut, std::string_view(bytes).substr(0, bytes.size() / 2));

        const Bundle b = loadBundle(cut);
        QVERIFY(!b.warnings.empty());
        QVERIFY2(b.warnings[0].find(cut) != std::string::npos && b.warnings[0].find("truncated") != std::string::npos,
                 b.warnings[0].c_str());
        size_t ok = 0;
        size_t broken = 0;
        for (const auto& f : b.files) {
            const size_t i = size_t(f.path.back() == 'g' ? f.path[4] - '0' : 0);
            if (f.status != FileStatus::Error) {
                ++ok;
                QCOMPARE(readFile(f.diskPath), items[i].content); // what was kept is intact
            } else {
                ++broken;
                ECOMPARE(f.status, FileStatus::Error);
                QVERIFY2(f.statusReason.find("truncated") != std::string::npos, f.statusReason.c_str());
            }
        }
        QVERIFY(ok >= 2 && ok < 8);
        QCOMPARE(broken, size_t(1));
    }

    // LoadOptions::memoryBytes: members stay in memory while the budget lasts; the one that would pass it, and a
    // compressed one (expanded from a file), go to disk. Every file reads back the same either way.
    void membersInMemory_data()
    {
        QTest::addColumn<qulonglong>("budget");
        QTest::addColumn<int>("inMemory"); // of the four plain members
        // Members read where they lie in the expanded tar (HeldBytes views), not copied: only when the budget
        // holds the whole tar. Counted as neighbours whose bytes are one 512-byte header apart, as in the tar.
        QTest::addColumn<int>("viewNeighbours");
        QTest::newRow("off") << qulonglong(0) << 0 << 0;
        QTest::newRow("room for all") << qulonglong(1u << 20) << 4 << 3;
        QTest::newRow("room for two") << qulonglong(90'000) << 2 << 0;
    }

    void membersInMemory()
    {
        QFETCH(qulonglong, budget);
        QFETCH(int, inMemory);
        QFETCH(int, viewNeighbours);
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        std::vector<ArchiveItem> items;
        for (int i = 0; i < 4; ++i)
            items.push_back({"bundle/part" + std::to_string(i) + ".log", noiseText(40'000, unsigned(i))});
        items.push_back({"bundle/syslog.1.gz", fltest::compressed(kSyslog, "gzip")});
        items.push_back({"bundle/empty.log", ""});
        const std::string archive = (dir / "b.tar.gz").string();
        QVERIFY(fltest::writeArchive(archive, ArchiveFormat::TarGz, items).empty());

        LoadOptions options;
        options.memoryBytes = budget;
        const Bundle b = loadBundle(archive, options);
        QVERIFY2(b.warnings.empty(), joined(b.warnings).c_str());
        int held = 0;
        for (int i = 0; i < 4; ++i) {
            const SourceFile* f = find(b, "part" + std::to_string(i) + ".log");
            QVERIFY(f);
            QVERIFY2(f->status != FileStatus::Error, f->statusReason.c_str());
            QCOMPARE(f->size, uint64_t(items[size_t(i)].content.size()));
            QCOMPARE(f->memory != nullptr, f->diskPath.empty()); // one place or the other
            held += f->memory ? 1 : 0;
            MappedFile map;
            std::string error;
            QVERIFY2(openSource(map, *f, &error), error.c_str());
            QCOMPARE(std::string(map.data()), items[size_t(i)].content);
            QVERIFY(!map.changed());
        }
        QCOMPARE(held, inMemory);
        int neighbours = 0;
        for (int i = 0; i + 1 < 4; ++i) {
            const SourceFile* a = find(b, "part" + std::to_string(i) + ".log");
            const SourceFile* next = find(b, "part" + std::to_string(i + 1) + ".log");
            if (a->memory && next->memory &&
                next->memory->data() - a->memory->data() == std::ptrdiff_t((a->size + 511) / 512 * 512 + 512))
                ++neighbours;
        }
        QCOMPARE(neighbours, viewNeighbours);
        const SourceFile* rotated = find(b, "syslog.1.gz");
        QVERIFY(rotated);
        ECOMPARE(rotated->status, FileStatus::Ok);
        ECOMPARE(rotated->kind, SourceKind::SysLog);
        QVERIFY(!rotated->memory);
        QCOMPARE(readFile(rotated->diskPath), std::string(kSyslog));
        ECOMPARE(find(b, "empty.log")->status, FileStatus::Empty);
    }

    void notAnArchiveOrMissing()
    {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        const std::string missing = (dir / "no-such-bundle.tar.gz").string();
        try {
            loadBundle(missing);
            QFAIL("expected BundleError");
        } catch (const BundleError& e) {
            QCOMPARE(e.file, missing);
            QVERIFY(std::string(e.what()).find(missing) != std::string::npos);
        }
        writeFile(dir / "plain.log", kSyslog);
        QVERIFY_THROWS_EXCEPTION(BundleError, loadBundle((dir / "plain.log").string()));
        writeFile(dir / "empty.tar", "");
        QVERIFY_THROWS_EXCEPTION(BundleError, loadBundle((dir / "empty.tar").string()));
        writeFile(dir / "garbage.zip", noiseText(5000, 7));
        QVERIFY_THROWS_EXCEPTION(BundleError, loadBundle((dir / "garbage.zip").string()));
    }

    void emptyAndBinaryFiles()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        writeFile(root / "syslog-empty.log", "");
        writeFile(root / "blank.log", " \n\t\r\n  \n");
        writeFile(root / "core.bin", std::string("ELF\0\0\1\2", 7) + "some text");
        std::string noNul;
        for (int i = 0; i < 4000; ++i)
            noNul.push_back(static_cast<char>(0x80 + (i * 7) % 0x7F)); // invalid UTF-8, no NUL
        writeFile(root / "latin.dat", noNul);
        writeFile(root / "utf8.log", "NCCL WARN caf\xC3\xA9 \xE2\x9C\x93 \x1B[31mred\x1B[0m\n");

        const Bundle b = loadBundle(root.string());
        ECOMPARE(find(b, "syslog-empty.log")->status, FileStatus::Empty);
        ECOMPARE(find(b, "syslog-empty.log")->kind, SourceKind::SysLog); // the name still tells what it should have been
        ECOMPARE(find(b, "blank.log")->status, FileStatus::Empty);
        ECOMPARE(find(b, "core.bin")->status, FileStatus::Skipped);
        QCOMPARE(find(b, "core.bin")->statusReason, std::string("binary"));
        QCOMPARE(find(b, "latin.dat")->statusReason, std::string("binary"));
        ECOMPARE(find(b, "utf8.log")->status, FileStatus::Ok);
        ECOMPARE(find(b, "utf8.log")->kind, SourceKind::AppLog);
    }

    // Every byte value at 40 % of a head: text unless it is NUL, a control character logs do not hold, DEL,
    // or a byte that is not UTF-8 here (the printable-ASCII shortcut must not change an answer).
    void binaryByEachByteValue()
    {
        const std::string allowed = "\t\n\r\f\v\b\x1B";
        for (int b = 0; b < 256; ++b) {
            const auto c = static_cast<char>(b);
            const std::string head = std::string("ab") + c + "cd" + c + c + "ef" + c + "ghi";
            const bool binary = b == 0 || b == 0x7F || b >= 0x80 || (b < 0x20 && allowed.find(c) == std::string::npos);
            QVERIFY2(looksBinary(head) == binary, qPrintable(QString::number(b, 16)));
        }
        // The same across 16-byte blocks, at each alignment: the pattern repeated after k printable bytes.
        for (int b = 0; b < 256; ++b) {
            const auto c = static_cast<char>(b);
            const bool odd = b == 0x7F || b >= 0x80 || (b < 0x20 && allowed.find(c) == std::string::npos);
            for (int reps : {2, 5, 11})
                for (int k = 0; k < 17; ++k) {
                    std::string head(static_cast<size_t>(k), 'x');
                    for (int r = 0; r < reps; ++r)
                        head += std::string("ab") + c + "cd" + c + c + "ef" + c + "ghi";
                    const bool binary = b == 0 || (odd && 4 * reps * 10 > static_cast<int>(head.size()) * 3);
                    QVERIFY2(looksBinary(head) == binary, qPrintable(QStringLiteral("byte %1, %2 times after %3")
                                                                         .arg(b, 0, 16).arg(reps).arg(k)));
                }
        }
        QVERIFY(!looksBinary(""));
        QVERIFY(!looksBinary("plain text\twith tabs\r\n"));
        QVERIFY(!looksBinary("caf\xC3\xA9 \xE2\x9C\x93\n"));
    }

    void unreadableEntries()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        writeFile(root / "syslog-node-05.log", kSyslog);
        QCOMPARE(::mkfifo((root / "pipe.log").c_str(), 0600), 0);
        writeFile(root / "locked" / "inner.log", kSyslog);
        writeFile(root / "secret.log", kSyslog);
        ::chmod((root / "secret.log").c_str(), 0);
        ::chmod((root / "locked").c_str(), 0);

        const auto start = std::chrono::steady_clock::now();
        const Bundle b = loadBundle(root.string()); // a FIFO must not block the loader
        QVERIFY(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
        ::chmod((root / "locked").c_str(), 0755);

        const SourceFile* pipe = find(b, "pipe.log");
        QVERIFY(pipe);
        ECOMPARE(pipe->status, FileStatus::Error);
        QVERIFY2(pipe->statusReason.find("FIFO") != std::string::npos, pipe->statusReason.c_str());
        ECOMPARE(find(b, "syslog-node-05.log")->status, FileStatus::Ok);

        MappedFile fifoMap;
        std::string error;
        QVERIFY(!fifoMap.open((root / "pipe.log").string(), &error));
        QVERIFY(!error.empty());

        if (::geteuid() == 0) {
            // root reads mode-000 files and folders anyway; the FIFO above is the unreadable case here.
            ECOMPARE(find(b, "secret.log")->status, FileStatus::Ok);
            ECOMPARE(find(b, "locked/inner.log")->status, FileStatus::Ok);
            return;
        }
        const SourceFile* secret = find(b, "secret.log");
        ECOMPARE(secret->status, FileStatus::Error);
        QVERIFY2(secret->statusReason.find("Permission denied") != std::string::npos, secret->statusReason.c_str());
        const SourceFile* locked = find(b, "locked/");
        QVERIFY(locked);
        ECOMPARE(locked->status, FileStatus::Error);
    }

    // A folder of hundreds of files is probed on every core: each row must be
    // what that file alone gives, in path order, whichever thread read it.
    void manyFilesProbeInParallel()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        const int n = 300;
        for (int i = 0; i < n; ++i) {
            char name[64];
            std::snprintf(name, sizeof name, "node-%03d", i);
            const std::string node = name;
            if (i % 50 == 7)
                writeFile(root / ("syslog-" + node + ".1.gz"), fltest::compressed(kSyslog, "gzip"));
            else if (i % 50 == 11)
                writeFile(root / ("core-" + node + ".bin"), std::string("\x7f" "ELF\0\0\0", 8) + std::string(100, '\0'));
            else if (i % 50 == 13)
                writeFile(root / ("syslog-" + node + ".log"), "");
            else if (i % 2)
                writeFile(root / ("applog-" + node + "-rank" + std::to_string(i) + ".log"), kNccl);
            else
                writeFile(root / ("syslog-" + node + ".log"), kSyslog);
        }
        uint64_t lastDone = 0;
        Progress p;
        std::mutex m;
        p.report = [&](std::string_view, uint64_t done, uint64_t) {
            const std::lock_guard lock(m);
            QVERIFY(done >= lastDone);
            lastDone = done;
        };
        const Bundle b = loadBundle(root.string(), {}, p);
        QCOMPARE(b.files.size(), size_t(n));
        int compressedRows = 0, binaryRows = 0, emptyRows = 0;
        for (size_t i = 0; i < b.files.size(); ++i) {
            const SourceFile& f = b.files[i];
            QCOMPARE(f.index.value, uint32_t(i));
            if (i > 0)
                QVERIFY(b.files[i - 1].path < f.path);
            // The same file in a folder of its own: the single-threaded path.
            QTemporaryDir alone;
            fs::copy_file(root / f.path, fs::path(alone.path().toStdString()) / f.path);
            const Bundle one = loadBundle(alone.path().toStdString());
            QCOMPARE(one.files.size(), size_t(1));
            const SourceFile& g = one.files[0];
            QCOMPARE(f.path, g.path);
            ECOMPARE(f.kind, g.kind);
            ECOMPARE(f.status, g.status);
            QCOMPARE(f.statusReason, g.statusReason);
            QCOMPARE(f.node, g.node);
            QCOMPARE(f.rank, g.rank);
            QCOMPARE(f.size, g.size);
            compressedRows += f.path.ends_with(".gz") && f.status == FileStatus::Ok && f.diskPath != (root / f.path).string();
            binaryRows += f.status == FileStatus::Skipped && f.statusReason == "binary";
            emptyRows += f.status == FileStatus::Empty;
        }
        QCOMPARE(compressedRows, 6);
        QCOMPARE(binaryRows, 6);
        QCOMPARE(emptyRows, 6);
    }

    // Issue #13: rotated and compressed logs are read, not skipped; their rows keep their names.
    void compressedLogs()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        writeFile(root / "syslog-node-02.log", kSyslog);
        writeFile(root / "syslog.1.gz", fltest::compressed(kSyslog, "gzip"));
        writeFile(root / "kern.log.xz", fltest::compressed(kSyslog, "xz"));
        writeFile(root / "applog-node-2-rank0.log.zst", fltest::compressed(kNccl, "zstd"));
        writeFile(root / "broken.log.gz", fltest::compressed(noiseText(200000, 3), "gzip").substr(0, 5000));
        writeFile(root / "syslog-node-03.log.gz", kSyslog); // named compressed, but plain text: read as it is
        const Bundle b = loadBundle(root.string());
        for (const char* name : {"syslog.1.gz", "kern.log.xz"}) {
            const SourceFile* f = find(b, name);
            QVERIFY2(f, name);
            ECOMPARE(f->status, FileStatus::Ok);
            ECOMPARE(f->kind, SourceKind::SysLog);
            QCOMPARE(f->size, uint64_t(std::strlen(kSyslog)));
            QCOMPARE(readFile(f->diskPath), std::string(kSyslog));
            QVERIFY(f->modifiedNs != kNoTime); // the original's time, not the copy's
        }
        const SourceFile* app = find(b, "applog-node-2-rank0.log.zst");
        QVERIFY(app);
        ECOMPARE(app->kind, SourceKind::AppLog);
        QCOMPARE(app->rank, 0);
        QCOMPARE(readFile(app->diskPath), std::string(kNccl));
        const SourceFile* broken = find(b, "broken.log.gz");
        QVERIFY(broken);
        ECOMPARE(broken->status, FileStatus::Error);
        QVERIFY2(broken->statusReason.find("gzip") != std::string::npos, broken->statusReason.c_str());
        QVERIFY(b.extraction); // the expanded copies live in a private folder
        ECOMPARE(find(b, "syslog-node-03.log.gz")->status, FileStatus::Ok);
        QCOMPARE(find(b, "syslog-node-03.log.gz")->diskPath, (root / "syslog-node-03.log.gz").string());

        // inside an archive too, with a bomb stopped at the per-file limit
        const fs::path tar = root / "b.tar";
        QVERIFY(fltest::writeArchive(tar.string(), ArchiveFormat::Tar,
                                     {{"b/var/log/syslog.2.gz", fltest::compressed(kSyslog, "gzip")},
                                      {"b/bomb.log.gz", fltest::compressed(std::string(4u << 20, 'a'), "gzip")}}).empty());
        LoadOptions small;
        small.maxEntryBytes = 1u << 20;
        const Bundle a = loadBundle(tar.string(), small);
        const SourceFile* rotated = find(a, "var/log/syslog.2.gz");
        QVERIFY(rotated);
        ECOMPARE(rotated->status, FileStatus::Ok);
        QCOMPARE(readFile(rotated->diskPath), std::string(kSyslog));
        QCOMPARE(rotated->modifiedNs, 1'700'000'000LL * 1'000'000'000); // the member's time
        const SourceFile* bomb = find(a, "bomb.log.gz");
        ECOMPARE(bomb->status, FileStatus::Error);
        QVERIFY2(bomb->statusReason.find("limit") != std::string::npos, bomb->statusReason.c_str());
    }

    // Issue #13: a file truncated while in use gives a per-file error, never SIGBUS.
    void truncatedWhileMapped()
    {
        QTemporaryDir tmp;
        const fs::path p = fs::path(tmp.path().toStdString()) / "live.log";
        const std::string text = noiseText(8u << 20, 7);
        writeFile(p, text);
        MappedFile m;
        std::string error;
        QVERIFY(m.open(p.string(), &error));
        QVERIFY(m.isMapped()); // large: mapped, guarded
        QVERIFY(!m.changed());
        QVERIFY(::truncate(p.c_str(), 4096) == 0);
        // touching the vanished pages reads zeros instead of killing the process
        size_t nonZero = 0;
        for (size_t i = 0; i < m.data().size(); i += 4096)
            nonZero += m.data()[i] != 0;
        QVERIFY(nonZero >= 1 && nonZero < 4);
        QVERIFY(m.changed());
        QVERIFY2(m.changeReason().find("truncated") != std::string::npos, m.changeReason().c_str());

        // small files are read(); replacing one is seen too
        const fs::path q = fs::path(tmp.path().toStdString()) / "small.log";
        writeFile(q, kSyslog);
        MappedFile r;
        QVERIFY(r.open(q.string(), &error));
        QVERIFY(!r.isMapped());
        QCOMPARE(std::string(r.data()), std::string(kSyslog));
        writeFile(q.string() + ".new", kSyslog); // as logrotate's copy-and-rename would
        fs::rename(q.string() + ".new", q);
        QVERIFY(r.changed());
        QVERIFY2(r.changeReason().find("replaced") != std::string::npos, r.changeReason().c_str());
        // forced read() of a large file
        MappedFile big;
        QVERIFY(big.open(p.string(), &error, MappedFile::Strategy::Read));
        QCOMPARE(big.data().size(), size_t(4096));
        QVERIFY(!big.changed());
    }

    // Issue #15: folder files carry their mtime, archive members their member time.
    void fileTimes()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        writeFile(root / "syslog-node-02.log", kSyslog);
        fs::last_write_time(root / "syslog-node-02.log",
                            fs::file_time_type::clock::now() - std::chrono::hours(24 * 400));
        const Bundle b = loadBundle(root.string());
        const int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                std::chrono::system_clock::now().time_since_epoch()).count();
        const int64_t mt = find(b, "syslog-node-02.log")->modifiedNs;
        QVERIFY(mt < now - 399LL * 86400 * 1'000'000'000 && mt > now - 401LL * 86400 * 1'000'000'000);
        const fs::path tar = root / "b.tar.gz";
        QVERIFY(fltest::writeArchive(tar.string(), ArchiveFormat::TarGz, {{"b/syslog-node-02.log", kSyslog}}).empty());
        QCOMPARE(find(loadBundle(tar.string()), "syslog-node-02.log")->modifiedNs, 1'700'000'000LL * 1'000'000'000);
    }

    void mappedEmptyFile()
    {
        QTemporaryDir tmp;
        const fs::path p = fs::path(tmp.path().toStdString()) / "empty";
        writeFile(p, "");
        MappedFile m;
        std::string error;
        QVERIFY(m.open(p.string(), &error));
        QVERIFY(m.isOpen());
        QCOMPARE(m.data().size(), size_t(0));
        MappedFile moved(std::move(m));
        QVERIFY(moved.isOpen());
        QVERIFY(!m.isOpen());
        QVERIFY(!m.open((fs::path(tmp.path().toStdString()) / "missing").string(), &error));
        QVERIFY2(error.find("No such file") != std::string::npos, error.c_str());
    }

    void hugeSingleLine()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        {
            std::ofstream out(root / "one-line.log", std::ios::binary);
            out << "node-9:1:2 [0] NCCL INFO ";
            const std::string chunk(1 << 20, 'x');
            for (int i = 0; i < 100; ++i)
                out << chunk;
        }
        const auto start = std::chrono::steady_clock::now();
        const Bundle b = loadBundle(root.string());
        QVERIFY(std::chrono::steady_clock::now() - start < std::chrono::seconds(20));
        QCOMPARE(b.files.size(), size_t(1));
        QVERIFY(b.files[0].size > 100'000'000);
        ECOMPARE(b.files[0].status, FileStatus::Ok);
        ECOMPARE(b.files[0].kind, SourceKind::AppLog);
        QCOMPARE(b.files[0].node, std::string("node-9"));
    }

    void progressAndCancel()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        for (int i = 0; i < 5; ++i)
            writeFile(root / ("syslog-node-0" + std::to_string(i) + ".log"), kSyslog);
        uint64_t lastDone = 0, lastTotal = 0;
        int calls = 0;
        Progress p;
        p.report = [&](std::string_view stage, uint64_t done, uint64_t total) {
            QCOMPARE(stage, std::string_view("load"));
            QVERIFY(done >= lastDone);
            lastDone = done;
            lastTotal = total;
            ++calls;
        };
        const Bundle b = loadBundle(root.string(), {}, p);
        QVERIFY(calls >= 5);
        QCOMPARE(lastDone, lastTotal);
        QCOMPARE(lastTotal, uint64_t(5 * std::string_view(kSyslog).size()));

        std::atomic<bool> cancel{true};
        Progress c;
        c.cancel = &cancel;
        const Bundle stopped = loadBundle(root.string(), {}, c);
        QCOMPARE(stopped.warnings.size(), size_t(1));
        QVERIFY(stopped.warnings[0].find("cancelled") != std::string::npos);
        // Cancelled after the first file is read: the warning counts the files left unread, which are
        // the ones marked so, and the file read is kept.
        std::atomic<bool> later{false};
        Progress afterOne;
        afterOne.cancel = &later;
        afterOne.report = [&](std::string_view, uint64_t, uint64_t) { later = true; };
        const Bundle partly = loadBundle(root.string(), {}, afterOne);
        const auto unread = std::count_if(partly.files.begin(), partly.files.end(), [](const SourceFile& f) {
            return f.status == FileStatus::Skipped && f.statusReason == "loading cancelled";
        });
        QVERIFY2(unread >= 1 && unread < std::ptrdiff_t(partly.files.size()), std::to_string(unread).c_str());
        const std::string counted = std::to_string(unread) + " of " + std::to_string(partly.files.size()) + " files were not read";
        QCOMPARE(partly.warnings.size(), size_t(1));
        QVERIFY2(partly.warnings[0].find(counted) != std::string::npos, partly.warnings[0].c_str());

        const std::string archive = (root / "x.tar").string();
        QVERIFY(fltest::writeArchive(archive, ArchiveFormat::Tar, {{"a.log", "x\n"}, {"b.log", "y\n"}}).empty());
        const Bundle stoppedArchive = loadBundle(archive, {}, c);
        QVERIFY(stoppedArchive.files.empty());
        QVERIFY(joined(stoppedArchive.warnings).find("cancelled") != std::string::npos);
    }

    void duplicateArchivePaths()
    {
        QTemporaryDir tmp;
        const std::string archive = (fs::path(tmp.path().toStdString()) / "dup.tar").string();
        QVERIFY(fltest::writeArchive(archive, ArchiveFormat::Tar,
                                     {{"syslog.log", "old\n"}, {"other.log", "o\n"}, {"syslog.log", "new\n"}})
                    .empty());
        const Bundle b = loadBundle(archive);
        QCOMPARE(b.files.size(), size_t(3));
        QCOMPARE(b.files[1].path, std::string("syslog.log"));
        ECOMPARE(b.files[1].status, FileStatus::Skipped);
        QCOMPARE(readFile(b.files[1].diskPath), std::string("old\n"));
        QCOMPARE(readFile(b.files[2].diskPath), std::string("new\n"));
        QVERIFY(b.files[2].status != FileStatus::Skipped);
    }

    // Damaged archives and random bytes: every outcome is a BundleError or a
    // listed bundle, never a crash, a hang or a file outside the extraction folder.
    void hostileInputs()
    {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        std::mt19937 rng(12345);
        for (ArchiveFormat format : {ArchiveFormat::TarGz, ArchiveFormat::Zip, ArchiveFormat::Tar}) {
            const std::string good = (dir / "good").string();
            QVERIFY(fltest::writeArchive(good, format,
                                         {{"b/syslog-n1.log", kSyslog}, {"b/app.log", kNccl}, {"b/x.txt", noiseText(3000, 1)}})
                        .empty());
            const std::string bytes = readFile(good);
            for (int round = 0; round < 60; ++round) {
                std::string damaged = bytes;
                for (int k = 0; k < 1 + round % 8; ++k)
                    damaged[rng() % damaged.size()] = static_cast<char>(rng());
                if (round % 5 == 0)
                    damaged.resize(rng() % damaged.size() + 1);
                const std::string path = (dir / ("d" + std::to_string(round))).string();
                writeFile(path, damaged);
                try {
                    const Bundle b = loadBundle(path);
                    for (size_t i = 0; i < b.files.size(); ++i) {
                        QCOMPARE(b.files[i].index, FileId(uint32_t(i)));
                        if (!b.files[i].diskPath.empty())
                            QVERIFY(b.files[i].diskPath.starts_with(b.extraction->path()));
                    }
                } catch (const BundleError& e) {
                    QCOMPARE(e.file, path);
                }
            }
        }
        for (int round = 0; round < 300; ++round) {
            std::string head(rng() % 2000, '\0');
            for (char& c : head)
                c = static_cast<char>(round % 2 ? rng() : " \n:[]0123456789abcNVRM-kernel"[rng() % 29]);
            SourceFile f;
            f.path = std::string("dir-") + head.substr(0, std::min<size_t>(head.size(), 12)) + "/f";
            classifyFile(f, head);
            try {
                parseManifest(head, "m.json");
            } catch (const BundleError&) {
            }
        }
    }

    // ------------------------------------------------------------ manifest

    void manifestGood()
    {
        const Manifest m = parseManifest(R"({
            "workload_id": "tr11-176B", "attempt": 3, "scheduler": "slurm",
            "nodes": ["n1", "n2"],
            "ranks": {"0": {"node": "n1", "gpu": 0}, "9": {"node": "n2", "gpu": 1}},
            "window": {"start": "2023-03-06T03:00:00Z", "end": "2023-03-06T04:17:51.5+01:00"},
            "failure": {"detected_at": "2023-03-06T02:17:51", "detection_signal": "exit", "exit_codes": {"rank3": 1, "n2": -9}},
            "boot_times": {"n1": "2023-03-01T00:00:00Z"},
            "timezone": "+01:00"
        })", "w.json");
        QCOMPARE(m.workloadId, std::string("tr11-176B"));
        QCOMPARE(m.attempt, 3);
        QCOMPARE(m.scheduler, std::string("slurm"));
        QCOMPARE(m.ranks.size(), size_t(2));
        QCOMPARE(m.ranks.at(9).node, std::string("n2"));
        QCOMPARE(m.ranks.at(9).gpu, 1);
        const int64_t start = 1678071600LL * 1'000'000'000; // 2023-03-06T03:00:00Z
        QCOMPARE(m.windowStartNs, start);
        QCOMPARE(m.windowEndNs, start + (17 * 60 + 51) * 1'000'000'000LL + 500'000'000);
        QCOMPARE(m.detectedAtNs, start + (17 * 60 + 51 - 2 * 3600) * 1'000'000'000LL); // no zone: the manifest's +01:00
        QCOMPARE(m.exitCodes.at("n2"), -9);
        QCOMPARE(m.bootTimesNs.at("n1"), 1677628800LL * 1'000'000'000);
        QCOMPARE(m.timezoneOffsetSec, 3600);

        const Manifest arr = parseManifest(R"({"ranks": [{"rank": 4, "node": "a", "gpu": 2}, {"rank": 0, "node": "b"}]})", "w.json");
        QCOMPARE(arr.ranks.size(), size_t(2));
        QCOMPARE(arr.ranks.at(4).gpu, 2);
        QCOMPARE(arr.ranks.at(0).gpu, -1);
        QCOMPARE(parseManifest("{}", "w.json").attempt, -1);
    }

    void manifestBad_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("syntax") << "{\n  \"attempt\": 1,\n  \"nodes\": [\"a\" \"b\"]\n}" << "line 3, column 19"; // nlohmann stops at the end of the unexpected token
        QTest::newRow("trailing comma") << "{\"a\": 1,\n}" << "line 2, column 1";
        QTest::newRow("truncated") << "{\"window\": {" << "line 1, column 13";
        QTest::newRow("not object") << "[1, 2]" << "top level";
        QTest::newRow("attempt type") << R"({"attempt": "three"})" << "'attempt'";
        QTest::newRow("nodes type") << R"({"nodes": "n1"})" << "'nodes'";
        QTest::newRow("node item") << R"({"nodes": ["n1", 2]})" << "'nodes[1]'";
        QTest::newRow("rank key") << R"({"ranks": {"x": {"node": "a"}}})" << "'ranks'";
        QTest::newRow("rank gpu") << R"({"ranks": {"1": {"gpu": "0"}}})" << "'ranks.1.gpu'";
        QTest::newRow("window time") << R"({"window": {"start": "yesterday"}})" << "'window.start'";
        QTest::newRow("bad date") << R"({"window": {"start": "2023-02-30T00:00:00Z"}})" << "'window.start'";
        QTest::newRow("year 9999") << R"({"window": {"start": "2023-01-01T00:00:00Z", "end": "9999-12-31T23:59:59Z"}})" << "'window.end'";
        QTest::newRow("year 0") << R"({"failure": {"detected_at": "0000-01-01T00:00:00Z"}})" << "'failure.detected_at'";
        QTest::newRow("year 0 says range") << R"({"window": {"start": "0000-01-01T00:00:00Z"}})" << "between 1678 and 2261";
        QTest::newRow("boot far") << R"({"boot_times": {"n1": "9999-01-01T00:00:00Z"}})" << "'boot_times.n1'";
        QTest::newRow("exit code") << R"({"failure": {"exit_codes": {"r1": "1"}}})" << "'failure.exit_codes.r1'";
        QTest::newRow("timezone") << R"({"timezone": "Europe/Paris"})" << "'timezone'";
        QTest::newRow("boot") << R"({"boot_times": {"n1": 12}})" << "'boot_times.n1'";
        QTest::newRow("window order") << R"({"window": {"start": "2023-01-02T00:00:00Z", "end": "2023-01-01T00:00:00Z"}})" << "before start";
    }

    void manifestBad()
    {
        QFETCH(QString, json);
        QFETCH(QString, expected);
        const std::string text = json.toStdString();
        try {
            parseManifest(text, "bundle/workload.json");
            QFAIL("expected BundleError");
        } catch (const BundleError& e) {
            QCOMPARE(e.file, std::string("bundle/workload.json"));
            const std::string what = e.what();
            QVERIFY2(what.find("bundle/workload.json") == 0, what.c_str());
            QVERIFY2(what.find(expected.toStdString()) != std::string::npos, what.c_str());
        }
    }

    void badManifestInBundleThrows()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        writeFile(root / "workload.json", "{\n \"attempt\": oops\n}");
        try {
            loadBundle(root.string());
            QFAIL("expected BundleError");
        } catch (const BundleError& e) {
            QVERIFY2(e.file.ends_with("workload.json"), e.file.c_str());
            QVERIFY2(std::string(e.what()).find("line 2, column") != std::string::npos, e.what());
        }
    }

    void isoTimes()
    {
        QCOMPARE(daysFromCivil(1970, 1, 1), int64_t(0));
        QCOMPARE(daysFromCivil(2000, 3, 1), int64_t(11017));
        QCOMPARE(daysFromCivil(1969, 12, 31), int64_t(-1));
        QCOMPARE(daysFromCivil(2024, 2, 29), int64_t(19782));
        const int64_t s = 1'000'000'000;
        QCOMPARE(parseIso8601Ns("2024-02-29T12:00:00Z").value(), (19782LL * 86400 + 12 * 3600) * s);
        QCOMPARE(parseIso8601Ns("2024-02-29 12:00:00+02:00").value(), (19782LL * 86400 + 10 * 3600) * s);
        QCOMPARE(parseIso8601Ns("2024-02-29T12:00:00-0130").value(), (19782LL * 86400 + 13 * 3600 + 1800) * s);
        QCOMPARE(parseIso8601Ns("2024-02-29T12:00Z").value(), (19782LL * 86400 + 12 * 3600) * s);
        QCOMPARE(parseIso8601Ns("1970-01-01T00:00:00.123456789123Z").value(), int64_t(123456789));
        QCOMPARE(parseIso8601Ns("1970-01-01T00:00:01", 3600).value(), -3599 * s);
        for (const char* bad : {"", "2024-02-30T00:00:00Z", "2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-01-01",
                                "2024-01-01T25:00:00Z", "2024-01-01T00:00:00+25:00", "2024-01-01T00:00:00.Z",
                                "2024-01-01T00:00:00 Z", "2024-1-01T00:00:00Z", "2024-01-01T00:00:00Zjunk"})
            QVERIFY2(!parseIso8601Ns(bad), bad);
        // issue #13: year 0, 9999 and far negative overflowed int64 ns; now they are refused
        for (const char* out : {"9999-12-31T23:59:59Z", "0000-01-01T00:00:00Z", "0001-01-01T00:00:00+23:59",
                                "2262-04-11T23:47:16.854775808Z", "1677-09-21T00:12:43.145224191Z",
                                "2262-04-11T23:47:16.854775807-01:00"})
            QVERIFY2(!parseIso8601Ns(out), out);
        QCOMPARE(parseIso8601Ns("2262-04-11T23:47:16.854775807Z").value(), std::numeric_limits<int64_t>::max());
        QVERIFY(!parseIso8601Ns("1677-09-21T00:12:43.145224192Z")); // int64 min is kNoTime, not a time
        QCOMPARE(parseIso8601Ns("1677-09-21T00:12:44Z").value(), std::numeric_limits<int64_t>::min() + 854775808);
        QCOMPARE(parseUtcOffset("+05:30").value(), 19800);
        QCOMPARE(parseUtcOffset("Z").value(), 0);
        QVERIFY(!parseUtcOffset("CET"));
    }

    // ------------------------------------------------------ classification

    void classifyIncidentFiles_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("node");
        QTest::addColumn<int>("rank");
        for (const auto& r : kIncidentRows)
            QTest::newRow(r.file) << r.file << r.kind << r.node << r.rank;
    }

    void classifyIncidentFiles()
    {
        QFETCH(QString, file);
        QFETCH(QString, kind);
        QFETCH(QString, node);
        QFETCH(int, rank);
        const fs::path dir = incidentsDir();
        if (dir.empty())
            QSKIP("shared/incidents not found next to the repository");
        const fs::path p = dir / file.toStdString();
        QVERIFY2(fs::exists(p), p.c_str());
        const std::string head = readFile(p.string()).substr(0, 64 * 1024);
        SourceFile f;
        f.path = p.filename().string();
        classifyFile(f, head);
        const std::string why = f.path + ": kind " + std::string(toString(f.kind)) + " (" + f.kindReason + "), node '"
                                + f.node + "' (" + f.nodeReason + "), rank " + std::to_string(f.rank);
        QVERIFY2(toString(f.kind) == kind.toStdString(), why.c_str());
        QVERIFY2(f.node == node.toStdString(), why.c_str());
        QVERIFY2(f.rank == rank, why.c_str());
        QVERIFY2(f.kind == SourceKind::Unknown || !f.kindReason.empty(), why.c_str());
        QVERIFY2(f.node.empty() || !f.nodeReason.empty(), why.c_str());
        QVERIFY2(f.rank < 0 || !f.rankReason.empty(), why.c_str());
        ECOMPARE(f.status, f.kind == SourceKind::Unknown ? FileStatus::Unrecognized : FileStatus::Ok);
    }

    // New incident files must get a row above, so the inference is checked on every real name.
    void incidentTableCoversAllFiles()
    {
        const fs::path dir = incidentsDir();
        if (dir.empty())
            QSKIP("shared/incidents not found next to the repository");
        const auto known = [](const std::string& rel) {
            return std::any_of(std::begin(kIncidentRows), std::end(kIncidentRows), [&](const IncidentRow& r) { return rel == r.file; });
        };
        for (const auto& e : fs::recursive_directory_iterator(dir)) {
            if (!e.is_regular_file() || e.path().parent_path() == dir)
                continue;
            const std::string name = e.path().filename().string();
            if (name == "source.txt" || name == "expected.json")
                continue;
            const std::string rel = e.path().lexically_relative(dir).generic_string();
            QVERIFY2(known(rel), ("no table row for " + rel).c_str());
        }
    }

    void classifyByContent_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("head");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("node");
        QTest::newRow("dmesg stamps") << "a.txt" << "[  12.345] usb 1-1: new device\n[  13.000] NVRM: loading\n" << "syslog" << "";
        QTest::newRow("fm shape") << "x.log" << "[Jul 23 2024 07:53:55] [ERROR] [tid 841] detected NVSwitch fatal error\n" << "fabricmanager" << "";
        QTest::newRow("sacct json") << "jobs.json" << "{\n  \"jobs\": [ {\"job_id\": 1} ]\n}" << "scheduler" << "";
        QTest::newRow("sacct pipe") << "acct.txt" << "JobID|JobName|State|ExitCode\n1|x|FAILED|1:0\n" << "scheduler" << "";
        QTest::newRow("k8s events") << "ev.json" << R"({"apiVersion": "v1", "kind" : "EventList", "items": []})" << "scheduler" << "";
        QTest::newRow("prom json") << "q.json" << R"({"status":"success","data":{"resultType":"matrix","result":[]}})" << "metrics" << "";
        QTest::newRow("prom ext") << "dcgm-node-07.prom" << "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\"} 41\n" << "metrics" << "node-07";
        QTest::newRow("metrics csv") << "gpu-stats.csv" << "timestamp,gpu,util\n1,0,99\n" << "metrics" << "";
        QTest::newRow("plain csv") << "table.csv" << "a,b\n1,2\n" << "unknown" << "";
        QTest::newRow("nccl host") << "rank-dump.txt" << kNccl << "applog" << "node-2";
        QTest::newRow("launcher prefix") << "x.log" << "[default0]:gpu-a17:100:200 [0] NCCL INFO Bootstrap\n" << "applog" << "gpu-a17";
        QTest::newRow("syslog host") << "kern" << "Mar  1 17:38:27 gpu-b03 kernel: NVRM: Xid 79\n" << "syslog" << "gpu-b03";
        QTest::newRow("rfc3339 syslog") << "syslog" << "2024-05-01T12:00:00.5+02:00 hpc-n12 systemd[1]: Started\n" << "syslog" << "hpc-n12";
        QTest::newRow("hosts disagree") << "syslog" << "Mar  1 17:38:27 n1x kernel: a\nMar  1 17:38:28 n2x kernel: b\n" << "syslog" << "";
        QTest::newRow("localhost is not a node") << "syslog" << "Mar  1 17:38:27 localhost kernel: a\n" << "syslog" << "";
        QTest::newRow("folder node") << "node-03/syslog" << "" << "syslog" << "node-03";
        QTest::newRow("kind folder, node file") << "syslog/gpu-12.log" << "" << "syslog" << "gpu-12";
        QTest::newRow("counter folder") << "attempt-2/stdout.log" << "" << "applog" << "";
        QTest::newRow("slurm out") << "slurm-123456.out" << "" << "applog" << "";
        QTest::newRow("fqdn") << "syslog-n01.cluster.local.log" << "" << "syslog" << "n01.cluster.local";
        QTest::newRow("rotated") << "kern.log.1" << "" << "syslog" << "";
        QTest::newRow("torch once") << "notes.txt" << "we use torch\n" << "applog" << "";
        QTest::newRow("traceback") << "notes.txt" << "Traceback (most recent call last):\n" << "applog" << "";
        // Megatron-LM training_log() lines (megatron/training/training.py) in a file named only for its node.
        QTest::newRow("megatron iterations") << "node-7.log"
            << " [2025-08-01 07:19:37] iteration        1/    5000 | consumed samples:          128 | elapsed time per "
               "iteration (ms): 19138.8 | learning rate: 1.500000E-07 | global batch size:   128 | lm loss: 1.098765E+01 |"
               " loss scale: 4294967296.0 | number of skipped iterations:   0 | number of nan iterations:   0 |\n"
               " [2025-08-01 07:19:56] iteration        2/    5000 | consumed samples:          256 | elapsed time per "
               "iteration (ms): 18904.2 | learning rate: 3.000000E-07 | global batch size:   128 | lm loss: 1.097712E+01 |"
               " loss scale: 4294967296.0 | number of skipped iterations:   0 | number of nan iterations:   0 |\n"
            << "applog" << "node-7";
        QTest::newRow("iteration in prose") << "notes.txt" << "the next iteration of the plan\n" << "applog" << "";
        QTest::newRow("program text") << "snippet.py" << "raise RuntimeError(\"CUDA error: out of memory\")\n" << "unknown" << "";
    }

    void classifyByContent()
    {
        QFETCH(QString, path);
        QFETCH(QString, head);
        QFETCH(QString, kind);
        QFETCH(QString, node);
        SourceFile f;
        f.path = path.toStdString();
        const std::string h = head.toStdString();
        classifyFile(f, h);
        const std::string why = std::string(toString(f.kind)) + " (" + f.kindReason + "), node '" + f.node + "' (" + f.nodeReason + ")";
        QVERIFY2(toString(f.kind) == kind.toStdString(), why.c_str());
        QVERIFY2(f.node == node.toStdString(), why.c_str());
    }

    void classifyRanks()
    {
        const std::vector<std::pair<std::string, int>> cases = {
            {"applog-rank-3.log", 3}, {"rank_12/stdout", 12}, {"app-default0.log", -1 /* torchrun local rank */}, {"ranking.log", -1},
            {"applog-rank-unknown.log", -1}};
        for (const auto& [path, rank] : cases) {
            SourceFile f;
            f.path = path;
            classifyFile(f, {});
            QVERIFY2(f.rank == rank, (path + " -> " + std::to_string(f.rank)).c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestBundle)
#include "test_bundle.moc"
