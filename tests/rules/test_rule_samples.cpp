// Rule samples (docs/rules.md, "Samples, benign lines and sources"): a sample
// that no longer matches, a benign line that does, or a sample yielding the
// wrong symptom/field refuses the file at load with the sample's file:line;
// every shipped extract rule carries samples, benign lines and its source.
#include "rules/rule.h"
#include "rules/ruleset.h"

#include <QtTest>

#include <string>

using namespace fl;

namespace {

std::string loadError(const std::string& text)
{
    RuleSet rs;
    try {
        rs.loadText(text, "site.jsonc");
    } catch (const RuleError& e) {
        return e.what();
    }
    return {};
}

// One extract rule with the given samples/benign JSON members.
std::string ruleWith(const std::string& members)
{
    return "{\n"
           "  \"symptoms\": [{\"id\": \"host.quota\", \"title\": \"quota\", \"domain\": \"storage\", \"role\": \"initiator\"}],\n"
           "  \"rules\": [\n"
           "    {\"id\": \"site.extract.quota\", \"phase\": \"extract\", \"sources\": [\"syslog\"],\n"
           "     \"source\": \"site wiki: quota alerts\",\n"
           "     \"pattern\": \"quota exceeded on (?P<fs>\\\\S+)\",\n"
           "     \"emit\": {\"symptom\": \"host.quota\"},\n" +
           members + "\n    }\n  ]\n}";
}

} // namespace

class TestRuleSamples : public QObject {
    Q_OBJECT
private slots:
    void goodSamplesLoad();
    void sampleThatDoesNotMatchNamesItsLine();
    void benignThatMatchesIsRefused();
    void wrongFieldOrSymptomIsRefused();
    void malformedSamplesAreRefused();
    void everyShippedExtractRuleCarriesSamplesBenignAndSource();
    void emitReadIsTypedAndChecked();
};

void TestRuleSamples::goodSamplesLoad()
{
    QCOMPARE(loadError(ruleWith(R"("samples": ["kernel: quota exceeded on /lustre",
        {"line": "quota exceeded on /home", "symptom": "host.quota", "fields": {"fs": "/home"}}],
 "benign": ["kernel: quota warning on /lustre"])")),
             std::string());
}

void TestRuleSamples::sampleThatDoesNotMatchNamesItsLine()
{
    // The failing sample is on line 9 of the file.
    std::string e = loadError(ruleWith(R"("samples": ["quota exceeded on /lustre",
     "quota was exceeded on /lustre"],
 "benign": []
)"));
    QVERIFY2(e.find("site.jsonc:9:") == 0, e.c_str());
    QVERIFY2(e.find("site.extract.quota") != std::string::npos, e.c_str());
    QVERIFY2(e.find("sample does not match") != std::string::npos, e.c_str());
}

void TestRuleSamples::benignThatMatchesIsRefused()
{
    std::string e = loadError(ruleWith(R"("samples": ["quota exceeded on /lustre"],
 "benign": ["user quota exceeded on /scratch"])"));
    QVERIFY2(e.find("site.jsonc:9:") == 0, e.c_str());
    QVERIFY2(e.find("benign line matches") != std::string::npos, e.c_str());
}

void TestRuleSamples::wrongFieldOrSymptomIsRefused()
{
    std::string e = loadError(ruleWith(R"("samples": [{"line": "quota exceeded on /lustre", "fields": {"fs": "/home"}}])"));
    QVERIFY2(e.find("fs=\"/lustre\", expected \"/home\"") != std::string::npos, e.c_str());
    e = loadError(ruleWith(R"("samples": [{"line": "quota exceeded on /lustre", "symptom": "storage.other"}])"));
    QVERIFY2(e.find("yields symptom 'host.quota', expected 'storage.other'") != std::string::npos, e.c_str());
}

void TestRuleSamples::malformedSamplesAreRefused()
{
    QVERIFY(loadError(ruleWith(R"("samples": "quota exceeded on /x")")).find("'samples' must be a list") !=
            std::string::npos);
    QVERIFY(loadError(ruleWith(R"("samples": [{"text": "x"}])")).find("unknown key 'text'") != std::string::npos);
    QVERIFY(loadError(ruleWith(R"("benign": [""])")).find("non-empty") != std::string::npos);
}

void TestRuleSamples::everyShippedExtractRuleCarriesSamplesBenignAndSource()
{
    RuleSet rs;
    rs.loadDirectory(FAULTLINE_SOURCE_DIR "/rules"); // throws if any sample fails
    rs.compile();
    int extract = 0;
    for (const auto& r : rs.rules()) {
        if (r.phase != Phase::Extract)
            continue;
        ++extract;
        // a metric rule's samples are series values (docs/rules.md, "Metric rules")
        QVERIFY2(!r.samples.empty() || (r.metric && !r.metric->samples.empty()), (r.id + ": no samples").c_str());
        QVERIFY2(!r.benign.empty() || (r.metric && !r.metric->benign.empty()), (r.id + ": no benign lines").c_str());
        QVERIFY2(!r.sourceRefs.empty(), (r.id + ": no source").c_str());
    }
    QVERIFY(extract > 50);
}

// emit.read is a typed action (RecordReader): a value the engine has no
// reader for, or the old magic event field, is refused with file and line.
void TestRuleSamples::emitReadIsTypedAndChecked()
{
    auto withEmit = [](const std::string& extra) {
        std::string text = ruleWith("\"samples\": [\"quota exceeded on /home\"]");
        const std::string was = "\"emit\": {\"symptom\": \"host.quota\"}";
        text.replace(text.find(was), was.size(), "\"emit\": {\"symptom\": \"host.quota\"" + extra + "}");
        return text;
    };
    RuleSet rs;
    rs.loadText(withEmit(R"(, "read": "torchrun_root_cause")"), "site.jsonc");
    QCOMPARE(int(rs.rules().at(0).emitRead), int(RecordReader::TorchrunRootCause));

    std::string e = loadError(withEmit(R"(, "read": "slurm_epilog")"));
    QVERIFY2(e.find("site.jsonc:4:") == 0, e.c_str());
    QVERIFY2(e.find("unknown 'read' in emit: 'slurm_epilog' (torchrun_root_cause)") != std::string::npos, e.c_str());
    e = loadError(withEmit(R"(, "fields": {"read": "torchrun_root_cause"})"));
    QVERIFY2(e.find("site.jsonc:4:") == 0, e.c_str());
    QVERIFY2(e.find("use emit's \"read\"") != std::string::npos, e.c_str());
    e = loadError(withEmit(R"(, "read": 3)"));
    QVERIFY2(e.find("site.jsonc:4:") == 0, e.c_str());

    // The shipped torchrun rule asks for its reader through the typed action.
    RuleSet shipped;
    shipped.loadDirectory(FAULTLINE_SOURCE_DIR "/rules");
    int readers = 0;
    for (const Rule& r : shipped.rules()) {
        readers += r.emitRead == RecordReader::TorchrunRootCause ? 1 : 0;
        QVERIFY2(!r.emitFields.count("read"), r.id.c_str());
    }
    QCOMPARE(readers, 1);
}

QTEST_GUILESS_MAIN(TestRuleSamples)
#include "test_rule_samples.moc"
