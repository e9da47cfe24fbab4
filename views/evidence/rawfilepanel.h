// SPDX-License-Identifier: MIT
// Raw file viewer with its bar: file name, go-to-line, search next/previous.
#pragma once

#include "views/evidence/rawfileview.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QSpinBox;

namespace fl {

class RawFilePanel : public QWidget
{
    Q_OBJECT
public:
    explicit RawFilePanel(QWidget* parent = nullptr);
    RawFileView* view() const { return m_view; }

public slots:
    void findNext();
    void findPrevious();
    void focusGoToLine();
    void focusSearch();

private:
    RawFileView* m_view;
    QLabel* m_title;
    QSpinBox* m_line;
    QLineEdit* m_search;
    QLabel* m_status;
};

} // namespace fl
