// SPDX-License-Identifier: MIT
// The Explanation tab's two trees as item models (no widget per row; a wide
// result's trace has thousands of steps): the candidates, each with the
// sentence saying why it won or lost as its child row, and the rules fired
// and trace steps grouped under the phase they ran in. Rows are plain data
// built from the result by candidateRows / traceRows; the model only serves
// them (Hotspot's src/models/*: data in, roles out). The top-level row of an
// event is found in O(1) (Wireshark's number_to_row_), so the candidates follow
// the focus's selected event.
#pragma once

#include "engine/engine.h"

#include <QAbstractItemModel>
#include <QColor>
#include <QHash>
#include <QStringList>

#include <optional>
#include <vector>

namespace fl {

struct ExplanationRow {
    QStringList text;               // one per column
    std::optional<EventId> event;   // what selecting the row selects
    bool bold = false;
    QColor colour;                  // invalid: the palette's
    bool spanned = false;           // one sentence across every column
    std::vector<ExplanationRow> children;
};

class ExplanationModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    static constexpr int EventRole = Qt::UserRole + 1;  // EventId::value as qulonglong; invalid: no event

    ExplanationModel(QStringList headers, QObject* parent = nullptr);
    void setRows(std::vector<ExplanationRow> rows);
    void setHeader(int section, const QString& text);
    const ExplanationRow* row(const QModelIndex& index) const;
    [[nodiscard]] std::optional<EventId> eventAt(const QModelIndex& index) const;
    // The first top-level row whose event is `event`; invalid when none.
    QModelIndex indexOfEvent(EventId event) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QStringList m_headers;
    std::vector<ExplanationRow> m_rows;
    QHash<uint64_t, int> m_rowOfEvent;  // EventId::value -> top-level row
};

// Candidates in the engine's order; the chosen one bold and red.
std::vector<ExplanationRow> candidateRows(const Result& r);
// Phases in the order they first appear, rules fired then trace steps under each.
std::vector<ExplanationRow> traceRows(const Analysis& a);

} // namespace fl
