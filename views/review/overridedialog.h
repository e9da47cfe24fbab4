// SPDX-License-Identifier: MIT
// Asks for a reviewer's verdict: status, domain, sub-domain, root node and
// the reason (required). Pre-filled from the engine's verdict or the
// previous override.
#pragma once

#include "views/store/notesstore.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLineEdit;
class QPlainTextEdit;

namespace fl {

class OverrideDialog : public QDialog
{
    Q_OBJECT
public:
    OverrideDialog(const VerdictOverride& initial, const QStringList& nodes, QWidget* parent = nullptr);
    VerdictOverride value() const;

private:
    QComboBox* m_status;
    QComboBox* m_domain;
    QLineEdit* m_subDomain;
    QComboBox* m_node;
    QPlainTextEdit* m_reason;
    QDialogButtonBox* m_buttons;
};

} // namespace fl
