#include "collect/http.h"

#include <httplib.h>

#include <algorithm>

namespace fl::collect {

namespace {

std::string errorText(httplib::Error e, bool pastDeadline, std::chrono::milliseconds budget)
{
    if (pastDeadline)
        return "timed out after " + std::to_string((budget.count() + 999) / 1000) + " s";
    switch (e) {
    case httplib::Error::Connection:
        return "cannot connect";
    case httplib::Error::ConnectionTimeout:
        return "connection timed out";
    case httplib::Error::Read:
        return "connection closed or timed out while reading";
    case httplib::Error::Canceled:
        return "timed out or answer too large";
    case httplib::Error::SSLConnection:
    case httplib::Error::SSLServerVerification:
        return "TLS failure";
    default:
        return httplib::to_string(e);
    }
}

void setTimeouts(httplib::Client& cli, std::chrono::milliseconds left)
{
    const auto sec = static_cast<time_t>(left.count() / 1000);
    const auto usec = static_cast<time_t>((left.count() % 1000) * 1000);
    cli.set_connection_timeout(sec, usec);
    cli.set_read_timeout(sec, usec);
    cli.set_write_timeout(sec, usec);
}

std::string statusError(const httplib::Response& res)
{
    std::string snippet = res.body.substr(0, 300);
    std::replace_if(snippet.begin(), snippet.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    return "HTTP " + std::to_string(res.status) + (snippet.empty() ? "" : ": " + snippet);
}

} // namespace

bool splitBaseUrl(const std::string& url, std::string& schemeHostPort, std::string& prefix)
{
    const size_t scheme = url.find("://");
    if (scheme == std::string::npos)
        return false;
    const std::string s = url.substr(0, scheme);
    if (s != "http" && s != "https")
        return false;
    const size_t path = url.find('/', scheme + 3);
    schemeHostPort = url.substr(0, path);
    prefix = path == std::string::npos ? "" : url.substr(path);
    while (!prefix.empty() && prefix.back() == '/')
        prefix.pop_back();
    return schemeHostPort.size() > scheme + 3;
}

HttpResult httpGet(const std::string& base, const std::string& path, const HttpParams& params,
                   const HttpParams& headers, std::chrono::steady_clock::time_point deadline, uint64_t maxBodyBytes)
{
    HttpResult r;
    std::string host, prefix;
    if (!splitBaseUrl(base, host, prefix)) {
        r.error = "not an http(s) URL: " + base;
        return r;
    }
    const auto budget = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (budget.count() <= 0) {
        r.error = "timed out before the request";
        return r;
    }
    httplib::Client cli(host);
    setTimeouts(cli, budget);
    httplib::Params p;
    for (const auto& [k, v] : params)
        p.emplace(k, v);
    httplib::Headers h;
    for (const auto& [k, v] : headers)
        h.emplace(k, v);
    bool tooLarge = false;
    auto res = cli.Get(
        httplib::append_query_params(prefix + path, p), h,
        [&](const char* data, size_t len) {
            if (r.body.size() + len > maxBodyBytes) {
                tooLarge = true;
                return false;
            }
            r.body.append(data, len);
            return std::chrono::steady_clock::now() < deadline;
        },
        [&](uint64_t, uint64_t) { return std::chrono::steady_clock::now() < deadline; });
    const bool past = std::chrono::steady_clock::now() >= deadline;
    if (!res) {
        r.error = tooLarge ? "answer larger than " + std::to_string(maxBodyBytes >> 20) + " MiB"
                           : errorText(res.error(), past, budget);
        return r;
    }
    r.status = res->status;
    if (res->status != 200) {
        r.error = statusError(*res);
        if (r.body.size() > 300)
            r.body.resize(300);
        return r;
    }
    r.ok = true;
    return r;
}

HttpResult httpPost(const std::string& base, const std::string& path, const std::string& body,
                    const std::string& contentType, const HttpParams& headers,
                    std::chrono::steady_clock::time_point deadline)
{
    HttpResult r;
    std::string host, prefix;
    if (!splitBaseUrl(base, host, prefix)) {
        r.error = "not an http(s) URL: " + base;
        return r;
    }
    const auto budget = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (budget.count() <= 0) {
        r.error = "timed out before the request";
        return r;
    }
    httplib::Client cli(host);
    setTimeouts(cli, budget);
    httplib::Headers h;
    for (const auto& [k, v] : headers)
        h.emplace(k, v);
    auto res = cli.Post(prefix + path, h, body, contentType.c_str());
    if (!res) {
        r.error = errorText(res.error(), std::chrono::steady_clock::now() >= deadline, budget);
        return r;
    }
    r.status = res->status;
    r.body = res->body;
    if (res->status < 200 || res->status >= 300) {
        r.error = statusError(*res);
        return r;
    }
    r.ok = true;
    return r;
}

} // namespace fl::collect
