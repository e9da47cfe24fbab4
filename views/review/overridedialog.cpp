// SPDX-License-Identifier: MIT
#include "views/review/overridedialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>

namespace fl {

OverrideDialog::OverrideDialog(const VerdictOverride& initial, const QStringList& nodes, QWidget* parent)
    : QDialog(parent)
    , m_status(new QComboBox(this))
    , m_domain(new QComboBox(this))
    , m_subDomain(new QLineEdit(this))
    , m_node(new QComboBox(this))
    , m_reason(new QPlainTextEdit(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Override verdict"));
    m_status->addItems({QStringLiteral("attributed"), QStringLiteral("ambiguous"), QStringLiteral("unattributed")});
    m_status->setCurrentText(initial.status);
    // The engine's closed domain list; editable because a reviewer may know better.
    m_domain->setEditable(true);
    m_domain->addItems({QStringLiteral("gpu"), QStringLiteral("nvlink"), QStringLiteral("network"), QStringLiteral("host"),
                        QStringLiteral("storage"), QStringLiteral("scheduler"), QStringLiteral("workload"),
                        QStringLiteral("unknown")});
    m_domain->setCurrentText(initial.domain);
    m_subDomain->setText(initial.subDomain);
    m_node->setEditable(true);
    m_node->addItem(QString());
    m_node->addItems(nodes);
    m_node->setCurrentText(initial.rootNode);
    m_reason->setPlainText(initial.reason);
    m_reason->setPlaceholderText(tr("Why the engine's verdict is wrong or incomplete (required)"));

    auto* form = new QFormLayout(this);
    form->addRow(tr("Status"), m_status);
    form->addRow(tr("Domain"), m_domain);
    form->addRow(tr("Sub-domain"), m_subDomain);
    form->addRow(tr("Root node"), m_node);
    form->addRow(tr("Reason"), m_reason);
    form->addRow(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto check = [this] { m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!m_reason->toPlainText().trimmed().isEmpty()); };
    connect(m_reason, &QPlainTextEdit::textChanged, this, check);
    check();
    resize(460, 360);
}

VerdictOverride OverrideDialog::value() const
{
    return {m_status->currentText(), m_domain->currentText().trimmed(), m_subDomain->text().trimmed(),
            m_node->currentText().trimmed(), m_reason->toPlainText().trimmed(), {}};
}

} // namespace fl
