// Every sample's result conforms to resources/result.schema.json, so the
// schema that users read is the one the engine writes. The validator covers
// the keywords the schema uses (type, enum, required, properties,
// additionalProperties, items, $ref, minimum) and fails on any other keyword,
// so the schema cannot quietly outgrow it.
#include "engine/engine.h"
#include "engine/result_json.h"

#include <QtTest>

#include <fstream>
#include <set>

using nlohmann::json;

namespace {

const std::string kSource = FAULTLINE_SOURCE_DIR;

bool hasType(const json& v, const std::string& t)
{
    if (t == "object")
        return v.is_object();
    if (t == "array")
        return v.is_array();
    if (t == "string")
        return v.is_string();
    if (t == "integer")
        return v.is_number_integer();
    if (t == "number")
        return v.is_number();
    if (t == "boolean")
        return v.is_boolean();
    if (t == "null")
        return v.is_null();
    return false;
}

void validate(const json& root, const json& schema, const json& v, const std::string& path, std::vector<std::string>& errors)
{
    static const std::set<std::string> known{"$schema", "$id", "title", "description", "type", "enum", "required",
                                             "properties", "additionalProperties", "items", "$ref", "minimum", "$defs"};
    for (const auto& [k, unused] : schema.items()) {
        (void)unused;
        if (!known.count(k))
            errors.push_back(path + ": schema keyword '" + k + "' is not understood by this test");
    }
    if (auto ref = schema.find("$ref"); ref != schema.end()) {
        const std::string r = ref->get<std::string>();
        const std::string name = r.substr(std::string("#/$defs/").size());
        validate(root, root["$defs"][name], v, path, errors);
        return;
    }
    if (auto t = schema.find("type"); t != schema.end()) {
        bool ok = false;
        if (t->is_string())
            ok = hasType(v, t->get<std::string>());
        else
            for (const auto& x : *t)
                ok = ok || hasType(v, x.get<std::string>());
        if (!ok) {
            errors.push_back(path + ": type " + t->dump() + " expected, got " + v.dump().substr(0, 60));
            return;
        }
    }
    if (auto e = schema.find("enum"); e != schema.end() && std::find(e->begin(), e->end(), v) == e->end())
        errors.push_back(path + ": " + v.dump() + " not in " + e->dump());
    if (auto m = schema.find("minimum"); m != schema.end() && v.is_number() && v.get<double>() < m->get<double>())
        errors.push_back(path + ": below minimum");
    if (v.is_object()) {
        for (const auto& r : schema.value("required", json::array()))
            if (!v.contains(r.get<std::string>()))
                errors.push_back(path + ": missing required '" + r.get<std::string>() + "'");
        const json props = schema.value("properties", json::object());
        for (const auto& [k, x] : v.items()) {
            if (props.contains(k))
                validate(root, props[k], x, path + "." + k, errors);
            else if (auto ap = schema.find("additionalProperties"); ap != schema.end()) {
                if (ap->is_boolean() && !ap->get<bool>())
                    errors.push_back(path + ": unexpected property '" + k + "'");
                else if (ap->is_object())
                    validate(root, *ap, x, path + "." + k, errors);
            }
        }
    }
    if (v.is_array())
        if (auto it = schema.find("items"); it != schema.end())
            for (size_t i = 0; i < v.size(); ++i)
                validate(root, *it, v[i], path + "[" + std::to_string(i) + "]", errors);
}

} // namespace

class TestResultSchema : public QObject {
    Q_OBJECT
private slots:
    void samplesConform_data()
    {
        QTest::addColumn<QString>("sample");
        for (const char* s : {"xid149-nccl", "nvlink-signal-integrity", "ambiguous-two-faults", "unattributed-timeouts"})
            QTest::newRow(s) << QString::fromUtf8(s);
    }
    void samplesConform()
    {
        QFETCH(QString, sample);
        std::ifstream in(kSource + "/resources/result.schema.json");
        const json schema = json::parse(in);
        fl::AnalyzeOptions o;
        o.userConfigRules = false;
        o.shippedRulesDir = kSource + "/rules";
        const fl::Result r = fl::analyze(kSource + "/samples/" + sample.toStdString(), o).result;
        std::vector<std::string> errors;
        for (bool detail : {false, true})
            validate(schema, schema, fl::resultToJson(r, fl::ResultJsonOptions{detail}), "$", errors);
        for (const auto& e : errors)
            qWarning("%s", e.c_str());
        QVERIFY2(errors.empty(), errors.empty() ? "" : errors.front().c_str());
    }
    void streamedTextEqualsTheDocument()
    {
        // resultToString streams; it must print exactly what the DOM prints.
        fl::AnalyzeOptions o;
        o.userConfigRules = false;
        o.shippedRulesDir = kSource + "/rules";
        for (const char* s : {"xid149-nccl", "unattributed-timeouts", "ambiguous-two-faults"}) {
            const fl::Result r = fl::analyze(kSource + "/samples/" + s, o).result;
            for (bool detail : {false, true}) {
                const fl::ResultJsonOptions opt{detail};
                const std::string dom =
                    fl::resultToJson(r, opt).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
                QCOMPARE(fl::resultToString(r, opt), dom);
            }
        }
        fl::Result empty;
        QCOMPARE(fl::resultToString(empty), fl::resultToJson(empty).dump(2) + "\n");
        // Connector reports are printed without the DOM: names that need escaping, bytes that are not UTF-8,
        // empty and unknown fields.
        fl::Result odd;
        fl::ConnectorReport plain;
        plain.file = "logs/a.log";
        odd.connectors.push_back(plain);
        fl::ConnectorReport hostile;
        hostile.file = std::string("we\"ird\\name\t\x01\x7f caf\xc3\xa9 \xff.log");
        hostile.kind = fl::SourceKind::SysLog;
        hostile.kindReason = "line 3: \"kernel:\"";
        hostile.node = "node-\xe2\x80\x8b" "1";
        hostile.rank = 7;
        hostile.status = fl::FileStatus::Error;
        hostile.reason = "cannot read\nit";
        hostile.bytes = 18446744073709551615ULL;
        hostile.lines = 3;
        hostile.observations = 2;
        hostile.parseErrors = 1;
        odd.connectors.push_back(hostile);
        // Evidence items too: an empty one, and one with every field set and an excerpt that needs escaping.
        odd.evidence.push_back(fl::EvidenceItem{});
        fl::EvidenceItem ev;
        ev.id = fl::EvidenceId(1);
        ev.kind = fl::EvidenceKind::Log;
        ev.source = fl::SourceKind::AppLog;
        ev.file = hostile.file;
        ev.ref.offset = 1234567890123ULL;
        ev.ref.length = 88;
        ev.ref.line = 41;
        ev.ref.lineCount = 2;
        ev.node = "node-0001";
        ev.rank = 0;
        ev.gpuIndex = 3;
        ev.time.ns = 1773482400123456789LL;
        ev.time.basis = fl::TimeBasis::Absolute;
        ev.excerpt = "NVRM: Xid (PCI:0000:1b:00): 79, \"fallen\" \\ off\x1b[0m \xc3";
        ev.role = fl::EvidenceRole::Root;
        ev.symptom = "gpu.xid_79";
        ev.event = fl::EventId(12);
        ev.family = fl::FamilyId(2);
        odd.evidence.push_back(ev);
        QCOMPARE(fl::resultToString(odd), fl::resultToJson(odd).dump(2, ' ', false, json::error_handler_t::replace) + "\n");
    }
    void validatorRejectsWrongDocuments()
    {
        // The validator must be able to fail: a wrong status, a missing key, an extra key.
        std::ifstream in(kSource + "/resources/result.schema.json");
        const json schema = json::parse(in);
        fl::AnalyzeOptions o;
        o.userConfigRules = false;
        o.shippedRulesDir = kSource + "/rules";
        json result = fl::resultToJson(fl::analyze(kSource + "/samples/xid149-nccl", o).result);
        for (int variant = 0; variant < 3; ++variant) {
            json bad = result;
            if (variant == 0)
                bad["status"] = "probably";
            if (variant == 1)
                bad.erase("evidence");
            if (variant == 2)
                bad["evidence"][0]["colour"] = "red";
            std::vector<std::string> errors;
            validate(schema, schema, bad, "$", errors);
            QVERIFY2(!errors.empty(), ("variant " + std::to_string(variant) + " passed").c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestResultSchema)
#include "test_result_schema.moc"
