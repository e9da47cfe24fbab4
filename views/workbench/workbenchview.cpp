// SPDX-License-Identifier: MIT
#include "views/workbench/workbenchview.h"

#include "exercise/library.h"

#include "views/review/reviewrecord.h"

#include "views/review/overridedialog.h"
#include "views/common/viewstyle.h"

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
    , m_notes(std::make_unique<NotesStore>())
    , m_centre(new QTabWidget)
    , m_side(new QTabWidget)
    , m_jobs(new ViewJobs(this))
{
    m_scoresPath = QString::fromStdString(exercise::defaultScoresPath());
    // Left: what was decided and why. Centre: when and where. Bottom: the proof, side by side.
    auto* bottom = new QSplitter(Qt::Horizontal);
    m_bottom = bottom;
    for (const PanelSpec& spec : workbenchPanels())
        m_panels.push_back(spec.create(m_focus));
    applyExercise();
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

    // Once every panel exists: each connects its requests (notes, bookmarks, opening evidence) to this class.
    const auto& specs = workbenchPanels();
    for (size_t i = 0; i < specs.size(); ++i)
        if (specs[i].attach)
            specs[i].attach(m_panels[i], *this);
    connect(m_jobs, &ViewJobs::allFinished, this, &WorkbenchView::onViewsReady);
}

QWidget* WorkbenchView::panel(const QString& id) const
{
    const auto& specs = workbenchPanels();
    for (size_t i = 0; i < specs.size(); ++i)
        if (specs[i].id == id)
            return m_panels[i];
    return nullptr;
}

WorkbenchView::~WorkbenchView() = default;

const EvidenceItem* WorkbenchView::evidenceById(EvidenceId id) const
{
    return m_analysis ? evidence()->model()->itemById(id) : nullptr;
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

bool WorkbenchView::setEvidenceNote(EvidenceId evidence, const QString& text)
{
    const EvidenceItem* e = evidenceById(evidence);
    if (!e)
        return false;
    // The notes store keeps the id as text, as the CLI's report reads it.
    return checked(m_notes->setNote(NotesStore::kEvidence, style::q(toString(evidence)), text, style::q(e->file),
                                    e->ref.line));
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

PanelNotes WorkbenchView::panelNotes() const
{
    PanelNotes out;
    for (const ItemNote& n : m_notes->notes()) {
        if (n.kind == NotesStore::kEvidence) {
            if (const auto id = evidenceIdFromString(n.target.toStdString()))
                out.evidence.emplace(*id, n.text);
        } else if (n.kind == NotesStore::kLane)
            out.lanes.insert(n.target, n.text);
    }
    // An evidence id can change when the rules change; the note follows the
    // line it was written on.
    if (m_analysis) {
        for (const ItemNote& n : m_notes->notes(NotesStore::kEvidence)) {
            const auto id = evidenceIdFromString(n.target.toStdString());
            if ((id && evidenceById(*id)) || n.file.isEmpty())
                continue;
            for (const EvidenceItem& e : m_analysis->result.evidence)
                if (style::q(e.file) == n.file && e.ref.line == n.line)
                    out.evidence.emplace(e.id, n.text);  // a note already there stays
        }
    }
    out.bookmarks = m_notes->bookmarks();
    for (const LineBookmark& b : out.bookmarks)
        out.markedLines.insert(EvidenceModel::lineKey(b.file, b.line));
    out.verdictOverride = m_notes->verdictOverride();
    out.reviews = m_notes->reviews();
    out.threads = m_notes->threads();
    if (m_analysis && !out.reviews.empty() && !quizHidesVerdict())
        out.reviewedRoot = reviewedEvent(m_analysis->result, out.reviews.back());
    if (out.reviewedRoot)
        out.reviewedInterval = reviewedInterval(m_analysis->result, *out.reviewedRoot);
    return out;
}

void WorkbenchView::refreshNotes()
{
    const PanelNotes notes = panelNotes();
    const auto& specs = workbenchPanels();
    for (size_t i = 0; i < specs.size(); ++i)
        if (specs[i].showNotes && panelShown(specs[i]))  // a hidden decision stays empty
            specs[i].showNotes(m_panels[i], notes);
}

bool WorkbenchView::openRawLine(const QString& file, quint64 line)
{
    if (!m_analysis)
        return false;
    for (const SourceFile& f : m_analysis->bundle.files) {
        if (style::q(f.path) != file)
            continue;
        if (!raw()->view()->open(style::q(f.diskPath), style::q(f.path)))
            return false;
        raw()->view()->goToLine(line);
        return true;
    }
    return false;
}

void WorkbenchView::editEvidenceNote(EvidenceId evidence)
{
    bool ok = false;
    const QString id = style::q(toString(evidence));
    const QString text = QInputDialog::getMultiLineText(this, tr("Note on evidence %1").arg(id), tr("Note:"),
                                                        m_notes->note(NotesStore::kEvidence, id), &ok);
    if (ok)
        static_cast<void>(setEvidenceNote(evidence, text));  // failure: notesError
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
    const QString file = raw()->view()->displayName();
    const auto& marks = raw()->view()->bookmarks();
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
        init.domain = style::q(toString(r.domain));
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
    m_replayed.reset();  // a replay is of one analysis: the Teach tab starts the next one's
    m_replayStep = -1;
    m_replayAtNs = kNoTime;
    const std::shared_ptr<const Analysis> a = m_analysis;
    // From here every id the views put in the focus is this analysis's.
    m_focus->reset(a ? AnalysisId::next() : AnalysisId{});
    const auto& specs = workbenchPanels();
    // A panel an exercise keeps out of sight is emptied and not loaded: it is shown again only by an open
    // that shows it (the reveal). Nothing of the previous analysis stays on show while the jobs run.
    std::vector<bool> loaded(specs.size());
    for (size_t i = 0; i < specs.size(); ++i) {
        loaded[i] = panelShown(specs[i]);
        if ((mode == ViewJobs::Mode::Background || !loaded[i]) && specs[i].clear)
            specs[i].clear(m_panels[i]);
    }
    // Stage 1, at once: what was decided.
    QElapsedTimer t;
    t.start();
    for (size_t i = 0; i < specs.size(); ++i)
        if (loaded[i] && specs[i].showNow)
            specs[i].showNow(m_panels[i], a);
    m_verdictMs = static_cast<double>(t.nsecsElapsed()) / 1e6;
    if (mode == ViewJobs::Mode::Background) {
        // Painted before the jobs start: on two cores, two running jobs left the GUI thread a third of a core,
        // and painting the verdict behind them took ~90 ms instead of a few.
        if (verdict()->isVisible())
            verdict()->repaint();
        emit verdictShown();
    }
    // Stage 2: what is built from the whole result, off this thread where it
    // can be; each view fills in as its job lands.
    for (size_t i = 0; i < specs.size(); ++i)
        if (loaded[i] && specs[i].load)
            specs[i].load(m_panels[i], a, *m_jobs);
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
    const TimelineView* view = timeline()->view();
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
    FocusSnapshot untouched;
    untouched.analysis = m_focus->analysis();
    if (m_analysis && m_focus->current() == untouched && !m_focus->canGoBack()) {
        const TimelineLanes& lanes = timeline()->view()->lanes();
        FocusSnapshot s = untouched;
        s.startNs = lanes.incidentStart();
        s.endNs = lanes.incidentEnd();
        // A learner starts with nothing selected, in the quiz and in the replay after Reveal: a selection would
        // point at the answer.
        if (!quizHidesVerdict() && !m_revealing)
            selectStart(s);
        m_focus->reset(s);
    }
    const auto& specs = workbenchPanels();
    for (size_t i = 0; i < specs.size(); ++i)
        if (specs[i].ready && panelShown(specs[i]))
            specs[i].ready(m_panels[i], *this);
    if (m_replayStep >= 0)  // the views' jobs landed over the Teach step on show: replay it again
        showReplay();
    emit viewsReady();
}

void WorkbenchView::selectStart(FocusSnapshot& s) const
{
    // Selected and opened, without a history step.
    const Result& r = m_analysis->result;
    if (r.rootCause && !r.rootCause->evidence.empty()) {
        s.evidence = r.rootCause->evidence.front();
        s.event = r.rootCause->event;
        return;
    }
    for (const EvidenceItem& e : r.evidence) {
        if (e.role == EvidenceRole::Root) {  // as in an ambiguous result
            s.evidence = e.id;
            s.event = e.event;
            return;
        }
    }
    // Unattributed: the earliest evidence is where a reader starts.
    const EvidenceItem* earliest = nullptr;
    for (const EvidenceItem& e : r.evidence)
        if (e.time.known() && (!earliest || e.time.ns < earliest->time.ns))
            earliest = &e;
    if (earliest) {
        s.evidence = earliest->id;
        s.event = earliest->event;
    }
}

void WorkbenchView::openEvidence(std::optional<EvidenceId> evidence)
{
    if (!m_analysis || !evidence)
        return;
    const EvidenceItem* e = evidenceById(*evidence);
    if (!e || e->ref.file.value >= m_analysis->bundle.files.size())
        return;
    const SourceFile& f = m_analysis->bundle.files[e->ref.file.value];
    if (raw()->view()->open(style::q(f.diskPath), style::q(f.path)))
        raw()->view()->showRef(e->ref);
}

} // namespace fl
