// A small HTTP GET over cpp-httplib (Debian's libcpp-httplib-dev) for the
// Prometheus and Loki APIs: one deadline for the whole exchange and a cap on
// the body, so a slow or endless answer cannot hold a source past its timeout.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fl::collect {

struct HttpResult {
    bool ok = false;         // a response arrived and its body was read whole
    int status = 0;          // HTTP status when one arrived
    std::string body;
    std::string error;       // why not ok: "connection refused", "timed out after 5 s", "HTTP 400: ..."
};

using HttpParams = std::vector<std::pair<std::string, std::string>>;

// base: "http://host:port[/prefix]"; path: "/api/v1/query_range". Parameters are URL-encoded.
[[nodiscard]] HttpResult httpGet(const std::string& base, const std::string& path, const HttpParams& params,
                   const HttpParams& headers, std::chrono::steady_clock::time_point deadline,
                   uint64_t maxBodyBytes = 256ull << 20);

// POST a body (an archive) to base+path. Same deadline rules.
[[nodiscard]] HttpResult httpPost(const std::string& base, const std::string& path, const std::string& body,
                    const std::string& contentType, const HttpParams& headers,
                    std::chrono::steady_clock::time_point deadline);

// Splits "http://h:p/prefix" into ("http://h:p", "/prefix"); false if the scheme is not http(s).
[[nodiscard]] bool splitBaseUrl(const std::string& url, std::string& schemeHostPort, std::string& prefix);

} // namespace fl::collect
