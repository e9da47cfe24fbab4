#include "bundle/bundle_entry.h"

#include <filesystem>
#include <system_error>

namespace fl {

namespace fs = std::filesystem;

namespace {

constexpr int kMaxDepth = 64; // deeper trees are hostile or generated, not collected evidence

std::string typeName(fs::file_type t)
{
    switch (t) {
    case fs::file_type::fifo: return "a FIFO";
    case fs::file_type::socket: return "a socket";
    case fs::file_type::block: return "a block device";
    case fs::file_type::character: return "a character device";
    default: return "not a regular file";
    }
}

bool inside(const fs::path& canonicalRoot, const fs::path& canonicalTarget)
{
    auto r = canonicalRoot.begin();
    auto t = canonicalTarget.begin();
    for (; r != canonicalRoot.end(); ++r, ++t)
        if (t == canonicalTarget.end() || *r != *t)
            return false;
    return true;
}

class Walker {
public:
    Walker(const fs::path& root, const LoadOptions& options, const Progress& progress)
        : m_root(root), m_options(options), m_progress(progress)
    {
        std::error_code ec;
        m_canonicalRoot = fs::canonical(root, ec);
        if (ec)
            m_canonicalRoot = root;
    }

    EntryList run()
    {
        std::error_code ec;
        fs::directory_iterator probe(m_root, ec);
        if (ec)
            throw BundleError(m_root.string(), "cannot read folder: " + ec.message());
        walk(m_root, 0);
        return std::move(m_out);
    }

private:
    void add(std::string path, std::string disk, uint64_t size, FileStatus status, std::string reason)
    {
        m_out.add(std::move(path), std::move(disk), size, status, std::move(reason));
    }

    std::string rel(const fs::path& p) const { return p.lexically_relative(m_root).generic_string(); }

    bool full()
    {
        if (m_out.entries.size() < m_options.maxEntries)
            return false;
        if (!m_stopped) {
            m_stopped = true;
            m_out.warnings.push_back(m_root.string() + ": stopped listing after " + std::to_string(m_options.maxEntries)
                                     + " files (entry limit)");
        }
        return true;
    }

    void walk(const fs::path& dir, int depth)
    {
        if (depth > kMaxDepth) {
            add(rel(dir) + "/", {}, 0, FileStatus::Error, "folder nested deeper than " + std::to_string(kMaxDepth) + " levels: not read");
            return;
        }
        std::error_code ec;
        fs::directory_iterator it(dir, ec);
        if (ec) {
            add(rel(dir) + "/", {}, 0, FileStatus::Error, "cannot read folder: " + ec.message());
            return;
        }
        for (; it != fs::directory_iterator(); it.increment(ec)) {
            if (!m_stopped && m_progress.cancelled()) {
                m_stopped = true;
                m_out.warnings.push_back(m_root.string() + ": loading cancelled while listing files");
            }
            if (m_stopped || full())
                return;
            visit(it->path(), depth);
        }
        if (ec)
            add(rel(dir) + "/", {}, 0, FileStatus::Error, "folder listing broke off: " + ec.message());
    }

    void visit(const fs::path& p, int depth)
    {
        std::error_code ec;
        const fs::file_status ls = fs::symlink_status(p, ec);
        if (ec) {
            add(rel(p), {}, 0, FileStatus::Error, "cannot stat: " + ec.message());
            return;
        }
        if (fs::is_symlink(ls)) {
            const fs::path target = fs::canonical(p, ec);
            if (ec) {
                add(rel(p), {}, 0, FileStatus::Error, "broken symbolic link: " + ec.message());
            } else if (!inside(m_canonicalRoot, target)) {
                add(rel(p), {}, 0, FileStatus::Error, "symbolic link leads outside the bundle: not followed");
            } else {
                // Its target is inside the root and so already listed under its own path.
                const std::string to = target.lexically_relative(m_canonicalRoot).generic_string();
                add(rel(p), {}, 0, FileStatus::Skipped, "symbolic link to '" + to + "', listed there");
            }
            return;
        }
        if (fs::is_directory(ls)) {
            walk(p, depth + 1);
            return;
        }
        if (!fs::is_regular_file(ls)) {
            add(rel(p), {}, 0, FileStatus::Error, typeName(ls.type()) + ", not a regular file: not read");
            return;
        }
        const uintmax_t size = fs::file_size(p, ec);
        add(rel(p), p.string(), ec ? 0 : size, FileStatus::Ok, {});
    }

    fs::path m_root;
    fs::path m_canonicalRoot;
    const LoadOptions& m_options;
    const Progress& m_progress;
    EntryList m_out;
    bool m_stopped = false;
};

} // namespace

EntryList walkFolder(const std::string& root, const LoadOptions& options, const Progress& progress)
{
    fs::path p = fs::path(root).lexically_normal();
    if (!p.has_filename() && p.has_parent_path() && p != p.root_path())
        p = p.parent_path(); // "bundle/" -> "bundle", so relative paths do not start with ".."
    return Walker(p, options, progress).run();
}

} // namespace fl
