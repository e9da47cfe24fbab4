// Time arithmetic and the timestamp shapes the generated logs print.
// All times are int64 microseconds since the Unix epoch, UTC.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace fl::synth {

inline constexpr int64_t kSec = 1'000'000;
inline constexpr int64_t kMs = 1'000;

// An ISO 8601 date-time (bundle/iso_time.h: "2026-03-14T10:00:00Z", "+05:30",
// no zone = UTC) at or after 1970; false on anything else.
bool parseIsoUtc(std::string_view text, int64_t* us);

struct Civil {
    int year, month, day, hour, minute, second, micro;
};
Civil toCivil(int64_t us);

void appendInt(std::string& out, int64_t v);
void appendPadded(std::string& out, int64_t v, int width, char fill = '0');
void appendFixed(std::string& out, double v, int decimals);
void appendSci(std::string& out, double v, int decimals); // 2.310052E+00
void appendHex(std::string& out, uint64_t v, int width);  // lower case, zero padded

void appendIso(std::string& out, int64_t us);          // 2026-03-14T10:00:00Z
void appendIsoLocal(std::string& out, int64_t us);     // 2026-03-14T10:00:00 (Slurm)
void appendSyslogTime(std::string& out, int64_t us);   // Mar 14 10:00:00
void appendRfc3339Micro(std::string& out, int64_t us); // 2026-03-14T10:00:00.123456+00:00 (rsyslog precise)
void appendFmTime(std::string& out, int64_t us);       // Mar 14 2026 10:00:00
void appendPyDate(std::string& out, int64_t us);       // 2026-03-14 10:00:00
void appendGlog(std::string& out, char level, int64_t us, int nanoExtra); // c10: E314 10:55:12.345678nnn, python (nanoExtra<0): E0314 10:55:12.345678
void appendTorchrunTime(std::string& out, int64_t us); // 2026-03-14_10:55:13
void appendUptime(std::string& out, int64_t us);       // [123456.789012]

} // namespace fl::synth
