#include "result_input.h"

#include "engine/engine.h"
#include "engine/result_json.h"

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

namespace fl::cli {

namespace {

std::optional<std::string> readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return std::nullopt;
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

// A result document, when `path` is one: a .json file whose top level has "schema_version" and "status".
std::optional<nlohmann::json> resultDocument(const std::string& path, std::string& error)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec) || std::filesystem::path(path).extension() != ".json")
        return std::nullopt;
    const auto text = readFile(path);
    if (!text) {
        error = path + ": cannot read";
        return std::nullopt;
    }
    nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
    if (j.is_discarded()) {
        error = path + ": not valid JSON";
        return std::nullopt;
    }
    if (!j.is_object() || !j.contains("schema_version") || !j.contains("status")) {
        error = path + ": not a Faultline result document (no \"schema_version\" or \"status\")";
        return std::nullopt;
    }
    return j;
}

} // namespace

bool loadResult(const ResultInput& in, Result& result, bool& fromBundle, std::string& error)
{
    // A result document is read back into a Result by the one reader (resultFromJson), so it is
    // reported by the same code, and gives the same report, as the fresh analysis of its bundle.
    std::optional<nlohmann::json> document = resultDocument(in.input, error);
    if (!error.empty())
        return false;
    fromBundle = !document;
    try {
        if (fromBundle) {
            AnalyzeOptions options;
            options.keepMetricSamples = false;
            options.keepMetricSeries = false;
            options.userConfigRules = !in.noUserRules;
            options.ruleDirs = in.ruleDirs;
            result = analyze(in.input, options).result;
        } else {
            result = resultFromJson(*document);
        }
    } catch (const std::exception& e) {
        error = fromBundle ? std::string(e.what()) : in.input + ": " + e.what();
        return false;
    }
    return true;
}

std::string notesBeside(const std::string& bundle)
{
    std::string abs = std::filesystem::absolute(bundle).lexically_normal().string();
    while (abs.size() > 1 && abs.back() == '/')
        abs.pop_back();
    return abs + ".faultline-notes.sqlite";
}

} // namespace fl::cli
