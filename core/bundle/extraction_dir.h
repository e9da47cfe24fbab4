// A private temporary folder holding an archive's extracted files. The engine
// memory-maps evidence, so archive members must exist as files while any
// Bundle copy refers to them; the folder goes when the last owner does.
#pragma once

#include <string>

namespace fl {

class ExtractionDir {
public:
    // Creates "$TMPDIR/faultline-XXXXXX" (mode 0700); throws BundleError on failure.
    explicit ExtractionDir(const std::string& forArchive);
    ~ExtractionDir();
    ExtractionDir(const ExtractionDir&) = delete;
    ExtractionDir& operator=(const ExtractionDir&) = delete;

    const std::string& path() const { return m_path; }

private:
    std::string m_path;
};

} // namespace fl
