// SPDX-License-Identifier: MIT
// Evidence list with its filters. Activating a row selects that evidence in
// FocusState; the workbench opens the raw file viewer from there.
#pragma once

#include "views/models/evidencemodel.h"
#include "views/common/focusstate.h"

#include <QWidget>

class QComboBox;
class QLineEdit;
class QTableView;

namespace fl {

class EvidencePanel : public QWidget
{
    Q_OBJECT
public:
    EvidencePanel(FocusState* focus, QWidget* parent = nullptr);
    void setAnalysis(std::shared_ptr<const Analysis> analysis);

    QTableView* table() const { return m_table; }
    EvidenceModel* model() const { return m_model; }
    EvidenceFilterProxy* proxy() const { return m_proxy; }
    QComboBox* roleFilter() const { return m_role; }
    QLineEdit* textFilter() const { return m_text; }

    // Note column: narrow while empty, wide enough for the notes once there are some.
    void fitNoteColumn();
    // The evidence item under a context-menu position, or the current one.
    const EvidenceItem* itemAtRow(int proxyRow) const;

signals:
    void noteRequested(fl::EvidenceId evidence);
    void noteRemoveRequested(fl::EvidenceId evidence);
    void bookmarkToggleRequested(fl::EvidenceId evidence);
    // Quiz: the learner takes this line for the initiating event (offered only while setMarking(true)).
    void markRequested(const QString& file, quint64 line);

public:
    // While a learner marks lines the role filter is gone: its items name the roles, "root" among them.
    void setMarking(bool on);

public slots:
    // F8 / Shift+F8: next / previous visible row, wrapping around.
    void selectNext();
    void selectPrevious();

private:
    void onEvidenceSelected(std::optional<EvidenceId> evidence);
    void onEventSelected(std::optional<EventId> event);
    void activateRow(int proxyRow);
    void step(int delta);
    void showContextMenu(const QPoint& pos);

    FocusState* m_focus;
    EvidenceModel* m_model;
    EvidenceFilterProxy* m_proxy;
    QTableView* m_table;
    QComboBox* m_role;
    QComboBox* m_node;
    QComboBox* m_source;
    QLineEdit* m_text;
    bool m_syncing = false;
    bool m_marking = false;
};

} // namespace fl
