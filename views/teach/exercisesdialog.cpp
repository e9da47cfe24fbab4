// SPDX-License-Identifier: MIT
#include "views/teach/exercisesdialog.h"

#include "present/exercise_text.h"
#include "views/common/viewstyle.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace fl {

ExerciseLibraryModel::ExerciseLibraryModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void ExerciseLibraryModel::setLibrary(std::vector<exercise::LibraryEntry> entries,
                                      std::vector<store::ExerciseAttempt> attempts, const QString& samplesDir,
                                      const QString& incidentsDir)
{
    beginResetModel();
    m_rows.clear();
    for (auto& e : entries) {
        Row r;
        const QString folder = style::q(exercise::entryFolder(e, samplesDir.toStdString(), incidentsDir.toStdString()));
        if (!folder.isEmpty() && QFileInfo(folder).isDir())
            r.folder = folder;
        QStringList scores;
        for (const store::ExerciseAttempt& a : attempts)
            if (a.exercise == e.id)
                scores << QStringLiteral("%1 %2").arg(style::q(a.learner), style::q(present::scoreText(a.score)));
        r.scores = scores.join(QStringLiteral(" · "));
        r.entry = std::move(e);
        m_rows.push_back(std::move(r));
    }
    endResetModel();
}

int ExerciseLibraryModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ExerciseLibraryModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant ExerciseLibraryModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& r = m_rows[static_cast<size_t>(index.row())];
    if (role == FolderRole)
        return r.folder;
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case ExerciseColumn: return style::q(r.entry.id);
    case LessonColumn: return style::q(r.entry.lesson);
    case FolderColumn:
        return r.folder.isEmpty() ? tr("not found (%1)").arg(style::q(r.entry.root)) : r.folder;
    case ScoresColumn: return r.scores;
    default: return {};
    }
}

QVariant ExerciseLibraryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= NUM_COLUMNS)
        return {};
    static const char* const names[] = {QT_TR_NOOP("Exercise"), QT_TR_NOOP("Lesson"), QT_TR_NOOP("Folder"),
                                        QT_TR_NOOP("Past scores")};
    return tr(names[section]);
}

ExercisesDialog::ExercisesDialog(std::vector<exercise::LibraryEntry> library, const QString& error, QWidget* parent)
    : QDialog(parent)
    , m_library(std::move(library))
    , m_model(new ExerciseLibraryModel(this))
    , m_table(new QTableView(this))
    , m_status(new QLabel(this))
    , m_open(new QPushButton(tr("Open as exercise"), this))
{
    setWindowTitle(tr("Exercises"));
    resize(1100, 560);
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->setWordWrap(true);
    m_table->horizontalHeader()->setSectionResizeMode(ExerciseLibraryModel::LessonColumn, QHeaderView::Stretch);
    m_status->setWordWrap(true);
    m_status->setText(error);
    auto* incidents = new QPushButton(tr("Incidents folder…"), this);
    connect(incidents, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Folder of the real incidents"), m_incidents);
        if (!dir.isEmpty())
            setIncidentsDir(dir);
    });
    m_open->setEnabled(false);
    // An entry whose folder is not here (an incident without its folder chosen) cannot be opened.
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& at) {
        m_open->setEnabled(at.isValid() && !at.data(ExerciseLibraryModel::FolderRole).toString().isEmpty());
    });
    connect(m_open, &QPushButton::clicked, this, &ExercisesDialog::openSelected);
    connect(m_table, &QTableView::doubleClicked, this, &ExercisesDialog::openSelected);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* row = new QHBoxLayout;
    row->addWidget(incidents);
    row->addStretch(1);
    row->addWidget(m_open);
    row->addWidget(buttons);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Each exercise opens with its verdict hidden: mark the line you think started "
                                    "the failure, then Reveal."), this));
    layout->addWidget(m_table, 1);
    layout->addWidget(m_status);
    layout->addLayout(row);
    reload();
}

void ExercisesDialog::setIncidentsDir(const QString& dir)
{
    m_incidents = dir;
    reload();
}

void ExercisesDialog::reload()
{
    std::vector<store::ExerciseAttempt> attempts;
    const std::string scores = exercise::defaultScoresPath();
    if (!scores.empty() && QFileInfo::exists(QString::fromStdString(scores))) {
        store::NotesDb db;
        if (db.open(scores, store::NotesDb::Mode::ReadOnly))
            attempts = db.attempts();
        else
            m_status->setText(style::q(db.error()));
    }
    m_model->setLibrary(m_library, std::move(attempts), style::q(exercise::defaultSamplesDir()), m_incidents);
    m_table->resizeColumnToContents(ExerciseLibraryModel::ExerciseColumn);
    m_table->resizeRowsToContents();
    m_open->setEnabled(false);
}

void ExercisesDialog::openSelected()
{
    const QModelIndex at = m_table->currentIndex();
    const QString folder = at.isValid() ? m_model->index(at.row(), 0).data(ExerciseLibraryModel::FolderRole).toString() : QString();
    if (folder.isEmpty())
        return;
    emit openRequested(folder);
    accept();
}

} // namespace fl
