#include "api.h"

#include "history_json.h"
#include "engine/result_json.h"

#include "present/timefmt.h"
#include "bundle/iso_time.h"

#include <re2/re2.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <set>
#include <strings.h>
#include <zlib.h>

namespace fl::service {

using nlohmann::json;
using httplib::Request;
using httplib::Response;

namespace {

constexpr int kMaxJsonDepth = 32;

std::string dump(const json& j)
{
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

void sendJson(Response& res, int status, const json& body)
{
    res.status = status;
    res.set_content(dump(body), "application/json");
}

void sendError(Response& res, int status, const std::string& code, const std::string& detail)
{
    if ((status == 429 || status == 503) && !res.has_header("Retry-After"))
        res.set_header("Retry-After", "1");
    sendJson(res, status, {{"error", code}, {"detail", detail}});
}

constexpr const char* kBodyTooLarge = "the body is larger than the service accepts (--max-body-mib)";

// The answer, then the connection closes. Needed when part of the request's body is left unread: on a kept-alive
// connection httplib would read those bytes as the client's next request. httplib 0.11 lets a handler end a
// connection only this way: a body provider that reports failure once it has written the whole answer.
void sendErrorAndClose(Response& res, int status, const std::string& code, const std::string& detail)
{
    sendError(res, status, code, detail);
    res.set_header("Connection", "close");
    auto body = std::make_shared<const std::string>(std::move(res.body));
    res.body.clear();
    res.set_content_provider(body->size(), "application/json", [body](size_t offset, size_t length, httplib::DataSink& sink) {
        sink.write(body->data() + offset, length);
        return false;
    });
}

// A body counted as it arrives. A chunked body announces no size, so it can only be refused while it comes: past
// the limit nothing more is kept, and what follows is read and dropped for a short while (as nginx's lingering
// close does), so that a client still sending gets to read the refusal rather than a reset connection.
class BodyBudget {
public:
    explicit BodyBudget(size_t limit) : limit_(limit) {}
    // true: keep these n bytes; false: drop them, and go on reading while lingering() says so.
    bool take(size_t n)
    {
        received_ += n;
        if (received_ <= limit_)
            return true;
        if (!overAt_)
            overAt_ = Clock::now();
        return false;
    }
    bool lingering() const { return Clock::now() - *overAt_ < kLinger; }
    bool exceeded() const { return overAt_.has_value(); }

private:
    static constexpr auto kLinger = std::chrono::seconds(2);
    const size_t limit_;
    size_t received_ = 0;
    std::optional<Clock::time_point> overAt_;
};

// Reads a body to drop it (bounded by BodyBudget's lingering); false when some of it was left unread.
bool dropBody(const Request& req, const httplib::ContentReader& reader)
{
    BodyBudget nothing(0);
    const auto drop = [&](const char*, size_t n) { return nothing.take(n) || nothing.lingering(); };
    if (req.is_multipart_form_data())
        return reader([](const httplib::MultipartFormData&) { return true; }, drop);
    return reader(drop);
}

std::string codeFor(int status)
{
    switch (status) {
    case 400: return "bad_request";
    case 401: return "unauthorized";
    case 404: return "not_found";
    case 405: return "method_not_allowed";
    case 413: return "payload_too_large";
    case 414: return "uri_too_long";
    case 422: return "unprocessable";
    case 429: return "overloaded";
    case 503: return "unavailable";
    case 504: return "deadline_exceeded";
    default: return status >= 500 ? "internal" : "error";
    }
}

// Hostile input: depth is bounded so nesting cannot exhaust the stack, and
// every parse or type error becomes a 400 naming where the parser stopped.
json parseJson(const std::string& body, const char* what)
{
    if (body.empty())
        throw ApiError(400, "bad_request", std::string(what) + ": the body is empty; a JSON object is expected");
    json::parser_callback_t depthLimit = [](int depth, json::parse_event_t, json&) {
        if (depth > kMaxJsonDepth)
            throw ApiError(400, "bad_request", "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
        return true;
    };
    try {
        json j = json::parse(body, depthLimit);
        if (!j.is_object())
            throw ApiError(400, "bad_request", std::string(what) + ": a JSON object is expected");
        return j;
    } catch (const json::parse_error& e) {
        throw ApiError(400, "bad_json", std::string(what) + ": " + e.what());
    }
}

std::string isoTime(int64_t ns)
{
    return formatTimeUtc(ns - ns % 1'000'000); // milliseconds are enough for bookkeeping
}

json nodeList(const std::string& commaList)
{
    json out = json::array();
    size_t start = 1;
    while (start < commaList.size()) {
        const size_t end = commaList.find(',', start);
        if (end == std::string::npos)
            break;
        if (end > start)
            out.push_back(commaList.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

json sessionJson(const SessionRecord& s)
{
    json req = json::parse(s.requestJson);
    json j = {{"session_id", s.id.value},
              {"workload_id", s.workloadId},
              {"attempt", s.attempt >= 0 ? json(s.attempt) : json()},
              {"user_id", s.userId},
              {"created_at", isoTime(s.createdNs)},
              {"status", s.status},
              {"domain", s.domain.empty() ? json() : json(s.domain)},
              {"nodes", nodeList(s.nodes)},
              {"latest_run", s.latestRun},
              {"result_url", "/v2/sessions/" + s.id.value + "/result"}};
    for (const char* k : {"scope", "failure_context", "workload_context"})
        j[k] = req.value(k, json::object());
    return j;
}

json runJson(const RunRecord& r)
{
    return {{"run", r.run},
            {"created_at", isoTime(r.createdNs)},
            {"phase", r.phase},
            {"status", r.status},
            {"domain", r.domain},
            {"nodes", nodeList(r.nodes)},
            {"elapsed_ms", static_cast<int64_t>(r.elapsedMs * 1000) / 1000.0}};
}

json fileJson(const FileRecord& f)
{
    return {{"path", f.path},
            {"bytes", f.size},
            {"kind", f.kind.empty() ? json() : json(f.kind)},
            {"node", f.node.empty() ? json() : json(f.node)},
            {"rank", f.rank >= 0 ? json(f.rank) : json()}};
}

// The engine's result document is embedded as is, never re-serialised.
std::string withResult(const json& head, const std::string& resultJson)
{
    std::string s = dump(head);
    s.pop_back(); // '}'
    if (s.size() > 1)
        s += ',';
    std::string r = resultJson;
    while (!r.empty() && (r.back() == '\n' || r.back() == ' '))
        r.pop_back();
    s += "\"result\":" + r + "}";
    return s;
}

bool acceptsGzip(const Request& req)
{
    const std::string a = req.get_header_value("Accept-Encoding");
    const size_t at = a.find("gzip");
    return at != std::string::npos && a.compare(at + 4, 4, ";q=0") != 0;
}

std::string gzip(const std::string& in)
{
    z_stream zs{};
    if (deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw std::runtime_error("zlib: deflateInit2 failed");
    std::string out(deflateBound(&zs, static_cast<uLong>(in.size())), '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    zs.avail_in = static_cast<uInt>(in.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    const int rc = deflate(&zs, Z_FINISH);
    out.resize(zs.total_out);
    deflateEnd(&zs);
    if (rc != Z_STREAM_END)
        throw std::runtime_error("zlib: deflate did not finish");
    return out;
}

std::string param(const Request& req, const char* name)
{
    return req.has_param(name) ? req.get_param_value(name) : std::string();
}

int intParam(const Request& req, const char* name, int def, int lo, int hi)
{
    const std::string v = param(req, name);
    if (v.empty())
        return def;
    try {
        size_t used = 0;
        const long n = std::stol(v, &used);
        if (used != v.size() || n < lo || n > hi)
            throw std::out_of_range(name);
        return static_cast<int>(n);
    } catch (const std::exception&) {
        throw ApiError(400, "bad_request",
                       std::string(name) + ": expected an integer " + std::to_string(lo) + ".." + std::to_string(hi));
    }
}

int rankFrom(const std::string& v, const std::string& where)
{
    if (v.empty())
        return -1;
    try {
        size_t used = 0;
        const long n = std::stol(v, &used);
        if (used == v.size() && n >= 0 && n <= 10'000'000)
            return static_cast<int>(n);
    } catch (const std::exception&) {
    }
    throw ApiError(400, "bad_request", where + "rank: expected a non-negative integer");
}

std::string base64Decode(const std::string& in, const std::string& where)
{
    static const std::string chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve(in.size() * 3 / 4);
    uint32_t acc = 0;
    int bits = 0;
    for (char c : in) {
        if (c == '=' || c == '\n' || c == '\r')
            continue;
        const size_t v = chars.find(c);
        if (v == std::string::npos)
            throw ApiError(400, "bad_request", where + "content_base64: not base64");
        acc = (acc << 6) | static_cast<uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<char>((acc >> bits) & 0xff));
        }
    }
    return out;
}

// {"files": [{"path", "kind", "node", "rank", "content" | "content_base64"}]}
std::vector<FileRecord> filesFromJson(const json& body)
{
    std::vector<FileRecord> out;
    const auto it = body.find("files");
    if (it == body.end() || !it->is_array())
        throw ApiError(400, "bad_request", "files: expected an array of {path, content | content_base64, kind, node, rank}");
    int i = 0;
    for (const auto& f : *it) {
        const std::string where = "files[" + std::to_string(i++) + "].";
        if (!f.is_object())
            throw ApiError(400, "bad_request", where + ": expected an object");
        FileRecord r;
        auto str = [&](const char* k) -> std::string {
            auto v = f.find(k);
            if (v == f.end() || v->is_null())
                return {};
            if (!v->is_string())
                throw ApiError(400, "bad_request", where + k + ": expected a string");
            return v->get<std::string>();
        };
        r.path = str("path");
        if (r.path.empty())
            r.path = str("name");
        r.kind = str("kind");
        r.node = str("node");
        if (auto v = f.find("rank"); v != f.end() && !v->is_null()) {
            if (!v->is_number_integer() || v->get<int64_t>() < 0 || v->get<int64_t>() > 10'000'000)
                throw ApiError(400, "bad_request", where + "rank: expected a non-negative integer");
            r.rank = static_cast<int>(v->get<int64_t>());
        }
        if (f.contains("content_base64"))
            r.content = base64Decode(str("content_base64"), where);
        else
            r.content = str("content");
        out.push_back(std::move(r));
    }
    return out;
}

struct GateSlot {
    AnalysisGate& gate;
    explicit GateSlot(AnalysisGate& g, Clock::time_point deadline) : gate(g)
    {
        switch (gate.acquire(deadline)) {
        case AnalysisGate::Admit::Ok:
            return;
        case AnalysisGate::Admit::Full:
            throw ApiError(429, "overloaded", "every analysis slot is busy and the wait list is full; retry later");
        case AnalysisGate::Admit::Expired:
            throw ApiError(504, "deadline_exceeded", "the deadline passed while waiting for an analysis slot");
        }
    }
    ~GateSlot() { gate.release(); }
    GateSlot(const GateSlot&) = delete;
    GateSlot& operator=(const GateSlot&) = delete;
};

[[noreturn]] void throwCancelled(const SessionId& id)
{
    throw ApiError(504, "deadline_exceeded",
                   "the deadline passed during analysis; the evidence of session " + id.value +
                       " is stored, POST /v2/sessions/" + id.value + "/attribute with a larger timeout_ms");
}

SessionId pathSession(const Request& req)
{
    return SessionId{req.matches[1].str()};
}

// ?baseline=SESSION: the healthy attempt to compare with (analyze --baseline).
std::optional<SessionId> baselineParam(const Request& req)
{
    const std::string v = param(req, "baseline");
    if (v.empty())
        return std::nullopt;
    static const RE2 id("s-[0-9a-f]{1,64}");
    if (!RE2::FullMatch(v, id))
        throw ApiError(400, "bad_request", "baseline: '" + v + "' is not a session id (s-...)");
    return SessionId{v};
}

} // namespace

Api::~Api() = default;

Api::Api(SessionService& sessions, AnalysisGate& gate, DeadlineWatch& deadlines,
         const std::atomic<const ConnectionQueue*>* connections, ApiConfig config)
    : sessions_(sessions), gate_(gate), deadlines_(deadlines), connections_(connections), config_(std::move(config)),
      cache_(config_.resultCacheBytes), rates_(config_.ratePerSecond, config_.rateBurst)
{
}

// The client a rate applies to: its address, or behind a trusted proxy
// (--trust-forwarded-for) the address that proxy appended to X-Forwarded-For.
std::string Api::clientOf(const Request& req) const
{
    if (config_.trustForwardedFor) {
        const std::string xff = req.get_header_value("X-Forwarded-For");
        size_t start = xff.rfind(',');
        start = start == std::string::npos ? 0 : start + 1;
        while (start < xff.size() && xff[start] == ' ')
            ++start;
        if (start < xff.size())
            return xff.substr(start);
    }
    return req.remote_addr;
}

bool Api::authorised(const Request& req) const
{
    if (config_.token.empty())
        return true;
    const std::string h = req.get_header_value("Authorization");
    const std::string prefix = "Bearer ";
    if (h.size() != prefix.size() + config_.token.size() || h.compare(0, prefix.size(), prefix) != 0)
        return false;
    unsigned char diff = 0; // constant time over the token's length
    for (size_t i = 0; i < config_.token.size(); ++i)
        diff |= static_cast<unsigned char>(h[prefix.size() + i] ^ config_.token[i]);
    return diff == 0;
}

int Api::timeoutMs(const Request& req, const json* body) const
{
    int t = intParam(req, "timeout_ms", config_.defaultTimeoutMs, 1, config_.maxTimeoutMs);
    if (body) {
        auto it = body->find("timeout_ms");
        if (it != body->end() && !it->is_null()) {
            if (!it->is_number_integer() || it->get<int64_t>() < 1 || it->get<int64_t>() > config_.maxTimeoutMs)
                throw ApiError(400, "bad_request", "timeout_ms: expected an integer 1.." + std::to_string(config_.maxTimeoutMs));
            t = static_cast<int>(it->get<int64_t>());
        }
    }
    return t;
}

bool Api::refuseWithoutBody(const Request& req, Response& res, bool asked)
{
    // Refused here, a request's body is never read: left on a kept-alive connection, its bytes would be
    // parsed as the client's next request (seen: a retried upload answered 400 "malformed HTTP request").
    // A client that asked first sends none, and must not send it later on this connection either.
    const auto closeIfBodyUnread = [&] {
        if (asked || req.get_header_value<uint64_t>("Content-Length") > 0 || req.has_header("Transfer-Encoding"))
            res.set_header("Connection", "close");
    };
    if (ConnectionQueue::shed()) {
        res.set_header("Connection", "close");
        sendError(res, 503, "unavailable", "too many connections are waiting; retry later");
        return true;
    }
    const bool open = req.path == "/v2/healthz" || req.path == "/v2/readyz" || req.path == "/openapi.json" ||
                      req.path == "/v2/openapi.json";
    // Before authentication, so that guessing tokens is limited too; probes are never limited. A client that
    // asked first is only looked at: the request, when it goes on, is charged once, by the pre-routing handler.
    if (!open && rates_.enabled())
        if (const int wait = asked ? rates_.wouldWait(clientOf(req), Clock::now()) : rates_.admit(clientOf(req), Clock::now())) {
            closeIfBodyUnread();
            res.set_header("Retry-After", std::to_string(wait));
            sendError(res, 429, "rate_limited",
                      "this client sent more than " + config_.rateLimitText + "; retry after " + std::to_string(wait) + " s");
            return true;
        }
    if (!open && !authorised(req)) {
        closeIfBodyUnread();
        res.set_header("WWW-Authenticate", "Bearer");
        sendError(res, 401, "unauthorized", "a valid 'Authorization: Bearer <token>' header is required");
        return true;
    }
    return false;
}

bool Api::refuseUnframed(const Request& req, Response& res)
{
    if (req.has_header("Transfer-Encoding")) {
        const std::string te = req.get_header_value("Transfer-Encoding");
        if (strcasecmp(te.c_str(), "chunked") == 0)
            return false;
        sendErrorAndClose(res, 501, "not_implemented",
                          "Transfer-Encoding '" + te + "' is not supported: send the body with Content-Length, or chunked");
        return true;
    }
    // Without a length httplib would read the body until the client closes, or its read timeout (10 s) passes.
    if (!req.has_header("Content-Length") && (req.method == "POST" || req.method == "PUT" || req.method == "PATCH"))
        const_cast<Request&>(req).headers.emplace("Content-Length", "0"); // httplib's own Request, passed as const
    return false;
}

std::string Api::allowedMethods(const std::string& path) const
{
    std::string out;
    for (const char* method : {"GET", "HEAD", "POST", "DELETE"}) // in this order, whatever the routes' order
        for (const auto& [routeMethod, pattern] : routes_)
            // httplib answers HEAD with the GET route
            if ((routeMethod == method || (routeMethod == "GET" && std::string_view(method) == "HEAD")) &&
                RE2::FullMatch(path, *pattern)) {
                out += (out.empty() ? "" : ", ") + std::string(method);
                break;
            }
    return out;
}

void Api::unrouted(const Request& req, Response& res, bool bodyLeft)
{
    const auto send = bodyLeft ? sendErrorAndClose : sendError;
    const std::string allowed = allowedMethods(req.path);
    if (allowed.empty()) {
        send(res, 404, "not_found", "no route for " + req.method + " " + req.path);
        return;
    }
    res.set_header("Allow", allowed);
    send(res, 405, "method_not_allowed", req.path + " answers " + allowed + ", not " + req.method);
}

int Api::answerExpect(const Request& req, Response& res)
{
    if (refuseWithoutBody(req, res, true))
        return res.status;
    const auto refuse = [&](int status, const char* code, const std::string& detail) {
        res.set_header("Connection", "close");
        sendError(res, status, code, detail);
        return status;
    };
    if (req.get_header_value<uint64_t>("Content-Length") > config_.maxBodyBytes)
        return refuse(413, "payload_too_large", kBodyTooLarge);
    // At overload an upload refused after it was received cost the service its transfer: at 4x overload,
    // receiving refused 1.6 MB bodies left too little of two cores for the analyses (docs/performance.md).
    // With ?reuse=true the store may answer without a slot, so that request goes on.
    if (req.method == "POST" && req.path == "/v2/bundles" && param(req, "reuse") != "true" && gate_.refuseIfFull())
        return refuse(429, "overloaded", "every analysis slot is busy and the wait list is full; retry later");
    return 100;
}

void Api::install(httplib::Server& server)
{
    server.set_payload_max_length(config_.maxBodyBytes);
    server.set_pre_routing_handler([this](const Request& req, Response& res) {
        return refuseWithoutBody(req, res, false) || refuseUnframed(req, res) ? httplib::Server::HandlerResponse::Handled
                                                                              : httplib::Server::HandlerResponse::Unhandled;
    });
    server.set_expect_100_continue_handler([this](const Request& req, Response& res) { return answerExpect(req, res); });
    server.set_error_handler([](const Request& req, Response& res) {
        if (!res.body.empty() || res.content_length_ > 0) // answered already (sendError, sendErrorAndClose)
            return;
        std::string detail = res.status == 404 ? "no route for " + req.method + " " + req.path
                             : res.status == 413 ? kBodyTooLarge
                             : res.status == 400 ? "malformed HTTP request (a POST needs Content-Length, 0 when empty)"
                                                 : "request refused";
        sendError(res, res.status, codeFor(res.status), detail);
    });
    server.set_exception_handler([](const Request&, Response& res, std::exception_ptr ep) {
        std::string what = "unknown error";
        try {
            std::rethrow_exception(ep);
        } catch (const std::exception& e) {
            what = e.what();
        } catch (...) {
        }
        std::fprintf(stderr, "faultline-service: internal error: %s\n", what.c_str());
        sendError(res, 500, "internal", what);
    });

    using Method = void (Api::*)(const Request&, Response&);
    auto wrap = [this](Method m) {
        return [this, m](const Request& req, Response& res) {
            try {
                (this->*m)(req, res);
            } catch (const ApiError& e) {
                sendError(res, e.status, e.code, e.what());
            } catch (const json::exception& e) {
                sendError(res, 400, "bad_request", e.what());
            } catch (const StoreError& e) {
                std::fprintf(stderr, "faultline-service: store: %s\n", e.what());
                sendError(res, 503, "store_unavailable", e.what());
            } catch (const BundleError& e) {
                sendError(res, 400, "bad_bundle", e.what());
            }
        };
    };
    // POST bodies are read through a content reader: httplib's own reading refuses any
    // application/x-www-form-urlencoded body over 8 KiB with 413 (curl --data-binary's default
    // type) and parses it as a form, which an archive or a log is not.
    auto post = [&wrap, limit = config_.maxBodyBytes](Method m) {
        return [handler = wrap(m), limit](const Request& req, Response& res, const httplib::ContentReader& reader) {
            auto& r = const_cast<Request&>(req); // httplib's own Request object, passed as const
            // httplib refuses a Content-Length over the limit itself; a chunked body is counted here.
            BodyBudget budget(limit);
            if (req.is_multipart_form_data()) {
                auto current = r.files.end();
                reader(
                    [&](const httplib::MultipartFormData& part) {
                        current = budget.exceeded() ? r.files.end() : r.files.emplace(part.name, part);
                        return true;
                    },
                    [&](const char* data, size_t n) {
                        if (!budget.take(n)) {
                            r.files.clear();
                            current = r.files.end();
                            return budget.lingering();
                        }
                        if (current == r.files.end())
                            return false;
                        current->second.content.append(data, n);
                        return true;
                    });
            } else {
                // Grown once to the announced size, not by doubling; a claim is not trusted past 64 MiB (a
                // client announcing much and sending little) nor past what the reader accepts.
                const auto announced = req.get_header_value<uint64_t>("Content-Length");
                if (announced > 0)
                    r.body.reserve(static_cast<size_t>(std::min<uint64_t>({announced, limit, uint64_t(64) << 20})));
                reader([&](const char* data, size_t n) {
                    if (!budget.take(n)) {
                        std::string().swap(r.body);
                        return budget.lingering();
                    }
                    r.body.append(data, n);
                    return true;
                });
            }
            if (budget.exceeded()) {
                sendErrorAndClose(res, 413, "payload_too_large", kBodyTooLarge);
                return;
            }
            if (res.status >= 400 && res.body.empty())
                return; // the reader refused the body (413): the error handler answers
            handler(req, res);
        };
    };
    const std::string sid = "/v2/sessions/(s-[0-9a-f]{1,64})";
    // Each route is also kept for allowedMethods (405 + Allow).
    const auto route = [this](const char* method, const std::string& pattern) {
        routes_.emplace_back(method, std::make_unique<RE2>(pattern));
        return pattern;
    };
    const auto openApi = [](const Request&, Response& res) { res.set_content(kOpenApiJson, "application/json"); };
    server.Get(route("GET", "/v2/healthz"), wrap(&Api::healthz));
    server.Get(route("GET", "/v2/readyz"), wrap(&Api::readyz));
    server.Get(route("GET", "/openapi.json"), openApi);
    server.Get(route("GET", "/v2/openapi.json"), openApi);
    server.Post(route("POST", "/v2/sessions"), post(&Api::createSession));
    server.Get(route("GET", "/v2/sessions"), wrap(&Api::listSessions));
    server.Get(route("GET", sid), wrap(&Api::getSession));
    server.Delete(route("DELETE", sid), wrap(&Api::deleteSession));
    server.Post(route("POST", sid + "/observations"), post(&Api::observations));
    server.Post(route("POST", sid + "/attribute"), post(&Api::attribute));
    server.Get(route("GET", sid + "/result"), wrap(&Api::result));
    server.Get(route("GET", sid + "/results"), wrap(&Api::results));
    server.Get(route("GET", sid + "/evidence/([A-Za-z0-9._-]{1,64})"), wrap(&Api::evidence));
    server.Get(route("GET", sid + "/trace"), wrap(&Api::trace));
    server.Get(route("GET", sid + "/history"), wrap(&Api::seenBefore));
    server.Get(route("GET", "/v2/history/offenders"), wrap(&Api::offenders));
    server.Post(route("POST", "/v2/bundles"), post(&Api::bundles));
    server.Post(route("POST", "/v1/attribution"), post(&Api::v1Attribution));
    // Last, what no route above serves: 405 or 404. A body sent along is read only to be dropped.
    const auto none = [this](const Request& req, Response& res) { unrouted(req, res, false); };
    const auto noneWithBody = [this](const Request& req, Response& res, const httplib::ContentReader& reader) {
        unrouted(req, res, !dropBody(req, reader));
    };
    server.Get(".*", none);
    server.Delete(".*", none);
    server.Options(".*", none);
    server.Post(".*", noneWithBody);
    server.Put(".*", noneWithBody);
    server.Patch(".*", noneWithBody);
}

void Api::healthz(const Request&, Response& res)
{
    const ConnectionQueue* q = connections_ ? connections_->load() : nullptr;
    sendJson(res, 200,
             {{"status", "ok"},
              {"version", config_.version},
              {"rules_digest", sessions_.rulesDigest()},
              {"store", sessions_.store().backend()},
              {"queue_depth",
               {{"analyses_running", gate_.active()},
                {"analyses_waiting", gate_.waiting()},
                {"connections_waiting", q ? q->queued() : 0}}},
              {"completed", {{"analyses", gate_.completed()}}},
              {"refused",
               {{"analyses", gate_.rejected()},
                {"connections", q ? q->shedCount() : uint64_t(0)},
                {"rate_limited", rates_.limited()}}}});
}

// Readiness, beside liveness (healthz): 503 while the store cannot be reached, so that a load balancer or
// Kubernetes stops sending requests that would fail, without restarting a process that is itself fine.
void Api::readyz(const Request&, Response& res)
{
    try {
        sessions_.store().ping();
    } catch (const StoreError& e) {
        sendError(res, 503, "store_unavailable", e.what());
        return;
    }
    sendJson(res, 200, {{"status", "ready"}, {"store", sessions_.store().backend()}});
}

void Api::createSession(const Request& req, Response& res)
{
    const SessionRecord s = sessions_.create(parseJson(req.body, "POST /v2/sessions"));
    res.set_header("Location", "/v2/sessions/" + s.id.value);
    sendJson(res, 201, sessionJson(s));
}

void Api::listSessions(const Request& req, Response& res)
{
    SessionFilter f;
    f.workloadId = param(req, "workload_id");
    f.status = param(req, "status");
    f.domain = param(req, "domain");
    f.node = param(req, "node");
    for (auto [name, target] : {std::pair{"since", &f.sinceNs}, std::pair{"until", &f.untilNs}}) {
        const std::string v = param(req, name);
        if (v.empty())
            continue;
        auto ns = parseIso8601Ns(v);
        if (!ns)
            throw ApiError(400, "bad_request", std::string(name) + ": '" + v + "' is not an ISO 8601 time");
        *target = *ns;
    }
    f.limit = intParam(req, "limit", 100, 1, 1000);
    f.offset = intParam(req, "offset", 0, 0, 1'000'000'000);
    json list = json::array();
    for (const auto& s : sessions_.store().sessions(f))
        list.push_back(sessionJson(s));
    sendJson(res, 200, {{"sessions", list}, {"limit", f.limit}, {"offset", f.offset}});
}

void Api::getSession(const Request& req, Response& res)
{
    const SessionRecord s = sessions_.require(pathSession(req));
    json j = sessionJson(s);
    json files = json::array();
    for (const auto& f : sessions_.store().files(s.id))
        files.push_back(fileJson(f));
    j["files"] = files;
    sendJson(res, 200, j);
}

void Api::deleteSession(const Request& req, Response& res)
{
    const SessionId id = pathSession(req);
    const DeletedCounts n = sessions_.remove(id);
    cache_.forgetPrefix(id.value + "#");
    std::fprintf(stderr, "faultline-service: deleted session %s (%zu files, %zu runs) on request\n", id.value.c_str(),
                 n.files, n.runs);
    sendJson(res, 200, {{"session_id", id.value}, {"deleted", {{"files", n.files}, {"runs", n.runs}}}});
}

void Api::observations(const Request& req, Response& res)
{
    const SessionId id = pathSession(req);
    sessions_.require(id);
    Deadline deadline(deadlines_, Clock::now() + std::chrono::milliseconds(timeoutMs(req, nullptr)));
    IngestReport rep;
    const std::string type = req.get_header_value("Content-Type");
    if (req.is_multipart_form_data()) {
        // Parts with a file name are files; plain fields kind/node/rank apply to all of them.
        std::string kind, node, rank;
        for (const auto& [name, part] : req.files) {
            if (!part.filename.empty())
                continue;
            if (name == "kind") kind = part.content;
            else if (name == "node") node = part.content;
            else if (name == "rank") rank = part.content;
        }
        std::vector<FileRecord> files;
        for (const auto& [name, part] : req.files) {
            if (part.filename.empty())
                continue;
            FileRecord r;
            r.path = part.filename;
            r.kind = kind;
            r.node = node;
            r.rank = rankFrom(rank, "");
            r.content = part.content;
            files.push_back(std::move(r));
        }
        if (files.empty())
            throw ApiError(400, "bad_request", "multipart body without a file part (a part with a filename)");
        rep = sessions_.ingestFiles(id, std::move(files));
    } else if (type.rfind("application/json", 0) == 0) {
        rep = sessions_.ingestFiles(id, filesFromJson(parseJson(req.body, "observations")));
    } else if (req.has_param("path")) {
        FileRecord r;
        r.path = param(req, "path");
        r.kind = param(req, "kind");
        r.node = param(req, "node");
        r.rank = rankFrom(param(req, "rank"), "");
        r.content = req.body;
        rep = sessions_.ingestFiles(id, {std::move(r)});
    } else {
        if (req.body.empty())
            throw ApiError(400, "bad_request", "empty body: send an archive, JSON files, multipart files, or ?path=NAME");
        GateSlot slot(gate_, deadline.at);
        rep = sessions_.ingestArchive(id, req.body, Progress{{}, &deadline.cancel});
    }
    json files = json::array();
    for (const auto& f : rep.files)
        files.push_back(fileJson(f));
    sendJson(res, 201, {{"session_id", id.value}, {"files", files}, {"warnings", rep.warnings}});
}

void Api::attribute(const Request& req, Response& res)
{
    const SessionId id = pathSession(req);
    sessions_.require(id);
    Deadline deadline(deadlines_, Clock::now() + std::chrono::milliseconds(timeoutMs(req, nullptr)));
    GateSlot slot(gate_, deadline.at);
    const std::optional<SessionId> baseline = baselineParam(req);
    const RunOutcome out = sessions_.attribute(id, "attribute", Progress{{}, &deadline.cancel}, baseline);
    if (out.cancelled)
        throwCancelled(id);
    json head = {{"session_id", id.value}, {"run", out.run.run}};
    if (baseline)
        head["baseline_session"] = baseline->value;
    res.status = 200;
    res.set_content(withResult(head, out.run.resultJson), "application/json");
}

void Api::result(const Request& req, Response& res)
{
    const SessionId id = pathSession(req);
    int run = intParam(req, "run", 0, 0, 1'000'000'000);
    // One primary-key read per request, also for a cached run: a session another replica deleted is gone here too.
    const SessionRecord s = sessions_.require(id);
    if (run == 0) {
        run = s.latestRun;
        if (run == 0)
            throw ApiError(404, "not_found", "session " + id.value + " has no result yet: POST .../attribute");
    }
    const std::string key = id.value + "#" + std::to_string(run);
    auto doc = cache_.get(key);
    if (!doc) {
        auto r = sessions_.store().run(id, run);
        if (!r)
            throw ApiError(404, "not_found", "no run " + std::to_string(run) + " in session " + id.value);
        doc = std::make_shared<const std::string>(std::move(r->resultJson));
        cache_.put(key, doc);
    }
    res.set_header("X-Faultline-Session", id.value);
    res.set_header("X-Faultline-Run", std::to_string(run));
    res.set_header("Vary", "Accept-Encoding");
    // A 64-node result is megabytes of JSON that compresses ~10x: compressed once, cached beside it.
    if (doc->size() >= (32u << 10) && doc->size() < (1u << 30) && acceptsGzip(req)) {
        auto z = cache_.get(key + "#gzip");
        if (!z) {
            z = std::make_shared<const std::string>(gzip(*doc));
            cache_.put(key + "#gzip", z);
        }
        res.set_header("Content-Encoding", "gzip");
        doc = z;
    }
    // Served from the shared document itself: no copy per request.
    res.set_content_provider(doc->size(), "application/json",
                             [doc](size_t offset, size_t length, httplib::DataSink& sink) {
                                 return sink.write(doc->data() + offset, length);
                             });
}

void Api::results(const Request& req, Response& res)
{
    const SessionId id = pathSession(req);
    sessions_.require(id);
    const bool full = param(req, "include") == "result";
    json runs = json::array();
    for (const auto& r : sessions_.store().runs(id, full)) {
        json j = runJson(r);
        if (full)
            j["result"] = json::parse(r.resultJson);
        runs.push_back(std::move(j));
    }
    sendJson(res, 200, {{"session_id", id.value}, {"runs", runs}});
}

void Api::evidence(const Request& req, Response& res)
{
    const int context = intParam(req, "context", 5, 0, 500);
    const int run = intParam(req, "run", 0, 0, 1'000'000'000);
    sendJson(res, 200, sessions_.evidenceLines(pathSession(req), run, req.matches[2].str(), context));
}

// An analysis again (with the trace on), so it takes a slot and a deadline like attribute.
void Api::trace(const Request& req, Response& res)
{
    const SessionId id = pathSession(req);
    const int run = intParam(req, "run", 0, 0, 1'000'000'000);
    sessions_.require(id);
    Deadline deadline(deadlines_, Clock::now() + std::chrono::milliseconds(timeoutMs(req, nullptr)));
    GateSlot slot(gate_, deadline.at);
    const auto out = sessions_.trace(id, run, Progress{{}, &deadline.cancel});
    if (!out)
        throwCancelled(id);
    sendJson(res, 200, *out);
}

void Api::bundles(const Request& req, Response& res)
{
    if (req.body.empty())
        throw ApiError(400, "bad_request", "the body must be a bundle archive (tar, tar.gz, tar.zst, zip, ...)");
    const std::string reuse = param(req, "reuse");
    if (!reuse.empty() && reuse != "true" && reuse != "false")
        throw ApiError(400, "bad_request", "reuse: expected true or false");
    const std::optional<SessionId> baseline = baselineParam(req);
    if (baseline && reuse == "true")
        throw ApiError(400, "bad_request", "reuse=true and baseline: a result against a baseline is not reused");
    const int deadlineMs = timeoutMs(req, nullptr);
    // Before an analysis slot: answering from the store must not wait behind (or be refused by) analyses.
    if (reuse == "true")
        if (auto earlier = sessions_.earlierBundleRun(sessions_.bundleDigest(req.body))) {
            const auto& [session, run] = *earlier;
            res.set_header("Location", "/v2/sessions/" + session.id.value);
            res.set_header("X-Faultline-Reused", "true");
            res.status = 200;
            res.set_content(withResult({{"session_id", session.id.value}, {"run", run.run}, {"reused", true}}, run.resultJson),
                            "application/json");
            return;
        }
    Deadline deadline(deadlines_, Clock::now() + std::chrono::milliseconds(deadlineMs));
    GateSlot slot(gate_, deadline.at);
    // Hashed once admitted: at 4x overload the SHA-256 of every refused 1.6 MB upload took ~0.4 of a core.
    // Against a baseline the result depends on the baseline's files too: no digest, so never reused.
    const std::string digest = baseline ? std::string() : sessions_.bundleDigest(req.body);
    auto [session, out] = sessions_.analyzeArchive(req.body, digest, Progress{{}, &deadline.cancel}, baseline);
    if (out.cancelled)
        throwCancelled(session.id);
    res.set_header("Location", "/v2/sessions/" + session.id.value);
    res.status = 201;
    json head = {{"session_id", session.id.value}, {"run", out.run.run}, {"reused", false}};
    if (baseline)
        head["baseline_session"] = baseline->value;
    res.set_content(withResult(head, out.run.resultJson), "application/json");
}

// Repeat offenders: the same cause at the same GPU (or node) in several jobs (core/history/offenders.h).
void Api::offenders(const Request& req, Response& res)
{
    history::OffenderQuery q;
    const std::string level = param(req, "level");
    if (!level.empty() && level != "gpu" && level != "node")
        throw ApiError(400, "bad_request", "level: expected gpu or node");
    q.level = level == "node" ? history::OffenderLevel::Node : history::OffenderLevel::Gpu;
    q.minJobs = intParam(req, "min_jobs", 2, 1, 1'000'000);
    q.limit = intParam(req, "limit", 100, 1, 1000);
    q.resultsPerOffender = intParam(req, "rows", 20, 0, 1000);
    const auto t0 = Clock::now();
    const auto list = sessions_.store().offenders(q);
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    sendJson(res, 200,
             {{"level", q.level == history::OffenderLevel::Node ? "node" : "gpu"},
              {"min_jobs", q.minJobs},
              {"offenders", offendersJson(list)},
              {"elapsed_ms", ms}});
}

// "Seen before?": other runs whose root cause is this run's, at its GPU and at its node.
void Api::seenBefore(const Request& req, Response& res)
{
    const SessionId id = pathSession(req);
    const SessionRecord s = sessions_.require(id);
    const int run = intParam(req, "run", 0, 0, 1'000'000'000);
    const int limit = intParam(req, "limit", 20, 0, 1000);
    auto r = sessions_.store().run(id, run);
    if (!r)
        throw ApiError(404, "not_found", run ? "no run " + std::to_string(run) + " in session " + id.value
                                             : "session " + id.value + " has no result yet: POST .../attribute");
    const std::string withPlaces = param(req, "places");
    if (!withPlaces.empty() && withPlaces != "true" && withPlaces != "false")
        throw ApiError(400, "bad_request", "places: expected true or false");
    const Result result = resultFromJson(json::parse(r->resultJson));
    const history::CausePlace place = history::causePlace(result);
    const auto seen = sessions_.store().seen(place, historyId(id, r->run), limit);
    json j = seenJson(place, seen);
    j["session_id"] = id.value;
    j["run"] = r->run;
    if (withPlaces == "true") {
        // The run's nodes, as far as its result names them (files, families, the root cause): what the
        // workbench's History tab asks about.
        std::set<std::string> nodes;
        for (const auto& c : result.connectors)
            if (!c.node.empty())
                nodes.insert(c.node);
        for (const auto& f : result.families)
            nodes.insert(f.nodes.begin(), f.nodes.end());
        if (!place.node.empty())
            nodes.insert(place.node);
        j["nodes"] = nodes.size();
        j["places"] = offendersJson(sessions_.store().places({nodes.begin(), nodes.end()}));
    }
    sendJson(res, 200, j);
}

// NVIDIA Recovery's WorkloadAttributionRequest (docs/service.md has the mapping).
void Api::v1Attribution(const Request& req, Response& res)
{
    const json body = parseJson(req.body, "POST /v1/attribution");
    const std::string phase = body.value("phase", json()).is_string() ? body["phase"].get<std::string>() : "";
    if (phase != "fast" && phase != "slow")
        throw ApiError(400, "bad_request", "phase: expected \"fast\" or \"slow\"");
    if (auto it = body.find("schema_version"); it != body.end() && !it->is_null() && !it->is_string() && !it->is_number())
        throw ApiError(400, "bad_request", "schema_version: expected a string or a number");
    Deadline deadline(deadlines_, Clock::now() + std::chrono::milliseconds(timeoutMs(req, &body)));

    SessionRecord s;
    const auto cont = body.find("continue_session");
    if (cont != body.end() && !cont->is_null()) {
        if (!cont->is_string())
            throw ApiError(400, "bad_request", "continue_session: expected a session id string or null");
        s = sessions_.require(SessionId{cont->get<std::string>()});
    } else {
        s = sessions_.create(body);
    }
    int64_t newestFile = 0;
    if (body.contains("files")) // extension: evidence in the same request
        for (const auto& f : sessions_.ingestFiles(s.id, filesFromJson(body)).files)
            newestFile = std::max(newestFile, f.addedNs);

    RunRecord run;
    // fast: answer from what is there; a session already attributed with no evidence since is answered as is.
    std::optional<RunRecord> latest = phase == "fast" && newestFile == 0 ? sessions_.store().run(s.id, 0) : std::nullopt;
    if (latest) {
        for (const auto& f : sessions_.store().files(s.id))
            newestFile = std::max(newestFile, f.addedNs);
        if (newestFile > latest->createdNs)
            latest.reset();
    }
    if (latest) {
        run = *latest;
    } else {
        GateSlot slot(gate_, deadline.at);
        const RunOutcome out = sessions_.attribute(s.id, "v1-" + phase, Progress{{}, &deadline.cancel});
        if (out.cancelled)
            throwCancelled(s.id);
        run = out.run;
    }
    json head = {{"schema_version", "1"}, {"workload_id", s.workloadId}, {"session_id", s.id.value},
                 {"phase", phase},        {"run", run.run},             {"status", run.status},
                 {"domain", run.domain},  {"nodes", nodeList(run.nodes)}};
    res.status = 200;
    res.set_content(withResult(head, run.resultJson), "application/json");
}

} // namespace fl::service
