// `dcgmi diag -r N` text output. Format: NVIDIA/DCGM@72fa3feaa67d716a75323a8f47c34ff3ee73f824
// dcgmi/Diag.cpp: DIAG_DATA "| <name (25)> | <info (46)> |"; a test's row carries its overall
// result (HelperDisplayDiagResult: Pass, Skip, Warn, Fail, Not Run), DCGM 4 adds one row per
// entity ("GPU0: Fail") and "Warning: GPU0" rows whose message runs on over rows of 45
// characters (DisplayVerboseInfo); DCGM 3 printed "Fail - GPU: 0, 1" / "Fail - All" and a
// "Warning" row. Other lines are passed on as text.
#include "bundle/text_lines.h"
#include "parse/cluster_text_util.h"
#include "parse/cursor.h"
#include "parse/structured.h"

#include <map>
#include <optional>

namespace fl {

using cursor::startsWith;
using cursor::trim;

namespace {

bool isResult(std::string_view info)
{
    for (std::string_view r : {"Pass", "Fail", "Warn", "Skip", "Not Run"})
        if (startsWith(info, r))
            return true;
    return false;
}

struct Test {
    std::string name;
    std::string result;
    std::vector<std::string> failed;            // "0", "1", "all"
    std::map<std::string, std::string> message; // entity ("0", "" for the test) -> message
    std::optional<StructuredRecord> rec;
};

// "GPU: 0, 1" / "All" after "Fail - " (DCGM 3).
void listedGpus(std::string_view rest, std::vector<std::string>& out)
{
    rest = trim(rest);
    if (startsWith(rest, "All")) {
        out.push_back("all");
        return;
    }
    if (!startsWith(rest, "GPU:") && !startsWith(rest, "GPU"))
        return;
    rest.remove_prefix(rest.find_first_of("0123456789") == std::string_view::npos ? rest.size() : rest.find_first_of("0123456789"));
    size_t p = 0;
    while (p < rest.size()) {
        const size_t e = std::min(rest.find(',', p), rest.size());
        const std::string_view n = trim(rest.substr(p, e - p));
        if (!n.empty() && cursor::isDigit(n[0]))
            out.emplace_back(n);
        p = e + 1;
    }
}

void emitTest(Test& t, std::vector<StructuredRecord>& out)
{
    if (!t.rec || (t.result != "Fail" && t.result != "Warn")) {
        t = Test{};
        return;
    }
    if (t.failed.empty())
        t.failed.push_back("all");
    for (const std::string& gpu : t.failed) {
        StructuredRecord r = *t.rec;
        r.severity = t.result == "Fail" ? Severity::Error : Severity::Warning;
        std::string msg = t.message.count(gpu) ? t.message[gpu] : t.message[""];
        r.text = "dcgmi diag";
        clustertext::field(r.text, "test", t.name);
        clustertext::field(r.text, "gpu", gpu);
        clustertext::field(r.text, "result", t.result);
        clustertext::field(r.text, "message", trim(msg), 1024);
        out.push_back(std::move(r));
    }
    t = Test{};
}

} // namespace

bool parseDcgmiDiag(std::string_view data, std::vector<StructuredRecord>& out, std::vector<ParseIssue>& issues)
{
    (void)issues;
    bool header = false;
    std::vector<StructuredRecord> recs;
    Test test;
    std::string* msg = nullptr; // the message the next continuation row extends
    for (const TextLine& l : linesOf(data)) {
        const std::string_view line = cursor::trimRight(l.text);
        if (startsWith(line, "| Diagnostic ") && line.find("| Result ") != std::string_view::npos) {
            header = true;
            continue;
        }
        if (!header || !startsWith(line, "| ") || line.size() < 8 || line.back() != '|')
            continue;
        const size_t mid = line.find(" | ", 2);
        if (mid == std::string_view::npos)
            continue;
        const std::string_view name = trim(line.substr(2, mid - 2));
        const std::string_view infoRaw = line.substr(mid + 3, line.size() - 1 - (mid + 3));
        const std::string_view info = trim(infoRaw);
        if (startsWith(name, "Warning") || startsWith(name, "Info")) {
            std::string entity;
            if (const size_t gpu = name.find("GPU"); gpu != std::string_view::npos)
                entity = std::string(trim(name.substr(gpu + 3)));
            msg = startsWith(name, "Warning") ? &test.message[entity] : nullptr;
            if (msg) {
                *msg += std::string(infoRaw.substr(0, 45));
                if (test.rec)
                    clustertext::extendTo(*test.rec, l.offset, l.text.size(), l.number);
            }
            continue;
        }
        if (!name.empty()) {
            emitTest(test, recs);
            msg = nullptr;
            if (!isResult(info))
                continue; // metadata: versions, device ids
            test.name = std::string(name);
            test.rec = clustertext::lineRecord(l.offset, l.text, l.number);
            test.result = std::string(info.substr(0, info.find(' ')));
            if (const size_t dash = info.find(" - "); dash != std::string_view::npos && test.result == "Fail")
                listedGpus(info.substr(dash + 3), test.failed);
            continue;
        }
        if (!test.rec)
            continue;
        // "GPU0: Fail" (DCGM 4), or a message running on
        if (startsWith(info, "GPU") && info.find(": ") != std::string_view::npos && isResult(info.substr(info.find(": ") + 2))) {
            msg = nullptr;
            const std::string_view id = trim(info.substr(3, info.find(": ") - 3));
            const std::string_view res = info.substr(info.find(": ") + 2);
            if (startsWith(res, "Fail") || startsWith(res, "Warn"))
                test.failed.emplace_back(id);
            clustertext::extendTo(*test.rec, l.offset, l.text.size(), l.number);
        } else if (msg) {
            *msg += std::string(infoRaw.substr(0, 45));
            clustertext::extendTo(*test.rec, l.offset, l.text.size(), l.number);
        }
    }
    emitTest(test, recs);
    if (!header)
        return false;
    clustertext::deliver(data, recs, out);
    return true;
}

} // namespace fl
