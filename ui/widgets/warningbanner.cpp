// SPDX-License-Identifier: MIT
#include "ui/widgets/warningbanner.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace etscope::ui {

WarningBanner::WarningBanner(QWidget* parent)
    : QFrame(parent)
    , m_text(new QLabel(this))
{
    setObjectName(QStringLiteral("warningBanner"));
    setStyleSheet(
        QStringLiteral("#warningBanner { background: #fff4d6; border: 1px solid #e6b800; border-radius: 3px; }"));
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* details = new QPushButton(tr("Details…"), this);
    auto* close = new QPushButton(tr("Dismiss"), this);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(m_text, 1);
    layout->addWidget(details);
    layout->addWidget(close);
    connect(details, &QPushButton::clicked, this, &WarningBanner::showDetails);
    connect(close, &QPushButton::clicked, this, &QWidget::hide);
    hide();
}

void WarningBanner::setWarnings(const std::vector<core::Warning>& warnings)
{
    m_warnings = warnings;
    if (warnings.empty()) {
        hide();
        return;
    }
    QString first = QString::fromStdString(warnings.front().message);
    if (first.size() > 160)
        first = first.left(157) + QStringLiteral("…");
    m_text->setText(warnings.size() == 1
            ? tr("⚠ %1").arg(first)
            : tr("⚠ %1 (and %n more)", nullptr, static_cast<int>(warnings.size() - 1)).arg(first));
    show();
}

void WarningBanner::showDetails()
{
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Warnings"));
    auto* text = new QPlainTextEdit(&dialog);
    text->setReadOnly(true);
    QStringList lines;
    for (const core::Warning& warning : m_warnings)
        lines << QString::fromStdString(warning.message)
                + (warning.offset ? tr(" (at byte offset %1)").arg(*warning.offset) : QString());
    text->setPlainText(lines.join(QLatin1Char('\n')));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(text);
    layout->addWidget(buttons);
    dialog.resize(760, 360);
    dialog.exec();
}

} // namespace etscope::ui
