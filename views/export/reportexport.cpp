// SPDX-License-Identifier: MIT
#include "views/export/reportexport.h"

#include "engine/result_json.h"
#include "views/chain/chaingraphview.h"
#include "views/store/notesstore.h"
#include "views/timeline/timelinepanel.h"
#include "views/workbench/workbenchview.h"

#include <QBuffer>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPixmap>
#include <QSaveFile>

namespace fl {

namespace {

std::string utf8(const QString& s)
{
    return s.toStdString();
}

std::string when(const QDateTime& t)
{
    return t.isValid() ? utf8(t.toUTC().toString(Qt::ISODate)) : std::string();
}

// The widget as PNG bytes; a widget never laid out (a tab not yet shown) is given a readable size first.
std::string grabPng(QWidget* w)
{
    if (!w)
        return {};
    if (w->width() < 400 || w->height() < 200)
        w->resize(std::max(w->width(), 1100), std::max(w->height(), 500));
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!w->grab().save(&buffer, "PNG"))
        return {};
    return bytes.toStdString();
}

bool save(const QString& path, const QByteArray& bytes, QString& error)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
        error = QObject::tr("Cannot write %1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

} // namespace

present::ReviewNotes reviewNotes(const NotesStore& store)
{
    present::ReviewNotes r;
    for (const ItemNote& n : store.notes())
        r.notes.push_back({utf8(n.kind), utf8(n.target), utf8(n.file), n.line, utf8(n.text), when(n.updated)});
    for (const LineBookmark& b : store.bookmarks())
        r.bookmarks.push_back({utf8(b.file), b.line, utf8(b.note), when(b.created)});
    if (const auto o = store.verdictOverride())
        r.verdictOverride = present::ReviewOverride{utf8(o->status), utf8(o->domain), utf8(o->subDomain),
                                                   utf8(o->rootNode), utf8(o->reason), when(o->created)};
    return r;
}

QString writeReport(WorkbenchView& view, const QString& source, const QString& path, bool html)
{
    const auto analysis = view.analysis();
    if (!analysis)
        return QObject::tr("Nothing to export: open a bundle first.");
    present::ReviewNotes notes;
    if (view.notes())
        notes = reviewNotes(*view.notes());
    present::Report report;
    try {
        report = present::buildReport(analysis->result, notes, utf8(source));
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
    const QFileInfo out(path);
    const std::string stem = utf8(out.completeBaseName());
    std::vector<present::ReportImage> images;
    if (std::string png = grabPng(view.chain()); !png.empty())
        images.push_back({"chain", "The symptom chain, as the workbench shows it", "image/png", std::move(png),
                          stem + "-chain.png"});
    if (std::string png = grabPng(view.timeline()); !png.empty())
        images.push_back({"timeline", "Timeline, as the workbench shows it", "image/png", std::move(png),
                          stem + "-timeline.png"});
    QString error;
    if (!html)
        for (const auto& img : images)
            if (!save(out.dir().filePath(QString::fromStdString(img.fileName)), QByteArray::fromStdString(img.bytes), error))
                return error;
    const std::string text = html ? present::reportHtml(report, images) : present::reportMarkdown(report, images);
    save(path, QByteArray::fromStdString(text), error);
    return error;
}

void exportReportDialog(QWidget* parent, WorkbenchView& view, const QString& source)
{
    if (!view.analysis()) {
        QMessageBox::information(parent, QObject::tr("Export report"), QObject::tr("Open a bundle first."));
        return;
    }
    const QString htmlFilter = QObject::tr("Web page, self-contained (*.html)");
    const QString mdFilter = QObject::tr("Markdown, pictures beside it (*.md)");
    QString filter = htmlFilter;
    const QString suggested = QFileInfo(source).completeBaseName() + QStringLiteral("-report.html");
    QString path = QFileDialog::getSaveFileName(parent, QObject::tr("Export report"), suggested,
                                                htmlFilter + QStringLiteral(";;") + mdFilter, &filter);
    if (path.isEmpty())
        return;
    const bool html = filter == htmlFilter ? !path.endsWith(QLatin1String(".md")) : path.endsWith(QLatin1String(".html"));
    if (QFileInfo(path).suffix().isEmpty())
        path += html ? QStringLiteral(".html") : QStringLiteral(".md");
    if (const QString error = writeReport(view, source, path, html); !error.isEmpty())
        QMessageBox::warning(parent, QObject::tr("Export report"), error);
}

} // namespace fl
