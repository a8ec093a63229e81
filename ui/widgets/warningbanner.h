// SPDX-License-Identifier: MIT
#pragma once

#include "core/util/result.h"

#include <QFrame>

#include <vector>

class QLabel;

namespace etscope::ui {

/// A dismissible strip above the graph for recoverable problems (the file opened, but…).
class WarningBanner : public QFrame {
    Q_OBJECT
public:
    explicit WarningBanner(QWidget* parent = nullptr);
    void setWarnings(const std::vector<core::Warning>& warnings);
    const std::vector<core::Warning>& warnings() const { return m_warnings; }

private:
    void showDetails();

    std::vector<core::Warning> m_warnings;
    QLabel* m_text;
};

} // namespace etscope::ui
