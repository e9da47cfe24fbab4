// SPDX-License-Identifier: MIT
#include "views/teach/quizpanel.h"

#include "store/review_store.h"

#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace fl {

QuizPanel::QuizPanel(QWidget* parent)
    : QWidget(parent)
    , m_intro(new QLabel)
    , m_learner(new QLineEdit(QString::fromStdString(store::loginName())))
    , m_marks(new QListWidget)
    , m_remove(new QPushButton(tr("Remove mark")))
    , m_reveal(new QPushButton(tr("Reveal")))
    , m_result(new QTextBrowser)
{
    // Says what to do without a word of the answer: the decision is hidden until Reveal.
    m_intro->setWordWrap(true);
    m_intro->setText(tr("<b>Exercise.</b> Find the line that started the failure. Read the timeline, the evidence "
                        "and the raw files; right-click a line and choose <i>Mark as the initiating event</i>. "
                        "Reveal scores your marks and then shows what the engine decided, step by step."));
    m_learner->setObjectName(QStringLiteral("quizLearner"));
    m_learner->setToolTip(tr("Your score is kept under this name; File → Exercises… lists it"));
    m_marks->setObjectName(QStringLiteral("quizMarks"));
    m_result->setObjectName(QStringLiteral("quizResult"));
    m_result->setOpenLinks(false);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_remove);
    buttons->addStretch(1);
    buttons->addWidget(m_reveal);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_intro);
    auto* who = new QFormLayout;
    who->addRow(tr("Learner:"), m_learner);
    layout->addLayout(who);
    layout->addWidget(new QLabel(tr("Your marks:")));
    layout->addWidget(m_marks, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_result, 2);
    connect(m_remove, &QPushButton::clicked, this, [this] { delete m_marks->currentItem(); });
    connect(m_reveal, &QPushButton::clicked, this, &QuizPanel::revealRequested);
    reset();
}

void QuizPanel::reset()
{
    m_marks->clear();
    m_result->clear();
    m_result->hide();
    m_reveal->setEnabled(true);
}

void QuizPanel::addMark(const QString& file, quint64 line)
{
    const QString text = QStringLiteral("%1:%2").arg(file).arg(line);
    if (m_marks->findItems(text, Qt::MatchExactly).isEmpty())
        m_marks->addItem(text);
}

std::vector<exercise::Mark> QuizPanel::marks() const
{
    std::vector<exercise::Mark> out;
    for (int i = 0; i < m_marks->count(); ++i)
        if (auto m = exercise::parseMark(m_marks->item(i)->text().toStdString(), nullptr))
            out.push_back(*m);
    return out;
}

void QuizPanel::showScore(const exercise::Score& score)
{
    QString html = tr("<h3>Score %1</h3>").arg(score.best, 0, 'g', 2);
    if (score.marks.size() > 1)
        html += tr("<p>%1 marks, mean %2.</p>").arg(score.marks.size()).arg(score.mean, 0, 'g', 2);
    if (score.marks.empty())
        html += tr("<p>No line was marked.</p>");
    for (const exercise::MarkScore& m : score.marks)
        html += QStringLiteral("<p><b>%1:%2</b> — %3<br>%4</p>")
                    .arg(QString::fromStdString(m.mark.file).toHtmlEscaped())
                    .arg(m.mark.line)
                    .arg(m.score, 0, 'g', 2)
                    .arg(QString::fromStdString(m.reason).toHtmlEscaped());
    m_result->setHtml(html);
    m_result->show();
    m_reveal->setEnabled(false);
}

QString QuizPanel::learner() const
{
    return m_learner->text().trimmed();
}

void QuizPanel::showRecorded(const QString& message)
{
    m_result->append(QStringLiteral("<p><i>%1</i></p>").arg(message.toHtmlEscaped()));
}

void QuizPanel::showError(const QString& message)
{
    m_result->setPlainText(message);
    m_result->show();
}

} // namespace fl
