// Tests that need a Qt plugin check for it first, so that a machine without it fails naming the Debian package
// to install instead of with an assertion far from the cause (issue #7). Header-only; include it only in tests
// that link Qt Sql.
#pragma once

#include <QSqlDatabase>
#include <QTest>

// Qt's SQLite driver, which the notes and history stores need (views/notesstore.h names the package).
#define FL_REQUIRE_SQLITE_DRIVER()                                                                                   \
    QVERIFY2(QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE")),                                             \
             "Qt's SQLite driver (QSQLITE) is not installed: install the Debian package libqt6sql6-sqlite "          \
             "(bash scripts/setup-deps.sh installs scripts/debian-packages.txt)")
