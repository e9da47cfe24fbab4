// Buffered file output: generated bundles reach gigabytes, so lines are
// collected in a few MB of memory and written with one fwrite per block.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace fl::synth {

class OutFile {
public:
    static constexpr size_t kBlock = 4u << 20;

    OutFile() = default;
    OutFile(const OutFile&) = delete;
    OutFile& operator=(const OutFile&) = delete;
    ~OutFile();

    bool open(const std::string& path, std::string* error);
    // The buffer callers append a line to; call commit() after each line.
    std::string& buf() { return buf_; }
    void commit()
    {
        if (buf_.size() >= kBlock)
            flush();
    }
    void put(std::string_view s)
    {
        buf_ += s;
        commit();
    }
    bool close(std::string* error); // flushes; false (with message naming the file) on I/O error

private:
    void flush();
    std::FILE* f_ = nullptr;
    std::string path_;
    std::string buf_;
    bool failed_ = false;
};

} // namespace fl::synth
