// The reviewer's notes file (`<bundle>.faultline-notes.sqlite`): its schema,
// the steps that migrate it, and the one reader of it. Qt-free, on sqlite3:
// the CLI report reads it here, the workbench's NotesStore (views/notesstore.cpp)
// creates and writes it with these same statements, so a schema change is made
// once and both follow.
#pragma once

#include "present/report.h"

#include <string>
#include <vector>

namespace fl::store {

inline constexpr int kNotesSchemaVersion = 3;
// meta.application: tells a notes file from any other SQLite file.
inline constexpr const char* kNotesApplication = "faultline-notes";

// Step i takes the schema from version i to i + 1. Every statement is idempotent,
// so a step interrupted before its version was recorded can simply run again.
// After each step the writer records meta(application, schema_version = i + 1).
const std::vector<std::vector<const char*>>& notesMigrations();

// Reads a notes file of any schema 1..kNotesSchemaVersion, read-only: its notes
// (sorted by kind, target), bookmarks (by file, line) and the verdict override
// (schema 2 on) and the review decisions, oldest first (schema 3 on). False with `error` naming the file when it cannot be opened, is
// not a Faultline notes file, or has a newer schema than this build reads.
[[nodiscard]] bool readNotes(const std::string& path, present::ReviewNotes& out, std::string& error);

// Creates `path` (or upgrades it) to schema `version` (1..kNotesSchemaVersion) with
// notesMigrations(): what the workbench writes, without Qt (tests, tools).
[[nodiscard]] bool createNotes(const std::string& path, int version, std::string& error);

} // namespace fl::store
