// Converters from recorded API answers to files the loader reads.
#include "collect/collect.h"

#include "bundle/text_lines.h"
#include "present/timefmt.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

namespace fl::collect {

using nlohmann::json;

namespace {

std::string fieldText(const json& obj, const char* key)
{
    auto it = obj.find(key);
    if (it == obj.end())
        return {};
    if (it->is_string())
        return it->get<std::string>();
    // journald writes non-UTF-8 or binary fields as an array of byte values.
    if (it->is_array()) {
        std::string s;
        for (const auto& b : *it)
            if (b.is_number_unsigned() && b.get<unsigned>() < 256)
                s += static_cast<char>(b.get<unsigned>());
        return s;
    }
    if (it->is_number())
        return it->dump();
    return {};
}

// Printable on one line: control bytes (not tabs) become spaces.
void appendClean(std::string& out, std::string_view s)
{
    for (unsigned char c : s)
        out += (c < 0x20 && c != '\t') || c == 0x7f ? ' ' : static_cast<char>(c);
}

bool digitsOnly(std::string_view s)
{
    return !s.empty() && s.size() <= 19 && s.find_first_not_of("0123456789") == std::string_view::npos;
}

} // namespace

std::string journalJsonToSyslog(std::string_view data, std::string_view node, uint64_t& entries, uint64_t& badLines)
{
    std::string out;
    for (const TextLine& l : linesOf(data)) {
        const std::string_view line = l.text;
        if (line.find_first_not_of(" \t\r") == std::string_view::npos)
            continue;
        json e = json::parse(line, nullptr, false);
        if (e.is_discarded() || !e.is_object()) {
            ++badLines;
            continue;
        }
        const std::string us = fieldText(e, "__REALTIME_TIMESTAMP");
        if (!digitsOnly(us)) {
            ++badLines;
            continue;
        }
        const int64_t ns = std::stoll(us) * 1000;
        std::string ident = fieldText(e, "SYSLOG_IDENTIFIER");
        if (fieldText(e, "_TRANSPORT") == "kernel")
            ident = "kernel";
        if (ident.empty())
            ident = fieldText(e, "_COMM");
        if (ident.empty())
            ident = "journal";
        std::string pid = fieldText(e, "SYSLOG_PID");
        if (pid.empty())
            pid = fieldText(e, "_PID");
        std::string prefix = formatTimeUtc(ns) + " ";
        appendClean(prefix, node);
        prefix += ' ';
        for (char& c : ident)
            if (c == ' ' || c == ':' || c == '[')
                c = '_';
        appendClean(prefix, ident);
        if (ident != "kernel" && digitsOnly(pid))
            prefix += "[" + pid + "]";
        prefix += ": ";
        const std::string msg = fieldText(e, "MESSAGE");
        // A message of several lines becomes several lines with the same prefix.
        size_t m = 0;
        do {
            size_t nl = msg.find('\n', m);
            if (nl == std::string::npos)
                nl = msg.size();
            out += prefix;
            appendClean(out, std::string_view(msg).substr(m, nl - m));
            out += '\n';
            m = nl + 1;
        } while (m < msg.size());
        ++entries;
    }
    return out;
}

namespace {

// A Prometheus API answer that says "success" (null, and why in `error`, otherwise).
json prometheusAnswer(std::string_view body, std::string& error)
{
    json doc = json::parse(body, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        error = "the answer is not JSON";
        return nullptr;
    }
    if (doc.value("status", "") != "success") {
        error = "status '" + doc.value("status", "") + "': " + doc.value("error", "");
        return nullptr;
    }
    return doc;
}

} // namespace

std::string scrapeAddress(std::string_view instance)
{
    // The port is after the last ':' when that is the only one ("host:9100", "10.1.0.4:9100") or follows
    // a bracketed IPv6 address ("[fe80::1]:9100"); a bare IPv6 address has no port.
    const size_t colon = instance.rfind(':');
    const bool bracketed = !instance.empty() && instance[0] == '[' && colon != std::string_view::npos && colon > 0
        && instance[colon - 1] == ']';
    if (colon == std::string_view::npos || (!bracketed && instance.find(':') != colon))
        return std::string(instance);
    const std::string_view port = instance.substr(colon + 1);
    if (port.empty() || !std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::string(instance);
    return std::string(instance.substr(0, colon));
}

std::map<std::string, std::string> unameAddresses(std::string_view body, const std::vector<std::string>& nodes,
                                                  std::vector<std::string>& conflicts, std::string& error)
{
    std::map<std::string, std::string> out;
    const json doc = prometheusAnswer(body, error);
    if (doc.is_null())
        return out;
    auto data = doc.find("data");
    if (data == doc.end() || !data->is_array()) {
        error = "no data array";
        return out;
    }
    const std::set<std::string> wanted(nodes.begin(), nodes.end());
    std::set<std::string> refused;
    for (const auto& labels : *data) {
        if (!labels.is_object())
            continue;
        auto name = labels.find("nodename");
        auto instance = labels.find("instance");
        if (name == labels.end() || instance == labels.end() || !name->is_string() || !instance->is_string())
            continue;
        std::string node = name->get<std::string>();
        if (!wanted.count(node))
            node = node.substr(0, node.find('.')); // "gpu-b04.cluster.local"
        const std::string address = scrapeAddress(instance->get<std::string>());
        if (!wanted.count(node) || address.empty() || address == node || refused.count(address))
            continue;
        auto [it, fresh] = out.try_emplace(address, node);
        if (!fresh && it->second != node) { // one address, two machines: neither is trusted with it
            conflicts.push_back(address + " is " + it->second + " and " + node);
            refused.insert(address);
            out.erase(it);
        }
    }
    return out;
}

std::map<std::string, std::string> splitPrometheusMatrix(std::string_view body, const std::vector<std::string>& nodes,
                                                         const std::vector<std::string>& hostLabels,
                                                         std::string& error,
                                                         const std::map<std::string, std::string>& hostOfAddress)
{
    std::map<std::string, std::string> out;
    const json doc = prometheusAnswer(body, error);
    if (doc.is_null())
        return out;
    const json* result = nullptr;
    if (auto d = doc.find("data"); d != doc.end() && d->is_object())
        if (auto r = d->find("result"); r != d->end() && r->is_array())
            result = &*r;
    if (!result) {
        error = "no data.result array";
        return out;
    }
    const std::set<std::string> wanted(nodes.begin(), nodes.end());
    std::map<std::string, json> perNode;
    for (const auto& series : *result) {
        if (!series.is_object() || !series.contains("metric") || !series["metric"].is_object())
            continue;
        json metric = series["metric"];
        std::string node;
        for (const auto& label : hostLabels) {
            auto it = metric.find(label);
            if (it == metric.end() || !it->is_string())
                continue;
            std::string v = it->get<std::string>();
            // a target scraped by address: "10.1.0.4:9100" is the node its uname named
            if (auto a = hostOfAddress.find(scrapeAddress(v)); !wanted.count(v) && a != hostOfAddress.end()) {
                node = a->second;
                break;
            }
            // "node-02:9100" (node exporter's instance) or "node-02.cluster.local"
            if (!wanted.count(v))
                v = v.substr(0, v.find(':'));
            if (!wanted.count(v))
                v = v.substr(0, v.find('.'));
            if (wanted.count(v)) {
                node = v;
                break;
            }
        }
        if (node.empty())
            continue;
        metric["node"] = node;
        json s = series;
        s["metric"] = std::move(metric);
        perNode[node].push_back(std::move(s));
    }
    for (auto& [node, list] : perNode) {
        json d = {{"status", "success"}, {"data", {{"resultType", "matrix"}, {"result", std::move(list)}}}};
        out[node] = d.dump(1) + "\n";
    }
    return out;
}

std::string lokiStreamsToLines(std::string_view body, uint64_t& entries, int64_t& lastNs, std::string& error)
{
    json doc = json::parse(body, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        error = "the answer is not JSON";
        return {};
    }
    if (doc.value("status", "") != "success") {
        error = "status '" + doc.value("status", "") + "'";
        return {};
    }
    const json* result = nullptr;
    if (auto d = doc.find("data"); d != doc.end() && d->is_object()) {
        if (d->value("resultType", "") != "streams") {
            error = "resultType '" + d->value("resultType", "") + "', expected 'streams' (a log query, not a metric query)";
            return {};
        }
        if (auto r = d->find("result"); r != d->end() && r->is_array())
            result = &*r;
    }
    if (!result) {
        error = "no data.result array";
        return {};
    }
    std::vector<std::pair<int64_t, std::string>> lines;
    for (const auto& stream : *result) {
        if (!stream.is_object())
            continue;
        auto values = stream.find("values");
        if (values == stream.end() || !values->is_array())
            continue;
        for (const auto& v : *values) {
            if (!v.is_array() || v.size() < 2 || !v[0].is_string() || !v[1].is_string())
                continue;
            const std::string ts = v[0].get<std::string>();
            if (!digitsOnly(ts))
                continue;
            lines.emplace_back(std::stoll(ts), v[1].get<std::string>());
        }
    }
    std::stable_sort(lines.begin(), lines.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::string out;
    for (const auto& [ns, text] : lines) {
        // A log line stays as it was shipped; only line breaks inside it are flattened.
        for (char c : text)
            out += c == '\n' || c == '\r' ? ' ' : c;
        out += '\n';
        lastNs = std::max(lastNs, ns);
    }
    entries += lines.size();
    return out;
}

} // namespace fl::collect
