// SharedText: the rule ids that 80,000 events and 195,000 edges of a wide job
// name are one copy each, and so are the symptom ids and suppression reasons
// their rules give them. A copy must share the text, and comparing with plain
// text must give the same answers as std::string does.
#include "rules/rule.h"
#include "rules/template.h"
#include "shared_text.h"

#include <QtTest>

#include <string>
#include <string_view>
#include <thread>
#include <vector>

class TestSharedText : public QObject {
    Q_OBJECT
private slots:
    void copiesShareOneText()
    {
        const fl::SharedText a(std::string("nccl.extract.watchdog-timeout"));
        const fl::SharedText b = a;
        QCOMPARE(&a.str(), &b.str());
        const fl::SharedText c(std::string("nccl.extract.watchdog-timeout"));
        QVERIFY(&a.str() != &c.str()); // made apart: equal by content only
        QVERIFY(a == c);
    }
    void lastHolderFreesAndCopiesCrossThreads()
    {
        fl::SharedText a(std::string("nccl.filter.watchdog-after-xid"));
        const std::string* text = &a.str();
        fl::SharedText b;
        b = a;
        b = b; // self-assignment keeps the text
        QCOMPARE(&b.str(), text);
        fl::SharedText moved = std::move(a);
        QVERIFY(a.empty()); // a moved-from text is empty, not dangling
        QCOMPARE(&moved.str(), text);
        a = std::move(moved);
        moved = fl::SharedText("other");
        QCOMPARE(moved.str(), std::string("other"));
        QCOMPARE(&a.str(), text);
        // The scan's threads copy the rules' ids into their events and drop
        // them: the count must not lose a copy (ASan/TSan builds see a miss).
        std::vector<std::thread> threads;
        std::vector<std::vector<fl::SharedText>> held(4);
        for (size_t t = 0; t < held.size(); ++t)
            threads.emplace_back([&, t] {
                for (int i = 0; i < 20000; ++i) {
                    held[t].push_back(a);
                    if (i % 3 == 0)
                        held[t].pop_back();
                }
            });
        for (auto& th : threads)
            th.join();
        b = {};
        for (auto& h : held) {
            QCOMPARE(h.size(), size_t(13333));
            QCOMPARE(&h.front().str(), text);
        }
        held.clear();
        QCOMPARE(a.str(), std::string("nccl.filter.watchdog-after-xid"));
    }
    void comparesWithPlainText()
    {
        const fl::SharedText a("gpu.extract.xid");
        QVERIFY(a == "gpu.extract.xid");
        QVERIFY(a == std::string("gpu.extract.xid"));
        QVERIFY(a == std::string_view("gpu.extract.xid"));
        QVERIFY(!(a == "gpu.extract.xi"));
        QVERIFY(!(a == std::string_view("gpu.extract.xid2")));
        QVERIFY(a != std::string("other"));
        const fl::SharedText none;
        QVERIFY(none.empty());
        QVERIFY(none == "");
        QVERIFY(none == std::string());
        QVERIFY(fl::SharedText("a") < fl::SharedText("b"));
    }
    void ruleIdIsSharedOnceSet()
    {
        fl::Rule r;
        r.id = "workload.filter.rank-died";
        // A rule built by hand (no RuleSet::compile) still names itself.
        QCOMPARE(fl::sharedRuleId(r).str(), r.id);
        r.sharedId = r.id;
        const fl::SharedText one = fl::sharedRuleId(r), two = fl::sharedRuleId(r);
        QCOMPARE(&one.str(), &two.str());
        QCOMPARE(&one.str(), &r.sharedId.str());
    }
    void symptomWithoutPlaceholdersIsShared()
    {
        const fl::SharedText plain("nccl.watchdog_timeout");
        const fl::FieldMap fields{{"xid", "79"}};
        const fl::SharedText one = fl::expandShared(plain, fields), two = fl::expandShared(plain, fields);
        QCOMPARE(&one.str(), &plain.str());
        QCOMPARE(&two.str(), &plain.str());
        // A template is expanded for each event, as expandTemplate does.
        const fl::SharedText tmpl("gpu.xid_{xid}");
        const fl::SharedText expanded = fl::expandShared(tmpl, fields);
        QCOMPARE(expanded.str(), std::string("gpu.xid_79"));
        QCOMPARE(expanded.str(), fl::expandTemplate(tmpl.str(), fields));
        QCOMPARE(fl::expandShared(fl::SharedText("a{"), fields).str(), fl::expandTemplate("a{", fields));
        // set_symptom / infer: "{symptom}" is the event's symptom, read beside its fields and winning over a
        // field of that name (as when it was written into a copy of them).
        const fl::FieldMap withSymptomField{{"symptom", "from-a-field"}, {"xid", "79"}};
        const std::string current = "gpu.xid";
        QCOMPARE(&fl::expandShared(plain, withSymptomField, "symptom", current).str(), &plain.str());
        QCOMPARE(fl::expandShared(fl::SharedText("{symptom}.{xid}"), withSymptomField, "symptom", current).str(),
                 std::string("gpu.xid.79"));
        QCOMPARE(fl::expandTemplate("{symptom}-{missing}", withSymptomField, "symptom", current), std::string("gpu.xid-"));
    }
};

QTEST_GUILESS_MAIN(TestSharedText)
#include "test_shared_text.moc"
