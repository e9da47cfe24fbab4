// A Python traceback is one unit (issue #41 item 7): of a chain of exceptions
// ("The above exception was the direct cause of the following exception:",
// "During handling of the above exception, another exception occurred:", as
// CPython's Lib/traceback.py prints them, cause first) the deepest statement a
// rule recognises decides; the statements printed after it are context in the
// same evidence, whose raw range is the whole traceback. torchrun's
// "[rank3]: " label and other ranks' lines in between do not split the unit.
#include "engine/engine.h"
#include "testutil.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

using namespace fl;
namespace fs = std::filesystem;
using fltest::candidateFor;
using fltest::shippedOnly;
using fltest::statusOf;
using fltest::writeFile;

namespace {

// Every line under one launcher label, and another rank's lines written in between.
std::string labelled(const std::string& label, const std::string& text, const std::string& other = {})
{
    std::string out;
    int n = 0;
    for (size_t pos = 0; pos < text.size();) {
        const size_t eol = text.find('\n', pos);
        out += label + text.substr(pos, eol - pos + 1);
        pos = eol + 1;
        if (!other.empty() && ++n % 4 == 0)
            out += other;
    }
    return out;
}

const std::string kEnospc =
    "Traceback (most recent call last):\n"
    "  File \"/opt/train/checkpoint.py\", line 41, in _write_shard\n"
    "    f.write(buf)\n"
    "OSError: [Errno 28] No space left on device\n"
    "\n"
    "The above exception was the direct cause of the following exception:\n"
    "\n"
    "Traceback (most recent call last):\n"
    "  File \"/opt/train/train.py\", line 311, in <module>\n"
    "    main()\n"
    "  File \"/opt/train/train.py\", line 297, in main\n"
    "    save_checkpoint(model, optimizer, step)\n"
    "  File \"/opt/train/checkpoint.py\", line 58, in save_checkpoint\n"
    "    raise RuntimeError(f\"checkpoint save failed at step {step}\") from e\n"
    "RuntimeError: checkpoint save failed at step 12000\n";

const std::string kCudaOom =
    "Traceback (most recent call last):\n"
    "  File \"/opt/train/train.py\", line 188, in train_step\n"
    "    loss.backward()\n"
    "  File \"/usr/lib/python3/dist-packages/torch/_tensor.py\", line 521, in backward\n"
    "    torch.autograd.backward(\n"
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total capacity of 79.11 GiB of which 1.02 GiB is free.\n"
    "\n"
    "During handling of the above exception, another exception occurred:\n"
    "\n"
    "Traceback (most recent call last):\n"
    "  File \"/opt/train/train.py\", line 240, in <module>\n"
    "    main()\n"
    "  File \"/opt/train/train.py\", line 231, in main\n"
    "    dump_state(step)\n"
    "ValueError: cannot dump optimizer state while a step is in flight\n";

void manifest(const fs::path& dir)
{
    writeFile(dir / "workload.json", R"({"window": {"start": "2026-11-30T11:00:00Z"},
      "ranks": [{"rank": 3, "node": "gpu-a17", "gpu": 3}, {"rank": 5, "node": "gpu-a17", "gpu": 5}]})");
}

std::string run(const fs::path& dir, Analysis& a)
{
    a = analyze(dir.string(), shippedOnly());
    return statusOf(a.result);
}

} // namespace

class TestTracebackUnit : public QObject {
    Q_OBJECT
private slots:
    void theDeepestStatementDecides();
    void interleavedRanksDoNotSplitTheUnit();
    void aCudaOomUnderCleanupIsStillTheOom();
};

void TestTracebackUnit::theDeepestStatementDecides()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    manifest(dir);
    writeFile(dir / "applog-rank3.log", "[2026-11-30 12:14:50] step 12000 | loss 2.0941\n" + kEnospc);
    Analysis a;
    QCOMPARE(QString::fromStdString(run(dir, a)), QStringLiteral("attributed"));
    QCOMPARE(QString::fromStdString(a.result.rootCause->symptom), QStringLiteral("storage.write_failed"));
    // the outer RuntimeError is context of the same unit, not a competing exception
    QVERIFY(!candidateFor(a.result, "workload.exception"));
    bool wholeUnit = false;
    for (const auto& ev : a.result.evidence)
        wholeUnit = wholeUnit || (ev.excerpt.find("OSError: [Errno 28]") != std::string::npos
                                  && ev.excerpt.find("RuntimeError: checkpoint save failed") != std::string::npos);
    QVERIFY(wholeUnit);
}

void TestTracebackUnit::interleavedRanksDoNotSplitTheUnit()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    manifest(dir);
    writeFile(dir / "applog-job.log", "[rank3]: [2026-11-30 12:14:50] step 12000 | loss 2.0941\n"
                                          + labelled("[rank3]: ", kEnospc, "[rank5]: [2026-11-30 12:14:51] step 12000 | waiting for checkpoint\n"));
    Analysis a;
    QCOMPARE(QString::fromStdString(run(dir, a)), QStringLiteral("attributed"));
    QCOMPARE(QString::fromStdString(a.result.rootCause->symptom), QStringLiteral("storage.write_failed"));
    QVERIFY(!candidateFor(a.result, "workload.exception"));
}

void TestTracebackUnit::aCudaOomUnderCleanupIsStillTheOom()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    manifest(dir);
    writeFile(dir / "applog-job.log", "[rank3]:[2026-11-30 12:14:50] step 800 | loss 2.31\n" + labelled("[rank3]:", kCudaOom));
    Analysis a;
    QCOMPARE(QString::fromStdString(run(dir, a)), QStringLiteral("attributed"));
    QCOMPARE(QString::fromStdString(a.result.rootCause->symptom), QStringLiteral("workload.cuda_oom"));
    QVERIFY(!candidateFor(a.result, "workload.exception"));
}

QTEST_GUILESS_MAIN(TestTracebackUnit)
#include "test_traceback_unit.moc"
