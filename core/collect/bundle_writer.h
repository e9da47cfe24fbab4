// Writes files under the --out folder and nowhere else: paths are relative,
// checked component by component, created O_EXCL|O_NOFOLLOW, and reserved
// under a lock so two sources never write the same name.
#pragma once

#include <cstdio>
#include <filesystem>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace fl::collect {

// A file name from a remote host made safe for one path component.
std::string safeComponent(std::string_view name);

class BundleWriter {
public:
    explicit BundleWriter(std::filesystem::path root);
    // The first candidate not taken yet ("" if all are); each must be a safe relative path.
    std::string reserve(const std::vector<std::string>& candidates);
    // Opens a reserved path for writing; nullptr and error on failure.
    [[nodiscard]] FILE* open(const std::string& rel, std::string& error);
    [[nodiscard]] bool write(const std::string& rel, std::string_view bytes, std::string& error);
    void remove(const std::string& rel);

private:
    std::filesystem::path root_;
    std::mutex mutex_;
    std::set<std::string> taken_;
};

} // namespace fl::collect
