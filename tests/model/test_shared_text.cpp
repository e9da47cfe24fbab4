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
    }
};

QTEST_GUILESS_MAIN(TestSharedText)
#include "test_shared_text.moc"
