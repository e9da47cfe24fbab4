// SPDX-License-Identifier: MIT
// Every view of one analysis, laid out and wired to one FocusState. The
// application's main window holds one of these; the tests build it directly.
#pragma once

#include "chaingraphview.h"
#include "evidencepanel.h"
#include "explanationpanel.h"
#include "focusstate.h"
#include "metricspanel.h"
#include "rawfilepanel.h"
#include "timelinepanel.h"
#include "verdictpanel.h"

#include <QWidget>

class QTabWidget;

namespace fl {

class WorkbenchView : public QWidget
{
    Q_OBJECT
public:
    explicit WorkbenchView(QWidget* parent = nullptr);
    void setAnalysis(std::shared_ptr<const Analysis> analysis);
    std::shared_ptr<const Analysis> analysis() const { return m_analysis; }

    FocusState* focus() const { return m_focus; }
    VerdictPanel* verdict() const { return m_verdict; }
    ExplanationPanel* explanation() const { return m_explanation; }
    TimelinePanel* timeline() const { return m_timeline; }
    ChainGraphView* chain() const { return m_chain; }
    MetricsPanel* metrics() const { return m_metrics; }
    EvidencePanel* evidence() const { return m_evidence; }
    RawFilePanel* raw() const { return m_raw; }
    QTabWidget* centreTabs() const { return m_centre; }
    QTabWidget* sideTabs() const { return m_side; }

private:
    void openEvidence(const QString& id);

    std::shared_ptr<const Analysis> m_analysis;
    FocusState* m_focus;
    VerdictPanel* m_verdict;
    ExplanationPanel* m_explanation;
    TimelinePanel* m_timeline;
    ChainGraphView* m_chain;
    MetricsPanel* m_metrics;
    EvidencePanel* m_evidence;
    RawFilePanel* m_raw;
    QTabWidget* m_centre;
    QTabWidget* m_side;
};

} // namespace fl
