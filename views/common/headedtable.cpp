// SPDX-License-Identifier: MIT
#include "views/common/headedtable.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace fl {

void layOutHeadedTable(QWidget* owner, QLabel* headline, QTableView* table, QAbstractItemModel* model,
                       const QString& tableName)
{
    headline->setWordWrap(true);
    headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    table->setModel(model);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    // Fitting columns to thousands of rows (a 1,250-node job's history) measured every row: 120 ms on the GUI thread.
    table->horizontalHeader()->setResizeContentsPrecision(200);
    table->setObjectName(tableName);
    auto* layout = new QVBoxLayout(owner);
    layout->addWidget(headline);
    layout->addWidget(table, 1);
}

} // namespace fl
