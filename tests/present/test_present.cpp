// core/present: the role rule the report and the views share, place and time
// text; the rules digest's SHA-256 (core/rules/sha256, Qt-free) and rule
// template expansion (core/rules/template, shared by the scan and the sample checker).
#include "present/hostlist.h"
#include "present/role.h"
#include "present/summary.h"
#include "present/timefmt.h"
#include "present/verdict.h"
#include "rules/sha256.h"
#include "rules/template.h"

#include <QtTest>

#include <algorithm>
#include <cstdio>

using namespace fl;

namespace {

SymptomEvent eventNo(uint32_t id)
{
    SymptomEvent e;
    e.id = EventId(id);
    return e;
}

Result chain(ResultStatus status)
{
    // 0 -> 1 -> 2, 3 stands alone, 4 -> 0 (upstream of the root: not downstream of it)
    Result r;
    r.status = status;
    r.edges = {{EventId(0), EventId(1), "r", ""}, {EventId(1), EventId(2), "r", ""}, {EventId(4), EventId(0), "r", ""}};
    return r;
}

} // namespace

class TestPresent : public QObject {
    Q_OBJECT
private slots:
    void hostListsCompress()
    {
        using present::compressHostList;
        QCOMPARE(QString::fromStdString(compressHostList({"node-0003", "node-0001", "node-0002", "node-0005"})),
                 QStringLiteral("node-[0001-0003,0005]"));
        // Unpadded numbers group across widths; padded ones keep their width.
        QCOMPARE(QString::fromStdString(compressHostList({"gpu9", "gpu10", "gpu11"})), QStringLiteral("gpu[9-11]"));
        QCOMPARE(QString::fromStdString(compressHostList({"a01", "a1"})), QStringLiteral("a01,a1"));
        QCOMPARE(QString::fromStdString(compressHostList({"login", "node-7", "node-7"})), QStringLiteral("login,node-7"));
        QCOMPARE(QString::fromStdString(compressHostList({})), QString());
        // The display cap: runs inside a bracket, then items.
        std::vector<std::string> odd;
        for (int i = 1; i <= 9; i += 2)
            odd.push_back("n" + std::to_string(i));
        QCOMPARE(QString::fromStdString(compressHostList(odd, 3)), QStringLiteral("n[1,3,5,…] (2 more runs)"));
        QCOMPARE(QString::fromStdString(compressHostList({"a", "b", "c", "d"}, 2)), QStringLiteral("a,b … and 2 more"));
        QCOMPARE(QString::fromStdString(present::numberRanges({9, 0, 1, 2, 5, 7, 8}, 2)),
                 QStringLiteral("0-2,5 … and 1 more"));
        QCOMPARE(QString::fromStdString(present::numberRanges({9, 0, 1, 2, 5, 7, 8})), QStringLiteral("0-2,5,7-9"));
    }
    void hostListsExpandWhatTheyCompress()
    {
        std::string error;
        std::vector<std::string> names;
        for (int i = 1; i <= 1250; ++i)
            if (i != 979) {
                char b[16];
                std::snprintf(b, sizeof b, "node-%04d", i);
                names.push_back(b);
            }
        names.push_back("gpu-login");
        const std::string text = present::compressHostList(names);
        QCOMPARE(QString::fromStdString(text), QStringLiteral("gpu-login,node-[0001-0978,0980-1250]"));
        auto back = present::expandHostList(text, error);
        QVERIFY(back);
        std::sort(back->begin(), back->end());
        std::sort(names.begin(), names.end());
        QCOMPARE(*back, names);
        QVERIFY(!present::expandHostList("n[1-3],m[1-3]", error, 4));
        QVERIFY(error.find("more than 4 hosts") != std::string::npos);
    }
    void rolesFollowTheChainFromTheRoot()
    {
        Result r = chain(ResultStatus::Attributed);
        r.rootCause = RootCause{};
        r.rootCause->event = EventId(0);
        const present::EventRoles roles(r);
        QVERIFY(roles(eventNo(0)) == EvidenceRole::Root);
        QVERIFY(roles(eventNo(1)) == EvidenceRole::Symptom);
        QVERIFY(roles(eventNo(2)) == EvidenceRole::Symptom);
        QVERIFY(roles(eventNo(3)) == EvidenceRole::Interesting);
        QVERIFY(roles(eventNo(4)) == EvidenceRole::Interesting);
        SymptomEvent suppressed = eventNo(1);
        suppressed.suppressed = true;
        QVERIFY(roles(suppressed) == EvidenceRole::Context); // a suppressed symptom is context
    }

    void ruleRoleAndSuppressionComeFirst()
    {
        Result r = chain(ResultStatus::Attributed);
        r.rootCause = RootCause{};
        r.rootCause->event = EventId(0);
        const present::EventRoles roles(r);
        SymptomEvent lone = eventNo(3);
        lone.suppressed = true;
        QVERIFY(roles(lone) == EvidenceRole::Context);
        SymptomEvent set = eventNo(2);
        set.evidenceRole = EvidenceRole::Context;
        QVERIFY(roles(set) == EvidenceRole::Context);
    }

    void ambiguousResultsHaveSeveralRoots()
    {
        Result r = chain(ResultStatus::Ambiguous);
        Candidate a, b, c;
        a.event = EventId(0);
        a.outcome.reason = CandidateReason::TiedWinner;
        b.event = EventId(3);
        b.outcome.reason = CandidateReason::TiedWith;
        c.event = EventId(4);
        c.outcome.reason = CandidateReason::Later;
        r.candidates = {a, b, c};
        const present::EventRoles roles(r);
        QVERIFY(roles.isRoot(EventId(0)));
        QVERIFY(roles.isRoot(EventId(3)));
        QVERIFY(!roles.isRoot(EventId(4)));
        QVERIFY(roles(eventNo(1)) == EvidenceRole::Symptom);
        QCOMPARE(roles.downstream().size(), size_t(2));
    }

    void rolePriorityOrdersRootFirst()
    {
        QVERIFY(present::rolePriority(EvidenceRole::Root) > present::rolePriority(EvidenceRole::Symptom));
        QVERIFY(present::rolePriority(EvidenceRole::Symptom) > present::rolePriority(EvidenceRole::Interesting));
        QVERIFY(present::rolePriority(EvidenceRole::Interesting) > present::rolePriority(EvidenceRole::Context));
    }

    // The result's prose comes from typed facts: nothing is parsed back from an earlier sentence.
    void summaryAndMissingFromFacts()
    {
        present::MissingFacts m;
        m.nodesWithoutKernelLogsCount = 19;  // too many to name: counted
        m.schedulerRecords = true;
        m.initiatingEvent = true;
        for (int i = 0; i < 7; ++i)
            m.foundInstead.emplace_back("s" + std::to_string(i), size_t(i + 1));
        const std::vector<std::string> lines = present::missingEvidence(m);
        QCOMPARE(lines.size(), size_t(3));
        QCOMPARE(lines[0], std::string("an initiating event; only downstream or informational symptoms were found "
                                       "(s0 ×1, s1 ×2, s2 ×3, s3 ×4, s4 ×5, s5 ×6, …)"));
        QCOMPARE(lines[1], std::string("kernel logs of 19 nodes"));
        Result r;
        r.status = ResultStatus::Unattributed;
        QCOMPARE(present::summary(r, {}, {}, m),
                 std::string("Unattributed: no initiating event in the evidence; only downstream or informational symptoms "
                             "were found (s0 ×1, s1 ×2, s2 ×3, s3 ×4, s4 ×5, s5 ×6, …). Most useful missing evidence: "
                             "kernel logs of 19 nodes."));

        r.status = ResultStatus::Attributed;
        r.rootCause = RootCause{};
        r.rootCause->title = "GPU fell off the bus (Xid 79)";
        r.rootCause->node = "node07";
        r.rootCause->gpuIndex = 3;
        r.rootCause->rank = 25;
        present::SummaryCounts c;
        c.downstream = 1;
        c.downstreamNodes = 1;
        c.otherErrors = 2;
        QCOMPARE(present::summary(r, {}, c, {}),
                 std::string("GPU fell off the bus (Xid 79) on node07 GPU 3 rank 25 at an unknown time; 1 downstream "
                             "symptom on 1 node; 2 other errors kept as interesting evidence."));

        // Symptoms whose lines name no node: counted, never "on 0 nodes".
        c.downstream = 4;
        c.downstreamNodes = 0;
        c.otherErrors = 0;
        const std::string noNodes = present::summary(r, {}, c, {});
        QVERIFY2(noNodes.find("0 nodes") == std::string::npos, noNodes.c_str());
        QCOMPARE(noNodes, std::string("GPU fell off the bus (Xid 79) on node07 GPU 3 rank 25 at an unknown time; 4 "
                                      "downstream symptoms."));
    }

    // A field names what is known and says what is not: no blank node, no GPU field without its index.
    void nodeAndGpuFields()
    {
        QCOMPARE(present::nodeName(""), std::string("unknown node"));
        QCOMPARE(present::nodeName("node07"), std::string("node07"));
        QCOMPARE(present::gpuField(-1, "0000:91:00"), std::string("index unknown (PCI 0000:91:00)"));
        QCOMPARE(present::gpuField(3, "0000:91:00"), std::string("3 (PCI 0000:91:00)"));
        QCOMPARE(present::gpuField(3, ""), std::string("3"));
        QCOMPARE(present::gpuField(-1, ""), std::string());
        QCOMPARE(present::place("", -1, "0000:91:00", -1), std::string("unknown node GPU 0000:91:00"));
    }

    void templatesExpandOnce()
    {
        const std::map<std::string, std::string> v = {{"xid", "79"}, {"empty", ""}};
        QCOMPARE(expandTemplate("gpu.xid.{xid}", v), std::string("gpu.xid.79"));
        QCOMPARE(expandTemplate("{missing}x{empty}y", v), std::string("xy"));
        QCOMPARE(expandTemplate("open {xid", v), std::string("open {xid"));
        QCOMPARE(expandTemplate("{xid}{xid}", v), std::string("7979"));
        const FieldMap f(v.begin(), v.end());
        QCOMPARE(expandTemplate("gpu.xid.{xid}", f), std::string("gpu.xid.79"));
        QCOMPARE(expandTemplate("{missing}x{empty}y", f), std::string("xy"));
        QCOMPARE(expandTemplate("open {xid", f), std::string("open {xid"));
    }

    // Event fields are a sorted vector standing in for the std::map they were:
    // the same order when written out, the first of two captures with one name.
    void fieldMapKeepsTheOrderAndChoicesOfAMap()
    {
        const std::vector<std::pair<std::string, std::string>> captures = {
            {"seq", "7"}, {"op", "ALLREDUCE"}, {"Seq", "upper"}, {"seq", "8"}, {"\xc3\xa9t\xc3\xa9", "utf-8"}, {"", "empty"}};
        const std::map<std::string, std::string> asMap(captures.begin(), captures.end());
        FieldMap f(captures.begin(), captures.end());
        QCOMPARE(f.size(), asMap.size());
        QVERIFY(std::equal(f.begin(), f.end(), asMap.begin(), asMap.end(),
                           [](const auto& a, const auto& b) { return a.first == b.first && a.second == b.second; }));
        QCOMPARE(f.at("seq"), std::string("7"));
        QVERIFY(f.find(std::string_view("seqx").substr(0, 3)) != f.end());
        QVERIFY(!f.contains("se"));
        f["pg"] = "0";
        f["seq"] = "9";
        QCOMPARE(f.size(), asMap.size() + 1);
        QCOMPARE(f.at("seq"), std::string("9"));
        QCOMPARE(std::prev(f.end())->first, std::string("\xc3\xa9t\xc3\xa9"));
        QCOMPARE(f.erase("op"), size_t(1));
        QCOMPARE(f.erase("op"), size_t(0));
        QCOMPARE(f.count("op"), size_t(0));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, (void)f.at("op"));
    }

    void sha256KnownVectors()
    {
        // FIPS 180-2 examples
        QCOMPARE(sha256Hex(""), std::string("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
        QCOMPARE(sha256Hex("abc"), std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
        QCOMPARE(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
                 std::string("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
    }
};

QTEST_GUILESS_MAIN(TestPresent)
#include "test_present.moc"
