// The HTTP surface: routes, authentication, limits and JSON errors, over
// SessionService. docs/service.md describes it; docs/openapi.json is its contract.
#pragma once

#include "admission.h"
#include "result_cache.h"
#include "sessions.h"

#include <httplib.h>

#include <memory>
#include <string>
#include <vector>

namespace re2 {
class RE2;
}

namespace fl::service {

struct ApiConfig {
    std::string token;              // empty: no authentication
    size_t maxBodyBytes = 256u << 20;
    int defaultTimeoutMs = 60000;
    int maxTimeoutMs = 600000;
    size_t resultCacheBytes = 256u << 20;
    std::string version;
    double ratePerSecond = 0;       // per client; 0: no limit
    double rateBurst = 0;
    std::string rateLimitText;      // "5 requests/s (bursts of 10)", for the 429's detail
    bool trustForwardedFor = false; // the client is the last X-Forwarded-For address (behind a proxy)
};

class Api {
public:
    Api(SessionService& sessions, AnalysisGate& gate, DeadlineWatch& deadlines, const std::atomic<const ConnectionQueue*>* connections,
        ApiConfig config);
    ~Api();
    void install(httplib::Server& server);
    // Retention pruned sessions: their results must not be served from memory any more.
    void forgetCachedResults() { cache_.clear(); }

private:
    struct Ctx;
    void healthz(const httplib::Request&, httplib::Response&);
    void readyz(const httplib::Request&, httplib::Response&);
    void createSession(const httplib::Request&, httplib::Response&);
    void listSessions(const httplib::Request&, httplib::Response&);
    void getSession(const httplib::Request&, httplib::Response&);
    void deleteSession(const httplib::Request&, httplib::Response&);
    void observations(const httplib::Request&, httplib::Response&);
    void attribute(const httplib::Request&, httplib::Response&);
    void result(const httplib::Request&, httplib::Response&);
    void results(const httplib::Request&, httplib::Response&);
    void evidence(const httplib::Request&, httplib::Response&);
    void trace(const httplib::Request&, httplib::Response&);
    void bundles(const httplib::Request&, httplib::Response&);
    void offenders(const httplib::Request&, httplib::Response&);
    void seenBefore(const httplib::Request&, httplib::Response&);
    void v1Attribution(const httplib::Request&, httplib::Response&);

    bool authorised(const httplib::Request& req) const;
    // Refusals that need no body (too many connections, a client over its rate, no valid token): true when
    // `res` holds one. `asked`: the client sent Expect: 100-continue and waits before sending its body.
    bool refuseWithoutBody(const httplib::Request& req, httplib::Response& res, bool asked);
    // The answer to Expect: 100-continue: 100, or the status of a refusal in `res` (the body is never sent).
    int answerExpect(const httplib::Request& req, httplib::Response& res);
    // Refusals of a request whose body cannot be framed: a Transfer-Encoding other than chunked. A POST that
    // announces neither length nor chunks is given Content-Length: 0 (RFC 9112 6.3: it has no body).
    bool refuseUnframed(const httplib::Request& req, httplib::Response& res);
    // "GET, HEAD, DELETE": the methods some route serves `path` with; empty for a path no route serves.
    std::string allowedMethods(const std::string& path) const;
    // 405 + Allow for a known path, 404 otherwise (the catch-all routes, after every real one). bodyLeft: part of
    // the request's body was not read, so the connection closes after the answer.
    void unrouted(const httplib::Request& req, httplib::Response& res, bool bodyLeft);
    std::string clientOf(const httplib::Request& req) const;
    int timeoutMs(const httplib::Request& req, const nlohmann::json* body) const;

    SessionService& sessions_;
    AnalysisGate& gate_;
    DeadlineWatch& deadlines_;
    const std::atomic<const ConnectionQueue*>* connections_;
    ApiConfig config_;
    ResultCache cache_;
    RateLimiter rates_;
    std::vector<std::pair<std::string, std::unique_ptr<re2::RE2>>> routes_; // method, path pattern
};

extern const char* const kOpenApiJson; // docs/openapi.json, compiled in

} // namespace fl::service
