// SPDX-License-Identifier: MIT
#include "views/service/servicebrowser.h"
#include "views/common/storedresult.h"

#include "engine/result_json.h"
#include "present/report.h"
#include "views/store/notesstore.h"
#include "views/service/servicereview.h"
#include "views/models/sessionlistmodel.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QInputDialog>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QTableView>
#include <QTemporaryDir>
#include <QVBoxLayout>

#include <memory>

namespace fl {

namespace {
QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

// The run a reply of attribute or bundles names (0 when it does not, or the answer is no object).
int runOf(const nlohmann::json& body)
{
    const auto it = body.is_object() ? body.find("run") : body.end();
    return it != body.end() && it->is_number_integer() ? it->get<int>() : 0;
}
} // namespace

ServiceBrowser::ServiceBrowser(const QString& openBundle, QWidget* parent)
    : QDialog(parent)
    , m_client(new ServiceClient(this))
    , m_model(new SessionListModel(this))
    , m_openBundle(openBundle)
    , m_url(new QLineEdit(QStringLiteral("http://127.0.0.1:8000"), this))
    , m_tokenFile(new QLineEdit(this))
    , m_workload(new QLineEdit(this))
    , m_status(new QComboBox(this))
    , m_domain(new QLineEdit(this))
    , m_node(new QLineEdit(this))
    , m_table(new QTableView(this))
    , m_verdict(new QLabel(this))
    , m_evidence(new QListWidget(this))
    , m_raw(new QPlainTextEdit(this))
    , m_state(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_exportButton(new QPushButton(tr("Export report…"), this))
    , m_workbenchButton(new QPushButton(tr("Open in workbench"), this))
{
    setWindowTitle(tr("Faultline service"));
    resize(1200, 800);
    m_url->setObjectName(QStringLiteral("serviceUrl"));
    m_tokenFile->setObjectName(QStringLiteral("serviceTokenFile"));
    m_tokenFile->setPlaceholderText(tr("optional: a file holding the bearer token"));
    auto* browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Token file"));
        if (!f.isEmpty())
            m_tokenFile->setText(f);
    });
    auto* connectButton = new QPushButton(tr("Connect"), this);
    connectButton->setDefault(true);
    connect(connectButton, &QPushButton::clicked, this, &ServiceBrowser::connectToService);

    auto* form = new QFormLayout;
    auto* tokenRow = new QHBoxLayout;
    tokenRow->addWidget(m_tokenFile);
    tokenRow->addWidget(browse);
    auto* urlRow = new QHBoxLayout;
    urlRow->addWidget(m_url);
    urlRow->addWidget(connectButton);
    form->addRow(tr("Service URL"), urlRow);
    form->addRow(tr("Token file"), tokenRow);

    m_status->addItem(tr("any status"), QString());
    for (const char* s : {"attributed", "ambiguous", "unattributed"})
        m_status->addItem(QString::fromLatin1(s), QString::fromLatin1(s));
    m_workload->setPlaceholderText(tr("workload id"));
    m_domain->setPlaceholderText(tr("domain (gpu, nvlink, …)"));
    m_node->setPlaceholderText(tr("node"));
    auto* refreshButton = new QPushButton(tr("Refresh"), this);
    connect(refreshButton, &QPushButton::clicked, this, &ServiceBrowser::refresh);
    for (QLineEdit* e : {m_workload, m_domain, m_node})
        connect(e, &QLineEdit::returnPressed, this, &ServiceBrowser::refresh);
    connect(m_status, &QComboBox::activated, this, &ServiceBrowser::refresh);
    auto* filters = new QHBoxLayout;
    filters->addWidget(new QLabel(tr("Filter:"), this));
    filters->addWidget(m_workload);
    filters->addWidget(m_status);
    filters->addWidget(m_domain);
    filters->addWidget(m_node);
    filters->addWidget(refreshButton);

    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    connect(m_table, &QTableView::doubleClicked, this, &ServiceBrowser::openSelected);

    auto* openButton = new QPushButton(tr("Open result"), this);
    auto* rerunButton = new QPushButton(tr("Re-run attribution"), this);
    auto* compareButton = new QPushButton(tr("Compare with…"), this);
    compareButton->setToolTip(tr("Attribute the selected session again against another session, a healthy attempt of "
                                 "the same job: what is new in it, both attempts on one time axis in the workbench"));
    connect(compareButton, &QPushButton::clicked, this, [this] { compareSelected(); });
    auto* submitButton = new QPushButton(tr("Submit bundle…"), this);
    auto* deleteButton = new QPushButton(tr("Delete session…"), this);
    deleteButton->setToolTip(tr("Delete the selected session on the service (its files and every run) and the notes kept for it here"));
    connect(deleteButton, &QPushButton::clicked, this, &ServiceBrowser::deleteSelected);
    connect(openButton, &QPushButton::clicked, this, &ServiceBrowser::openSelected);
    connect(rerunButton, &QPushButton::clicked, this, &ServiceBrowser::rerunSelected);
    connect(submitButton, &QPushButton::clicked, this, [this] {
        QString path = m_openBundle;
        if (path.isEmpty() || QMessageBox::question(this, tr("Submit bundle"),
                                                    tr("Submit the open bundle %1?").arg(m_openBundle)) != QMessageBox::Yes)
            path = QFileDialog::getOpenFileName(this, tr("Bundle archive to submit"), QString(),
                                                tr("Archives (*.tar *.tar.gz *.tgz *.tar.zst *.tar.xz *.zip);;All files (*)"));
        if (!path.isEmpty())
            submit(path);
    });
    m_exportButton->setEnabled(false);
    connect(m_exportButton, &QPushButton::clicked, this, &ServiceBrowser::exportReport);
    auto* actions = new QHBoxLayout;
    m_workbenchButton->setEnabled(false);
    m_workbenchButton->setToolTip(tr("Show this result in the main window, with the same views as a local analysis"));
    connect(m_workbenchButton, &QPushButton::clicked, this, &ServiceBrowser::openInMainWindow);
    for (QPushButton* b : {openButton, rerunButton, compareButton, submitButton, deleteButton, m_exportButton, m_workbenchButton})
        actions->addWidget(b);
    actions->addStretch();

    m_verdict->setWordWrap(true);
    m_verdict->setTextFormat(Qt::PlainText);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_raw->setReadOnly(true);
    m_raw->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_raw->setFont(QFont(QStringLiteral("DejaVu Sans Mono")));
    connect(m_evidence, &QListWidget::currentRowChanged, this, &ServiceBrowser::showEvidence);

    auto* resultPane = new QWidget(this);
    auto* resultLayout = new QVBoxLayout(resultPane);
    resultLayout->setContentsMargins(0, 0, 0, 0);
    resultLayout->addWidget(m_verdict);
    auto* evidenceSplit = new QSplitter(Qt::Horizontal, resultPane);
    evidenceSplit->addWidget(m_evidence);
    evidenceSplit->addWidget(m_raw);
    evidenceSplit->setSizes({420, 780});
    resultLayout->addWidget(evidenceSplit, 1);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(resultPane);

    m_progress->setMaximumWidth(240);
    m_progress->hide();
    m_state->setObjectName(QStringLiteral("serviceState"));
    m_state->setTextFormat(Qt::PlainText);
    m_state->setWordWrap(true);
    auto* statusRow = new QHBoxLayout;
    statusRow->addWidget(m_state, 1);
    statusRow->addWidget(m_progress);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(filters);
    layout->addWidget(split, 1);
    layout->addLayout(actions);
    layout->addLayout(statusRow);
    m_state->setText(tr("Not connected."));

    connect(m_client, &ServiceClient::uploadProgress, this, [this](qint64 sent, qint64 total) {
        if (total > 0) {
            m_progress->setRange(0, 1000);
            m_progress->setValue(static_cast<int>(sent * 1000 / total));
            if (sent == total)
                m_progress->setRange(0, 0);  // uploaded; the service is analysing
        }
    });
    connect(m_client, &ServiceClient::retrying, this, [this](int seconds, int attempt, const QString& why) {
        m_state->setText(tr("%1 — sending again in %n s (attempt %2 of %3)…", nullptr, seconds)
                             .arg(why)
                             .arg(attempt)
                             .arg(ServiceClient::kMaxAttempts));
    });
}

QString ServiceBrowser::statusText() const
{
    return m_state->text();
}

QString ServiceBrowser::rawText() const
{
    return m_raw->toPlainText();
}

void ServiceBrowser::setUrl(const QString& url)
{
    m_url->setText(url);
}

void ServiceBrowser::setTokenFile(const QString& path)
{
    m_tokenFile->setText(path);
}

void ServiceBrowser::setFilter(const SessionFilter& f)
{
    m_workload->setText(f.workloadId);
    m_status->setCurrentIndex(std::max(0, m_status->findData(f.status)));
    m_domain->setText(f.domain);
    m_node->setText(f.node);
}

void ServiceBrowser::begin(const QString& what)
{
    ++m_pending;
    m_lastError.clear();
    m_state->setText(what);
    m_progress->setRange(0, 0);  // busy until told how far
    m_progress->show();
}

void ServiceBrowser::end(const ServiceReply& reply, const QString& done)
{
    m_pending = std::max(0, m_pending - 1);
    if (!reply.ok()) {
        m_lastError = reply.error;
        m_state->setText(tr("Failed: %1").arg(reply.error));
    }
    else if (!done.isEmpty())
        m_state->setText(done);
    if (m_pending == 0) {
        m_progress->hide();
        emit idle();
    }
}

bool ServiceBrowser::connectToService()
{
    QString error;
    if (!m_client->setBaseUrl(m_url->text(), &error)) {
        m_state->setText(error);
        return false;
    }
    QByteArray token;
    if (!m_tokenFile->text().trimmed().isEmpty()) {
        const auto t = ServiceClient::readTokenFile(m_tokenFile->text().trimmed(), &error);
        if (!t) {
            m_state->setText(error);
            return false;
        }
        token = *t;
    }
    m_client->setToken(token);
    begin(tr("Connecting to %1…").arg(m_client->baseUrl().toString()));
    m_client->health(this, [this](const ServiceReply& r) {
        QString done;
        if (r.ok() && r.body.is_object())
            done = tr("Connected: faultline-service %1, rules %2")
                       .arg(qs(r.body.value("version", std::string())), qs(r.body.value("rules_digest", std::string())).left(19));
        if (r.ok())
            refresh();  // before end(): one busy spell, one idle() at the end
        end(r, done);
    });
    return true;
}

void ServiceBrowser::refresh()
{
    if (m_client->baseUrl().isEmpty())
        return;
    SessionFilter f;
    f.workloadId = m_workload->text();
    f.status = m_status->currentData().toString();
    f.domain = m_domain->text();
    f.node = m_node->text();
    const bool alone = m_pending == 0;  // else the other request's outcome is the news
    begin(tr("Listing sessions…"));
    m_client->sessions(f, this, [this, alone](const ServiceReply& r) {
        if (r.ok()) {
            const QString selected = selectedSession();
            m_model->setSessions(r.body);
            if (const int row = m_model->rowOfSession(selected); row >= 0)
                m_table->selectRow(row);
        }
        end(r, alone ? tr("%n session(s)", nullptr, m_model->rowCount()) : QString());
    });
}

QString ServiceBrowser::selectedSession() const
{
    const QModelIndexList rows = m_table->selectionModel() ? m_table->selectionModel()->selectedRows() : QModelIndexList();
    const ServiceSession* s = rows.isEmpty() ? nullptr : m_model->session(rows.front().row());
    return s ? s->id : QString();
}

void ServiceBrowser::openSelected()
{
    const QString id = selectedSession();
    if (id.isEmpty()) {
        m_state->setText(tr("Select a session first."));
        return;
    }
    openSession(id);
}

void ServiceBrowser::openSession(const QString& id, int run)
{
    begin(run > 0 ? tr("Fetching run %1 of %2…").arg(run).arg(id) : tr("Fetching the latest result of %1…").arg(id));
    m_client->result(id, run, this, [this, id](const ServiceReply& r) {
        if (r.ok())
            showResult(id, r.run, r.body);
        end(r, tr("Result of %1").arg(id));
    });
}

void ServiceBrowser::compareSelected(const QString& baselineId)
{
    const QString id = selectedSession();
    if (id.isEmpty()) {
        m_state->setText(tr("Select the failed attempt's session first."));
        return;
    }
    QString against = baselineId;
    if (against.isEmpty()) {
        QStringList others;
        for (int r = 0; r < m_model->rowCount(); ++r)
            if (const ServiceSession* s = m_model->session(r); s && s->id != id)
                others << QStringLiteral("%1  %2  %3").arg(s->id, s->workloadId, s->status);
        if (others.isEmpty()) {
            m_state->setText(tr("No other session listed to compare %1 with.").arg(id));
            return;
        }
        bool ok = false;
        const QString pick = QInputDialog::getItem(this, tr("Compare with…"),
                                                   tr("The healthy attempt of the same job to compare %1 with:").arg(id),
                                                   others, 0, false, &ok);
        if (!ok)
            return;
        against = pick.section(QLatin1Char(' '), 0, 0);
    }
    begin(tr("Attributing %1 against %2…").arg(id, against));
    m_client->attribute(
        id, this,
        [this, id, against](const ServiceReply& r) {
            QString done;
            if (r.ok()) {
                done = tr("Run %1 of %2 against %3").arg(r.body.value("run", 0)).arg(id, against);
                if (auto res = r.body.find("result"); res != r.body.end())
                    showResult(id, runOf(r.body), *res);
                refresh();
                // The baseline's own result: its times for the workbench's time axis.
                const auto comparison = m_read ? m_read->baseline : nullptr;
                if (comparison) {
                    begin(tr("Fetching the baseline %1's result…").arg(against));
                    m_client->result(against, 0, this, [this, id, against, comparison](const ServiceReply& b) {
                        QString fetched;
                        if (b.ok() && m_openSession == id && m_read && m_read->baseline == comparison) {
                            try {
                                m_openBaseline = keepBaselineAttempt(resultFromJson(b.body), comparison,
                                                                     tr("service session %1").arg(against));
                                fetched = tr("%1 against %2: both results here").arg(id, against);
                            } catch (const std::exception& e) {
                                fetched = tr("The baseline %1's result cannot be read: %2").arg(against, QString::fromUtf8(e.what()));
                            }
                        }
                        end(b, fetched);
                    });
                }
            }
            end(r, done);
        },
        against);
}

void ServiceBrowser::rerunSelected()
{
    const QString id = selectedSession();
    if (id.isEmpty()) {
        m_state->setText(tr("Select a session first."));
        return;
    }
    begin(tr("Attributing %1 again…").arg(id));
    m_client->attribute(id, this, [this, id](const ServiceReply& r) {
        QString done;
        if (r.ok()) {
            done = tr("Run %1 of %2: %3").arg(r.body.value("run", 0)).arg(id, qs(r.body.value("result", nlohmann::json::object()).value("status", std::string())));
            if (auto res = r.body.find("result"); res != r.body.end())
                showResult(id, runOf(r.body), *res);
            refresh();
        }
        end(r, done);
    });
}

void ServiceBrowser::deleteSelected()
{
    const QString id = selectedSession();
    if (id.isEmpty()) {
        m_state->setText(tr("Select a session first."));
        return;
    }
    if (QMessageBox::question(this, tr("Delete session"),
                              tr("Delete session %1 on the service, with its files and every run, and the notes kept for it "
                                 "here? This cannot be undone.")
                                  .arg(id)) == QMessageBox::Yes)
        deleteSession(id);
}

void ServiceBrowser::deleteSession(const QString& id)
{
    begin(tr("Deleting %1…").arg(id));
    // The notes' place is named now: the service may be another one when the answer comes.
    const QString notes = ServiceReview::notesKey(m_client->baseUrl(), id);
    m_client->deleteSession(id, this, [this, id, notes](const ServiceReply& r) {
        QString done;
        if (r.ok()) {
            const auto n = r.body.is_object() ? r.body.value("deleted", nlohmann::json::object()) : nlohmann::json::object();
            const auto count = [&n](const char* k) {
                const auto it = n.is_object() ? n.find(k) : n.end();
                return it != n.end() && it->is_number_integer() ? it->get<int64_t>() : int64_t(0);
            };
            done = tr("Deleted %1 (%2 files, %3 runs)").arg(id).arg(count("files")).arg(count("runs"));
            ServiceReview::sessionDeleted(notes); // a review of it closes the notes before they are removed
            for (const QString& db : {NotesStore::besidePath(notes), NotesStore::fallbackPath(notes)})
                for (const QString& suffix : {QString(), QStringLiteral("-journal"), QStringLiteral("-wal"), QStringLiteral("-shm")})
                    if (QFileInfo::exists(db + suffix) && !QFile::remove(db + suffix))
                        done += tr("; cannot remove its notes %1").arg(db + suffix);
            if (id == m_openSession)
                clearResult();
            emit sessionDeleted(id);
            refresh();
        }
        end(r, done);
    });
}

void ServiceBrowser::submit(const QString& path)
{
    const QFileInfo info(path);
    if (!info.isDir()) {
        upload(path, info.fileName());
        return;
    }
    // The service takes an archive: a folder is packed first, off the GUI thread.
    auto dir = std::make_shared<QTemporaryDir>();
    const QString archive = dir->filePath(info.fileName() + QStringLiteral(".tar.gz"));
    auto* tar = new QProcess(this);
    begin(tr("Packing %1…").arg(info.fileName()));
    connect(tar, &QProcess::finished, this, [this, tar, dir, archive, info](int code, QProcess::ExitStatus st) {
        tar->deleteLater();
        ServiceReply r;
        if (st != QProcess::NormalExit || code != 0)
            r.error = tr("Cannot pack %1: %2").arg(info.filePath(), QString::fromLocal8Bit(tar->readAllStandardError()).trimmed());
        if (r.ok())
            upload(archive, info.fileName(), dir);
        end(r, {});
    });
    tar->start(QStringLiteral("tar"), {QStringLiteral("-czf"), archive, QStringLiteral("-C"), info.absolutePath(), info.fileName()});
}

void ServiceBrowser::upload(const QString& archive, const QString& shownName, std::shared_ptr<QTemporaryDir> packed)
{
    begin(tr("Submitting %1…").arg(shownName));
    // `packed` (the folder's archive) lives until the last attempt: a retried upload opens the file again.
    m_client->submitBundle(archive, this, [this, shownName, packed](const ServiceReply& r) {
        QString done;
        if (r.ok()) {
            const QString id = qs(r.body.value("session_id", std::string()));
            done = tr("Submitted %1 as session %2").arg(shownName, id);
            if (auto res = r.body.find("result"); res != r.body.end() && res->is_object())
                showResult(id, runOf(r.body), *res);
            refresh();
        }
        end(r, done);
    });
}

void ServiceBrowser::clearResult()
{
    m_openBaseline.reset();
    m_openSession.clear();
    m_model->setOpenSession({});
    m_openRun = 0;
    m_result = nullptr;
    m_read.reset();
    m_evidence->clear();
    m_raw->clear();
    m_verdict->clear();
    m_exportButton->setEnabled(false);
    m_workbenchButton->setEnabled(false);
}

void ServiceBrowser::showResult(const QString& sessionId, int run, const nlohmann::json& result)
{
    m_openBaseline.reset();
    m_openSession = sessionId;
    m_model->setOpenSession(m_openSession);
    m_openRun = run;
    m_result = result;
    m_evidence->clear();
    m_raw->clear();
    m_exportButton->setEnabled(true);
    m_workbenchButton->setEnabled(true);
    m_read.reset();
    try {
        m_read = std::make_shared<const Result>(resultFromJson(result));
    } catch (const std::exception& e) {
        m_verdict->setText(tr("Session %1: %2").arg(sessionId, QString::fromUtf8(e.what())));
        m_exportButton->setEnabled(false);
        m_workbenchButton->setEnabled(false);
        return;
    }
    const present::Report report = present::buildReport(*m_read, {}, "session " + sessionId.toStdString());
    QString text = qs(report.headline) + QStringLiteral("\n") + qs(report.summary);
    if (!report.rootTitle.empty()) {
        text += QStringLiteral("\n\n") + tr("Root cause: %1").arg(qs(report.rootTitle));
        for (const auto& f : report.rootFacts)
            text += QStringLiteral("\n  ") + qs(f.label) + QStringLiteral(": ") + qs(f.value);
    }
    for (const auto& c : report.candidates)
        if (!c.chosen)
            text += QStringLiteral("\n") + tr("Candidate %1 on %2: %3").arg(qs(c.title), qs(c.place), qs(c.verdict));
    m_verdict->setText(text);
    // Root-cause evidence first, then the rest as the document orders it.
    for (const EvidenceItem& e : m_read->evidence) {
        const QString where = e.file.empty() ? QString() : qs(e.file) + QLatin1Char(':') + QString::number(e.ref.line);
        auto* item = new QListWidgetItem(QStringLiteral("%1  %2  %3  %4")
                                             .arg(qs(toString(e.id)), qs(std::string(toString(e.role))), where,
                                                  qs(e.excerpt).simplified().left(120)));
        item->setData(Qt::UserRole, qs(toString(e.id)));
        if (e.role == EvidenceRole::Root)
            m_evidence->insertItem(0, item);
        else
            m_evidence->addItem(item);
    }
    if (m_evidence->count())
        m_evidence->setCurrentRow(0);
}

void ServiceBrowser::showEvidence(int row)
{
    const QListWidgetItem* item = row >= 0 ? m_evidence->item(row) : nullptr;
    if (!item || m_openSession.isEmpty())
        return;
    const QString evidenceId = item->data(Qt::UserRole).toString();
    const QString session = m_openSession;
    begin(tr("Fetching the raw lines of %1…").arg(evidenceId));
    m_client->evidence(session, m_openRun, evidenceId, 5, this, [this, session, evidenceId](const ServiceReply& r) {
        if (r.ok() && session == m_openSession) {
            QString text = tr("%1, %2:").arg(evidenceId, qs(r.body.value("file", std::string()))) + QLatin1Char('\n');
            if (auto lines = r.body.find("lines"); lines != r.body.end() && lines->is_array())
                for (const auto& l : *lines)
                    if (l.is_object())
                        text += QStringLiteral("%1 %2 %3\n")
                                    .arg(l.value("evidence", false) ? QStringLiteral("▶") : QStringLiteral(" "))
                                    .arg(l.value("line", 0), 7)
                                    .arg(qs(l.value("text", std::string())));
            m_raw->setPlainText(text);
        }
        end(r, {});  // the raw pane shows it; the status keeps the last outcome
    });
}

std::shared_ptr<const Analysis> ServiceBrowser::resultAnalysis() const
{
    if (m_openSession.isEmpty() || !m_read)
        return nullptr;
    return analysisOfStoredResult(*m_read,
                                  QStringLiteral("%1 session %2").arg(m_client->baseUrl().toString(), m_openSession).toStdString());
}

bool ServiceBrowser::openInMainWindow()
{
    auto a = resultAnalysis();
    if (!a)
        return false;
    emit openInWorkbench(std::move(a), tr("service session %1").arg(m_openSession));
    return true;
}

void ServiceBrowser::exportReport()
{
    if (!m_read)
        return;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export report"), m_openSession + QStringLiteral("-report.html"),
                                                      tr("Web page, self-contained (*.html)"));
    if (path.isEmpty())
        return;
    try {
        const auto report = present::buildReport(*m_read, {}, "faultline-service " + m_client->baseUrl().toString().toStdString() +
                                                                   ", session " + m_openSession.toStdString());
        std::vector<present::ReportImage> images;
        if (std::string tl = present::timelineSvg(*m_read); !tl.empty())
            images.push_back({"timeline", tr("Timeline: one lane per node").toStdString(), "image/svg+xml", std::move(tl), {}});
        const std::string html = present::reportHtml(report, images);
        QSaveFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(html.data(), static_cast<qint64>(html.size())) != qint64(html.size()) ||
            !f.commit())
            QMessageBox::warning(this, tr("Export report"), tr("Cannot write %1: %2").arg(path, f.errorString()));
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Export report"), QString::fromUtf8(e.what()));
    }
}

} // namespace fl
