// SPDX-License-Identifier: MIT
#include "documentcontroller.h"

#include "layout/graphlayout.h"

#include <QFileInfo>
#include <QPointer>
#include <QThreadPool>
#include <QtConcurrent>

namespace etscope::ui {

namespace {

/// Graphviz is not thread-safe: all layouts of all documents run on this one thread.
QThreadPool* layoutPool()
{
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool();
        p->setMaxThreadCount(1);
        return p;
    }();
    return pool;
}

} // namespace

DocumentController::DocumentController(QObject* parent)
    : QObject(parent)
    , m_cancel(std::make_shared<std::atomic<bool>>(false))
{
}

DocumentController::~DocumentController()
{
    m_cancel->store(true);
}

void DocumentController::setBusy(int delta)
{
    const bool was = m_busy > 0;
    m_busy += delta;
    if (was != (m_busy > 0))
        Q_EMIT busyChanged(m_busy > 0);
}

void DocumentController::adopt(std::shared_ptr<const core::Document> document)
{
    m_document = std::move(document);
    m_path = m_document ? QString::fromStdString(m_document->path) : QString();
    m_cache.clear();
    ++m_generation;
    Q_EMIT opened();
}

void DocumentController::stop()
{
    m_cancel->store(true);
}

void DocumentController::open(const QString& path, core::OpenOptions options)
{
    m_path = path;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    const quint64 generation = ++m_generation;
    options.cancel = m_cancel.get();
    QPointer<DocumentController> self(this);
    options.progress = [self](int percent, const std::string& phase) {
        const QString text = QString::fromStdString(phase);
        QMetaObject::invokeMethod(
            qApp,
            [self, percent, text] {
                if (self)
                    Q_EMIT self->progress(percent, text);
            },
            Qt::QueuedConnection);
    };
    setBusy(+1);
    auto cancel = m_cancel; // keeps the flag alive for the worker
    QtConcurrent::run([path, options, cancel]() {
        return core::openDocument(QFileInfo(path).filePath().toStdString(), options);
    }).then(this, [this, generation](core::Result<core::Document> result) {
        setBusy(-1);
        if (generation != m_generation)
            return;
        if (!result) {
            if (result.error().code == core::Error::Code::Cancelled)
                Q_EMIT stopped();
            else
                Q_EMIT failed(QString::fromStdString(result.error().message()));
            return;
        }
        m_document = std::make_shared<const core::Document>(std::move(result).value());
        m_cache.clear();
        Q_EMIT opened();
    });
}

std::shared_ptr<const Presentation> DocumentController::presentationNow(
    const GraphContext& context, const std::set<int>& expanded, QString* error)
{
    if (!m_document || !m_document->program)
        return nullptr;
    auto presentation = preparePresentation(m_document, context, expanded);
    if (const auto it = m_cache.find(presentation->key()); it != m_cache.end())
        return *it;
    auto layout = core::layoutGraph(presentation->request);
    if (!layout) {
        if (error)
            *error = QString::fromStdString(layout.error().message());
        return nullptr;
    }
    presentation->layout = std::move(layout).value();
    m_cache.insert(presentation->key(), presentation);
    return presentation;
}

void DocumentController::requestPresentation(const GraphContext& context, const std::set<int>& expanded)
{
    if (!m_document || !m_document->program)
        return;
    std::shared_ptr<Presentation> presentation = preparePresentation(m_document, context, expanded);
    const QString key = presentation->key();
    if (const auto it = m_cache.find(key); it != m_cache.end()) {
        Q_EMIT presentationReady(*it);
        return;
    }
    const quint64 generation = m_generation;
    m_cancel->store(false);
    auto cancel = m_cancel;
    Q_EMIT layoutStarted(tr("Laying out %1 nodes…").arg(presentation->request.nodes.size()));
    setBusy(+1);
    QtConcurrent::run(layoutPool(), [presentation, cancel]() {
        return core::layoutGraph(presentation->request, cancel.get());
    }).then(this, [this, presentation, key, generation](core::Result<core::LayoutResult> layout) {
        setBusy(-1);
        if (generation != m_generation)
            return;
        if (!layout) {
            if (layout.error().code == core::Error::Code::Cancelled)
                Q_EMIT stopped();
            else
                Q_EMIT layoutFailed(QString::fromStdString(layout.error().message()));
            return;
        }
        presentation->layout = std::move(layout).value();
        m_cache.insert(key, presentation);
        Q_EMIT presentationReady(presentation);
    });
}

} // namespace etscope::ui
