// SPDX-License-Identifier: MIT
// Ctrl+K: a filterable list of the window's actions, run with Enter.
#pragma once

#include <QDialog>

class QAction;
class QLineEdit;
class QListWidget;

namespace fl {

class CommandPalette : public QDialog
{
    Q_OBJECT
public:
    CommandPalette(const QList<QAction*>& actions, QWidget* parent = nullptr);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void refill(const QString& filter);
    void runCurrent();

    QList<QAction*> m_actions;
    QLineEdit* m_filter;
    QListWidget* m_list;
};

} // namespace fl
