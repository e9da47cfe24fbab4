#include "bundle/mapped_file.h"

#include <cerrno>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fl {

MappedFile::~MappedFile()
{
    if (m_addr)
        ::munmap(m_addr, m_size);
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : m_addr(std::exchange(other.m_addr, nullptr))
    , m_size(std::exchange(other.m_size, 0))
    , m_open(std::exchange(other.m_open, false))
{
}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept
{
    if (this != &other) {
        if (m_addr)
            ::munmap(m_addr, m_size);
        m_addr = std::exchange(other.m_addr, nullptr);
        m_size = std::exchange(other.m_size, 0);
        m_open = std::exchange(other.m_open, false);
    }
    return *this;
}

bool MappedFile::open(const std::string& path, std::string* error)
{
    *this = MappedFile();
    auto fail = [&](const char* what, int err) {
        if (error)
            *error = std::string(what) + ": " + std::strerror(err);
        return false;
    };
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return fail("cannot open", errno);
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int err = errno;
        ::close(fd);
        return fail("cannot stat", err);
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        if (error)
            *error = "not a regular file";
        return false;
    }
    const auto size = static_cast<size_t>(st.st_size);
    if (size == 0) {
        ::close(fd);
        m_open = true; // mmap(0) is EINVAL; an empty file is still a valid, empty map
        return true;
    }
    void* addr = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    const int mapErr = errno;
    ::close(fd); // the mapping keeps its own reference to the file
    if (addr == MAP_FAILED)
        return fail("cannot map", mapErr);
    ::madvise(addr, size, MADV_SEQUENTIAL);
    m_addr = addr;
    m_size = size;
    m_open = true;
    return true;
}

} // namespace fl
