#include "store/state_file.h"

#include "bundle/bundle.h"
#include "bundle/iso_time.h"
#include "bundle/json_file.h"
#include "present/timefmt.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>

namespace fl::store {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

namespace {

constexpr const char* kLinkPrefix = "faultline:?";

const std::map<std::string, StateMode>& modes()
{
    static const std::map<std::string, StateMode> m = {
        {"investigate", StateMode::Investigate}, {"review", StateMode::Review}, {"quiz", StateMode::Quiz}};
    return m;
}

std::string text(const nlohmann::json& doc, const char* key, const std::string& path)
{
    const auto it = doc.find(key);
    if (it == doc.end() || it->is_null())
        return {};
    if (!it->is_string())
        throw BundleError(path, std::string("\"") + key + "\" is not a string");
    return it->get<std::string>();
}

int64_t timeOf(const std::string& iso, const std::string& what, const std::string& path)
{
    const auto ns = parseIso8601Ns(iso);
    if (!ns)
        throw BundleError(path, what + " \"" + iso + "\" is not an ISO 8601 time");
    return *ns;
}

// Both sides or neither, FROM not after TO: a window the views can show.
void checkWindow(const WorkbenchState& s, const std::string& path)
{
    if ((s.fromNs == kNoTime) != (s.toNs == kNoTime))
        throw BundleError(path, "the time window needs both \"from\" and \"to\"");
    if (s.fromNs != kNoTime && s.fromNs > s.toNs)
        throw BundleError(path, "the time window's \"from\" is after its \"to\"");
}

void checkSource(const WorkbenchState& s, const std::string& path)
{
    if (s.bundle.empty() == s.service.empty())
        throw BundleError(path, "a state names either a bundle or a service session, not " +
                                    std::string(s.bundle.empty() ? "neither" : "both"));
    if (!s.service.empty() && s.session.empty())
        throw BundleError(path, "a service state needs the session id");
    if (s.run != 0 && s.service.empty())
        throw BundleError(path, "a run is a service session's: a bundle state has none");
}

// A run as the service numbers them: 1, 2, … (the link's and the file's limit alike).
int runOf(int64_t n, const std::string& path)
{
    if (n < 1 || n > 1'000'000)
        throw BundleError(path, "run " + std::to_string(n) + " is not a run number (1..1000000)");
    return static_cast<int>(n);
}

StateMode modeOf(const std::string& name, const std::string& path)
{
    if (name.empty())
        return StateMode::Investigate;
    const auto it = modes().find(name);
    if (it == modes().end())
        throw BundleError(path, "unknown mode \"" + name + "\" (investigate, review, quiz)");
    return it->second;
}

std::optional<EvidenceId> selectionOf(const std::string& text, const std::string& path)
{
    if (text.empty())
        return std::nullopt;
    if (const std::optional<EvidenceId> id = evidenceIdFromString(text))
        return id;
    throw BundleError(path, "selection \"" + text + "\" is not an evidence id (ev-00019)");
}

std::string percentEncode(const std::string& v)
{
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : v) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || c == '/' || c == ':')
            out += static_cast<char>(c);
        else
            out += {'%', hex[c >> 4], hex[c & 15]};
    }
    return out;
}

std::string percentDecode(const std::string& v, const std::string& where)
{
    std::string out;
    for (size_t i = 0; i < v.size(); ++i) {
        if (v[i] != '%') {
            out += v[i];
            continue;
        }
        if (i + 2 >= v.size() || !std::isxdigit(static_cast<unsigned char>(v[i + 1])) ||
            !std::isxdigit(static_cast<unsigned char>(v[i + 2])))
            throw BundleError(where, "a '%' not followed by two hex digits");
        out += static_cast<char>(std::stoi(v.substr(i + 1, 2), nullptr, 16));
        i += 2;
    }
    return out;
}

} // namespace

std::string_view toString(StateMode m)
{
    for (const auto& [name, mode] : modes())
        if (mode == m)
            return name;
    return "investigate";
}

ojson stateToJson(const WorkbenchState& s)
{
    ojson j;
    j["format"] = kStateFormat;
    if (!s.bundle.empty())
        j["bundle"] = s.bundle;
    else {
        j["service"] = {{"url", s.service}, {"session", s.session}};
        if (s.run > 0)
            j["service"]["run"] = s.run;
    }
    if (!s.tab.empty())
        j["tab"] = s.tab;
    if (s.selection)
        j["selection"] = toString(*s.selection);
    if (s.fromNs != kNoTime)
        j["window"] = {{"from", formatTimeUtc(s.fromNs)}, {"to", formatTimeUtc(s.toNs)}};
    j["mode"] = std::string(toString(s.mode));
    if (s.step >= 0)
        j["step"] = s.step;
    if (s.atNs != kNoTime)
        j["at"] = formatTimeUtc(s.atNs);
    return j;
}

WorkbenchState stateFromJson(const nlohmann::json& doc, const std::string& path)
{
    if (!doc.is_object() || text(doc, "format", path) != kStateFormat)
        throw BundleError(path, std::string("not a Faultline state (\"format\": \"") + kStateFormat + "\")");
    WorkbenchState s;
    s.bundle = text(doc, "bundle", path);
    if (const auto svc = doc.find("service"); svc != doc.end() && !svc->is_null()) {
        if (!svc->is_object())
            throw BundleError(path, "\"service\" is not an object {url, session}");
        s.service = text(*svc, "url", path);
        s.session = text(*svc, "session", path);
        if (const auto run = svc->find("run"); run != svc->end() && !run->is_null()) {
            if (!run->is_number_integer())
                throw BundleError(path, "\"service\".\"run\" is not a run number");
            s.run = runOf(run->get<int64_t>(), path);
        }
    }
    s.tab = text(doc, "tab", path);
    s.selection = selectionOf(text(doc, "selection", path), path);
    if (const auto w = doc.find("window"); w != doc.end() && !w->is_null()) {
        if (!w->is_object())
            throw BundleError(path, "\"window\" is not an object {from, to}");
        const std::string from = text(*w, "from", path), to = text(*w, "to", path);
        s.fromNs = from.empty() ? kNoTime : timeOf(from, "window from", path);
        s.toNs = to.empty() ? kNoTime : timeOf(to, "window to", path);
    }
    s.mode = modeOf(text(doc, "mode", path), path);
    if (const auto st = doc.find("step"); st != doc.end() && !st->is_null()) {
        if (!st->is_number_integer() || st->get<int64_t>() < 0 || st->get<int64_t>() > 1000)
            throw BundleError(path, "\"step\" is not a step number (0..1000)");
        s.step = st->get<int>();
    }
    if (const std::string at = text(doc, "at", path); !at.empty())
        s.atNs = timeOf(at, "at", path);
    checkSource(s, path);
    checkWindow(s, path);
    return s;
}

WorkbenchState readState(const std::string& path)
{
    WorkbenchState s = stateFromJson(readJsonFile(path), path);
    if (!s.bundle.empty() && fs::path(s.bundle).is_relative())
        s.bundle = (fs::path(path).parent_path() / s.bundle).lexically_normal().string();
    return s;
}

bool writeState(const WorkbenchState& s, const std::string& path, std::string& error)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << stateToJson(s).dump(2) << "\n";
    out.close();
    if (!out) {
        error = path + ": cannot write the state";
        return false;
    }
    return true;
}

std::string stateToLink(const WorkbenchState& s)
{
    std::string link = kLinkPrefix;
    auto add = [&link](const char* key, const std::string& value) {
        if (value.empty())
            return;
        if (link.back() != '?')
            link += '&';
        link += std::string(key) + "=" + percentEncode(value);
    };
    add("bundle", s.bundle);
    add("service", s.service);
    add("session", s.session);
    add("run", s.run > 0 ? std::to_string(s.run) : std::string());
    add("tab", s.tab);
    add("select", s.selection ? toString(*s.selection) : std::string());
    if (s.fromNs != kNoTime)
        add("window", formatTimeUtc(s.fromNs) + ".." + formatTimeUtc(s.toNs));
    if (s.mode != StateMode::Investigate)
        add("mode", std::string(toString(s.mode)));
    if (s.step >= 0)
        add("step", std::to_string(s.step));
    if (s.atNs != kNoTime)
        add("at", formatTimeUtc(s.atNs));
    return link;
}

WorkbenchState stateFromLink(const std::string& link)
{
    const std::string where = "link";
    if (link.rfind(kLinkPrefix, 0) != 0)
        throw BundleError(where, std::string("does not begin with \"") + kLinkPrefix + "\"");
    WorkbenchState s;
    size_t at = std::string(kLinkPrefix).size();
    while (at < link.size()) {
        size_t end = link.find('&', at);
        if (end == std::string::npos)
            end = link.size();
        const std::string part = link.substr(at, end - at);
        at = end + 1;
        const size_t eq = part.find('=');
        if (eq == std::string::npos)
            throw BundleError(where, "\"" + part + "\" is not KEY=VALUE");
        const std::string key = part.substr(0, eq), value = percentDecode(part.substr(eq + 1), where);
        if (key == "bundle")
            s.bundle = value;
        else if (key == "service")
            s.service = value;
        else if (key == "session")
            s.session = value;
        else if (key == "run") {
            if (value.empty() || value.size() > 7 || value.find_first_not_of("0123456789") != std::string::npos)
                throw BundleError(where, "run \"" + value + "\" is not a run number");
            s.run = runOf(std::stoll(value), where);
        }
        else if (key == "tab")
            s.tab = value;
        else if (key == "select")
            s.selection = selectionOf(value, where);
        else if (key == "mode")
            s.mode = modeOf(value, where);
        else if (key == "step") {
            if (value.empty() || value.size() > 4 || value.find_first_not_of("0123456789") != std::string::npos)
                throw BundleError(where, "step \"" + value + "\" is not a step number");
            s.step = std::stoi(value);
        } else if (key == "at") {
            s.atNs = timeOf(value, "at", where);
        } else if (key == "window") {
            const size_t dots = value.find("..");
            if (dots == std::string::npos)
                throw BundleError(where, "window \"" + value + "\" is not FROM..TO");
            s.fromNs = timeOf(value.substr(0, dots), "window from", where);
            s.toNs = timeOf(value.substr(dots + 2), "window to", where);
        } else
            throw BundleError(where, "unknown key \"" + key + "\"");
    }
    checkSource(s, where);
    checkWindow(s, where);
    return s;
}

} // namespace fl::store
