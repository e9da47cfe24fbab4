// SPDX-License-Identifier: MIT
#include "workbenchview.h"

#include "viewstyle.h"

#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

namespace fl {

WorkbenchView::WorkbenchView(QWidget* parent)
    : QWidget(parent)
    , m_focus(new FocusState(this))
    , m_verdict(new VerdictPanel(m_focus))
    , m_explanation(new ExplanationPanel(m_focus))
    , m_timeline(new TimelinePanel(m_focus))
    , m_chain(new ChainGraphView(m_focus))
    , m_metrics(new MetricsPanel(m_focus))
    , m_evidence(new EvidencePanel(m_focus))
    , m_raw(new RawFilePanel)
    , m_centre(new QTabWidget)
    , m_side(new QTabWidget)
{
    // Left: what was decided and why. Centre: when and where. Bottom: the proof.
    m_side->addTab(m_verdict, tr("Verdict"));
    m_side->addTab(m_explanation, tr("Explanation"));
    m_centre->addTab(m_timeline, tr("Timeline"));
    m_centre->addTab(m_chain, tr("Symptom chain"));
    m_centre->addTab(m_metrics, tr("Metrics"));

    auto* bottom = new QSplitter(Qt::Horizontal);
    bottom->addWidget(m_evidence);
    bottom->addWidget(m_raw);
    bottom->setStretchFactor(0, 1);
    bottom->setStretchFactor(1, 1);
    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(m_centre);
    right->addWidget(bottom);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);
    auto* main = new QSplitter(Qt::Horizontal);
    main->addWidget(m_side);
    main->addWidget(right);
    main->setStretchFactor(0, 0);
    main->setStretchFactor(1, 1);
    main->setSizes({380, 1000});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(main);

    connect(m_focus, &FocusState::evidenceSelected, this, &WorkbenchView::openEvidence);
    connect(m_focus, &FocusState::laneSelected, m_timeline->view(), &TimelineView::scrollToLane);
}

void WorkbenchView::setAnalysis(std::shared_ptr<const Analysis> analysis)
{
    m_analysis = std::move(analysis);
    m_raw->view()->close();
    // Start on the incident: that is the question the reader opened this for.
    TimelineLanes lanes;
    if (m_analysis)
        lanes.build(m_analysis->result);
    FocusSnapshot initial;
    initial.startNs = lanes.incidentStart();
    initial.endNs = lanes.incidentEnd();
    m_focus->reset(initial);
    m_verdict->setAnalysis(m_analysis);
    m_explanation->setAnalysis(m_analysis);
    m_timeline->view()->setAnalysis(m_analysis);
    m_chain->setAnalysis(m_analysis);
    m_metrics->setAnalysis(m_analysis);
    m_evidence->setAnalysis(m_analysis);
    // The root cause's first evidence (else the first root-role item, as in
    // an ambiguous result) is selected and opened, without a history step.
    if (!m_analysis)
        return;
    const Result& r = m_analysis->result;
    FocusSnapshot s = m_focus->current();
    if (r.rootCause && !r.rootCause->evidence.empty()) {
        s.evidence = style::q(r.rootCause->evidence.front());
        s.event = r.rootCause->event;
    } else {
        for (const EvidenceItem& e : r.evidence) {
            if (e.role == EvidenceRole::Root) {
                s.evidence = style::q(e.id);
                s.event = e.event;
                break;
            }
        }
        // Unattributed: the earliest evidence is where a reader starts.
        const EvidenceItem* earliest = nullptr;
        for (const EvidenceItem& e : r.evidence)
            if (e.timeNs != kNoTime && (!earliest || e.timeNs < earliest->timeNs))
                earliest = &e;
        if (s.evidence.isEmpty() && earliest) {
            s.evidence = style::q(earliest->id);
            s.event = earliest->event;
        }
    }
    if (!s.evidence.isEmpty())
        m_focus->reset(s);
}

void WorkbenchView::openEvidence(const QString& id)
{
    if (!m_analysis || id.isEmpty())
        return;
    const std::string key = id.toStdString();
    for (const EvidenceItem& e : m_analysis->result.evidence) {
        if (e.id != key)
            continue;
        if (e.ref.file >= m_analysis->bundle.files.size())
            return;
        const SourceFile& f = m_analysis->bundle.files[e.ref.file];
        if (m_raw->view()->open(style::q(f.diskPath), style::q(f.path)))
            m_raw->view()->showRef(e.ref);
        return;
    }
}

} // namespace fl
