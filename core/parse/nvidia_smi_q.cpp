// `nvidia-smi -q`: per GPU ("GPU 00000000:91:00.0" and its indented sections), the fields that
// report memory faults and recovery: ECC Errors (Volatile/Aggregate; "SRAM/DRAM Uncorrectable" in
// r525+, "Double Bit/Total" before), Retired Pages (Single/Double Bit ECC, Pending Page Blacklist or
// Pending Page Retirement), Remapped Rows (Correctable/Uncorrectable Error, Pending, Remapping Failure
// Occurred) and GPU Recovery Action. Field names as https://docs.nvidia.com/deploy/nvidia-smi/index.html
// documents the -q report; the rest of the report is passed on as text lines.
#include "bundle/text_lines.h"
#include "parse/cluster_text_util.h"
#include "parse/cursor.h"
#include "parse/structured.h"

namespace fl {

using cursor::startsWith;
using cursor::trim;

namespace {

bool faultField(std::string_view path)
{
    const auto has = [&](std::string_view s) { return path.find(s) != std::string_view::npos; };
    if (startsWith(path, "ECC Errors/"))
        return has("Uncorrectable") || has("Double Bit/Total");
    if (startsWith(path, "Remapped Rows/"))
        return !has("Histogram");
    return startsWith(path, "Retired Pages/") || path == "GPU Recovery Action";
}

size_t indentOf(std::string_view s)
{
    size_t i = 0;
    while (i < s.size() && s[i] == ' ')
        ++i;
    return i;
}

} // namespace

bool parseNvidiaSmiQuery(std::string_view data, std::vector<StructuredRecord>& out, std::vector<ParseIssue>& issues)
{
    (void)issues;
    bool banner = false;
    std::vector<StructuredRecord> recs;
    std::string pci, minor;
    std::vector<std::pair<size_t, std::string>> sections; // (indent, name) of the open sections
    for (const TextLine& l : linesOf(data)) {
        const std::string_view line = cursor::trimRight(l.text);
        if (startsWith(trim(line), "==============NVSMI LOG")) {
            banner = true;
            pci.clear();
            continue;
        }
        if (!banner || line.empty())
            continue;
        const size_t ind = indentOf(line);
        const std::string_view t = trim(line);
        if (ind == 0 && startsWith(t, "GPU ") && t.find(':') != std::string_view::npos && t.find(" : ") == std::string_view::npos) {
            pci = std::string(t.substr(4));
            minor.clear();
            sections.clear();
            continue;
        }
        if (pci.empty())
            continue;
        while (!sections.empty() && sections.back().first >= ind)
            sections.pop_back();
        const size_t colon = t.find(" : ");
        const size_t bare = t.size() >= 2 && t.substr(t.size() - 2) == " :" ? t.size() - 2 : std::string_view::npos;
        if (colon == std::string_view::npos && bare == std::string_view::npos) {
            sections.emplace_back(ind, std::string(t));
            continue;
        }
        const std::string_view name = trim(t.substr(0, colon != std::string_view::npos ? colon : bare));
        const std::string_view value = colon != std::string_view::npos ? trim(t.substr(colon + 3)) : std::string_view();
        if (name == "Minor Number")
            minor = std::string(value);
        std::string path;
        for (const auto& s : sections)
            path += s.second + "/";
        path += name;
        if (!faultField(path))
            continue;
        StructuredRecord r = clustertext::lineRecord(l.offset, l.text, l.number);
        r.severity = Severity::Info;
        r.text = "nvidia-smi -q pci=" + pci;
        if (!minor.empty())
            r.text += " minor=" + minor;
        r.text += " " + path + " : " + std::string(value);
        recs.push_back(std::move(r));
    }
    if (!banner)
        return false;
    clustertext::deliver(data, recs, out);
    return true;
}

} // namespace fl
