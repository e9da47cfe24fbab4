// SPDX-License-Identifier: MIT
#include "views/timeline/timelinepanel.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>
#include <QVBoxLayout>

namespace fl {

namespace {
QToolButton* button(const QString& text, const QString& tip, QWidget* parent)
{
    auto* b = new QToolButton(parent);
    b->setText(text);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
}
} // namespace

TimelinePanel::TimelinePanel(FocusState* focus, QWidget* parent)
    : QWidget(parent)
    , m_focus(focus)
    , m_view(new TimelineView(focus, this))
    , m_filter(new QLineEdit(this))
{
    m_filter->setPlaceholderText(tr("Filter lanes (node or node/rank)"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setMinimumWidth(220);
    m_filter->setMaximumWidth(320);
    auto* sort = new QCheckBox(tr("Sort by first anomaly"), this);
    sort->setChecked(m_view->lanes().sortByFirstAnomaly());
    auto* fit = button(tr("Fit to incident"), tr("Zoom to the incident: the initiating event and what followed it"), this);
    auto* all = button(tr("Show all"), tr("Zoom out to every event"), this);
    auto* expand = button(tr("Expand ranks"), tr("Show every rank sub-lane"), this);
    expand->setCheckable(true);
    auto* zoomIn = button(QStringLiteral("+"), tr("Zoom in (+)"), this);
    auto* zoomOut = button(QStringLiteral("−"), tr("Zoom out (-)"), this);
    auto* hint = new QLabel(tr("wheel: zoom · drag: pan · shift/right-drag: zoom to range"), this);
    hint->setEnabled(false);

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    bar->addWidget(m_filter);
    bar->addWidget(sort);
    bar->addWidget(expand);
    bar->addSpacing(12);
    bar->addWidget(fit);
    bar->addWidget(all);
    bar->addWidget(zoomIn);
    bar->addWidget(zoomOut);
    bar->addStretch(1);
    bar->addWidget(hint);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);

    connect(m_filter, &QLineEdit::textChanged, focus, &FocusState::setLaneFilter);
    connect(focus, &FocusState::laneFilterChanged, this, [this](const QString& t) {
        if (m_filter->text() != t)
            m_filter->setText(t);
    });
    connect(sort, &QCheckBox::toggled, m_view, &TimelineView::setSortByFirstAnomaly);
    connect(expand, &QToolButton::toggled, m_view, &TimelineView::setAllExpanded);
    connect(fit, &QToolButton::clicked, m_view, &TimelineView::fitToIncident);
    connect(all, &QToolButton::clicked, m_view, &TimelineView::fitAll);
    connect(zoomIn, &QToolButton::clicked, this, [this] { m_view->zoomBy(0.8); });
    connect(zoomOut, &QToolButton::clicked, this, [this] { m_view->zoomBy(1.25); });
}

} // namespace fl
