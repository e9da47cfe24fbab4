// SPDX-License-Identifier: MIT
// The real faultline-service for Qt tests: started on a free loopback port in the test's temporary folder,
// with a token, stopped when the object goes (or when the test process dies). start() is bounded (about 20 s) and says why it failed.
#pragma once

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <csignal>
#include <sys/prctl.h>

class RealService
{
public:
    ~RealService()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(10000))
            m_process.kill();
    }

    // `binary` with its store under `dir`/data, the token written to `dir`/token, and `extraArgs` after the
    // options above (give none of those again). Empty on success, else why not.
    QString start(const QString& binary, const QString& dir, const QByteArray& token, const QStringList& extraArgs = {})
    {
        m_tokenFile = dir + QStringLiteral("/token");
        QFile f(m_tokenFile);
        if (!f.open(QIODevice::WriteOnly) || f.write(token + '\n') != token.size() + 1)
            return QStringLiteral("cannot write ") + m_tokenFile;
        f.close();
        m_process.setProcessChannelMode(QProcess::SeparateChannels);
        // A test that crashes or is killed by CTest's timeout never runs the destructor: the service then
        // goes with it instead of listening on as an orphan (seen: eight left behind by crashed runs).
        m_process.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
        m_process.setStandardErrorFile(dir + QStringLiteral("/service.log"));
        m_process.start(binary, QStringList{QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"), QStringLiteral("--data"),
                                            dir + QStringLiteral("/data"), QStringLiteral("--token-file"), m_tokenFile,
                                            QStringLiteral("--workers"), QStringLiteral("1")} +
                                    extraArgs);
        if (!m_process.waitForStarted(10000))
            return binary + QStringLiteral(": ") + m_process.errorString();
        QByteArray line;
        for (int i = 0; i < 100 && !line.contains('\n'); ++i) {
            m_process.waitForReadyRead(200);
            line += m_process.readAllStandardOutput();
        }
        const auto m = QRegularExpression(QStringLiteral("listening on (http://127\\.0\\.0\\.1:\\d+)")).match(QString::fromUtf8(line));
        if (!m.hasMatch())
            return line.isEmpty() ? QStringLiteral("faultline-service printed nothing within 20 s (see service.log)")
                                  : QString::fromUtf8(line);
        m_url = m.captured(1);
        return {};
    }

    QString url() const { return m_url; }
    QString tokenFile() const { return m_tokenFile; }

private:
    QProcess m_process;
    QString m_url;
    QString m_tokenFile;
};
