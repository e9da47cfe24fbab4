// The archive loader: the input is written to a file and loaded as a bundle
// with small limits (tar, zip, cpio, 7z, compressed single files: whatever
// libarchive reads). A bad archive is a BundleError naming it.
#include "fuzz_input.h"
#include "bundle/bundle.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace fl;

void fuzzOne(std::string_view data)
{
    namespace fs = std::filesystem;
    static const fs::path dir = [] {
        fs::path d = fs::temp_directory_path() / ("faultline-fuzz-archive-" + std::to_string(::getpid()));
        fs::create_directories(d);
        return d;
    }();
    const fs::path file = dir / "bundle.tar";
    {
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out.write(data.data(), std::streamsize(data.size()));
    }
    LoadOptions limits;
    limits.maxEntryBytes = 1 << 20;
    limits.maxTotalBytes = 4 << 20;
    limits.maxEntries = 256;
    try {
        const Bundle b = loadBundle(file.string(), limits);
        FUZZ_CHECK(b.files.size() <= limits.maxEntries + 1);
        for (const auto& f : b.files)
            FUZZ_CHECK(f.status != FileStatus::Ok || f.size <= limits.maxEntryBytes);
    } catch (const BundleError& e) {
        FUZZ_CHECK(!e.file.empty());
    }
}
