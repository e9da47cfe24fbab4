// SPDX-License-Identifier: MIT
#include "views/verdict/verdictpanel.h"

#include "present/would_decide.h"

#include "views/common/nameranges.h"
#include "views/common/viewstyle.h"
#include "present/exercise_text.h"
#include "present/verdict.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QTextDocument>
#include <QToolButton>
#include <QHBoxLayout>
#include <QVBoxLayout>

namespace fl {

namespace {
QString esc(const std::string& s)
{
    return style::q(s).toHtmlEscaped();
}

QString row(const QString& key, const QString& value)
{
    return QStringLiteral("<tr><td style='color:#666;padding-right:10px'>%1</td><td>%2</td></tr>").arg(key, value);
}

struct Banner {
    QString text;
    QString colour;
};

Banner bannerFor(const Result& r, bool cancelled)
{
    if (cancelled)
        return {QStringLiteral("CANCELLED — partial result"), QStringLiteral("#777777")};
    if (r.status == ResultStatus::Attributed)
        return {QStringLiteral("ATTRIBUTED"), QStringLiteral("#b71c1c")};
    if (r.status == ResultStatus::Ambiguous)
        return {QStringLiteral("AMBIGUOUS — %1 candidates, no single root cause").arg(r.candidates.size()),
                QStringLiteral("#e65100")};
    return {QStringLiteral("UNATTRIBUTED — no root cause found"), QStringLiteral("#455a64")};
}
} // namespace

VerdictPanel::VerdictPanel(FocusState* focus, QWidget* parent)
    : QWidget(parent)
    , m_focus(focus)
    , m_banner(new QLabel(this))
    , m_override(new QLabel(this))
    , m_replay(new QLabel(this))
    , m_overrideButton(new QToolButton(this))
    , m_body(new QTextBrowser(this))
    , m_coverage(new QTableView(this))
    , m_coverageModel(new CoverageModel(this))
    , m_coverageProxy(new CoverageFilterProxy(this))
    , m_coverageText(new QLineEdit(this))
    , m_coverageStatus(new QComboBox(this))
{
    m_banner->setMargin(6);
    QFont bf = m_banner->font();
    bf.setBold(true);
    bf.setPointSizeF(bf.pointSizeF() * 1.15);
    m_banner->setFont(bf);
    m_banner->setText(tr("No analysis loaded"));
    m_body->setOpenLinks(false);
    m_coverageProxy->setSourceModel(m_coverageModel);
    m_coverage->setModel(m_coverageProxy);
    m_coverage->setSortingEnabled(true);
    m_coverage->sortByColumn(-1, Qt::AscendingOrder);  // bundle order until the reader sorts
    m_coverage->verticalHeader()->hide();
    m_coverage->verticalHeader()->setDefaultSectionSize(m_coverage->fontMetrics().height() + 6);
    m_coverage->horizontalHeader()->setStretchLastSection(true);
    m_coverage->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_coverage->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_coverage->setWordWrap(false);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_body);
    auto* cov = new QWidget(split);
    auto* covLayout = new QVBoxLayout(cov);
    covLayout->setContentsMargins(0, 4, 0, 0);
    covLayout->addWidget(new QLabel(tr("<b>Coverage</b> — what each file contributed"), cov));
    auto* covBar = new QHBoxLayout;
    m_coverageStatus->addItem(tr("All files"), -1);
    for (FileStatus st : {FileStatus::Ok, FileStatus::Error, FileStatus::Unrecognized, FileStatus::Empty, FileStatus::Skipped})
        m_coverageStatus->addItem(style::q(toString(st)), static_cast<int>(st));
    covBar->addWidget(m_coverageStatus);
    m_coverageText->setPlaceholderText(tr("Filter files…"));
    m_coverageText->setClearButtonEnabled(true);
    covBar->addWidget(m_coverageText, 1);
    covLayout->addLayout(covBar);
    covLayout->addWidget(m_coverage);
    connect(m_coverageText, &QLineEdit::textChanged, m_coverageProxy, &CoverageFilterProxy::setText);
    connect(m_coverageStatus, &QComboBox::currentIndexChanged, this,
            [this](int i) { m_coverageProxy->setStatus(m_coverageStatus->itemData(i).toInt()); });
    split->addWidget(cov);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_overrideButton->setText(tr("Override verdict…"));
    m_overrideButton->setToolTip(tr("Record your own verdict and why; the engine's stays shown"));
    m_overrideButton->setEnabled(false);
    m_override->setWordWrap(true);
    m_override->setMargin(6);
    m_override->setTextFormat(Qt::RichText);
    m_override->setStyleSheet(QStringLiteral("QLabel { background:#f3e5f5; border-left:4px solid #6a1b9a; }"));
    m_override->hide();
    m_replay->setWordWrap(true);
    m_replay->setMargin(6);
    m_replay->setStyleSheet(QStringLiteral("QLabel { background:#eceff1; border-left:4px solid #455a64; }"));
    m_replay->hide();
    auto* top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->setSpacing(0);
    top->addWidget(m_banner, 1);
    top->addWidget(m_overrideButton);
    layout->addLayout(top);
    layout->addWidget(m_replay);
    layout->addWidget(m_override);
    layout->addWidget(split, 1);
    connect(m_overrideButton, &QAbstractButton::clicked, this, &VerdictPanel::overrideRequested);
    connect(m_override, &QLabel::linkActivated, this, [this](const QString& link) {
        if (link == QLatin1String("clear"))
            emit overrideClearRequested();
        else if (link == QLatin1String("edit"))
            emit overrideRequested();
    });

    // Links in the verdict jump to the event they name.
    connect(m_body, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == QLatin1String("nodes")) {
            setShowAllNodes(url.path() == QLatin1String("all"));
            return;
        }
        bool ok = false;
        const uint ev = url.path().toUInt(&ok);  // a hostile link past uint32 is no event
        if (url.scheme() == QLatin1String("event") && ok)
            m_focus->selectEvent(EventId(ev));
    });
}

void VerdictPanel::setAnalysis(std::shared_ptr<const Analysis> analysis)
{
    std::vector<ConnectorReport> reports = analysis ? analysis->result.connectors : std::vector<ConnectorReport>();
    setVerdict(std::move(analysis));
    setCoverage(std::move(reports));
}

void VerdictPanel::setVerdict(std::shared_ptr<const Analysis> analysis)
{
    m_analysis = std::move(analysis);
    m_showAllNodes = false;
    m_replay->hide();  // a replay's note comes with its result (setReplayNote)
    m_overrideButton->setEnabled(m_analysis != nullptr);
    setOverride(std::nullopt);
    m_coverageModel->setReports({});
    if (!m_analysis) {
        m_banner->setText(tr("No analysis loaded"));
        m_body->clear();
        return;
    }
    const Banner b = bannerFor(m_analysis->result, m_analysis->cancelled);
    m_banner->setText(b.text);
    m_banner->setStyleSheet(QStringLiteral("QLabel { background:%1; color:white; }").arg(b.colour));
    m_body->setHtml(verdictHtml(*m_analysis));
}

void VerdictPanel::setReplayNote(const QString& note, bool decided)
{
    m_replay->setText(note);
    m_replay->setVisible(!note.isEmpty());
    if (decided || !m_analysis)
        return;
    m_banner->setText(QString::fromStdString(present::replayUndecidedBanner()));
    m_banner->setStyleSheet(QStringLiteral("QLabel { background:#78909c; color:white; }"));
    m_body->clear();
}

QString VerdictPanel::bannerText() const
{
    return m_banner->text();
}

void VerdictPanel::setCoverage(std::vector<ConnectorReport> reports)
{
    m_coverageModel->setReports(std::move(reports));
    m_coverage->resizeColumnsToContents();
    m_coverage->setColumnWidth(CoverageModel::FileColumn, std::min(m_coverage->columnWidth(CoverageModel::FileColumn), 260));
}

void VerdictPanel::setShowAllNodes(bool on)
{
    if (on == m_showAllNodes || !m_analysis)
        return;
    m_showAllNodes = on;
    m_body->setHtml(verdictHtml(*m_analysis));
}

QString VerdictPanel::affectedNodesHtml(const Result& r) const
{
    const size_t n = r.affectedNodes.size();
    if (n == 0)
        return {};
    QString list;
    if (n <= kNodesInline || m_showAllNodes) {
        QStringList nodes;
        for (const auto& node : r.affectedNodes)
            nodes << esc(node);
        list = nodes.join(QStringLiteral(", "));
        if (n > kNodesInline)
            list += QStringLiteral(" <a href='nodes:ranges'>%1</a>").arg(tr("(fold)"));
    } else {
        list = nameRanges(r.affectedNodes).toHtmlEscaped()
            + QStringLiteral(" <a href='nodes:all'>%1</a>").arg(tr("show all %1").arg(n));
    }
    return QStringLiteral("<p><b>Affected nodes (%1):</b> %2</p>").arg(QLocale(QLocale::English).toString(static_cast<qulonglong>(n)), list);
}

void VerdictPanel::setOverride(const std::optional<VerdictOverride>& o)
{
    if (!o) {
        m_override->clear();
        m_override->hide();
        return;
    }
    QString what = QStringLiteral("<b>%1</b>").arg(o->status.toUpper().toHtmlEscaped());
    if (!o->domain.isEmpty())
        what += QStringLiteral(" · ") + o->domain.toHtmlEscaped()
            + (o->subDomain.isEmpty() ? QString() : QStringLiteral(" / ") + o->subDomain.toHtmlEscaped());
    if (!o->rootNode.isEmpty())
        what += tr(" · root node <b>%1</b>").arg(o->rootNode.toHtmlEscaped());
    const QString reason = o->reason.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    m_override->setText(tr("<span style='color:#6a1b9a'><b>REVIEWER OVERRIDE</b></span> — %1<br>%2<br>"
                           "<span style='color:#666'>%3 · engine verdict kept below · <a href='edit'>edit</a> · "
                           "<a href='clear'>clear</a></span>")
                            .arg(what, reason, o->created.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"))));
    m_override->show();
}

QString VerdictPanel::overrideText() const
{
    if (m_override->isHidden())
        return {};
    QTextDocument doc;
    doc.setHtml(m_override->text());
    return doc.toPlainText();
}

QString VerdictPanel::statusText() const
{
    return m_banner->text();
}

QString VerdictPanel::verdictText() const
{
    return m_body->toPlainText();
}

QString VerdictPanel::verdictHtml(const Analysis& a) const
{
    const Result& r = a.result;
    QString h = QStringLiteral("<table cellspacing=2>");
    h += row(tr("Status"), QStringLiteral("<b>%1</b>").arg(esc(std::string(toString(r.status)))));
    h += row(tr("Outcome"), esc(std::string(toString(r.outcome))));
    QString domain = esc(std::string(toString(r.domain)));
    if (!r.subDomain.empty())
        domain += QStringLiteral(" / ") + esc(r.subDomain);
    if (r.status == ResultStatus::Ambiguous)
        domain += QStringLiteral(" <span style='color:#e65100'><b>(ambiguous)</b></span>");
    h += row(tr("Domain"), domain);
    if (!r.workloadId.empty())
        h += row(tr("Workload"), esc(r.workloadId) + (r.attempt >= 0 ? QStringLiteral(" attempt %1").arg(r.attempt) : QString()));
    h += QStringLiteral("</table>");

    if (r.rootCause) {
        const RootCause& rc = *r.rootCause;
        h += QStringLiteral("<h3 style='color:#b71c1c;margin-bottom:2px'>Root cause: <a href='event:%1'>%2</a></h3>")
                 .arg(rc.event.value)
                 .arg(esc(rc.title.empty() ? rc.symptom : rc.title));
        h += QStringLiteral("<table cellspacing=2>");
        h += row(tr("Symptom"), QStringLiteral("<code>%1</code>").arg(esc(rc.symptom)));
        h += row(tr("Node"), QStringLiteral("<b>%1</b>").arg(esc(present::nodeName(rc.node))));
        if (const std::string gpu = present::gpuField(rc.gpuIndex, rc.pciBus); !gpu.empty())
            h += row(tr("GPU"), esc(gpu));
        if (rc.rank >= 0)
            h += row(tr("Rank"), QString::number(rc.rank));
        h += row(tr("Time"), style::timeText(rc.time));
        if (const QString iv = style::intervalText(rc.time); !iv.isEmpty())
            h += row(tr("Between"), iv);
        if (!rc.advice.empty())
            h += row(tr("Advice"), esc(rc.advice));
        h += QStringLiteral("</table>");
    } else if (r.status == ResultStatus::Ambiguous) {
        h += QStringLiteral("<h3 style='color:#e65100;margin-bottom:2px'>Ambiguous: no single root cause</h3><ul>");
        const present::CandidateIndex index(r);
        for (const Candidate& c : r.candidates)
            h += QStringLiteral("<li><a href='event:%1'>%2</a> on %3 at %4 — %5</li>")
                     .arg(c.event.value)
                     .arg(esc(c.title.empty() ? c.symptom : c.title), esc(present::place(c.node, c.gpuIndex, c.pciBus, c.rank)),
                          style::timeText(c.time), esc(present::candidateVerdict(c, index)));
        h += QStringLiteral("</ul>");
    } else {
        h += QStringLiteral("<h3 style='color:#455a64;margin-bottom:2px'>No root cause found</h3>");
    }
    if (!r.summary.empty())
        h += QStringLiteral("<p>%1</p>").arg(esc(r.summary));
    h += affectedNodesHtml(r);
    if (!r.missing.empty()) {
        // "What would decide the verdict" (ambiguous: its first items order the tied candidates), "Missing evidence", …
        h += QStringLiteral("<p><b>%1:</b></p><ul>").arg(esc(present::missingHeading(r)));
        for (const auto& m : r.missing)
            h += QStringLiteral("<li>%1</li>").arg(esc(m));
        h += QStringLiteral("</ul>");
    }
    if (!a.bundle.warnings.empty()) {
        h += QStringLiteral("<p><b>Bundle warnings:</b></p><ul>");
        for (const auto& w : a.bundle.warnings)
            h += QStringLiteral("<li>%1</li>").arg(esc(w));
        h += QStringLiteral("</ul>");
    }
    return h;
}

} // namespace fl
