// Runs faultline-cli (FAULTLINE_CLI, set by the test's CMake target) as a user would, without the user's rules.
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

namespace fl::test {

struct CliRun {
    int code = -1;
    QString out;
    QString err;
};

inline CliRun cli(const QStringList& args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("XDG_CONFIG_HOME", "/nonexistent-faultline-test"); // no user rules
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(FAULTLINE_CLI), args);
    if (!p.waitForFinished(300000))
        return {};
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

} // namespace fl::test
