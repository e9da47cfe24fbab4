// SPDX-License-Identifier: MIT
#include "views/evidence/rawfilepanel.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QShortcut>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

namespace fl {

RawFilePanel::RawFilePanel(QWidget* parent)
    : QWidget(parent)
    , m_view(new RawFileView(this))
    , m_title(new QLabel(tr("No file"), this))
    , m_line(new QSpinBox(this))
    , m_search(new QLineEdit(this))
    , m_status(new QLabel(this))
{
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_line->setRange(1, INT_MAX);
    m_line->setPrefix(tr("line "));
    m_line->setToolTip(tr("Go to line (Ctrl+G)"));
    m_line->setKeyboardTracking(false);
    m_search->setPlaceholderText(tr("Find in file (Ctrl+F)"));
    m_search->setClearButtonEnabled(true);
    m_search->setMaximumWidth(220);
    auto* prev = new QToolButton(this);
    prev->setText(QStringLiteral("▲"));
    prev->setToolTip(tr("Previous match (Shift+F3)"));
    auto* next = new QToolButton(this);
    next->setText(QStringLiteral("▼"));
    next->setToolTip(tr("Next match (F3)"));
    auto* wrap = new QCheckBox(tr("Wrap"), this);
    wrap->setChecked(m_view->wrap());
    wrap->setToolTip(tr("Wrap long lines at the panel's width"));
    connect(wrap, &QCheckBox::toggled, m_view, &RawFileView::setWrap);

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    bar->addWidget(m_title, 1);
    bar->addWidget(m_line);
    bar->addWidget(m_search);
    bar->addWidget(prev);
    bar->addWidget(next);
    bar->addWidget(wrap);
    bar->addWidget(m_status);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);

    connect(m_view, &RawFileView::fileOpened, this, [this](const QString& name) {
        m_title->setText(QStringLiteral("<b>%1</b>").arg(name.toHtmlEscaped()));
        m_title->setToolTip(m_view->diskPath());
    });
    // The bar named the file closed and its line until the next open (the Teach replay's start closes the
    // root's file: its name would point at the answer).
    connect(m_view, &RawFileView::fileClosed, this, [this] {
        m_title->setText(tr("No file"));
        m_title->setToolTip({});
        const QSignalBlocker b(m_line);
        m_line->setRange(1, INT_MAX);
        m_line->setValue(1);
        m_line->setSuffix({});
        m_status->clear();
    });
    connect(m_view, &RawFileView::positionChanged, this, [this](quint64 line) {
        const QSignalBlocker b(m_line);
        m_line->setValue(static_cast<int>(std::min<quint64>(line, INT_MAX)));
    });
    connect(m_view, &RawFileView::indexProgress, this, [this](quint64 lines, bool complete) {
        m_line->setSuffix(complete ? tr(" / %1").arg(lines) : tr(" / %1…").arg(lines));
        // Once counted, the box cannot go past the last line either.
        const QSignalBlocker b(m_line);
        m_line->setMaximum(complete ? static_cast<int>(std::clamp<quint64>(lines, 1, INT_MAX)) : INT_MAX);
    });
    connect(m_line, &QSpinBox::valueChanged, this, [this](int v) { m_view->goToLine(static_cast<uint64_t>(v)); });
    connect(m_search, &QLineEdit::returnPressed, this, &RawFilePanel::findNext);
    connect(next, &QToolButton::clicked, this, &RawFilePanel::findNext);
    connect(prev, &QToolButton::clicked, this, &RawFilePanel::findPrevious);
    auto shortcut = [this](QKeySequence key, auto slot) {
        auto* s = new QShortcut(key, this, slot);
        s->setContext(Qt::WidgetWithChildrenShortcut);
    };
    shortcut(QKeySequence(Qt::CTRL | Qt::Key_F), [this] { focusSearch(); });
    shortcut(QKeySequence(Qt::CTRL | Qt::Key_G), [this] { focusGoToLine(); });
    shortcut(QKeySequence(Qt::Key_F3), [this] { findNext(); });
    shortcut(QKeySequence(Qt::SHIFT | Qt::Key_F3), [this] { findPrevious(); });
}

void RawFilePanel::findNext()
{
    const bool ok = m_view->find(m_search->text(), true);
    m_status->setText(ok || m_search->text().isEmpty() ? QString() : tr("not found"));
}

void RawFilePanel::findPrevious()
{
    const bool ok = m_view->find(m_search->text(), false);
    m_status->setText(ok || m_search->text().isEmpty() ? QString() : tr("not found"));
}

void RawFilePanel::focusGoToLine()
{
    m_line->setFocus();
    m_line->selectAll();
}

void RawFilePanel::focusSearch()
{
    m_search->setFocus();
    m_search->selectAll();
}

} // namespace fl
