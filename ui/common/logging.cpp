// SPDX-License-Identifier: MIT
#include "ui/common/logging.h"

namespace etscope::ui {

// QtWarningMsg: debug and info lines are off until --log or QT_LOGGING_RULES turns them on.
Q_LOGGING_CATEGORY(logOpen, "etscope.open", QtWarningMsg)
Q_LOGGING_CATEGORY(logLayout, "etscope.layout", QtWarningMsg)
Q_LOGGING_CATEGORY(logDelegates, "etscope.delegates", QtWarningMsg)
Q_LOGGING_CATEGORY(logDebug, "etscope.debug", QtWarningMsg)
Q_LOGGING_CATEGORY(logUi, "etscope.ui", QtWarningMsg)

QStringList loggingCategoryNames()
{
    return { QStringLiteral("etscope.open"), QStringLiteral("etscope.layout"), QStringLiteral("etscope.delegates"),
        QStringLiteral("etscope.debug"), QStringLiteral("etscope.ui") };
}

QString enableLogging(const QString& spec)
{
    const QStringList known = loggingCategoryNames();
    QStringList rules;
    for (QString name : spec.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        name = name.trimmed();
        if (name == QLatin1String("all") || name == QLatin1String("etscope"))
            name = QStringLiteral("etscope.*");
        if (!name.endsWith(QLatin1Char('*')) && !known.contains(name))
            return name;
        rules.append(name + QStringLiteral(".debug=true"));
    }
    // Qt applies QT_LOGGING_RULES after the filter rules set here, so the environment still wins
    // where both speak of a category.
    QLoggingCategory::setFilterRules(rules.join(QLatin1Char('\n')));
    return {};
}

} // namespace etscope::ui
