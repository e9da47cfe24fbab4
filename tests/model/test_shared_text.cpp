// SharedText: the rule ids that 80,000 events and 195,000 edges of a wide job
// name are one copy each. A copy must share the text, and comparing with plain
// text must give the same answers as std::string does.
#include "rules/rule.h"
#include "shared_text.h"

#include <QtTest>

#include <string>
#include <string_view>

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
};

QTEST_GUILESS_MAIN(TestSharedText)
#include "test_shared_text.moc"
