// SPDX-License-Identifier: MIT
// File → Exercises… (issue #44 item 4): the exercise library (core/exercise/library.h) — the shipped samples
// and the real incidents, one lesson each, never the answer — with the learners' past scores, as a table
// (ExerciseLibraryModel); Open starts the chosen one as an exercise (quiz mode).
#pragma once

#include "exercise/library.h"
#include "store/notes_store.h"

#include <QAbstractTableModel>
#include <QDialog>

#include <vector>

class QLabel;
class QPushButton;
class QTableView;

namespace fl {

class ExerciseLibraryModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns { ExerciseColumn, LessonColumn, FolderColumn, ScoresColumn, NUM_COLUMNS };
    enum Roles { FolderRole = Qt::UserRole + 1 };  // the bundle folder when it exists, else empty

    explicit ExerciseLibraryModel(QObject* parent = nullptr);
    // `samplesDir` / `incidentsDir` locate the entries' folders (empty: that root is not known here).
    void setLibrary(std::vector<exercise::LibraryEntry> entries, std::vector<store::ExerciseAttempt> attempts,
                    const QString& samplesDir, const QString& incidentsDir);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        exercise::LibraryEntry entry;
        QString folder;  // empty: not found
        QString scores;  // "alice 1 · bob 0.5"
    };
    std::vector<Row> m_rows;
};

class ExercisesDialog : public QDialog
{
    Q_OBJECT
public:
    // `error`: why the library could not be read (shown instead of it).
    ExercisesDialog(std::vector<exercise::LibraryEntry> library, const QString& error, QWidget* parent = nullptr);

    ExerciseLibraryModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QPushButton* openButton() const { return m_open; }
    void setIncidentsDir(const QString& dir);

signals:
    void openRequested(const QString& folder);

private:
    void reload();
    void openSelected();

    std::vector<exercise::LibraryEntry> m_library;
    QString m_incidents;
    ExerciseLibraryModel* m_model;
    QTableView* m_table;
    QLabel* m_status;
    QPushButton* m_open;
};

} // namespace fl
