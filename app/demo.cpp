// SPDX-License-Identifier: MIT
#include "app/demo.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace etscope::app {

QString demoProgramPath()
{
    const QDir binary(QCoreApplication::applicationDirPath());
    const QStringList candidates {
        binary.filePath(QStringLiteral("demo/demo.pte")), // build tree
        binary.filePath(QStringLiteral("../share/etscope/demo/demo.pte")), // installed
    };
    for (const QString& candidate : candidates)
        if (QFileInfo::exists(candidate))
            return QFileInfo(candidate).canonicalFilePath();
    return {};
}

} // namespace etscope::app
