// The shareable workbench state (issue #45 item 5): a state file and a link say the same, survive a round
// trip, and anything else is refused naming the file.
#include "bundle/bundle.h"
#include "store/state_file.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace fl;

namespace {

store::WorkbenchState sample()
{
    store::WorkbenchState s;
    s.bundle = "/data/jobs/ambiguous two&faults";
    s.tab = "compare";
    s.selection = fl::EvidenceId(21);
    s.fromNs = 1'773'482'439'000'000'000;  // 2026-03-14T10:00:39Z
    s.toNs = 1'773'482'444'500'000'000;
    s.mode = store::StateMode::Review;
    s.step = 3;
    s.atNs = 1'773'482'441'000'000'000;  // 2026-03-14T10:00:41Z: the Teach replay's "known at"
    return s;
}

std::string refusal(const std::string& path, const std::string& content)
{
    {
        std::ofstream(path) << content;
    }
    try {
        (void)store::readState(path);
    } catch (const BundleError& e) {
        return e.what();
    }
    return "accepted";
}

} // namespace

class TestStateFile : public QObject
{
    Q_OBJECT
private slots:
    void fileRoundTrip()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("look-here.json").toStdString();
        std::string error;
        QVERIFY2(store::writeState(sample(), path, error), error.c_str());
        QVERIFY(store::readState(path) == sample());
    }

    void relativeBundleIsBesideTheStateFile()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("s.json").toStdString();
        { std::ofstream(path) << R"({"format": "faultline-state/1", "bundle": "job1", "tab": "timeline"})"; }
        const auto s = store::readState(path);
        QCOMPARE(s.bundle, tmp.filePath("job1").toStdString());
        QVERIFY(s.mode == store::StateMode::Investigate);
        QCOMPARE(s.fromNs, kNoTime);
    }

    void serviceSession()
    {
        store::WorkbenchState s;
        s.service = "http://faultline.example:8080";
        s.session = "3f2a";
        s.tab = "verdict";
        const auto back = store::stateFromJson(nlohmann::json::parse(store::stateToJson(s).dump()), "x.json");
        QVERIFY(back == s);
        QVERIFY(store::stateFromLink(store::stateToLink(s)) == s);
        // The run shown (File → Copy link on a service result): kept both ways, named in the link.
        s.run = 2;
        s.selection = EvidenceId(4);
        const std::string link = store::stateToLink(s);
        QVERIFY2(link == "faultline:?service=http://faultline.example:8080&session=3f2a&run=2&tab=verdict&select=ev-00005",
                 link.c_str());
        QVERIFY(store::stateFromLink(link) == s);
        QVERIFY(store::stateFromJson(nlohmann::json::parse(store::stateToJson(s).dump()), "x.json") == s);
        QCOMPARE(store::stateToJson(s)["service"]["run"].get<int>(), 2);
    }

    void linkRoundTrip()
    {
        const std::string link = store::stateToLink(sample());
        QVERIFY2(link.rfind("faultline:?bundle=/data/jobs/ambiguous%20two%26faults&tab=compare&select=ev-00022"
                            "&window=2026-03-14T10:00:39Z..2026-03-14T10:00:44.500Z&mode=review&step=3"
                            "&at=2026-03-14T10:00:41Z", 0) == 0,
                 link.c_str());
        QVERIFY(store::stateFromLink(link) == sample());
    }

    void refusedNamingTheFile()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("bad.json").toStdString();
        const std::pair<const char*, const char*> cases[] = {
            {R"({"format": "other/1", "bundle": "b"})", "not a Faultline state"},
            {R"({"format": "faultline-state/1"})", "neither"},
            {R"({"format": "faultline-state/1", "bundle": "b", "service": {"url": "u", "session": "s"}})", "both"},
            {R"({"format": "faultline-state/1", "service": {"url": "u", "session": "s", "run": 0}})", "not a run number"},
            {R"({"format": "faultline-state/1", "service": {"url": "u", "session": "s", "run": "2"}})", "not a run number"},
            {R"({"format": "faultline-state/1", "bundle": "b", "window": {"from": "2026-03-14T10:00:39Z"}})",
             "needs both"},
            {R"({"format": "faultline-state/1", "bundle": "b", "window": {"from": "2026-03-14T10:00:40Z",)"
             R"( "to": "2026-03-14T10:00:39Z"}})", "after"},
            {R"({"format": "faultline-state/1", "bundle": "b", "window": {"from": "yesterday", "to": "now"}})",
             "not an ISO 8601 time"},
            {R"({"format": "faultline-state/1", "bundle": "b", "mode": "exam"})", "unknown mode"},
            {R"({"format": "faultline-state/1", "bundle": 7})", "not a string"},
            {R"({"format": "faultline-state/1", "bundle": "b", "step": -2})", "step"},
            {R"({"format": "faultline-state/1", "bundle": "b", "at": "soon"})", "not an ISO 8601 time"},
            {R"({"format": "faultline-state/1", "bundle": "b", "selection": "line 12"})", "not an evidence id"},
            {R"({"format": "faultline-state/1", "bundle": "b", "selection": "ev-00000"})", "not an evidence id"},
            {"{not json", ""},
        };
        for (const auto& [content, why] : cases) {
            const std::string got = refusal(path, content);
            QVERIFY2(got.rfind(path + ": ", 0) == 0 && got.find(why) != std::string::npos, (content + (" -> " + got)).c_str());
        }
        for (const char* link : {"http://x", "faultline:?bundle=b&zoom=2", "faultline:?bundle=b&window=a..b",
                                 "faultline:?bundle=b%2", "faultline:?tab=timeline", "faultline:?bundle=b&select=ev-x",
                                 "faultline:?bundle=b&run=2", "faultline:?service=u&session=s&run=x",
                                 "faultline:?service=u&session=s&run=0", "faultline:?bundle=b&at=soon"}) {
            bool refused = false;
            try {
                (void)store::stateFromLink(link);
            } catch (const BundleError& e) {
                refused = std::string(e.what()).rfind("link: ", 0) == 0;
            }
            QVERIFY2(refused, link);
        }
    }
};

QTEST_GUILESS_MAIN(TestStateFile)
#include "test_state_file.moc"
