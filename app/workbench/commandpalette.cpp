// SPDX-License-Identifier: MIT
#include "commandpalette.h"

#include <QAction>
#include <QKeyEvent>
#include <QLineEdit>
#include <QListWidget>
#include <QVBoxLayout>

namespace fl {

namespace {
QString plainText(const QAction* a)
{
    QString t = a->text();
    return t.remove(QLatin1Char('&'));
}
} // namespace

CommandPalette::CommandPalette(const QList<QAction*>& actions, QWidget* parent)
    : QDialog(parent, Qt::Popup)
    , m_actions(actions)
    , m_filter(new QLineEdit(this))
    , m_list(new QListWidget(this))
{
    m_filter->setPlaceholderText(tr("Type a command…"));
    m_filter->installEventFilter(this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_filter);
    layout->addWidget(m_list);
    resize(480, 360);
    connect(m_filter, &QLineEdit::textChanged, this, &CommandPalette::refill);
    connect(m_filter, &QLineEdit::returnPressed, this, &CommandPalette::runCurrent);
    connect(m_list, &QListWidget::itemActivated, this, &CommandPalette::runCurrent);
    refill({});
}

void CommandPalette::refill(const QString& filter)
{
    m_list->clear();
    for (int i = 0; i < m_actions.size(); ++i) {
        QAction* a = m_actions[i];
        if (!a->isEnabled() || a->text().isEmpty() || !plainText(a).contains(filter, Qt::CaseInsensitive))
            continue;
        auto* item = new QListWidgetItem(plainText(a) + (a->shortcut().isEmpty() ? QString()
                                                          : QStringLiteral("    (%1)").arg(a->shortcut().toString(QKeySequence::NativeText))),
                                         m_list);
        item->setData(Qt::UserRole, i);
    }
    m_list->setCurrentRow(0);
}

void CommandPalette::runCurrent()
{
    QListWidgetItem* item = m_list->currentItem();
    if (!item)
        return;
    QAction* a = m_actions.value(item->data(Qt::UserRole).toInt());
    accept();
    if (a)
        a->trigger();
}

bool CommandPalette::eventFilter(QObject* watched, QEvent* event)
{
    // Up/down in the filter move the list selection, so hands stay on the keys.
    if (watched == m_filter && event->type() == QEvent::KeyPress) {
        auto* k = static_cast<QKeyEvent*>(event);
        if (k->key() == Qt::Key_Down || k->key() == Qt::Key_Up) {
            const int row = m_list->currentRow() + (k->key() == Qt::Key_Down ? 1 : -1);
            m_list->setCurrentRow(std::clamp(row, 0, std::max(0, m_list->count() - 1)));
            return true;
        }
    }
    return QDialog::eventFilter(watched, event);
}

} // namespace fl
