#include "engine/datadir.h"

#include <cstdlib>
#include <filesystem>

namespace fl {

std::string installedDataDir()
{
    namespace fs = std::filesystem;
    std::error_code ec;
    // /proc/self/exe: the program itself, whatever the working folder or how it was started.
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec || exe.parent_path().filename() != "bin")
        return {};
    const fs::path share = exe.parent_path().parent_path() / "share" / "faultline";
    return fs::is_directory(share / "rules", ec) ? share.string() : std::string();
}

std::string defaultShippedRulesDir()
{
    if (const char* env = std::getenv("FAULTLINE_RULES_DIR"); env && *env)
        return env;
    if (const std::string share = installedDataDir(); !share.empty())
        return share + "/rules";
    return FAULTLINE_SHIPPED_RULES_DIR;
}

} // namespace fl
