#include "bundle/mapped_file.h"
#include "model.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <utility>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fl {

namespace {

// ---- SIGBUS guard ---------------------------------------------------------
// A fixed table the signal handler can read without locks or allocation. A
// mapping that finds no free slot is not made: the file is read() instead.
constexpr int kSlots = 4096;
struct Slot {
    std::atomic<uintptr_t> begin{0};
    std::atomic<uintptr_t> end{0};
    std::atomic<bool> faulted{false};
};
Slot g_slots[kSlots];
struct sigaction g_previous {};
std::once_flag g_installed;

void onSigbus(int sig, siginfo_t* info, void* ctx)
{
    const auto addr = reinterpret_cast<uintptr_t>(info->si_addr);
    for (auto& s : g_slots) {
        const uintptr_t b = s.begin.load(std::memory_order_acquire);
        if (b == 0 || addr < b || addr >= s.end.load(std::memory_order_acquire))
            continue;
        // The page's file bytes are gone (truncated): put a zero page in its
        // place so that the reader carries on, and remember it.
        const auto page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
        void* at = reinterpret_cast<void*>(addr & ~(page - 1));
        if (::mmap(at, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
            s.faulted.store(true, std::memory_order_release);
            return;
        }
        break;
    }
    // Not one of ours: whatever was there before decides (by default, the crash).
    if (g_previous.sa_flags & SA_SIGINFO) {
        if (g_previous.sa_sigaction) {
            g_previous.sa_sigaction(sig, info, ctx);
            return;
        }
    } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
        g_previous.sa_handler(sig);
        return;
    }
    ::signal(SIGBUS, SIG_DFL);
    ::raise(SIGBUS);
}

void installGuard()
{
    std::call_once(g_installed, [] {
        struct sigaction sa {};
        sa.sa_sigaction = onSigbus;
        sa.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        ::sigaction(SIGBUS, &sa, &g_previous);
    });
}

int claimSlot(const void* addr, size_t size)
{
    for (int i = 0; i < kSlots; ++i) {
        uintptr_t expected = 0;
        if (g_slots[i].begin.load(std::memory_order_relaxed) == 0
            && g_slots[i].end.compare_exchange_strong(expected, reinterpret_cast<uintptr_t>(addr) + size)) {
            g_slots[i].faulted.store(false, std::memory_order_relaxed);
            g_slots[i].begin.store(reinterpret_cast<uintptr_t>(addr), std::memory_order_release);
            return i;
        }
    }
    return -1;
}

void releaseSlot(int i)
{
    g_slots[i].begin.store(0, std::memory_order_release);
    g_slots[i].end.store(0, std::memory_order_release);
}

std::string sizeText(uint64_t n) { return std::to_string(n) + " bytes"; }

} // namespace

void MappedFile::reset() noexcept
{
    if (m_slot >= 0) {
        releaseSlot(m_slot);
        ::munmap(const_cast<char*>(m_addr), m_size);
    }
    m_addr = nullptr;
    m_size = 0;
    m_open = false;
    m_slot = -1;
    m_shortRead = false;
    m_buffer.reset();
    m_memory.reset();
    m_path.clear();
    m_dev = m_ino = 0;
    m_modifiedNs = INT64_MIN;
    m_fileSize = 0;
}

MappedFile::~MappedFile() { reset(); }

MappedFile::MappedFile(MappedFile&& other) noexcept { *this = std::move(other); }

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept
{
    if (this != &other) {
        reset();
        m_addr = std::exchange(other.m_addr, nullptr);
        m_size = std::exchange(other.m_size, 0);
        m_open = std::exchange(other.m_open, false);
        m_slot = std::exchange(other.m_slot, -1);
        m_shortRead = std::exchange(other.m_shortRead, false);
        m_buffer = std::move(other.m_buffer);
        m_memory = std::move(other.m_memory);
        m_path = std::move(other.m_path);
        m_dev = std::exchange(other.m_dev, 0);
        m_ino = std::exchange(other.m_ino, 0);
        m_modifiedNs = std::exchange(other.m_modifiedNs, INT64_MIN);
        m_fileSize = std::exchange(other.m_fileSize, 0);
    }
    return *this;
}

bool MappedFile::open(const std::string& path, std::string* error, Strategy strategy)
{
    return openUpTo(path, error, strategy, SIZE_MAX);
}

bool MappedFile::openHead(const std::string& path, std::string* error, size_t maxBytes)
{
    return openUpTo(path, error, Strategy::Read, maxBytes);
}

void MappedFile::openMemory(HeldBytes bytes, size_t maxBytes)
{
    reset();
    if (!bytes)
        bytes = holdCopy({});
    m_memory = std::move(bytes);
    m_addr = m_memory->data();
    m_size = std::min(m_memory->size(), maxBytes);
    m_fileSize = m_memory->size();
    m_open = true;
}

bool MappedFile::openUpTo(const std::string& path, std::string* error, Strategy strategy, size_t maxBytes)
{
    reset();
    auto fail = [&](const char* what, int err) {
        if (error)
            *error = std::string(what) + ": " + std::strerror(err);
        return false;
    };
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return fail("cannot open", errno);
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    struct stat st {};
    if (::fstat(fd, &st) != 0)
        return fail("cannot stat", errno);
    if (!S_ISREG(st.st_mode)) {
        if (error)
            *error = "not a regular file";
        return false;
    }
    m_path = path;
    m_dev = st.st_dev;
    m_ino = st.st_ino;
    m_modifiedNs = int64_t(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
    m_fileSize = static_cast<uint64_t>(st.st_size);
    const auto size = std::min(static_cast<size_t>(st.st_size), maxBytes);
    if (size == 0) {
        m_open = true; // mmap(0) is EINVAL; an empty file is still a valid, empty view
        return true;
    }
    if (strategy == Strategy::Map || (strategy == Strategy::Auto && size >= kReadBelowBytes)) {
        installGuard();
        void* addr = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (addr != MAP_FAILED) {
            const int slot = claimSlot(addr, size);
            if (slot >= 0) {
                ::madvise(addr, size, MADV_SEQUENTIAL);
                m_addr = static_cast<const char*>(addr);
                m_size = size;
                m_slot = slot;
                m_open = true;
                return true;
            }
            ::munmap(addr, size); // no guard slot left: read() it instead
        }
        // mmap refused (some FUSE and network file systems): read() it
    }
    m_buffer = std::make_unique_for_overwrite<char[]>(size);
    size_t got = 0;
    while (got < size) {
        const ssize_t n = ::pread(fd, m_buffer.get() + got, size - got, static_cast<off_t>(got));
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n < 0) {
            const int err = errno;
            reset();
            return fail("cannot read", err);
        }
        if (n == 0)
            break; // truncated under us: keep what was there, say so through changed()
        got += static_cast<size_t>(n);
    }
    m_shortRead = got < size;
    m_addr = m_buffer.get();
    m_size = got;
    m_open = true;
    return true;
}

bool MappedFile::changed() const
{
    if (!m_open || m_path.empty())
        return false;
    if (m_shortRead || (m_slot >= 0 && g_slots[m_slot].faulted.load(std::memory_order_acquire)))
        return true;
    struct stat st {};
    if (::stat(m_path.c_str(), &st) != 0)
        return true; // removed
    return st.st_dev != m_dev || st.st_ino != m_ino || static_cast<uint64_t>(st.st_size) < m_size;
}

std::string MappedFile::changeReason() const
{
    struct stat st {};
    if (::stat(m_path.c_str(), &st) != 0)
        return "the file was removed while it was being read";
    if (st.st_dev != m_dev || st.st_ino != m_ino)
        return "the file was replaced while it was being read";
    return "the file was truncated while it was being read (" + sizeText(uint64_t(st.st_size)) + " now, "
           + sizeText(m_size) + " when opened)";
}

bool openSource(MappedFile& map, const SourceFile& file, std::string* error)
{
    if (!file.memory)
        return map.open(file.diskPath, error);
    map.openMemory(file.memory);
    return true;
}

} // namespace fl
