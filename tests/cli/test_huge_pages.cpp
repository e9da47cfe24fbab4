// app/common/huge_pages.h: the programs start themselves again once with glibc's huge-page
// tunable added, keep what the user set, and never loop. This executable is its own child:
// with --child it does what faultline-cli's main does first, then prints what it ended with.
#include "../../app/common/huge_pages.h"

#include <QCoreApplication>
#include <QFile>
#include <QProcess>
#include <QTest>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace {

struct Child {
    QString tunables, tried;
    qint64 pid = 0, reportedPid = 0;
};

Child run(const QStringList& set, const QStringList& unset = {}, const QString& loader = {})
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("GLIBC_TUNABLES"));
    env.remove(QStringLiteral("FAULTLINE_HUGE_PAGES_TRIED"));
    for (const QString& u : unset)
        env.remove(u);
    for (const QString& kv : set)
        env.insert(kv.section(QLatin1Char('='), 0, 0), kv.section(QLatin1Char('='), 1));
    QProcess p;
    p.setProcessEnvironment(env);
    if (loader.isEmpty())
        p.start(QCoreApplication::applicationFilePath(), {QStringLiteral("--child")});
    else
        p.start(loader, {QCoreApplication::applicationFilePath(), QStringLiteral("--child")});
    Child c;
    if (!p.waitForStarted(10000))
        return c;
    c.pid = p.processId();
    p.waitForFinished(30000);
    for (const QString& line : QString::fromUtf8(p.readAllStandardOutput()).split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("tunables=")))
            c.tunables = line.mid(9);
        else if (line.startsWith(QLatin1String("tried=")))
            c.tried = line.mid(6);
        else if (line.startsWith(QLatin1String("pid=")))
            c.reportedPid = line.mid(4).toLongLong();
    }
    return c;
}

bool kernelGrantsHugePages()
{
    QFile f(QStringLiteral("/sys/kernel/mm/transparent_hugepage/enabled"));
    return f.open(QIODevice::ReadOnly) && !f.readAll().contains("[never]");
}

} // namespace

class TestHugePages : public QObject {
    Q_OBJECT
private slots:
    void addedOnceInTheSameProcess()
    {
        const Child c = run({});
        QVERIFY(c.pid > 0);
        QCOMPARE(c.reportedPid, c.pid);  // started again by exec, not by a new process
        QCOMPARE(c.tunables, kernelGrantsHugePages() ? QStringLiteral("glibc.malloc.hugetlb=1") : QStringLiteral("(unset)"));
        QCOMPARE(c.tried, QStringLiteral("unset"));  // the marker is not handed on
    }

    void theUsersOtherTunablesAreKept()
    {
        const Child c = run({QStringLiteral("GLIBC_TUNABLES=glibc.malloc.arena_max=2")});
        QCOMPARE(c.tunables, kernelGrantsHugePages() ? QStringLiteral("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1")
                                                     : QStringLiteral("glibc.malloc.arena_max=2"));
    }

    void theUsersChoiceWins()
    {
        const Child c = run({QStringLiteral("GLIBC_TUNABLES=glibc.malloc.hugetlb=0")});
        QCOMPARE(c.tunables, QStringLiteral("glibc.malloc.hugetlb=0"));
    }

    void notWithAnythingPreloaded_data()
    {
        QTest::addColumn<QString>("preload");
        // valgrind preloads its vgpreload_*.so and would not follow a new start.
        QTest::newRow("valgrind") << QStringLiteral("/nonexistent/vgpreload_memcheck-amd64-linux.so");
        // jemalloc or tcmalloc replaces malloc: glibc's tunable would do nothing, the new start cost ~15 ms.
        QTest::newRow("allocator") << QStringLiteral("/nonexistent/libjemalloc.so.2");
    }

    void notWithAnythingPreloaded()
    {
        // A library that does not exist is only warned about by the loader.
        QFETCH(QString, preload);
        const Child c = run({QStringLiteral("LD_PRELOAD=") + preload});
        QVERIFY(c.pid > 0);
        QCOMPARE(c.tunables, QStringLiteral("(unset)"));
        QCOMPARE(c.reportedPid, c.pid);
    }

    void notWhenStartedThroughTheLoader()
    {
        // /proc/self/exe is then the loader: starting it again with our arguments would run something else.
        const QString loader = QStringLiteral("/lib64/ld-linux-x86-64.so.2");
        if (!QFile::exists(loader))
            QSKIP("no x86-64 dynamic loader at /lib64 here");
        const Child c = run({}, {}, loader);
        QVERIFY(c.pid > 0);
        QCOMPARE(c.tunables, QStringLiteral("(unset)"));
        QCOMPARE(c.reportedPid, c.pid);
    }

    void neverASecondTry()
    {
        // As if the first start had set the marker and the tunable had been dropped on the way.
        const Child c = run({QStringLiteral("FAULTLINE_HUGE_PAGES_TRIED=1")});
        QCOMPARE(c.tunables, QStringLiteral("(unset)"));
        QCOMPARE(c.tried, QStringLiteral("unset"));
    }
};

int main(int argc, char** argv)
{
    if (argc > 1 && std::strcmp(argv[1], "--child") == 0) {
        fl::app::preferHugePages(argv);
        const char* t = std::getenv("GLIBC_TUNABLES");
        std::printf("tunables=%s\ntried=%s\npid=%lld\n", t ? t : "(unset)",
                    std::getenv("FAULTLINE_HUGE_PAGES_TRIED") ? "set" : "unset", static_cast<long long>(getpid()));
        return 0;
    }
    QCoreApplication app(argc, argv);
    TestHugePages t;
    return QTest::qExec(&t, argc, argv);
}

#include "test_huge_pages.moc"
