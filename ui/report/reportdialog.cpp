// SPDX-License-Identifier: MIT
#include "ui/report/reportdialog.h"

#include "core/fullreport/report.h"
#include "ui/load/kernellistchoice.h"
#include "ui/report/reportrenderer.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace etscope::ui {

ReportDialog::ReportDialog(std::shared_ptr<const core::Document> document, const DebugSession* session, QWidget* parent)
    : QDialog(parent)
    , m_document(std::move(document))
    , m_session(session)
{
    setWindowTitle(tr("Export Report"));
    const QSettings settings;
    const QFileInfo source(QString::fromStdString(m_document ? m_document->path : std::string()));
    const QString folder = settings.value(QLatin1String(kFolderKey), source.absolutePath()).toString();

    m_path = new QLineEdit(QDir(folder).filePath(source.completeBaseName() + QStringLiteral("-report.html")), this);
    auto* browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, &ReportDialog::browse);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browse);

    m_expand = new QComboBox(this);
    m_expand->addItem(tr("Expanded (all but the largest)"), QStringLiteral("all"));
    m_expand->addItem(tr("Closed"), QStringLiteral("none"));
    m_expand->setCurrentIndex(std::max(0, m_expand->findData(settings.value(QLatin1String(kExpandKey)))));

    // Sections: all checked the first time; after that as last exported. Sections that need an
    // artifact the document lacks are shown, but say what they need.
    const QStringList saved = settings.value(QLatin1String(kSectionsKey)).toStringList();
    auto* box = new QGroupBox(tr("Sections"), this);
    auto* boxLayout = new QVBoxLayout(box);
    const bool haveRun = m_session && m_session->run;
    const bool haveGap = m_session && ((haveRun && m_session->reference) || !m_session->inspectorPath.isEmpty());
    for (const auto& [id, title] : core::reportSectionIds()) {
        if (id == "baseline")
            continue; // the app has no baseline to offer here (the command line takes --baseline)
        QString text = QString::fromStdString(title);
        if (id == "profile" && !haveRun)
            text += tr(" (attach an ETDump)");
        if (id == "gap" && !haveGap)
            text += tr(" (attach a reference ETDump or an Inspector table)");
        auto* check = new QCheckBox(text, box);
        check->setObjectName(QString::fromStdString("section-" + id));
        check->setChecked(saved.isEmpty() || saved.contains(QString::fromStdString(id)));
        boxLayout->addWidget(check);
        m_sections[id] = check;
    }

    auto* form = new QFormLayout;
    form->addRow(tr("Write to:"), pathRow);
    form->addRow(tr("Delegates:"), m_expand);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    connect(buttons, &QDialogButtonBox::accepted, this, &ReportDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ReportDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(box);
    layout->addWidget(buttons);
}

QString ReportDialog::path() const
{
    return m_path->text();
}

void ReportDialog::setPath(const QString& path)
{
    m_path->setText(path);
}

std::set<std::string> ReportDialog::sections() const
{
    std::set<std::string> ids;
    for (const auto& [id, check] : m_sections)
        if (check->isChecked())
            ids.insert(id);
    return ids;
}

void ReportDialog::setSectionChecked(const std::string& id, bool checked)
{
    if (auto it = m_sections.find(id); it != m_sections.end())
        it->second->setChecked(checked);
}

QString ReportDialog::expand() const
{
    return m_expand->currentData().toString();
}

void ReportDialog::browse()
{
    const QString chosen = QFileDialog::getSaveFileName(
        this, tr("Export Report"), path(), tr("HTML report (*.html);;Markdown for a pull request (*.md);;PDF (*.pdf)"));
    if (!chosen.isEmpty())
        setPath(chosen);
}

void ReportDialog::remember() const
{
    QSettings settings;
    QStringList ids;
    for (const std::string& id : sections())
        ids << QString::fromStdString(id);
    settings.setValue(QLatin1String(kSectionsKey), ids);
    settings.setValue(QLatin1String(kExpandKey), expand());
    settings.setValue(QLatin1String(kFolderKey), QFileInfo(path()).absolutePath());
}

std::optional<QString> ReportDialog::exportReport()
{
    if (!m_document || !m_document->program)
        return tr("The open file is not a program: there is nothing to report on.");
    if (core::reportFormatFor(path().toStdString()).empty())
        return tr("%1: write the report as .html, .md or .pdf").arg(path());
    std::set<std::string> ids = sections();
    if (ids.empty())
        return tr("Choose at least one section.");
    remember();
    core::ReportInputs inputs;
    inputs.document = m_document.get();
    if (m_session) {
        inputs.run = m_session->run.get();
        inputs.reference = m_session->reference.get();
        inputs.record = m_session->etrecord.get();
        if (!m_session->reference)
            inputs.inspectorTable = m_session->inspectorPath.toStdString();
    }
    const auto lists = KernelListChoice::instance().lists();
    inputs.kernels = lists.get();
    inputs.expand = expand().toStdString();
    inputs.sections = std::move(ids);
    core::Report report = core::buildReport(inputs);
    return writeReport(report, m_document, path());
}

void ReportDialog::accept()
{
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const auto error = exportReport();
    QApplication::restoreOverrideCursor();
    if (error) {
        QMessageBox::warning(this, tr("Export Report"), *error);
        return;
    }
    QDialog::accept();
}

} // namespace etscope::ui
