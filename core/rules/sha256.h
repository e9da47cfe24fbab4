#pragma once
#include <string>
#include <string_view>
namespace fl {
// Lower-case hex SHA-256 of `data` (Qt Core's QCryptographicHash underneath).
std::string sha256Hex(std::string_view data);
}
