#include "exercise/library.h"

#include "bundle/bundle.h"
#include "bundle/json_file.h"
#include "engine/datadir.h"

#include <cstdlib>
#include <filesystem>
#include <set>

namespace fl::exercise {

namespace fs = std::filesystem;

namespace {

std::string field(const nlohmann::json& entry, const char* key, const std::string& path, size_t index)
{
    const auto it = entry.find(key);
    if (it == entry.end() || !it->is_string() || it->get<std::string>().empty())
        throw BundleError(path, "exercise " + std::to_string(index + 1) + ": no \"" + key + "\" (a non-empty string)");
    return it->get<std::string>();
}

// The source tree, from the shipped rules folder compiled in (rules/ sits at its top).
fs::path sourceTree()
{
    return fs::path(FAULTLINE_SHIPPED_RULES_DIR).parent_path();
}

} // namespace

std::vector<LibraryEntry> readLibrary(const std::string& path)
{
    const nlohmann::json doc = readJsonFile(path);
    if (!doc.is_object() || doc.value("format", std::string()) != kLibraryFormat)
        throw BundleError(path, std::string("not an exercise library (\"format\": \"") + kLibraryFormat + "\")");
    const auto list = doc.find("exercises");
    if (list == doc.end() || !list->is_array())
        throw BundleError(path, "no \"exercises\" array");
    std::vector<LibraryEntry> out;
    std::set<std::string> ids;
    for (size_t i = 0; i < list->size(); ++i) {
        const nlohmann::json& e = (*list)[i];
        if (!e.is_object())
            throw BundleError(path, "exercise " + std::to_string(i + 1) + ": not an object");
        LibraryEntry entry{field(e, "id", path, i), field(e, "root", path, i), field(e, "folder", path, i),
                           e.value("label", std::string("expected.json")), field(e, "lesson", path, i)};
        if (entry.root != "samples" && entry.root != "incidents")
            throw BundleError(path, "exercise " + entry.id + ": root \"" + entry.root +
                                        "\" is neither \"samples\" nor \"incidents\"");
        if (!ids.insert(entry.id).second)
            throw BundleError(path, "exercise " + entry.id + " is listed twice");
        out.push_back(std::move(entry));
    }
    return out;
}

std::string defaultLibraryPath()
{
    if (const std::string share = installedDataDir(); !share.empty())
        return share + "/exercises.json";
    return (sourceTree() / "resources" / "exercises.json").string();
}

std::string defaultSamplesDir()
{
    if (!installedDataDir().empty())
        return {};
    return (sourceTree() / "samples").string();
}

std::string defaultScoresPath()
{
    const char* xdg = std::getenv("XDG_DATA_HOME");
    fs::path base;
    if (xdg && *xdg)
        base = xdg;
    else if (const char* home = std::getenv("HOME"); home && *home)
        base = fs::path(home) / ".local" / "share";
    else
        return {};
    return (base / "faultline" / "exercises.faultline-notes.sqlite").string();
}

std::string entryFolder(const LibraryEntry& e, const std::string& samplesDir, const std::string& incidentsDir)
{
    const std::string& root = e.root == "samples" ? samplesDir : incidentsDir;
    return root.empty() ? std::string() : (fs::path(root) / e.folder).string();
}

std::string exerciseIdOf(const std::string& bundlePath)
{
    fs::path p(bundlePath);
    if (p.filename().empty())
        p = p.parent_path();
    return p.filename().string();
}

} // namespace fl::exercise
