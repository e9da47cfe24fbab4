// SPDX-License-Identifier: MIT
// The verdict at a glance: status, outcome, domain, root cause, summary,
// affected nodes, what is missing, and the coverage of every bundle file.
#pragma once

#include "views/models/coveragemodel.h"
#include "engine/engine.h"
#include "views/common/focusstate.h"
#include "views/store/notesstore.h"

#include <QWidget>

#include <memory>

class QAbstractButton;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;
class QTextBrowser;

namespace fl {

class VerdictPanel : public QWidget
{
    Q_OBJECT
public:
    explicit VerdictPanel(FocusState* focus, QWidget* parent = nullptr);
    void setAnalysis(std::shared_ptr<const Analysis> analysis);
    // The two halves of setAnalysis: the verdict at once, the coverage rows
    // (a copy of Result::connectors, made off the GUI thread) when they are ready.
    void setVerdict(std::shared_ptr<const Analysis> analysis);
    void setCoverage(std::vector<ConnectorReport> reports);

    QString statusText() const;     // the banner, e.g. "AMBIGUOUS"
    QString verdictText() const;    // plain text of the verdict body
    QTableView* coverage() const { return m_coverage; }
    CoverageModel* coverageModel() const { return m_coverageModel; }
    QLineEdit* coverageFilter() const { return m_coverageText; }
    QComboBox* coverageStatus() const { return m_coverageStatus; }
    // Affected nodes past kNodesInline are summarised as ranges; "show all" lists them.
    static constexpr size_t kNodesInline = 12;
    void setShowAllNodes(bool on);

    // The Teach replay's step over the verdict shown (present::replayNote); empty: none. Not `decided`: the
    // banner says the verdict is not decided yet, and the body is empty (nothing of the answer is shown).
    void setReplayNote(const QString& note, bool decided);
    QString bannerText() const;

    // The reviewer's verdict, shown beside the engine's (which stays as it is).
    void setOverride(const std::optional<VerdictOverride>& o);
    QString overrideText() const;   // plain text of the override box, empty if none

signals:
    void overrideRequested();
    void overrideClearRequested();

private:
    QString verdictHtml(const Analysis& a) const;
    QString affectedNodesHtml(const Result& r) const;

    FocusState* m_focus;
    std::shared_ptr<const Analysis> m_analysis;
    QLabel* m_banner;
    QLabel* m_override;
    QLabel* m_replay;
    QAbstractButton* m_overrideButton;
    QTextBrowser* m_body;
    QTableView* m_coverage;
    CoverageModel* m_coverageModel;
    CoverageFilterProxy* m_coverageProxy;
    QLineEdit* m_coverageText;
    QComboBox* m_coverageStatus;
    bool m_showAllNodes = false;
};

} // namespace fl
