#include "collect/bundle_writer.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fl::collect {

namespace {

bool safeRelative(std::string_view rel)
{
    if (rel.empty() || rel.front() == '/' || rel.size() > 1024)
        return false;
    size_t i = 0;
    while (i <= rel.size()) {
        size_t slash = rel.find('/', i);
        if (slash == std::string_view::npos)
            slash = rel.size();
        const std::string_view part = rel.substr(i, slash - i);
        if (part.empty() || part == "." || part == ".." || part.size() > 255)
            return false;
        for (unsigned char c : part)
            if (c < 0x20 || c == 0x7f)
                return false;
        i = slash + 1;
    }
    return true;
}

} // namespace

std::string safeComponent(std::string_view name)
{
    std::string s;
    for (unsigned char c : name.substr(0, 200)) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.'
            || c == '-' || c == '_' || c == '+';
        s += ok ? static_cast<char>(c) : '_';
    }
    if (s.empty() || s[0] == '.')
        s.insert(0, "_");
    return s;
}

BundleWriter::BundleWriter(std::filesystem::path root)
    : root_(std::move(root))
{
}

std::string BundleWriter::reserve(const std::vector<std::string>& candidates)
{
    std::lock_guard lock(mutex_);
    for (const auto& c : candidates)
        if (safeRelative(c) && taken_.insert(c).second)
            return c;
    return {};
}

FILE* BundleWriter::open(const std::string& rel, std::string& error)
{
    if (!safeRelative(rel)) {
        error = "unsafe path '" + rel + "'";
        return nullptr;
    }
    // Create each folder below root without following links (none exist:
    // we made them), then the file itself exclusively.
    int dir = ::open(root_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) {
        error = root_.string() + ": " + std::strerror(errno);
        return nullptr;
    }
    size_t i = 0;
    for (size_t slash; (slash = rel.find('/', i)) != std::string::npos; i = slash + 1) {
        const std::string part = rel.substr(i, slash - i);
        if (::mkdirat(dir, part.c_str(), 0755) != 0 && errno != EEXIST) {
            error = rel + ": " + std::strerror(errno);
            ::close(dir);
            return nullptr;
        }
        const int next = ::openat(dir, part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        ::close(dir);
        if (next < 0) {
            error = rel + ": " + std::strerror(errno);
            return nullptr;
        }
        dir = next;
    }
    const int fd = ::openat(dir, rel.substr(i).c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    ::close(dir);
    if (fd < 0) {
        error = rel + ": " + std::strerror(errno);
        return nullptr;
    }
    FILE* f = ::fdopen(fd, "wb");
    if (!f) {
        error = rel + ": " + std::strerror(errno);
        ::close(fd);
    }
    return f;
}

bool BundleWriter::write(const std::string& rel, std::string_view bytes, std::string& error)
{
    FILE* f = open(rel, error);
    if (!f)
        return false;
    const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    if (std::fclose(f) != 0 || !ok) {
        error = rel + ": write failed: " + std::strerror(errno);
        return false;
    }
    return true;
}

void BundleWriter::remove(const std::string& rel)
{
    if (safeRelative(rel)) {
        std::error_code ec;
        std::filesystem::remove(root_ / rel, ec);
    }
}

} // namespace fl::collect
