// SPDX-License-Identifier: MIT
// The HTML and Markdown writers of a Report. Both are plain text assembled here: HTML escaping
// by htmlEscape, tables by hand (HTML) or through renderTable (Markdown, GitHub's pipe tables).

#include "core/fullreport/report.h"

#include <algorithm>
#include <sstream>

namespace etscope::core {

namespace {

bool numeric(const TableCell& cell)
{
    return std::holds_alternative<long long>(cell) || std::holds_alternative<double>(cell);
}

// Screen and print styles. Sections start a new printed page; table headers repeat on every
// page; rows and pictures are not cut in two.
constexpr const char* kStyle = R"(
:root{--ink:#1f2328;--muted:#59636e;--line:#d1d9e0;--head:#f6f8fa;--warn:#9a6700;--accent:#0969da}
*{box-sizing:border-box}
body{font:14px/1.45 -apple-system,"Segoe UI","DejaVu Sans","Liberation Sans",Arial,sans-serif;color:var(--ink);margin:0 auto;max-width:1200px;padding:16px 24px}
h1{font-size:24px;margin:8px 0 2px}h2{font-size:19px;border-bottom:1px solid var(--line);padding-bottom:4px;margin-top:28px}
h3{font-size:15px;margin:18px 0 6px}
.subtitle{color:var(--muted);margin:0 0 10px}
nav.toc{font-size:13px;margin:8px 0 16px}nav.toc a{margin-right:12px;color:var(--accent);text-decoration:none}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:8px 0}
dl.facts dt{font-weight:600}dl.facts dd{margin:0;overflow-wrap:anywhere}
table{border-collapse:collapse;margin:6px 0 4px;font-size:12.5px;max-width:100%}
caption{text-align:left;font-weight:600;padding:4px 0;caption-side:top}
th,td{border:1px solid var(--line);padding:3px 7px;vertical-align:top;overflow-wrap:anywhere}
th{background:var(--head);text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.total td{font-weight:600}
p.note{margin:2px 0;color:var(--muted);font-size:12.5px}
p.omitted{border-left:4px solid var(--warn);background:#fff8c5;padding:6px 10px;margin:8px 0}
figure{margin:12px 0 18px}figcaption{color:var(--muted);font-size:12.5px;margin-top:4px}
.picture{border:1px solid var(--line);overflow:auto;max-height:85vh;background:#fff;cursor:grab;position:relative}
.picture svg,.picture img{display:block;width:100%;height:auto}
.tools{font-size:12px;margin-bottom:4px}.tools button{font:inherit;margin-right:4px;padding:1px 8px}
footer{color:var(--muted);font-size:12px;margin-top:32px;border-top:1px solid var(--line);padding-top:6px}
@page{size:A4;margin:14mm 12mm}
@media print{
 body{max-width:none;padding:0;font-size:11px}
 nav.toc,.tools{display:none}
 section{break-before:page}section#summary{break-before:auto}
 h2,h3,caption{break-after:avoid}
 thead{display:table-header-group}tr,figure,dl.facts{break-inside:avoid}
 .picture{overflow:visible;max-height:none;border:none}
}
)";

// Zoom and pan for the pictures: buttons (and Ctrl+wheel) scale the picture's width, dragging
// scrolls its frame. No network, nothing outside this file.
constexpr const char* kScript = R"(
(function(){
  document.querySelectorAll('figure[data-zoom]').forEach(function(figure){
    var frame=figure.querySelector('.picture');var picture=frame.firstElementChild;var scale=1;
    function apply(){picture.style.width=(100*scale)+'%';label.textContent=Math.round(scale*100)+'%';}
    var tools=document.createElement('div');tools.className='tools';
    [['−',function(){scale=Math.max(0.25,scale/1.25);}],['+',function(){scale=Math.min(16,scale*1.25);}],
     ['Fit',function(){scale=1;}]].forEach(function(b){var button=document.createElement('button');
      button.type='button';button.textContent=b[0];button.addEventListener('click',function(){b[1]();apply();});
      tools.appendChild(button);});
    var label=document.createElement('span');tools.appendChild(label);figure.insertBefore(tools,frame);
    frame.addEventListener('wheel',function(e){if(!e.ctrlKey)return;e.preventDefault();
      scale=Math.min(16,Math.max(0.25,scale*(e.deltaY<0?1.15:1/1.15)));apply();},{passive:false});
    var drag=null;
    frame.addEventListener('mousedown',function(e){drag={x:e.clientX,y:e.clientY,l:frame.scrollLeft,t:frame.scrollTop};
      frame.style.cursor='grabbing';e.preventDefault();});
    window.addEventListener('mousemove',function(e){if(!drag)return;frame.scrollLeft=drag.l-(e.clientX-drag.x);
      frame.scrollTop=drag.t-(e.clientY-drag.y);});
    window.addEventListener('mouseup',function(){drag=null;frame.style.cursor='';});
    apply();
  });
})();
)";

class HtmlWriter {
public:
    HtmlWriter(const Report& report, const HtmlOptions& options)
        : m_report(report)
        , m_rich(options.richText)
        , m_options(options)
    {
    }

    std::string write()
    {
        m_out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
        m_out << "<title>" << htmlEscape(m_report.title) << "</title>\n";
        if (!m_rich)
            m_out << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                  << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
                     "'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
                  << "<style>" << kStyle << "</style>\n";
        m_out << "</head>\n<body>\n<header>\n<h1>" << htmlEscape(m_report.title) << "</h1>\n";
        if (!m_report.subtitle.empty())
            m_out << "<p class=\"subtitle\">" << htmlEscape(m_report.subtitle) << "</p>\n";
        if (!m_rich) {
            m_out << "<nav class=\"toc\">";
            for (const ReportSection& section : m_report.sections)
                m_out << "<a href=\"#" << htmlEscape(section.id) << "\">" << htmlEscape(section.title) << "</a>";
            m_out << "</nav>\n";
        }
        m_out << "</header>\n";
        for (const ReportSection& section : m_report.sections) {
            // Every section after the summary starts a page (print CSS; Qt's page-break-before).
            const bool first = &section == &m_report.sections.front();
            m_out << "<section id=\"" << htmlEscape(section.id) << "\">\n<h2"
                  << (m_rich && !first ? " style=\"page-break-before:always\"" : "") << ">" << htmlEscape(section.title)
                  << "</h2>\n";
            for (const ReportBlock& block : section.blocks)
                writeBlock(block);
            m_out << "</section>\n";
        }
        if (!m_rich)
            m_out << "<footer>Written by etscope report. One file: pictures are inline SVG, nothing is loaded "
                     "from elsewhere.</footer>\n<script>"
                  << kScript << "</script>\n";
        m_out << "</body>\n</html>\n";
        return m_out.str();
    }

private:
    void writeBlock(const ReportBlock& block)
    {
        switch (block.kind) {
        case ReportBlock::Kind::Paragraph:
            m_out << "<p>" << htmlEscape(block.text) << "</p>\n";
            break;
        case ReportBlock::Kind::Omitted:
            if (m_rich)
                m_out << "<p><i>Left out: " << htmlEscape(block.text) << "</i></p>\n";
            else
                m_out << "<p class=\"omitted\"><b>Left out:</b> " << htmlEscape(block.text) << "</p>\n";
            break;
        case ReportBlock::Kind::Facts:
            writeFacts(block);
            break;
        case ReportBlock::Kind::Table:
            writeTable(block.table);
            break;
        case ReportBlock::Kind::Picture:
            if (block.picture < m_report.pictures.size())
                writePicture(m_report.pictures[block.picture]);
            break;
        }
    }

    void writeFacts(const ReportBlock& block)
    {
        if (m_rich) {
            m_out << "<table cellspacing=\"0\" cellpadding=\"3\">\n";
            for (const auto& [key, value] : block.facts)
                m_out << "<tr><td><b>" << htmlEscape(key) << "</b></td><td>" << htmlEscape(value) << "</td></tr>\n";
            m_out << "</table>\n";
            return;
        }
        m_out << "<dl class=\"facts\">\n";
        for (const auto& [key, value] : block.facts)
            m_out << "<dt>" << htmlEscape(key) << "</dt><dd>" << htmlEscape(value) << "</dd>\n";
        m_out << "</dl>\n";
    }

    void writeTable(const Table& table)
    {
        if (m_rich) {
            if (!table.title.empty())
                m_out << "<h3>" << htmlEscape(table.title) << "</h3>\n";
            m_out << "<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" width=\"100%\">\n";
        } else {
            m_out << "<table>\n";
            if (!table.title.empty())
                m_out << "<caption>" << htmlEscape(table.title) << "</caption>\n";
        }
        m_out << "<thead><tr>";
        for (const std::string& column : table.columns)
            m_out << (m_rich ? "<th bgcolor=\"#eef1f4\" align=\"left\">" : "<th>") << htmlEscape(column) << "</th>";
        m_out << "</tr></thead>\n<tbody>\n";
        for (const auto& row : table.rows) {
            const bool total = !row.empty() && std::holds_alternative<std::string>(row.front())
                && std::get<std::string>(row.front()) == "Total";
            m_out << (total ? "<tr class=\"total\">" : "<tr>");
            for (std::size_t c = 0; c < table.columns.size(); ++c) {
                const bool number = c < row.size() && numeric(row[c]);
                const std::string text = c < row.size() ? cellText(row[c]) : std::string();
                if (m_rich)
                    m_out << (number ? "<td align=\"right\">" : "<td>") << (total ? "<b>" : "") << htmlEscape(text)
                          << (total ? "</b>" : "") << "</td>";
                else
                    m_out << (number ? "<td class=\"n\">" : "<td>") << htmlEscape(text) << "</td>";
            }
            m_out << "</tr>\n";
        }
        m_out << "</tbody>\n</table>\n";
        for (const std::string& note : table.notes)
            m_out << (m_rich ? "<p><small>" : "<p class=\"note\">") << htmlEscape(note)
                  << (m_rich ? "</small></p>\n" : "</p>\n");
    }

    void writePicture(const ReportPicture& picture)
    {
        if (m_rich) {
            if (!picture.pieces.empty()) {
                for (const ReportPicturePiece& piece : picture.pieces) {
                    m_out << "<p align=\"center\"><img src=\"" << htmlEscape(piece.file) << "\" width=\""
                          << std::max(1, piece.width) << "\" height=\"" << std::max(1, piece.height) << "\"></p>\n";
                    if (!piece.label.empty())
                        m_out << "<p align=\"center\"><small>" << htmlEscape(picture.caption) << " — "
                              << htmlEscape(piece.label) << "</small></p>\n";
                }
            } else if (!picture.file.empty()) {
                // Scaled down to fit the page body, never enlarged.
                double scale = 1;
                if (picture.width > m_options.pictureMaxWidth)
                    scale = static_cast<double>(m_options.pictureMaxWidth) / picture.width;
                if (m_options.pictureMaxHeight > 0 && picture.height * scale > m_options.pictureMaxHeight)
                    scale = static_cast<double>(m_options.pictureMaxHeight) / picture.height;
                const int width = std::max(1, static_cast<int>(picture.width * scale));
                const int height = std::max(1, static_cast<int>(picture.height * scale));
                m_out << "<p align=\"center\"><img src=\"" << htmlEscape(picture.file) << "\" width=\"" << width
                      << "\" height=\"" << height << "\"></p>\n";
            } else {
                m_out << "<p><i>Picture not drawn: "
                      << htmlEscape(picture.failed.empty() ? "no renderer" : picture.failed) << "</i></p>\n";
            }
            m_out << "<p align=\"center\"><small>" << htmlEscape(picture.caption) << "</small></p>\n";
            return;
        }
        m_out << "<figure id=\"" << htmlEscape(picture.id) << "\""
              << (picture.kind == ReportPicture::Kind::Graph && !picture.svg.empty() ? " data-zoom" : "") << ">\n";
        if (!picture.svg.empty()) {
            m_out << "<div class=\"picture\"";
            if (picture.width > 0)
                m_out << " style=\"max-width:" << std::max(picture.width, 320) << "px\"";
            m_out << ">" << picture.svg << "</div>\n";
        } else {
            m_out << "<p class=\"omitted\"><b>Picture not drawn:</b> "
                  << htmlEscape(picture.failed.empty() ? "no renderer" : picture.failed) << "</p>\n";
        }
        m_out << "<figcaption>" << htmlEscape(picture.caption) << "</figcaption>\n</figure>\n";
    }

    const Report& m_report;
    bool m_rich;
    HtmlOptions m_options;
    std::ostringstream m_out;
};

/// Markdown text outside tables: the characters GitHub would read as markup are escaped.
std::string markdownText(std::string_view text)
{
    std::string out;
    for (const char c : text) {
        if (c == '*' || c == '_' || c == '`' || c == '[' || c == ']' || c == '<' || c == '>' || c == '#' || c == '|'
            || c == '\\')
            out += '\\';
        out += c == '\n' ? ' ' : c;
    }
    return out;
}

} // namespace

std::string reportHtml(const Report& report, const HtmlOptions& options)
{
    return HtmlWriter(report, options).write();
}

std::string reportMarkdown(const Report& report)
{
    std::string out = "# " + markdownText(report.title) + "\n\n";
    if (!report.subtitle.empty())
        out += markdownText(report.subtitle) + "\n\n";
    for (const ReportSection& section : report.sections) {
        out += "## " + markdownText(section.title) + "\n\n";
        for (const ReportBlock& block : section.blocks) {
            switch (block.kind) {
            case ReportBlock::Kind::Paragraph:
                out += markdownText(block.text) + "\n\n";
                break;
            case ReportBlock::Kind::Omitted:
                out += "> **Left out:** " + markdownText(block.text) + "\n\n";
                break;
            case ReportBlock::Kind::Facts:
                for (const auto& [key, value] : block.facts)
                    out += "- **" + markdownText(key) + "**: " + markdownText(value) + "\n";
                out += "\n";
                break;
            case ReportBlock::Kind::Table: {
                Table table = block.table;
                std::string title = table.title;
                table.title.clear();
                if (!title.empty())
                    out += "**" + markdownText(title) + "**\n\n";
                out += renderTable(table, TableFormat::Markdown) + "\n";
                break;
            }
            case ReportBlock::Kind::Picture: {
                if (block.picture >= report.pictures.size())
                    break;
                const ReportPicture& picture = report.pictures[block.picture];
                if (!picture.file.empty()) {
                    // Link targets: spaces and parentheses would end the link.
                    std::string target;
                    for (const char c : picture.file)
                        target += c == ' ' ? std::string("%20")
                            : c == '('     ? std::string("%28")
                            : c == ')'     ? std::string("%29")
                                           : std::string(1, c);
                    out += "![" + markdownText(picture.caption) + "](" + target + ")\n\n*"
                        + markdownText(picture.caption) + "*\n\n";
                } else {
                    out += "> **Picture not drawn:** "
                        + markdownText(picture.failed.empty() ? "no renderer" : picture.failed) + " ("
                        + markdownText(picture.caption) + ")\n\n";
                }
                break;
            }
            }
        }
    }
    return out;
}

} // namespace etscope::core
