// SPDX-License-Identifier: MIT
// File → New exercise… and File → Open exercise… (issue #44 item 2). New: a fresh synthetic bundle from one of
// synth's fault kinds, its answer key written outside the folder the learner reads — core's
// exercise::makeSynthExercise, the code behind `faultline-cli exercise new`, run off the GUI thread. Open: a
// bundle folder and its key file (OUT.key.json beside OUT/ when there is one). Both hand the main window a
// bundle and a key to open in quiz mode.
#pragma once

#include <QDialog>
#include <QFutureWatcher>
#include <QString>

#include <optional>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace fl {

class NewExerciseDialog : public QDialog
{
    Q_OBJECT
public:
    explicit NewExerciseDialog(QWidget* parent = nullptr);

    QComboBox* faultBox() const { return m_fault; }  // item data: the fault kind's id ("xid79")
    QSpinBox* seedBox() const { return m_seed; }
    QSpinBox* nodesBox() const { return m_nodes; }
    QSpinBox* gpusBox() const { return m_gpus; }
    QDoubleSpinBox* skewBox() const { return m_skew; }
    QLineEdit* folderEdit() const { return m_folder; }
    QLineEdit* keyEdit() const { return m_key; }  // empty: FOLDER.key.json
    QPushButton* createButton() const { return m_create; }
    QLabel* statusLabel() const { return m_status; }
    bool busy() const { return m_watcher.isRunning(); }

public slots:
    // Writes the bundle and its key (off the GUI thread); created() or failed() follows.
    void create();

signals:
    void created(const QString& bundleDir, const QString& keyPath);
    void failed(const QString& message);

private:
    struct Outcome {
        QString dir, key, error;
    };
    void finished();

    QComboBox* m_fault;
    QSpinBox* m_seed;
    QSpinBox* m_nodes;
    QSpinBox* m_gpus;
    QDoubleSpinBox* m_skew;
    QLineEdit* m_folder;
    QLineEdit* m_key;
    QPushButton* m_create;
    QLabel* m_status;
    QFutureWatcher<Outcome> m_watcher;
};

// The key of the exercise bundle `dir`: FOLDER.key.json beside it when that file exists, else empty (the
// engine's own verdict is then the answer).
QString exerciseKeyBeside(const QString& dir);

// File → Open exercise…: asks for the bundle folder, then for its key (starting at FOLDER.key.json when it is
// there; cancel: none). Nothing when no folder was chosen.
struct ExerciseChoice {
    QString bundle, key;
};
std::optional<ExerciseChoice> askExercise(QWidget* parent);

} // namespace fl
