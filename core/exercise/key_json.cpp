// The key file: one JSON document beside the bundle. Lines share a table of
// files and of reasons, so a 10,000-rank key does not repeat a sentence per rank.
#include "exercise/key.h"

#include "bundle/bundle.h"
#include "bundle/json_file.h"

#include <fstream>
#include <map>

namespace fl::exercise {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

struct Tables {
    std::map<std::string, size_t> reasonIndex;
    ordered_json reasons = ordered_json::array();

    size_t reason(const std::string& why)
    {
        auto [it, added] = reasonIndex.emplace(why, reasons.size());
        if (added)
            reasons.push_back(why);
        return it->second;
    }
};

ordered_json lineJson(const KeyLine& l, Tables& t)
{
    ordered_json j;
    j["file"] = l.file;
    j["line"] = l.line;
    if (l.lineCount > 1)
        j["line_count"] = l.lineCount;
    j["node"] = l.node;
    j["gpu"] = l.gpu;
    j["rank"] = l.rank;
    j["symptom"] = l.symptom;
    j["title"] = l.title;
    j["evidence"] = l.evidenceId ? toString(*l.evidenceId) : std::string();
    j["why"] = t.reason(l.why);
    return j;
}

ordered_json linesJson(const std::vector<KeyLine>& lines, Tables& t)
{
    ordered_json a = ordered_json::array();
    for (const auto& l : lines)
        a.push_back(lineJson(l, t));
    return a;
}

struct Reader {
    const std::string& path;
    std::vector<std::string> reasons;

    [[noreturn]] void fail(const std::string& what) const { throw BundleError(path, "not an exercise key: " + what); }

    const json& field(const json& j, const char* key) const
    {
        if (!j.is_object() || !j.contains(key))
            fail(std::string("no '") + key + "'");
        return j[key];
    }
    std::string text(const json& j, const char* key) const
    {
        const json& v = field(j, key);
        if (!v.is_string())
            fail(std::string("'") + key + "' is not a string");
        return v.get<std::string>();
    }
    int64_t number(const json& j, const char* key) const
    {
        const json& v = field(j, key);
        if (!v.is_number_integer())
            fail(std::string("'") + key + "' is not an integer");
        return v.get<int64_t>();
    }
    KeyLine line(const json& j) const
    {
        KeyLine l;
        l.file = text(j, "file");
        const int64_t n = number(j, "line");
        if (n < 1)
            fail("a line number below 1 in " + l.file);
        l.line = uint32_t(n);
        l.lineCount = j.contains("line_count") ? uint32_t(number(j, "line_count")) : 1;
        l.node = text(j, "node");
        l.gpu = int(number(j, "gpu"));
        l.rank = int(number(j, "rank"));
        l.symptom = text(j, "symptom");
        l.title = text(j, "title");
        if (const std::string id = text(j, "evidence"); !id.empty()) {
            l.evidenceId = evidenceIdFromString(id);
            if (!l.evidenceId)
                fail("'" + id + "' of " + l.file + ":" + std::to_string(l.line) + " is not an evidence id (ev-00001)");
        }
        const int64_t why = number(j, "why");
        if (why < 0 || size_t(why) >= reasons.size())
            fail("reason " + std::to_string(why) + " of " + l.file + ":" + std::to_string(l.line) + " is not in 'reasons'");
        l.why = reasons[size_t(why)];
        return l;
    }
    std::vector<KeyLine> lines(const json& j, const char* key) const
    {
        const json& a = field(j, key);
        if (!a.is_array())
            fail(std::string("'") + key + "' is not a list");
        std::vector<KeyLine> out;
        out.reserve(a.size());
        for (const json& l : a)
            out.push_back(line(l));
        return out;
    }
};

} // namespace

ordered_json keyToJson(const ExerciseKey& k)
{
    Tables t;
    ordered_json j;
    j["format"] = kKeyFormat;
    j["bundle"] = k.bundle;
    j["label"] = {{"source", std::string(toString(k.label.source))}, {"document", k.label.document}};
    j["engine"] = {{"status", std::string(toString(k.engineStatus))},
                   {"domain", std::string(toString(k.engineDomain))},
                   {"sub_domain", k.engineSubDomain}};
    j["root_nodes"] = k.rootNodes;
    j["root"] = linesJson(k.root, t);
    j["no_line"] = k.noLine;
    j["red_herrings"] = linesJson(k.redHerrings, t);
    ordered_json lines = ordered_json::array();
    std::map<std::string, size_t> fileIndex;
    for (size_t i = 0; i < k.files.size(); ++i)
        fileIndex.emplace(k.files[i].path, i);
    for (const auto& l : k.lines) // [file index, line, line count, reason index]
        lines.push_back({fileIndex.count(l.file) ? fileIndex.at(l.file) : size_t(0), l.line, l.lineCount,
                         t.reason(l.why)});
    j["lines"] = lines;
    ordered_json files = ordered_json::array();
    for (const auto& f : k.files)
        files.push_back({{"path", f.path}, {"node", f.node}, {"lines", f.lines}});
    j["files"] = files;
    j["reasons"] = t.reasons;
    return j;
}

ExerciseKey keyFromJson(const json& doc, const std::string& path)
{
    Reader rd{path, {}};
    if (!doc.is_object() || !doc.contains("format") || doc["format"] != kKeyFormat)
        rd.fail(std::string("'format' is not ") + kKeyFormat);
    const json& reasons = rd.field(doc, "reasons");
    if (!reasons.is_array())
        rd.fail("'reasons' is not a list");
    for (const json& r : reasons)
        rd.reasons.push_back(r.is_string() ? r.get<std::string>() : std::string());
    ExerciseKey k;
    k.bundle = rd.text(doc, "bundle");
    const json& label = rd.field(doc, "label");
    k.label = labelFromJson(rd.field(label, "document"), path);
    if (rd.text(label, "source") != toString(k.label.source))
        rd.fail("the label's 'source' does not match its document");
    const json& engine = rd.field(doc, "engine");
    const auto status = resultStatusFromString(rd.text(engine, "status"));
    if (!status)
        rd.fail("engine status");
    k.engineStatus = *status;
    const auto domain = domainFromString(rd.text(engine, "domain"));
    if (!domain)
        rd.fail("engine domain");
    k.engineDomain = *domain;
    k.engineSubDomain = rd.text(engine, "sub_domain");
    for (const json& n : rd.field(doc, "root_nodes"))
        if (n.is_string())
            k.rootNodes.push_back(n.get<std::string>());
    k.root = rd.lines(doc, "root");
    k.noLine = rd.text(doc, "no_line");
    k.redHerrings = rd.lines(doc, "red_herrings");
    for (const json& f : rd.field(doc, "files")) {
        KeyFile kf;
        kf.path = rd.text(f, "path");
        kf.node = rd.text(f, "node");
        kf.lines = uint64_t(rd.number(f, "lines"));
        k.files.push_back(std::move(kf));
    }
    for (const json& l : rd.field(doc, "lines")) {
        if (!l.is_array() || l.size() != 4 || !l[0].is_number_unsigned() || !l[1].is_number_unsigned() ||
            !l[2].is_number_unsigned() || !l[3].is_number_unsigned())
            rd.fail("a 'lines' entry is not [file, line, line count, reason]");
        const size_t file = l[0].get<size_t>(), why = l[3].get<size_t>();
        if (file >= k.files.size() || why >= rd.reasons.size())
            rd.fail("a 'lines' entry names a file or reason the key does not list");
        KeyLine kl;
        kl.file = k.files[file].path;
        kl.line = l[1].get<uint32_t>();
        kl.lineCount = l[2].get<uint32_t>();
        kl.why = rd.reasons[why];
        k.lines.push_back(std::move(kl));
    }
    return k;
}

ExerciseKey readKey(const std::string& path)
{
    return keyFromJson(readJsonFile(path), path);
}

bool writeKey(const ExerciseKey& key, const std::string& path, std::string* error)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << keyToJson(key).dump(2) << "\n";
    out.close();
    if (!out) {
        if (error)
            *error = path + ": cannot write the key";
        return false;
    }
    return true;
}

} // namespace fl::exercise
