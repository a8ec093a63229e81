// SPDX-License-Identifier: MIT
#include "ui/window/warningbanner.h"

#include "ui/common/theme.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QScrollBar>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <memory>

namespace etscope::ui {

namespace {

constexpr int kDetailsMinimumWidth = 360;
constexpr double kScreenShare = 0.9; ///< the most of the screen the details dialog takes

} // namespace

WarningBanner::WarningBanner(QWidget* parent)
    : QFrame(parent)
    , m_text(new QLabel(this))
{
    setObjectName(QStringLiteral("warningBanner"));
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

void WarningBanner::paintEvent(QPaintEvent*)
{
    // Drawn from the palette on every paint, so a theme switch needs no restyling.
    const WarningColours colours = warningColours(palette());
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(colours.border);
    painter.setBrush(colours.background);
    painter.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 3, 3);
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

QDialog* WarningBanner::createDetailsDialog()
{
    auto* dialog = new QDialog(this);
    dialog->setWindowTitle(tr("Warnings"));
    auto* text = new QPlainTextEdit(dialog);
    text->setReadOnly(true);
    QStringList lines;
    for (const core::Warning& warning : m_warnings)
        lines << QString::fromStdString(warning.message)
                + (warning.offset ? tr(" (at byte offset %1)").arg(*warning.offset) : QString());
    text->setPlainText(lines.join(QLatin1Char('\n')));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(text);
    layout->addWidget(buttons);

    // As large as the text (widest line by the lines), up to most of the screen; past that the
    // lines wrap and the rest scrolls.
    const QFontMetrics metrics(text->font());
    int widest = 0;
    for (const QString& line : lines)
        widest = std::max(widest, metrics.horizontalAdvance(line));
    const QRect screen = (parentWidget() ? parentWidget()->screen() : dialog->screen())->availableGeometry();
    const QMargins margins = layout->contentsMargins();
    // Around the text: the document margin on both sides, the frame, a cursor's width.
    const int textChrome = 2 * static_cast<int>(std::ceil(text->document()->documentMargin())) + 2 * text->frameWidth()
        + text->cursorWidth() + 2;
    const int chromeWidth = margins.left() + margins.right() + textChrome;
    const int chromeHeight
        = margins.top() + margins.bottom() + layout->spacing() + buttons->sizeHint().height() + textChrome;
    const int maxWidth = static_cast<int>(screen.width() * kScreenShare);
    const int maxHeight = static_cast<int>(screen.height() * kScreenShare);
    int width = std::clamp(widest + chromeWidth, kDetailsMinimumWidth, std::max(kDetailsMinimumWidth, maxWidth));
    // The lines as wrapped at that width (the scroll bar's room taken when they overflow).
    const auto wrappedLines = [&](int available) {
        int count = 0;
        for (const QString& line : lines)
            count += std::max(1, static_cast<int>(std::ceil(metrics.horizontalAdvance(line) / double(available))));
        return count;
    };
    int height = wrappedLines(width - chromeWidth) * metrics.lineSpacing() + chromeHeight;
    if (height > maxHeight) {
        height = maxHeight;
        width
            = std::min(width + text->verticalScrollBar()->sizeHint().width(), std::max(kDetailsMinimumWidth, maxWidth));
    }
    dialog->resize(width, height);
    return dialog;
}

void WarningBanner::showDetails()
{
    const std::unique_ptr<QDialog> dialog(createDetailsDialog());
    dialog->exec();
}

} // namespace etscope::ui
