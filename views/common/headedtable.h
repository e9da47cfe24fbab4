// SPDX-License-Identifier: MIT
// A wrapped, selectable headline over a row-selecting table of `model`: the layout of the Baseline and History tabs.
#pragma once

class QAbstractItemModel;
class QLabel;
class QString;
class QTableView;
class QWidget;

namespace fl {

void layOutHeadedTable(QWidget* owner, QLabel* headline, QTableView* table, QAbstractItemModel* model,
                       const QString& tableName);

} // namespace fl
