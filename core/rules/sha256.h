#pragma once
#include <string>
#include <string_view>
namespace fl {
// Lower-case hex SHA-256 of `data` (OpenSSL's libcrypto underneath: core/ stays free of Qt).
[[nodiscard]] std::string sha256Hex(std::string_view data);
}
