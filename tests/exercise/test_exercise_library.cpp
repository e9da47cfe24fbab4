// The exercise library (issue #44 item 4): every shipped sample is listed with a lesson that does not give
// the answer away, and `exercise list` shows each learner's past scores, recorded by `exercise score
// --learner` in a notes file.
#include "cli_run.h"

#include "bundle/bundle.h"
#include "bundle/json_file.h"
#include "exercise/library.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>

namespace {

using fl::test::cli;
namespace fs = std::filesystem;

const std::string kSamples = FAULTLINE_SOURCE_DIR "/samples";
const QString kLibrary = QStringLiteral(FAULTLINE_SOURCE_DIR "/resources/exercises.json");

} // namespace

class TestExerciseLibrary : public QObject {
    Q_OBJECT
private slots:
    void everySampleIsListedWithALessonThatHidesItsAnswer()
    {
        const auto library = fl::exercise::readLibrary(kLibrary.toStdString());
        for (const auto& dir : fs::directory_iterator(kSamples)) {
            const fs::path expected = dir.path() / "expected.json";
            if (!fs::exists(expected))
                continue;
            const std::string name = dir.path().filename().string();
            const auto it = std::find_if(library.begin(), library.end(),
                                         [&](const auto& e) { return e.root == "samples" && e.folder == name; });
            QVERIFY2(it != library.end(), name.c_str());
            QVERIFY2(fs::exists(dir.path() / it->label), name.c_str());
            // The lesson names the skill: no node of the answer, no GPU address.
            const nlohmann::json label = fl::readJsonFile(expected.string());
            if (label.contains("root_cause") && label["root_cause"].is_object())
                for (const char* key : {"node", "pci_bus"})
                    if (label["root_cause"].contains(key) && label["root_cause"][key].is_string()) {
                        const std::string v = label["root_cause"][key].get<std::string>();
                        QVERIFY2(v.empty() || it->lesson.find(v) == std::string::npos, (name + ": " + v).c_str());
                    }
        }
        for (const auto& e : library)
            QVERIFY2(!e.lesson.empty() && e.lesson.find('\n') == std::string::npos, e.id.c_str());
    }

    void aBrokenLibraryIsRefusedNamingTheFile()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("lib.json").toStdString();
        { std::ofstream(path) << R"({"format": "faultline-exercise-library/1", "exercises": [{"id": "a", "root": "samples", "folder": "a"}]})"; }
        try {
            (void)fl::exercise::readLibrary(path);
            QFAIL("accepted an exercise without a lesson");
        } catch (const fl::BundleError& e) {
            QVERIFY2(std::string(e.what()).find(path + ": exercise 1: no \"lesson\"") == 0, e.what());
        }
    }

    void pastScoresPerLearner()
    {
        QTemporaryDir tmp;
        const QString sample = QString::fromStdString(kSamples + "/xid149-nccl");
        const QString key = tmp.filePath("xid149-nccl.key.json");
        const QString notes = tmp.filePath("scores/library.faultline-notes.sqlite");
        auto r = cli({"exercise", "from-bundle", sample, "--key-from", sample + "/expected.json", key});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        r = cli({"exercise", "score", key, "--mark", "syslog-node-02.log:4", "--learner", "carol", "--notes", notes});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains("recorded carol's score on xid149-nccl"), qPrintable(r.err));
        r = cli({"exercise", "score", key, "--mark", "applog-node-01-rank0.log:1", "--learner", "dave", "--notes", notes});
        QVERIFY2(r.code == 0, qPrintable(r.err));

        r = cli({"exercise", "list", "--library", kLibrary, "--notes", notes});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("xid149-nccl — Follow NCCL timeouts"), qPrintable(r.out));
        QVERIFY2(r.out.contains(QRegularExpression("\n  carol: 1 \\(20\\d\\d-")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QRegularExpression("\n  dave: 0 \\(20\\d\\d-")), qPrintable(r.out));
        QVERIFY2(r.out.contains("case09 — "), qPrintable(r.out));
        QVERIFY2(r.out.contains("(incidents folder not given: --incidents DIR)"), qPrintable(r.out));

        r = cli({"exercise", "list", "--library", kLibrary, "--notes", notes, "--learner", "dave", "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(!r.out.contains("carol") && r.out.contains("\"learner\": \"dave\""), qPrintable(r.out));

        r = cli({"exercise", "list", "--notes", tmp.filePath("none.sqlite")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(tmp.filePath("none.sqlite") + ": no such notes file"), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestExerciseLibrary)
#include "test_exercise_library.moc"
