// SPDX-License-Identifier: MIT
#include "ui/report/reportdialog.h"

#include "core/fullreport/report.h"
#include "core/layout/graphlayout.h"
#include "ui/document/whenfinished.h"
#include "ui/graph/presentation.h"
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
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <atomic>
#include <mutex>

namespace etscope::ui {

namespace {
/// One export at a time in the app: a second one would compete for the same two cores (and,
/// to the same path, race the rename).
std::atomic<bool> g_exporting { false };
} // namespace

/// A running export. Shared with the worker, which may outlive the dialog (closed meanwhile):
/// it keeps what the analyses read alive and frees the one-export slot when the last owner drops it.
struct ReportDialog::Job {
    ~Job() { release(); }
    /// Frees the one-export slot (once): when the export ends, or when the worker of a dialog
    /// closed meanwhile drops its last reference.
    void release()
    {
        if (holdsSlot.exchange(false))
            g_exporting = false;
    }
    std::atomic<bool> holdsSlot { true };
    std::shared_ptr<const core::Document> document;
    std::shared_ptr<const core::ETDump> run;
    std::shared_ptr<const core::ETDump> reference;
    std::shared_ptr<const core::ETRecord> record;
    std::shared_ptr<const core::KernelLists> lists;
    QString baselinePath; ///< opened on the worker into `baseline`
    std::shared_ptr<const core::Document> baseline;
    core::ReportInputs inputs;
    /// The analyses' step, written by the worker, read by the dialog's timer.
    std::mutex stepMutex;
    QString step;
    int stepDone = 0;
    int stepTotal = 0;
    QString path;
    core::Report report;
    ReportDrawings drawings;
    std::size_t next = 0; ///< the picture drawn next
    std::atomic<bool> cancelled { false };
};

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

    // The baseline: remembered while its file exists.
    QString savedBaseline = settings.value(QLatin1String(kBaselineKey)).toString();
    if (!savedBaseline.isEmpty() && !QFileInfo(savedBaseline).isFile()) {
        QSettings().remove(QLatin1String(kBaselineKey));
        savedBaseline.clear();
    }
    m_baseline = new QLineEdit(this);
    m_baseline->setObjectName(QStringLiteral("baseline"));
    m_baseline->setPlaceholderText(tr("none: no changes section"));
    m_baseline->setClearButtonEnabled(true);
    auto* browseBaseline = new QPushButton(tr("Compare with baseline…"), this);
    browseBaseline->setObjectName(QStringLiteral("browse-baseline"));
    connect(browseBaseline, &QPushButton::clicked, this, &ReportDialog::browseBaseline);
    auto* baselineRow = new QHBoxLayout;
    baselineRow->addWidget(m_baseline, 1);
    baselineRow->addWidget(browseBaseline);

    // Sections: all checked the first time; after that as last exported. Sections that need an
    // artifact the document lacks are shown, but say what they need.
    const QStringList saved = settings.value(QLatin1String(kSectionsKey)).toStringList();
    auto* box = new QGroupBox(tr("Sections"), this);
    auto* boxLayout = new QVBoxLayout(box);
    const bool haveRun = m_session && m_session->run;
    const bool haveGap = m_session && ((haveRun && m_session->reference) || !m_session->inspectorPath.isEmpty());
    for (const auto& [id, title] : core::reportSectionIds()) {
        QString text = QString::fromStdString(title);
        if (id == "profile" && !haveRun)
            text += tr(" (attach an ETDump)");
        if (id == "gap" && !haveGap)
            text += tr(" (attach a reference ETDump or an Inspector table)");
        if (id == "baseline")
            text += tr(" (choose a baseline program above)");
        auto* check = new QCheckBox(text, box);
        check->setObjectName(QString::fromStdString("section-" + id));
        check->setChecked(saved.isEmpty() || saved.contains(QString::fromStdString(id)));
        boxLayout->addWidget(check);
        m_sections[id] = check;
    }
    // The changes section exists only with a baseline: enabled (and checked) when one is set.
    connect(m_baseline, &QLineEdit::textChanged, this, [this](const QString& text) {
        QCheckBox* check = m_sections.at("baseline");
        const bool was = check->isEnabled();
        check->setEnabled(!text.trimmed().isEmpty());
        if (check->isEnabled() && !was)
            check->setChecked(true);
    });
    m_sections.at("baseline")->setEnabled(false);
    m_baseline->setText(savedBaseline);
    if (!savedBaseline.isEmpty())
        m_sections.at("baseline")->setChecked(saved.isEmpty() || saved.contains(QStringLiteral("baseline")));

    m_choices = new QWidget(this);
    auto* form = new QFormLayout;
    form->addRow(tr("Write to:"), pathRow);
    form->addRow(tr("Delegates:"), m_expand);
    form->addRow(tr("Baseline:"), baselineRow);
    auto* choices = new QVBoxLayout(m_choices);
    choices->setContentsMargins(0, 0, 0, 0);
    choices->addLayout(form);
    choices->addWidget(box);
    m_path->setParent(m_choices);
    browse->setParent(m_choices);
    m_expand->setParent(m_choices);
    m_baseline->setParent(m_choices);
    browseBaseline->setParent(m_choices);
    box->setParent(m_choices);

    m_step = new QLabel(this);
    m_step->setObjectName(QStringLiteral("export-step"));
    m_step->setWordWrap(true);
    m_step->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_step->hide();
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("export-progress"));
    m_progress->hide();
    m_analysing = new QTimer(this);
    m_analysing->setInterval(100);
    connect(m_analysing, &QTimer::timeout, this, [this] {
        if (!m_job)
            return;
        QString text;
        int done = 0;
        int total = 0;
        {
            const std::lock_guard lock(m_job->stepMutex);
            text = m_job->step;
            done = m_job->stepDone;
            total = m_job->stepTotal;
        }
        if (!text.isEmpty() && !m_job->cancelled && text != m_step->text())
            showStep(text, done, total);
    });
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &ReportDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &ReportDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_choices);
    layout->addWidget(m_step);
    layout->addWidget(m_progress);
    layout->addWidget(m_buttons);
}

ReportDialog::~ReportDialog()
{
    // The worker finishes on its own and writes nothing.
    if (m_job)
        m_job->cancelled = true;
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
        if (check->isChecked() && check->isEnabled())
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

QString ReportDialog::baseline() const
{
    return m_baseline->text().trimmed();
}

void ReportDialog::setBaseline(const QString& path)
{
    m_baseline->setText(path);
}

void ReportDialog::browseBaseline()
{
    const QString start = baseline().isEmpty()
        ? QFileInfo(QString::fromStdString(m_document ? m_document->path : std::string())).absolutePath()
        : baseline();
    const QString chosen = QFileDialog::getOpenFileName(
        this, tr("Compare with Baseline"), start, tr("ExecuTorch programs (*.pte *.bpte);;All files (*)"));
    if (!chosen.isEmpty())
        setBaseline(chosen);
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
    for (const auto& [id, check] : m_sections)
        if (check->isChecked())
            ids << QString::fromStdString(id);
    settings.setValue(QLatin1String(kSectionsKey), ids);
    if (baseline().isEmpty())
        settings.remove(QLatin1String(kBaselineKey));
    else
        settings.setValue(QLatin1String(kBaselineKey), QFileInfo(baseline()).absoluteFilePath());
    settings.setValue(QLatin1String(kExpandKey), expand());
    settings.setValue(QLatin1String(kFolderKey), QFileInfo(path()).absolutePath());
}

bool ReportDialog::isExporting() const
{
    return m_job != nullptr;
}

bool ReportDialog::anyExportRunning()
{
    return g_exporting;
}

std::optional<QString> ReportDialog::startExport()
{
    if (m_job || g_exporting)
        return tr("A report is being exported already: wait for it or cancel it.");
    if (!m_document || !m_document->program)
        return tr("The open file is not a program: there is nothing to report on.");
    if (core::reportFormatFor(path().toStdString()).empty())
        return tr("%1: write the report as .html, .md or .pdf").arg(path());
    std::set<std::string> ids = sections();
    if (ids.empty())
        return tr("Choose at least one section.");
    if (!baseline().isEmpty() && !QFileInfo(baseline()).isFile())
        return tr("%1: the baseline is not a file").arg(baseline());
    if (g_exporting.exchange(true))
        return tr("A report is being exported already: wait for it or cancel it.");
    remember();
    auto job = std::make_shared<Job>();
    job->document = m_document;
    job->path = path();
    job->drawings.format = core::reportFormatFor(job->path.toStdString());
    job->inputs.document = m_document.get();
    if (m_session) {
        job->run = m_session->run;
        job->reference = m_session->reference;
        job->record = m_session->etrecord;
        job->inputs.run = job->run.get();
        job->inputs.reference = job->reference.get();
        job->inputs.record = job->record.get();
        if (!m_session->reference)
            job->inputs.inspectorTable = m_session->inspectorPath.toStdString();
    }
    job->lists = KernelListChoice::instance().listsFor(m_document.get());
    job->inputs.kernels = job->lists.get();
    job->inputs.expand = expand().toStdString();
    if (ids.count("baseline"))
        job->baselinePath = baseline();
    job->inputs.sections = std::move(ids);
    m_job = job;
    setExporting(true);
    const QString name = QFileInfo(QString::fromStdString(m_document->path)).fileName();
    showStep(tr("Analysing %1…").arg(name), 0, 0);
    m_analysing->start();
    whenFinished(
        this, QtConcurrent::run([job, name, observer = m_stepObserver] {
            const auto tell = [&job](const QString& text, int done, int total) {
                const std::lock_guard lock(job->stepMutex);
                job->step = text;
                job->stepDone = done;
                job->stepTotal = total;
            };
            if (!job->baselinePath.isEmpty() && !job->cancelled) {
                tell(QObject::tr("Opening the baseline %1…").arg(QFileInfo(job->baselinePath).fileName()), 0, 0);
                core::OpenOptions options;
                options.cancel = &job->cancelled;
                auto opened = core::openDocument(job->baselinePath.toStdString(), options);
                if (!opened) {
                    if (opened.error().code != core::Error::Code::Cancelled)
                        job->inputs.omissions.push_back({ "baseline", opened.error().message() });
                } else if (!opened->program) {
                    job->inputs.omissions.push_back({ "baseline",
                        opened->path + ": is not a program (" + std::string(core::fileKindName(opened->kind)) + ")" });
                } else {
                    job->baseline = std::make_shared<const core::Document>(std::move(opened).value());
                    job->inputs.baseline = job->baseline.get();
                }
            }
            core::ReportControl control;
            control.cancelled = [&job] { return job->cancelled.load(); };
            control.progress = [&](const std::string& step, int done, int total) {
                if (observer)
                    observer(done, total);
                tell(QObject::tr("Analysing %1: %2 (%3 of %4)…")
                         .arg(name, QString::fromStdString(step))
                         .arg(done + 1)
                         .arg(total),
                    done, total);
            };
            if (job->cancelled)
                return false;
            auto report = core::buildReport(job->inputs, control);
            if (!report)
                return false; // cancelled
            job->report = std::move(report).value();
            return true;
        }),
        [this, job](bool built) {
            m_analysing->stop();
            if (job->cancelled || !built)
                return finish(job, {});
            drawNext(job);
        },
        [this, job](const QString& message) {
            m_analysing->stop();
            finish(job, tr("%1: not written, the analyses failed: %2").arg(job->path, message));
        });
    return std::nullopt;
}

void ReportDialog::drawNext(std::shared_ptr<Job> job)
{
    if (job != m_job)
        return;
    if (job->cancelled)
        return finish(job, {});
    const std::size_t total = job->report.pictures.size();
    if (job->next >= total)
        return write(job);
    const std::size_t index = job->next++;
    // "Picture 3 of 9: " first, so that a long caption cut at the dialog's edge never hides it.
    QString caption = QString::fromStdString(job->report.pictures[index].caption);
    if (caption.size() > 70)
        caption = caption.left(69) + QChar(0x2026);
    showStep(tr("Picture %1 of %2: %3").arg(index + 1).arg(total).arg(caption), static_cast<int>(index),
        static_cast<int>(total) + 1);
    // One picture per turn of the event loop: in between, the window repaints and Cancel is heard.
    // A graph is measured here (fonts), laid out on a worker (Graphviz, the longest part), then
    // drawn here (the scene).
    QTimer::singleShot(0, this, [this, job, index] {
        if (job != m_job || job->cancelled)
            return finish(job, {});
        std::shared_ptr<Presentation> presentation;
        try {
            presentation = presentReportGraph(job->report, index, job->document);
        } catch (const std::exception& error) {
            job->report.pictures[index].failed = error.what();
            return drawNext(job);
        }
        if (!presentation)
            return drawPicture(job, index, nullptr);
        whenFinished(
            this, QtConcurrent::run([job, presentation] {
                return core::layoutGraph(presentation->request, &job->cancelled);
            }),
            [this, job, index, presentation](core::Result<core::LayoutResult> layout) {
                if (job != m_job || job->cancelled)
                    return finish(job, {});
                if (!layout) {
                    job->report.pictures[index].failed = layout.error().reason;
                    return drawNext(job);
                }
                presentation->layout = std::move(layout).value();
                QTimer::singleShot(
                    0, this, [this, job, index, presentation] { drawPicture(job, index, presentation); });
            },
            [this, job, index](const QString& message) {
                job->report.pictures[index].failed = "the layout failed: " + message.toStdString();
                drawNext(job);
            });
    });
}

void ReportDialog::drawPicture(std::shared_ptr<Job> job, std::size_t index, std::shared_ptr<Presentation> laidOut)
{
    if (job != m_job || job->cancelled)
        return finish(job, {});
    try {
        drawReportPictureFor(job->report, index, job->document, job->drawings, std::move(laidOut));
    } catch (const std::exception& error) {
        job->report.pictures[index].failed = error.what();
    }
    drawNext(job);
}

void ReportDialog::write(std::shared_ptr<Job> job)
{
    const int total = static_cast<int>(job->report.pictures.size()) + 1;
    const QString writing = tr("Writing %1…").arg(QDir::toNativeSeparators(job->path));
    showStep(writing, total - 1, total);
    // The graphs' bitmaps are painted on the worker too; the timer shows which one.
    m_analysing->start();
    whenFinished(
        this, QtConcurrent::run([job, writing, total]() -> QString {
            if (job->cancelled)
                return {};
            const auto painting = [&job, &writing, total](const QString& caption, int done, int count) {
                const std::lock_guard lock(job->stepMutex);
                job->step = QObject::tr("%1 painting graph %2 of %3: %4")
                                .arg(writing)
                                .arg(done + 1)
                                .arg(count)
                                .arg(caption.size() > 50 ? caption.left(49) + QChar(0x2026) : caption);
                job->stepDone = total - 1;
                job->stepTotal = total;
            };
            const auto error = finishReport(
                job->report, job->document, job->path, job->drawings, nullptr, &job->cancelled, painting);
            return error ? *error : QString();
        }),
        [this, job](const QString& error) {
            m_analysing->stop();
            finish(job, job->cancelled ? QString() : error);
        },
        [this, job](const QString& message) {
            m_analysing->stop();
            finish(job, tr("%1: not written, writing failed: %2").arg(job->path, message));
        });
}

void ReportDialog::finish(const std::shared_ptr<Job>& job, const QString& error)
{
    if (job != m_job)
        return;
    const bool cancelled = job->cancelled;
    const QString path = job->path;
    job->release();
    m_job.reset();
    setExporting(false);
    if (cancelled) {
        m_step->setText(tr("Cancelled: nothing was written."));
        m_step->show();
    } else if (!error.isEmpty()) {
        m_step->setText(error);
        m_step->show();
    } else {
        m_written = path;
        m_step->hide();
    }
    Q_EMIT exportFinished(
        path, cancelled ? tr("%1: not written, the export was cancelled").arg(path) : error, cancelled);
}

void ReportDialog::cancelExport()
{
    if (!m_job || m_job->cancelled.exchange(true))
        return;
    showStep(tr("Cancelling…"), m_progress->value(), m_progress->maximum());
}

void ReportDialog::setExporting(bool on)
{
    m_choices->setEnabled(!on);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!on);
    m_buttons->button(QDialogButtonBox::Cancel)->setText(on ? tr("Cancel Export") : tr("Cancel"));
    m_progress->setVisible(on);
    if (!on)
        m_progress->reset();
    if (on)
        m_step->show();
}

void ReportDialog::showStep(const QString& text, int done, int total)
{
    m_step->setText(text);
    m_progress->setRange(0, total); // 0 of 0: busy, while the analyses run
    m_progress->setValue(done);
    Q_EMIT exportProgress(text, done, total);
}

void ReportDialog::accept()
{
    if (m_job)
        return;
    if (const auto error = startExport()) {
        QMessageBox::warning(this, tr("Export Report"), *error);
        return;
    }
    // Closes when written; an error is shown and the dialog stays for another try.
    auto* once = new QObject(this);
    connect(
        this, &ReportDialog::exportFinished, once, [this, once](const QString&, const QString& error, bool cancelled) {
            once->deleteLater();
            if (cancelled)
                return;
            if (!error.isEmpty()) {
                QMessageBox::warning(this, tr("Export Report"), error);
                return;
            }
            QDialog::accept();
        });
}

void ReportDialog::reject()
{
    if (m_job) {
        cancelExport();
        return;
    }
    QDialog::reject();
}

} // namespace etscope::ui
