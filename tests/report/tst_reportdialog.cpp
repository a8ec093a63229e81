// SPDX-License-Identifier: MIT
// File › Export Report…: the sections chosen are the sections written, the choices come back
// the next time, the document's attached ETDump fills the profile, bad paths are refused.
#include "core/document/document.h"
#include "core/fullreport/report.h"
#include "tests/common/testsupport.h"
#include "ui/document/debugsession.h"
#include "ui/report/reportdialog.h"

#include <QApplication>
#include <QCheckBox>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace etscope;

class TestReportDialog : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::shared_ptr<const core::Document> m_document;

private slots:
    void initTestCase()
    {
        ETSCOPE_REQUIRE_SAMPLES();
        QVERIFY(m_dir.isValid());
        QStandardPaths::setTestModeEnabled(true); // settings of this test only
        QCoreApplication::setOrganizationName(QStringLiteral("ETScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_reportdialog"));
        QSettings().clear();
        auto document = core::openDocument(test::samplePath("djl-executorch-engine/stress_mlp.pte"));
        QVERIFY(document);
        m_document = std::make_shared<const core::Document>(std::move(document).value());
    }

    void chosenSectionsAreWrittenAndRemembered()
    {
        const QString path = m_dir.filePath(QStringLiteral("r.html"));
        {
            ui::ReportDialog dialog(m_document, nullptr);
            // Every section is checked the first time.
            QVERIFY(dialog.sections().count("graphs") && dialog.sections().count("size"));
            dialog.setSectionChecked("graphs", false);
            dialog.setSectionChecked("size", false);
            dialog.setPath(path);
            const auto error = dialog.exportReport();
            QVERIFY2(!error, error ? qPrintable(*error) : "");
        }
        const QByteArray html = test::readFile(path);
        QVERIFY(html.contains("<section id=\"operators\">"));
        QVERIFY(html.contains("<section id=\"memory\">"));
        QVERIFY(!html.contains("<section id=\"graphs\">"));
        QVERIFY(!html.contains("<section id=\"size\">"));
        QVERIFY(!html.contains("<figure id=\"size\""));

        ui::ReportDialog again(m_document, nullptr);
        QVERIFY(!again.sections().count("graphs"));
        QVERIFY(again.sections().count("operators"));
        QCOMPARE(QFileInfo(again.path()).absolutePath(), QFileInfo(path).absolutePath());
    }

    void attachedRunFillsTheProfile()
    {
        ui::DebugSession session;
        QVERIFY(!ui::attach(session, ui::AttachKind::Run,
            QString::fromStdString(test::samplePath("generated/stress_mlp/stress_mlp.intermediates.etdp"))));
        ui::ReportDialog dialog(m_document, &session);
        dialog.setSectionChecked("profile", true);
        const QString path = m_dir.filePath(QStringLiteral("profile.md"));
        dialog.setPath(path);
        QVERIFY(!dialog.exportReport());
        const QString md = QString::fromUtf8(test::readFile(path));
        QVERIFY(md.contains(QStringLiteral("**Slowest operators of 'forward'**")));
        QVERIFY(QFile::exists(m_dir.filePath(QStringLiteral("profile-timeline.png"))));
    }

    void refusesWhatItCannotWrite()
    {
        ui::ReportDialog dialog(m_document, nullptr);
        dialog.setPath(m_dir.filePath(QStringLiteral("r.txt")));
        QVERIFY(dialog.exportReport());
        for (const auto& [id, title] : core::reportSectionIds())
            dialog.setSectionChecked(id, false);
        dialog.setPath(m_dir.filePath(QStringLiteral("r.html")));
        QVERIFY(dialog.exportReport()); // no section chosen
    }
};

QTEST_MAIN(TestReportDialog)
#include "tst_reportdialog.moc"
