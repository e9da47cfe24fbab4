// SPDX-License-Identifier: MIT
// File → Export report…: the open diagnosis as the same Markdown or HTML report
// `faultline-cli report` writes (core/present/report.h), with the reviewer's
// notes from the notes store and pictures grabbed from the workbench's own
// chain graph and timeline (PNG).
#pragma once

#include "present/report.h"

#include <QString>

class QWidget;

namespace fl {

class NotesStore;
class WorkbenchView;

// The notes store's contents as the report reads them.
present::ReviewNotes reviewNotes(const NotesStore& store);

// Writes the report of what `view` shows to `path`: HTML when `html`, else Markdown with its
// pictures beside it (NAME-chain.png, NAME-timeline.png). Returns an error naming the file, or empty.
QString writeReport(WorkbenchView& view, const QString& source, const QString& path, bool html);

// Asks where (and so in which format), writes, and says what happened.
void exportReportDialog(QWidget* parent, WorkbenchView& view, const QString& source);

} // namespace fl
