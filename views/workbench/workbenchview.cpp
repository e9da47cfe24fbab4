// SPDX-License-Identifier: MIT
#include "views/workbench/workbenchview.h"

#include "views/review/overridedialog.h"
#include "views/common/viewstyle.h"
#include "exercise/quiz.h"

#include <QElapsedTimer>
#include <QInputDialog>
#include <QTableView>

#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

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
    , m_stepper(new PhaseStepperPanel(m_focus))
    , m_quiz(new QuizPanel)
    , m_notes(std::make_unique<NotesStore>())
    , m_centre(new QTabWidget)
    , m_side(new QTabWidget)
    , m_jobs(new ViewJobs(this))
{
    // Left: what was decided and why. Centre: when and where. Bottom: the proof.
    m_side->addTab(m_verdict, tr("Verdict"));
    m_side->addTab(m_explanation, tr("Explanation"));
    m_side->addTab(m_stepper, tr("Teach"));
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
    m_rightSplit = right;
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

    // The stepper highlights only while its tab is shown: elsewhere the
    // dimmed graph would puzzle a reader who never asked for it.
    m_stepper->setHighlighting(false);
    connect(m_side, &QTabWidget::currentChanged, this, [this] { m_stepper->setHighlighting(m_side->currentWidget() == m_stepper); });

    // Notes: the views ask, this class writes and refreshes.
    connect(m_evidence, &EvidencePanel::noteRequested, this, &WorkbenchView::editEvidenceNote);
    connect(m_evidence, &EvidencePanel::noteRemoveRequested, this, [this](const QString& id) {
        static_cast<void>(setEvidenceNote(id, {}));  // a failure reaches the user through notesError
    });
    connect(m_evidence, &EvidencePanel::bookmarkToggleRequested, this, [this](const QString& id) {
        if (const EvidenceItem* e = evidenceById(id))
            static_cast<void>(toggleBookmark(style::q(e->file), e->ref.line));  // failure: notesError
    });
    connect(m_timeline->view(), &TimelineView::laneNoteRequested, this, &WorkbenchView::editLaneNote);
    connect(m_raw->view(), &RawFileView::bookmarkToggleRequested, this,
            [this](quint64 line) {
                static_cast<void>(toggleBookmark(m_raw->view()->displayName(), line));  // failure: notesError
            });
    connect(m_raw->view(), &RawFileView::lineNoteRequested, this, &WorkbenchView::editLineNote);
    connect(m_raw->view(), &RawFileView::fileOpened, this, [this] { refreshNotes(); });
    connect(m_verdict, &VerdictPanel::overrideRequested, this, &WorkbenchView::editVerdictOverride);
    connect(m_verdict, &VerdictPanel::overrideClearRequested, this, &WorkbenchView::clearVerdictOverride);
    connect(m_jobs, &ViewJobs::allFinished, this, &WorkbenchView::onViewsReady);

    // Quiz: marks from the evidence table and the raw lines; Reveal scores them.
    m_quiz->hide();
    connect(m_evidence, &EvidencePanel::markRequested, m_quiz, &QuizPanel::addMark);
    connect(m_raw->view(), &RawFileView::markRequested, this,
            [this](quint64 line) { m_quiz->addMark(m_raw->view()->displayName(), line); });
    connect(m_quiz, &QuizPanel::revealRequested, this, &WorkbenchView::reveal);
}

void WorkbenchView::showTabs(bool quiz)
{
    // Removed tabs keep their widgets (this object owns them through the splitters' tab widgets' parents).
    while (m_side->count() > 0)
        m_side->removeTab(0);
    while (m_centre->count() > 0)
        m_centre->removeTab(0);
    if (quiz) {
        m_side->addTab(m_quiz, tr("Exercise"));
    } else {
        m_side->addTab(m_verdict, tr("Verdict"));
        m_side->addTab(m_explanation, tr("Explanation"));
        m_side->addTab(m_stepper, tr("Teach"));
        if (m_quizFull)
            m_side->addTab(m_quiz, tr("Exercise"));
    }
    m_centre->addTab(m_timeline, tr("Timeline"));
    if (!quiz)
        m_centre->addTab(m_chain, tr("Symptom chain"));
    m_centre->addTab(m_metrics, tr("Metrics"));
    // A widget out of its tab widget is still a child of the window: hide what the quiz keeps out of sight.
    for (QWidget* w : {static_cast<QWidget*>(m_verdict), static_cast<QWidget*>(m_explanation),
                       static_cast<QWidget*>(m_stepper), static_cast<QWidget*>(m_chain)})
        if (quiz) {
            w->setParent(this);
            w->hide();
        }
    m_evidence->setMarking(quiz);
    m_raw->view()->setMarking(quiz);
}

void WorkbenchView::setQuiz(std::shared_ptr<const Analysis> full, std::optional<exercise::ExerciseKey> key,
                            ViewJobs::Mode mode)
{
    m_quizFull = std::move(full);
    m_quizKey = std::move(key);
    m_revealed = false;
    m_quiz->reset();
    showTabs(true);
    setAnalysis(m_quizFull ? std::make_shared<const Analysis>(exercise::quizAnalysis(*m_quizFull)) : nullptr, mode);
}

void WorkbenchView::endQuiz()
{
    if (!m_quizFull)
        return;
    m_quizFull.reset();
    m_quizKey.reset();
    m_revealed = false;
    showTabs(false);
}

void WorkbenchView::reveal()
{
    if (!m_quizFull || m_revealed)
        return;
    if (!m_quizKey)
        m_quizKey = exercise::buildKey(*m_quizFull, exercise::labelOfEngine(m_quizFull->result),
                                       m_quizFull->bundle.root);
    try {
        m_quiz->showScore(exercise::scoreMarks(*m_quizKey, m_quiz->marks(), "the exercise key"));
    } catch (const std::exception& e) {
        m_quiz->showError(QString::fromStdString(e.what()));
        return;
    }
    m_revealed = true;
    showTabs(false);
    setAnalysis(m_quizFull, ViewJobs::Mode::Inline);
    m_side->setCurrentWidget(m_stepper);
}

WorkbenchView::~WorkbenchView() = default;

const EvidenceItem* WorkbenchView::evidenceById(const QString& id) const
{
    return m_analysis ? m_evidence->model()->itemById(id) : nullptr;
}

QString WorkbenchView::openNotes(const QString& bundlePath)
{
    const bool opened = m_notes->openFor(bundlePath);
    refreshNotes();
    if (!opened && m_notes->error().isEmpty())  // never report a failed open as success
        return tr("Notes cannot be opened for %1").arg(bundlePath);
    return m_notes->error();
}

bool WorkbenchView::saveNotesAs(const QString& dbPath)
{
    return checked(m_notes->saveAs(dbPath));
}

bool WorkbenchView::checked(bool ok)
{
    refreshNotes();
    if (ok)
        emit notesChanged();
    else
        emit notesError(tr("Notes not saved: %1").arg(m_notes->error().isEmpty() ? tr("no bundle open") : m_notes->error()));
    return ok;
}

bool WorkbenchView::setEvidenceNote(const QString& evidenceId, const QString& text)
{
    const EvidenceItem* e = evidenceById(evidenceId);
    if (!e)
        return false;
    return checked(m_notes->setNote(NotesStore::kEvidence, evidenceId, text, style::q(e->file), e->ref.line));
}

bool WorkbenchView::setLaneNote(const QString& laneKey, const QString& text)
{
    return checked(m_notes->setNote(NotesStore::kLane, laneKey, text));
}

bool WorkbenchView::toggleBookmark(const QString& file, quint64 line)
{
    for (const LineBookmark& b : m_notes->bookmarks(file))
        if (b.line == line)
            return checked(m_notes->removeBookmark(file, line));
    return checked(m_notes->addBookmark(file, line));
}

bool WorkbenchView::setLineNote(const QString& file, quint64 line, const QString& text)
{
    return checked(m_notes->addBookmark(file, line, text));
}

bool WorkbenchView::setVerdictOverride(const VerdictOverride& o)
{
    return checked(m_notes->setVerdictOverride(o));
}

bool WorkbenchView::clearVerdictOverride()
{
    return checked(m_notes->clearVerdictOverride());
}

void WorkbenchView::refreshNotes()
{
    QHash<QString, QString> evidence, lanes;
    for (const ItemNote& n : m_notes->notes()) {
        if (n.kind == NotesStore::kEvidence)
            evidence.insert(n.target, n.text);
        else if (n.kind == NotesStore::kLane)
            lanes.insert(n.target, n.text);
    }
    // An evidence id can change when the rules change; the note follows the
    // line it was written on.
    if (m_analysis) {
        for (const ItemNote& n : m_notes->notes(NotesStore::kEvidence)) {
            if (evidenceById(n.target) || n.file.isEmpty())
                continue;
            for (const EvidenceItem& e : m_analysis->result.evidence)
                if (style::q(e.file) == n.file && e.ref.line == n.line && !evidence.contains(style::q(e.id)))
                    evidence.insert(style::q(e.id), n.text);
        }
    }
    QSet<QString> marked;
    std::map<uint64_t, QString> rawMarks;
    const QString rawFile = m_raw->view()->displayName();
    for (const LineBookmark& b : m_notes->bookmarks()) {
        marked.insert(EvidenceModel::lineKey(b.file, b.line));
        if (b.file == rawFile)
            rawMarks[b.line] = b.note;
    }
    m_evidence->model()->setNotes(evidence, marked);
    m_evidence->fitNoteColumn();
    m_timeline->view()->setLaneNotes(lanes);
    m_raw->view()->setBookmarks(std::move(rawMarks));
    m_verdict->setOverride(m_notes->verdictOverride());
}

bool WorkbenchView::openRawLine(const QString& file, quint64 line)
{
    if (!m_analysis)
        return false;
    for (const SourceFile& f : m_analysis->bundle.files) {
        if (style::q(f.path) != file)
            continue;
        if (!m_raw->view()->open(style::q(f.diskPath), style::q(f.path)))
            return false;
        m_raw->view()->goToLine(line);
        return true;
    }
    return false;
}

void WorkbenchView::editEvidenceNote(const QString& evidenceId)
{
    bool ok = false;
    const QString text = QInputDialog::getMultiLineText(this, tr("Note on evidence %1").arg(evidenceId), tr("Note:"),
                                                        m_notes->note(NotesStore::kEvidence, evidenceId), &ok);
    if (ok)
        static_cast<void>(setEvidenceNote(evidenceId, text));  // failure: notesError
}

void WorkbenchView::editLaneNote(const QString& laneKey)
{
    bool ok = false;
    const QString text = QInputDialog::getMultiLineText(this, tr("Note on %1").arg(laneKey), tr("Note:"),
                                                        m_notes->note(NotesStore::kLane, laneKey), &ok);
    if (ok)
        static_cast<void>(setLaneNote(laneKey, text));  // failure: notesError
}

void WorkbenchView::editLineNote(quint64 line)
{
    const QString file = m_raw->view()->displayName();
    const auto& marks = m_raw->view()->bookmarks();
    const auto it = marks.find(line);
    bool ok = false;
    const QString text = QInputDialog::getMultiLineText(this, tr("Note on %1:%2").arg(file).arg(line), tr("Note:"),
                                                        it == marks.end() ? QString() : it->second, &ok);
    if (ok)
        static_cast<void>(setLineNote(file, line, text));  // failure: notesError
}

void WorkbenchView::editVerdictOverride()
{
    if (!m_analysis)
        return;
    const Result& r = m_analysis->result;
    VerdictOverride init;
    if (const auto prev = m_notes->verdictOverride()) {
        init = *prev;
    } else {
        init.status = style::q(toString(r.status));
        init.domain = style::q(r.domain);
        init.subDomain = style::q(r.subDomain);
        init.rootNode = r.rootCause ? style::q(r.rootCause->node) : QString();
    }
    QStringList nodes;
    for (const std::string& n : r.affectedNodes)
        nodes << style::q(n);
    for (const SourceFile& f : m_analysis->bundle.files)
        if (!f.node.empty() && !nodes.contains(style::q(f.node)))
            nodes << style::q(f.node);
    nodes.sort();
    OverrideDialog dialog(init, nodes, this);
    if (dialog.exec() == QDialog::Accepted)
        static_cast<void>(setVerdictOverride(dialog.value()));  // failure: notesError
}

void WorkbenchView::setAnalysis(std::shared_ptr<const Analysis> analysis, ViewJobs::Mode mode)
{
    m_jobs->restart(mode);
    m_analysis = std::move(analysis);
    const std::shared_ptr<const Analysis> a = m_analysis;
    m_raw->view()->close();
    m_focus->reset();
    // Stage 1, at once: what was decided. The coverage rows follow.
    QElapsedTimer t;
    t.start();
    // An exercise keeps the panels that say what was decided empty (they are off screen too).
    const bool hide = quizHidesVerdict();
    m_verdict->setVerdict(hide ? nullptr : a);
    m_verdictMs = static_cast<double>(t.nsecsElapsed()) / 1e6;
    if (mode == ViewJobs::Mode::Background) {
        // Nothing of the previous analysis stays on show while the jobs run.
        m_timeline->view()->setPrepared(nullptr, {});
        m_chain->show({});
        m_metrics->setPrepared(nullptr, {});
        m_evidence->setAnalysis(nullptr);
        m_explanation->setAnalysis(nullptr);
        m_stepper->setAnalysis(nullptr);
        // Painted before the jobs start: on two cores, two running jobs left the GUI thread a third of a core,
        // and painting the verdict behind them took ~90 ms instead of a few.
        if (m_verdict->isVisible())
            m_verdict->repaint();
        emit verdictShown();
    }
    // Stage 2: what is built from the whole result, off this thread where it
    // can be; each view fills in as its job lands.
    m_jobs->run(QStringLiteral("coverage rows"), [a](const std::atomic<bool>&) { return a ? a->result.connectors : std::vector<ConnectorReport>(); },
                [this](std::vector<ConnectorReport> rows) { m_verdict->setCoverage(std::move(rows)); });
    m_jobs->run(QStringLiteral("timeline lanes"), [a](const std::atomic<bool>&) { return TimelineView::prepare(a.get()); },
                [this, a](TimelineView::Prepared p) { m_timeline->view()->setPrepared(a, std::move(p)); });
    if (hide)
        m_chain->show({});
    else
        m_jobs->run(QStringLiteral("chain layout"), [a, font = m_chain->font()](const std::atomic<bool>&) { return ChainGraphView::plan(a, font); },
                    [this](ChainGraphView::Plan p) { m_chain->show(std::move(p)); });
    m_jobs->run(QStringLiteral("metric series"), [a](const std::atomic<bool>&) { return MetricsPanel::prepare(a.get()); },
                [this, a](MetricsPanel::Prepared p) { m_metrics->setPrepared(a, std::move(p)); });
    // Widgets that read the result directly: built on this thread, one per
    // turn of the event loop, so the verdict is painted first.
    auto onGui = [](const std::atomic<bool>&) { return true; };
    m_jobs->run(QStringLiteral("evidence table"), onGui, [this, a](bool) { m_evidence->setAnalysis(a); });
    if (hide) {
        m_explanation->setAnalysis(nullptr);
        m_stepper->setAnalysis(nullptr);
    } else {
        m_jobs->run(QStringLiteral("candidates + trace rows"), [a](const std::atomic<bool>&) { return ExplanationPanel::prepare(a.get()); },
                    [this, a](ExplanationPanel::Prepared p) { m_explanation->setPrepared(a.get(), std::move(p)); });
        m_jobs->run(QStringLiteral("phase stepper"), onGui, [this, a](bool) { m_stepper->setAnalysis(a); });
    }
    if (mode == ViewJobs::Mode::Inline)
        onViewsReady();
}

void WorkbenchView::fitTimelineShare()
{
    // The centre's 3:2 share suits a wide job; a timeline of a few lanes then
    // sat over an empty panel. It gets what its lanes need at their tallest
    // (between 35 % and 60 % of the height), and the evidence and raw lines
    // under it the rest. Once per open: a reader's drag stands until the next.
    const QList<int> sizes = m_rightSplit->sizes();
    if (sizes.size() != 2 || sizes[0] <= 0 || !isVisible())
        return;
    const int total = sizes[0] + sizes[1];
    const TimelineView* view = m_timeline->view();
    const int chrome = m_centre->height() - view->height();  // tab bar and the timeline's tool bar
    const int want = chrome + TimelineView::kAxisHeight + view->lanes().rowCount() * TimelineView::kMaxRowHeight + 4;
    const int centre = std::clamp(want, total * 35 / 100, total * 3 / 5);
    m_rightSplit->setSizes({centre, total - centre});
}

void WorkbenchView::onViewsReady()
{
    refreshNotes();
    fitTimelineShare();
    // Start on the incident: that is the question the reader opened this
    // for. A reader who already moved while the views were built keeps
    // where they went.
    if (quizHidesVerdict()) {
        // The learner starts on the whole incident window, nothing selected: a selection would point at the answer.
        const TimelineLanes& lanes = m_timeline->view()->lanes();
        FocusSnapshot s;
        s.startNs = lanes.incidentStart();
        s.endNs = lanes.incidentEnd();
        m_focus->reset(s);
    } else if (m_analysis && m_focus->current() == FocusSnapshot{} && !m_focus->canGoBack()) {
        const TimelineLanes& lanes = m_timeline->view()->lanes();
        FocusSnapshot s;
        s.startNs = lanes.incidentStart();
        s.endNs = lanes.incidentEnd();
        // The root cause's first evidence (else the first root-role item, as in
        // an ambiguous result) is selected and opened, without a history step.
        const Result& r = m_analysis->result;
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
                if (e.time.known() && (!earliest || e.time.ns < earliest->time.ns))
                    earliest = &e;
            if (s.evidence.isEmpty() && earliest) {
                s.evidence = style::q(earliest->id);
                s.event = earliest->event;
            }
        }
        m_focus->reset(s);
    }
    m_stepper->setHighlighting(m_side->currentWidget() == m_stepper);  // reset() cleared it
    emit viewsReady();
}

void WorkbenchView::openEvidence(const QString& id)
{
    if (!m_analysis || id.isEmpty())
        return;
    const EvidenceItem* e = evidenceById(id);
    if (!e || e->ref.file.value >= m_analysis->bundle.files.size())
        return;
    const SourceFile& f = m_analysis->bundle.files[e->ref.file.value];
    if (m_raw->view()->open(style::q(f.diskPath), style::q(f.path)))
        m_raw->view()->showRef(e->ref);
}

} // namespace fl
