// The parse tests are three Qt Test classes run from one executable.
#pragma once

#include "model.h"

#include <QObject>
#include <QTest>


// Enum values compared by name, so that failures read well.
inline QString nameOf(fl::TimeBasis b)
{
    const auto n = fl::toString(b);
    return QString::fromUtf8(n.data(), qsizetype(n.size()));
}
inline QString nameOf(fl::Severity v)
{
    const auto n = fl::toString(v);
    return QString::fromUtf8(n.data(), qsizetype(n.size()));
}

class LineParseTest : public QObject {
    Q_OBJECT
private slots:
    void prefixes_data();
    void prefixes();
    void shapeSamples();
    void impossibleDates_data();
    void impossibleDates();
    void hostileBytes();
    void findLiteralIsFind();
    void hugeLineIsBounded();
    void timeContext();
    void inheritedTime();
    void outOfRangeTimes();
    void yearWithoutManifest();
    void wrappedLines();
    void kindAndNodeFromContent();
    void slurmDaemonNamedAfterNode();
    void rfc5424HostNamesTheFile();
};

class ExtentTest : public QObject {
    Q_OBJECT
private slots:
    void records_data();
    void records();
    void plainLineIsItself();
    void boundedOnHugeInput();
};

class StructuredTest : public QObject {
    Q_OBJECT
private slots:
    void sacctJson();
    void sacctJsonBad();
    void sacctPipe();
    void sacctTable();
    void k8sEvents();
    void k8sEventTable();
    void promQueryRange();
    void promQuery();
    void openMetricsText();
    void csvMetrics();
    void csvValuesAsFromChars();
    void csvFieldsAcrossBlocks();
    void csvRowsAreTheTextLines();
    void csvSeriesInAnyOrder();
    void metricsKeepModesAgree();
    void promJsonReadStraightAsTheLibraryReadsIt();
    void metricsJudgedNamesKeepTheirSamples();
    void csvMetricsLargerThanABlock();
    void notThisFormat();
};

class ClusterTextTest : public QObject {
    Q_OBJECT
private slots:
    void kubectlPodsWide();
    void kubectlPodRowsWithoutHeader();
    void kubectlDescribePod();
    void kubectlDescribeNode();
    void k8sObjectsJson();
    void scontrolShow();
    void nvidiaSmiQuery();
    void dcgmiDiag();
    void notThese();
};

class TracebackTest : public QObject {
    Q_OBJECT
private slots:
    void chainedStatementsInOrder();
    void prefixedAndInterleaved();
    void torchrunBlockAndLoneLines();
};
