#include "rules/sha256.h"

#include <QByteArray>
#include <QCryptographicHash>

namespace fl {
std::string sha256Hex(std::string_view data)
{
    QByteArray digest = QCryptographicHash::hash(QByteArrayView(data.data(), static_cast<qsizetype>(data.size())),
                                                 QCryptographicHash::Sha256);
    return digest.toHex().toStdString();
}
} // namespace fl
