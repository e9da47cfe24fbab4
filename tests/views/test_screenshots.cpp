// SPDX-License-Identifier: MIT
// Renders the workbench and each view to PNGs in the build dir
// (screenshots/*.png) for people to look at; asserts they are not blank.
#include "viewfixture.h"
#include "views/workbench/workbenchview.h"

#include <QDir>
#include <QImage>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace fl;

class TestScreenshots : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_out;

    // Distinct colours in a coarse sample: a blank or one-colour render has very few.
    static int colourCount(const QImage& img)
    {
        QSet<QRgb> colours;
        for (int y = 0; y < img.height(); y += 3)
            for (int x = 0; x < img.width(); x += 3)
                colours.insert(img.pixel(x, y));
        return int(colours.size());
    }

    void save(QWidget* w, const QString& name)
    {
        const QImage img = w->grab().toImage();
        QVERIFY2(img.save(m_out + QLatin1Char('/') + name), qPrintable(name));
        QVERIFY2(colourCount(img) > 8, qPrintable(name + QStringLiteral(" looks blank")));
    }

private slots:
    void initTestCase()
    {
        m_out = QStringLiteral(FAULTLINE_BINARY_DIR "/screenshots");
        QVERIFY(QDir().mkpath(m_out));
    }

    void attributed()
    {
        WorkbenchView w;
        w.resize(1600, 1000);
        w.setAnalysis(test::makeIncident(m_dir.filePath(QStringLiteral("a"))));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        save(&w, QStringLiteral("workbench.png"));
        save(w.verdict(), QStringLiteral("verdict.png"));
        save(w.timeline(), QStringLiteral("timeline.png"));
        save(w.evidence(), QStringLiteral("evidence.png"));
        save(w.raw(), QStringLiteral("rawfile.png"));
        w.centreTabs()->setCurrentWidget(w.chain());
        save(w.chain(), QStringLiteral("chain.png"));
        w.centreTabs()->setCurrentWidget(w.metrics());
        save(w.metrics(), QStringLiteral("metrics.png"));
        w.sideTabs()->setCurrentWidget(w.explanation());
        save(w.explanation(), QStringLiteral("explanation.png"));
    }

    void ambiguous()
    {
        WorkbenchView w;
        w.resize(1600, 1000);
        w.setAnalysis(test::makeIncident(m_dir.filePath(QStringLiteral("b")), true));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        save(&w, QStringLiteral("workbench-ambiguous.png"));
        w.sideTabs()->setCurrentWidget(w.explanation());
        save(w.explanation(), QStringLiteral("explanation-ambiguous.png"));
    }
};

QTEST_MAIN(TestScreenshots)
#include "test_screenshots.moc"
