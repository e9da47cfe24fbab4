#include "bundle/json_file.h"

#include "bundle/bundle.h"

#include <fstream>

namespace fl {

nlohmann::json readJsonFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw BundleError(path, "cannot read");
    try {
        return nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& e) {
        throw BundleError(path, std::string("not valid JSON: ") + e.what());
    }
}

} // namespace fl
