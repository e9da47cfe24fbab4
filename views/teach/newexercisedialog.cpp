// SPDX-License-Identifier: MIT
#include "views/teach/newexercisedialog.h"

#include "exercise/make.h"
#include "synth/synth.h"
#include "views/common/viewstyle.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace fl {

NewExerciseDialog::NewExerciseDialog(QWidget* parent)
    : QDialog(parent)
    , m_fault(new QComboBox(this))
    , m_seed(new QSpinBox(this))
    , m_nodes(new QSpinBox(this))
    , m_gpus(new QSpinBox(this))
    , m_skew(new QDoubleSpinBox(this))
    , m_folder(new QLineEdit(this))
    , m_key(new QLineEdit(this))
    , m_create(new QPushButton(tr("Create and open"), this))
    , m_status(new QLabel(this))
{
    setWindowTitle(tr("New exercise"));
    for (const synth::FaultKind& k : synth::faultKinds())
        m_fault->addItem(QStringLiteral("%1 — %2").arg(style::q(k.id), style::q(k.title)), style::q(k.id));
    m_seed->setRange(1, 1'000'000);
    m_seed->setValue(1);
    const synth::Options defaults;
    m_nodes->setRange(1, 1250);  // synth's limits
    m_nodes->setValue(defaults.nodes);
    m_gpus->setRange(1, 8);
    m_gpus->setValue(defaults.gpusPerNode);
    m_skew->setRange(0, 60);
    m_skew->setSuffix(tr(" s"));
    m_skew->setDecimals(1);
    m_folder->setPlaceholderText(tr("a new, empty folder: what the learner opens"));
    m_key->setPlaceholderText(tr("default: FOLDER.key.json, outside the folder"));
    auto* browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getSaveFileName(this, tr("Exercise folder (new)"));
        if (!dir.isEmpty())
            m_folder->setText(dir);
    });
    auto* folderRow = new QHBoxLayout;
    folderRow->addWidget(m_folder, 1);
    folderRow->addWidget(browse);
    auto* form = new QFormLayout;
    form->addRow(tr("Fault:"), m_fault);
    form->addRow(tr("Seed:"), m_seed);
    form->addRow(tr("Nodes:"), m_nodes);
    form->addRow(tr("GPUs per node:"), m_gpus);
    form->addRow(tr("Clock skew (max):"), m_skew);
    form->addRow(tr("Folder:"), folderRow);
    form->addRow(tr("Key file:"), m_key);
    m_status->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    buttons->addButton(m_create, QDialogButtonBox::AcceptRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_create, &QPushButton::clicked, this, &NewExerciseDialog::create);
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &NewExerciseDialog::finished);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("A fresh synthetic incident to practise on. Its answer key is written outside "
                                    "the bundle folder, so the learner who opens the folder does not read it."),
                                 this));
    layout->addLayout(form);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
}

void NewExerciseDialog::create()
{
    if (m_watcher.isRunning())
        return;
    const QString dir = m_folder->text().trimmed();
    if (dir.isEmpty()) {
        m_status->setText(tr("Choose the folder to write the exercise to."));
        return;
    }
    synth::Options o;
    o.fault = m_fault->currentData().toString().toStdString();
    o.seed = static_cast<uint64_t>(m_seed->value());
    o.nodes = m_nodes->value();
    o.gpusPerNode = m_gpus->value();
    o.clockSkewSec = m_skew->value();
    const QString key = m_key->text().trimmed().isEmpty() ? style::q(exercise::defaultKeyPath(dir.toStdString()))
                                                          : m_key->text().trimmed();
    m_create->setEnabled(false);
    m_status->setText(tr("Writing %1 and its key…").arg(dir));
    m_watcher.setFuture(QtConcurrent::run([o, dir, key]() {
        std::string error;
        const auto made = exercise::makeSynthExercise(o, dir.toStdString(), key.toStdString(), AnalyzeOptions{}, &error);
        return Outcome{dir, key, made ? QString() : (error.empty() ? tr("could not make the exercise") : style::q(error))};
    }));
}

void NewExerciseDialog::finished()
{
    const Outcome out = m_watcher.result();
    m_create->setEnabled(true);
    if (!out.error.isEmpty()) {
        m_status->setText(out.error);
        emit failed(out.error);
        return;
    }
    m_status->setText(tr("Written: %1 (key %2)").arg(out.dir, out.key));
    emit created(out.dir, out.key);
    accept();
}

QString exerciseKeyBeside(const QString& dir)
{
    const QString key = style::q(exercise::defaultKeyPath(dir.toStdString()));
    return QFileInfo::exists(key) ? key : QString();
}

std::optional<ExerciseChoice> askExercise(QWidget* parent)
{
    const QString dir = QFileDialog::getExistingDirectory(parent, QObject::tr("Open exercise: the bundle folder"));
    if (dir.isEmpty())
        return std::nullopt;
    const QString beside = exerciseKeyBeside(dir);
    const QString key = QFileDialog::getOpenFileName(parent, QObject::tr("The exercise's key (cancel: the engine's verdict is the answer)"),
                                                     beside.isEmpty() ? QFileInfo(dir).absolutePath() : beside,
                                                     QObject::tr("Exercise keys (*.key.json *.json);;All files (*)"));
    return ExerciseChoice{dir, key};
}

} // namespace fl
