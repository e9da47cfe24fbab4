#include "bundle/extraction_dir.h"
#include "bundle/bundle.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <vector>

namespace fl {

ExtractionDir::ExtractionDir(const std::string& forArchive)
{
    std::error_code ec;
    std::filesystem::path base = std::filesystem::temp_directory_path(ec);
    if (ec)
        base = "/tmp";
    std::string pattern = (base / "faultline-XXXXXX").string();
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    if (!::mkdtemp(buf.data()))
        throw BundleError(forArchive, std::string("cannot create a folder to extract into: ") + std::strerror(errno));
    m_path = buf.data();
}

ExtractionDir::~ExtractionDir()
{
    std::error_code ec; // a destructor must not throw; a leftover temp folder is the lesser harm
    std::filesystem::remove_all(m_path, ec);
}

} // namespace fl
