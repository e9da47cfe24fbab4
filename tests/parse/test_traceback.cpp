// A Python traceback's exception statements as one unit (issue #41 item 7): in the order CPython's
// Lib/traceback.py prints them (cause first, then "The above exception was the direct cause of the
// following exception:" or "During handling of the above exception, another exception occurred:"),
// under torchrun's "[rank3]: " / "[default0]:" labels, with other ranks' lines in between.
#include "parse/extent.h"
#include "test_parse.h"

#include <string>

using namespace fl;

namespace {

const std::string kChain =
    "Traceback (most recent call last):\n"
    "  File \"/opt/train/checkpoint.py\", line 41, in _write_shard\n"
    "    f.write(buf)\n"
    "OSError: [Errno 28] No space left on device\n"
    "\n"
    "The above exception was the direct cause of the following exception:\n"
    "\n"
    "Traceback (most recent call last):\n"
    "  File \"/opt/train/train.py\", line 297, in main\n"
    "    save_checkpoint(model, optimizer, step)\n"
    "RuntimeError: checkpoint save failed at step 12000\n"
    "\n"
    "During handling of the above exception, another exception occurred:\n"
    "\n"
    "Traceback (most recent call last):\n"
    "  File \"/opt/train/train.py\", line 311, in <module>\n"
    "    main()\n"
    "ValueError: cleanup failed\n"
    "[2026-11-30 12:14:56] next record\n";

std::string labelled(const std::string& label, const std::string& text, const std::string& other)
{
    std::string out;
    int n = 0;
    for (size_t pos = 0; pos < text.size();) {
        const size_t eol = text.find('\n', pos);
        out += label + text.substr(pos, eol - pos + 1);
        pos = eol + 1;
        if (++n % 3 == 0)
            out += other;
    }
    return out;
}

std::vector<ExceptionStatement> at(const std::string& buf, std::string_view line)
{
    const size_t b = buf.find(line);
    return tracebackStatements(buf, b, buf.find('\n', b));
}

std::string lineAt(const std::string& buf, size_t b) { return buf.substr(b, buf.find('\n', b) - b); }

} // namespace

void TracebackTest::chainedStatementsInOrder()
{
    for (std::string_view from : {"OSError: [Errno 28]", "RuntimeError: checkpoint", "ValueError: cleanup"}) {
        const auto st = at(kChain, from);
        QCOMPARE(int(st.size()), 3);
        QCOMPARE(QString::fromStdString(lineAt(kChain, st[0].begin)), QStringLiteral("OSError: [Errno 28] No space left on device"));
        QVERIFY(st[0].link == ChainLink::First);
        QVERIFY(st[1].link == ChainLink::DirectCause);
        QVERIFY(st[2].link == ChainLink::DuringHandling);
        QCOMPARE(QString::fromStdString(lineAt(kChain, st[2].begin)), QStringLiteral("ValueError: cleanup failed"));
    }
    // a frame, the Traceback line or a line after the unit is no statement of it
    QVERIFY(at(kChain, "  File \"/opt/train/train.py\", line 297").empty());
    QVERIFY(at(kChain, "Traceback (most recent call last):").empty());
    QVERIFY(at(kChain, "[2026-11-30 12:14:56] next record").empty());
}

void TracebackTest::prefixedAndInterleaved()
{
    // torchrun's "[rank3]: " template, another rank writing in between
    const std::string buf = labelled("[rank3]: ", kChain, "[rank5]: [2026-11-30 12:14:51] step 12000 | waiting\n");
    const auto st = at(buf, "[rank3]: RuntimeError: checkpoint");
    QCOMPARE(int(st.size()), 3);
    QCOMPARE(QString::fromStdString(lineAt(buf, st[0].begin)), QStringLiteral("[rank3]: OSError: [Errno 28] No space left on device"));
    // the whole unit is one record, other ranks' lines inside it
    const size_t b = buf.find("[rank3]: RuntimeError");
    const Extent ex = recordExtent(buf, b, buf.find('\n', b));
    QCOMPARE(QString::fromStdString(lineAt(buf, ex.begin)), QStringLiteral("[rank3]: Traceback (most recent call last):"));
    QVERIFY(buf.substr(ex.begin, ex.end - ex.begin).find("[rank3]: ValueError: cleanup failed") != std::string::npos);
    // "[default0]:" without the space
    const std::string d = labelled("[default0]:", kChain, "[default1]:step 7\n");
    QCOMPARE(int(at(d, "[default0]:ValueError").size()), 3);
}

void TracebackTest::torchrunBlockAndLoneLines()
{
    // one exception printed without a traceback is no unit
    const std::string lone = "[2026-11-30 12:14:55] RuntimeError: shape mismatch\n";
    QVERIFY(at(lone, "RuntimeError").empty());
    // a traceback with one statement: one statement, nothing to decide between
    const std::string one = "Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\n    f()\nKeyError: 'x'\n";
    QCOMPARE(int(at(one, "KeyError").size()), 1);
}
