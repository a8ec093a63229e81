// SPDX-License-Identifier: MIT
#pragma once

#include "core/util/result.h"

#include <QFrame>

#include <vector>

class QDialog;
class QLabel;

namespace etscope::ui {

/// A dismissible strip above the graph for recoverable problems (the file opened, but…).
class WarningBanner : public QFrame {
    Q_OBJECT
public:
    explicit WarningBanner(QWidget* parent = nullptr);
    void setWarnings(const std::vector<core::Warning>& warnings);
    const std::vector<core::Warning>& warnings() const { return m_warnings; }
    /// The Details… dialog (owned by the caller): every warning, sized to the text up to most
    /// of the screen.
    QDialog* createDetailsDialog();

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void showDetails();

    std::vector<core::Warning> m_warnings;
    QLabel* m_text;
};

} // namespace etscope::ui
