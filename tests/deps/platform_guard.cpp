// Linked into every widget test: before QTEST_MAIN builds its QApplication (which aborts with a generic message
// when the platform plugin is missing), check that the plugin QT_QPA_PLATFORM names is installed and otherwise
// fail naming the Debian package that ships it (issue #7).
#include <QByteArray>
#include <QDir>
#include <QLibraryInfo>
#include <QStringList>

#include <cstdio>
#include <cstdlib>

namespace {

// Debian 12 ships xcb, offscreen, minimal, eglfs, linuxfb and vnc in libqt6gui6; wayland is separate.
const char* packageFor(const QByteArray& platform)
{
    return platform.startsWith("wayland") ? "qt6-wayland" : "libqt6gui6";
}

struct PlatformGuard {
    PlatformGuard()
    {
        QByteArray platform = qgetenv("QT_QPA_PLATFORM");
        if (const qsizetype colon = platform.indexOf(':'); colon >= 0)
            platform.truncate(colon);  // "offscreen:fontengine=..." names offscreen
        if (platform.isEmpty())
            platform = "xcb";
        const QString file = QStringLiteral("platforms/libq%1.so").arg(QString::fromLatin1(platform));
        QStringList dirs = QString::fromLocal8Bit(qgetenv("QT_PLUGIN_PATH")).split(QLatin1Char(':'), Qt::SkipEmptyParts);
        dirs << QLibraryInfo::path(QLibraryInfo::PluginsPath);
        for (const QString& dir : dirs)
            if (QDir(dir).exists(file))
                return;
        std::fprintf(stderr,
                     "FAIL!  : the Qt platform plugin '%s' (%s) is not installed in %s: install the Debian package %s "
                     "(bash scripts/setup-deps.sh installs scripts/debian-packages.txt)\n",
                     platform.constData(), qPrintable(file), qPrintable(dirs.join(QLatin1Char(':'))),
                     packageFor(platform));
        std::exit(1);
    }
};

const PlatformGuard guard;

} // namespace
