// Read-only memory map of one evidence file. Big logs are never copied into
// strings; observations keep byte offsets into these maps instead.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace fl {

class MappedFile {
public:
    MappedFile() = default;
    ~MappedFile();
    MappedFile(MappedFile&&) noexcept;
    MappedFile& operator=(MappedFile&&) noexcept;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    // Returns false and fills `error` ("cannot open: Permission denied") on failure.
    // A zero-length file maps successfully to an empty view.
    bool open(const std::string& path, std::string* error);
    std::string_view data() const { return {static_cast<const char*>(m_addr), m_size}; }
    bool isOpen() const { return m_open; }

private:
    void* m_addr = nullptr;
    size_t m_size = 0;
    bool m_open = false;
};

} // namespace fl
