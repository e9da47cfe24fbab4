#include "outfile.h"

#include <cerrno>
#include <cstring>

namespace fl::synth {

OutFile::~OutFile()
{
    if (f_)
        std::fclose(f_);
}

bool OutFile::open(const std::string& path, std::string* error)
{
    path_ = path;
    f_ = std::fopen(path.c_str(), "wb");
    if (!f_) {
        if (error)
            *error = path + ": cannot create: " + std::strerror(errno);
        return false;
    }
    buf_.clear();
    buf_.reserve(kBlock + 64 * 1024);
    failed_ = false;
    return true;
}

void OutFile::flush()
{
    if (!f_ || buf_.empty())
        return;
    if (std::fwrite(buf_.data(), 1, buf_.size(), f_) != buf_.size())
        failed_ = true;
    buf_.clear();
}

bool OutFile::close(std::string* error)
{
    if (!f_)
        return true;
    flush();
    const bool closeFailed = std::fclose(f_) != 0;
    f_ = nullptr;
    std::string().swap(buf_);
    if (failed_ || closeFailed) {
        if (error)
            *error = path_ + ": write failed (disk full?)";
        return false;
    }
    return true;
}

} // namespace fl::synth
