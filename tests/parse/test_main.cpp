#include "test_parse.h"

#include <QCoreApplication>
#include <QTest>

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    int failures = 0;
    {
        LineParseTest t;
        failures += QTest::qExec(&t, argc, argv);
    }
    {
        ExtentTest t;
        failures += QTest::qExec(&t, argc, argv);
    }
    {
        StructuredTest t;
        failures += QTest::qExec(&t, argc, argv);
    }
    {
        ClusterTextTest t;
        failures += QTest::qExec(&t, argc, argv);
    }
    {
        TracebackTest t;
        failures += QTest::qExec(&t, argc, argv);
    }
    return failures == 0 ? 0 : 1;
}
