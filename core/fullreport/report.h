// SPDX-License-Identifier: MIT
#pragma once
// The one-file report of `etscope report` (issue 25): the summary, graphs, operator table, load
// check, memory plan, size breakdown, profile, timeline, numeric gap and the changes against a
// baseline, as sections of paragraphs, fact lists, tables and picture slots. Format-neutral:
// reportHtml and reportMarkdown write it; the app draws the pictures and writes the PDF.

#include "core/analysis/devicecheck.h"
#include "core/analysis/kernelcheck.h"
#include "core/analysis/memoryplan.h"
#include "core/analysis/sizebreakdown.h"
#include "core/analysis/timeline.h"
#include "core/cost/costvendor.h"
#include "core/debug/etdump.h"
#include "core/debug/etrecord.h"
#include "core/document/document.h"
#include "core/graph/flatten.h"
#include "core/table/table.h"
#include "core/util/text.h" // htmlEscape

#include "core/util/result.h"

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace etscope::core {

/// A picture the report shows: what to draw (filled by buildReport) and, once drawn, where it is
/// (filled by whoever draws it: inline SVG for HTML, a file for Markdown).
/// With expand "all", delegates whose inner graph has more nodes than this stay closed in the
/// graph pictures (a 1,500-node QNN graph drawn inside its method is unreadable at any zoom);
/// naming the backend (--expand QnnBackend) opens them anyway.
inline constexpr std::size_t kReportExpandAllMaxNodes = 400;

/// A part of a picture on a PDF page (rich text): an image shown at a given size, with a label.
struct ReportPicturePiece {
    std::string file; ///< the image's name in the rich-text document
    int width = 0; ///< shown size on the page, in CSS pixels
    int height = 0;
    /// Said under the piece: "part 2 of 5 (x 1,180–2,560 of 7,016 px)" for a tile of a picture
    /// too wide to read at the page's width; empty for the page-high cuts of a tall picture.
    std::string label;
};

struct ReportPicture {
    enum class Kind {
        Graph, ///< a method's graph: whole, or the overview of a long method, or one of its groups
        MemoryArena, ///< one arena of a method's memory plan (offset × step chart)
        SizeTreemap, ///< the file's size breakdown as a treemap
        Timeline, ///< the first run of the ETDump on a time axis
    };
    Kind kind = Kind::Graph;
    std::string id; ///< unique in the report and safe in a file name: "graph-forward", "memory-forward-1"
    std::string caption;
    int method = -1; ///< Graph, MemoryArena: index into the program's methods
    int arena = 0; ///< MemoryArena: index into the plan's arenas
    int group = -1; ///< Graph: the group of a long method drawn opened (-1: the method's own drawing)
    std::string expand = "all"; ///< Graph: delegates drawn expanded: "none", "all" or a backend id
    /// Graph: the node the picture marks (the numeric gap's first divergence), drawn on the box
    /// that shows it (itself, or the closed delegate or group holding it); none when empty.
    std::optional<NodeOrigin> mark;
    std::string markText; ///< the mark's words: "first divergence: snr 2.989 dB < 20 dB"

    // Filled by the drawing side.
    /// HTML: the picture inline, an <svg> element without XML declaration (or, for a picture too
    /// detailed for SVG, an <img> with a data: URL).
    std::string svg;
    std::string file; ///< a path relative to the report (Markdown, the PDF's images)
    /// Rich text (the PDF): a picture taller than a page cut into pieces, top to bottom, each
    /// shown at the page's width (a long graph stays readable instead of shrinking to a sliver);
    /// a picture too wide to read at the page's width cut into overlapping tiles, left to right
    /// (each of them cut again when taller than a page).
    std::vector<ReportPicturePiece> pieces;
    int width = 0; ///< drawn size in CSS pixels
    int height = 0;
    std::string failed; ///< why it could not be drawn (the writers print this instead)
};

struct ReportBlock {
    enum class Kind {
        Paragraph,
        Facts, ///< key: value lines
        Table,
        Picture,
        Omitted, ///< a part left out, with the one-line reason
    };
    Kind kind = Kind::Paragraph;
    std::string text;
    std::vector<std::pair<std::string, std::string>> facts;
    Table table;
    std::size_t picture = 0; ///< index into Report::pictures
};

struct ReportSection {
    std::string
        id; ///< "summary", "graphs", "operators", "load", "memory", "size", "profile", "gap", "baseline", "warnings"
    std::string title;
    std::vector<ReportBlock> blocks;
};

struct Report {
    std::string title; ///< "ETScope report: model.pte"
    std::string subtitle; ///< the inputs in one line
    std::vector<ReportSection> sections;
    std::vector<ReportPicture> pictures;
    /// Everything left out or doubtful, one line each ("etdump: X.etdp: not an ETDump …"): the CLI
    /// prints these on stderr too.
    std::vector<std::string> warnings;

    // What the pictures are drawn from.
    std::vector<std::shared_ptr<const MemoryPlan>> plans; ///< per method, null when not computed
    std::shared_ptr<const SizeBreakdown> size;
    std::shared_ptr<const Timeline> timeline;
};

/// An input that was given but could not be read: its section says so instead.
struct ReportOmission {
    std::string section; ///< a ReportSection id ("profile", "gap", "operators", "baseline")
    std::string reason; ///< one line naming the file and the reason
};

struct ReportInputs {
    const Document* document = nullptr; ///< the program (required: Document::program set)
    const ETDump* run = nullptr; ///< the first ETDump: profile, timeline, the run side of the gap
    const ETDump* reference = nullptr; ///< a second ETDump: the reference side of the gap
    const ETRecord* record = nullptr;
    std::string inspectorTable; ///< an Inspector numeric-gap table file (path), empty for none
    const Document* baseline = nullptr; ///< --baseline OLD.pte
    const KernelLists* kernels
        = nullptr; ///< the lists the load check uses (null: the automatic runtime, presetForProgram)
    /// `--device NAME` (issue 33): the "will it load" section names the device and answers for
    /// each delegate whether it fits its hardware (checkDevice); `kernels` should then be the
    /// device's runtime (deviceKernelLists). Null: no device.
    const DeviceProfile* device = nullptr;
    std::string method; ///< the method the ETDump ran (empty: forward, else the first with instructions)
    std::string expand = "all"; ///< graph pictures: "none", "all" or a backend id
    std::vector<ReportOmission> omissions;
    /// The sections to keep, by id (reportSectionIds); empty keeps every section. Pictures of
    /// the sections left out are not drawn.
    std::set<std::string> sections;
    /// Vela logs and runner logs (issue 34): their figures are joined to the program in the
    /// "Cost" section, beside ETScope's estimate.
    cost::VendorLogs vendorLogs;
    std::size_t topRows = 15; ///< rows of the "slowest", "worst" and "top nodes by MACs" tables
    std::size_t maxTableRows = 200; ///< longer tables are cut with a note saying how many rows are left out
    std::size_t maxProblemGroups = 3; ///< groups of a long method drawn besides its overview
};

/// Every section id a report can have, in report order, with its title:
/// summary, graphs, operators, load, memory, size, profile, gap, cost, why, baseline, warnings.
const std::vector<std::pair<std::string, std::string>>& reportSectionIds();

/// Runs every analysis `inputs` allow and gathers the report. Never fails: an analysis that
/// cannot run leaves its section with an Omitted block and a line in `warnings`.
Report buildReport(const ReportInputs& inputs);

/// How a caller follows and stops buildReport (both may be empty). Called on the thread that
/// builds the report.
struct ReportControl {
    /// Asked before each step (the analyses, each section) and inside the per-method loops:
    /// true stops the build, which then returns Error::Code::Cancelled.
    std::function<bool()> cancelled;
    /// Told before each step: what runs ("memory plans", "section Operators"), `done` of
    /// `total` steps (the total is fixed for one build).
    std::function<void(const std::string& step, int done, int total)> progress;
};

/// buildReport with progress and cancellation: the report, or Error::Code::Cancelled when
/// `control.cancelled` said so (nothing else fails).
Result<Report> buildReport(const ReportInputs& inputs, const ReportControl& control);

/// Options of the HTML writer.
struct HtmlOptions {
    /// For Qt's rich text (the PDF): no script, no inline SVG (pictures as <img src="FILE">
    /// from ReportPicture::file), the CSS subset QTextDocument reads.
    bool richText = false;
    /// richText: pictures are scaled down (never up) to fit this box, in CSS pixels (the page body).
    int pictureMaxWidth = 700;
    int pictureMaxHeight = 900;
};

/// One self-contained HTML file: inline CSS and SVG, a small script for zooming and panning the
/// graph pictures, no network access. Prints well (page breaks before sections, table headers
/// repeated on every page).
std::string reportHtml(const Report& report, const HtmlOptions& options = {});

/// Markdown for a pull-request comment: GitHub tables, pictures linked as ReportPicture::file.
std::string reportMarkdown(const Report& report);

/// The report's format by the extension of `path`: "html" (.html, .htm), "md" (.md,
/// .markdown), "pdf"; empty when unknown.
std::string reportFormatFor(const std::string& path);

} // namespace etscope::core
