//! A tiny document model rendered both as Markdown and as self-contained HTML.
//!
//! Inline text may use `**bold**` and `` `code` ``; both renderers understand them.

use std::collections::HashMap;
use std::fmt::Write as _;

use base64::Engine as _;

/// What the experiment whose results lead a report (the exchange) writes into it, beside
/// the frame every report has (title, first screen, the other experiments, files): through
/// its registry entry ([`crate::bench::ExperimentInfo::report`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Part {
    /// Its answer to the paper's question, for the first screen.
    pub lead: Lead,
    /// Its sections, after the first screen and before the other experiments'.
    pub sections: Vec<Block>,
    /// Its files, one Markdown line each, for the list of files.
    pub files: Vec<String>,
}

/// The paper's question answered, as the first screen shows it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Lead {
    /// Are two processes as fast as two threads? One line per placement class.
    pub answers: Vec<String>,
    /// What to use: one row per (size class, placement): size class, consumer, the pick
    /// among two processes, the best of every mode.
    pub picks: Vec<[String; 4]>,
    /// The same for the terminal: the picks of the nearest placement across cores.
    pub pick_line: Option<String>,
    /// One-line facts beside the picks (the cache-line floor, messages or puts).
    pub notes: Vec<String>,
    /// The figure of the question, when the data supports it.
    pub figure: Option<Block>,
}

/// One block of the document.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// A warning shown prominently (the partial-report banner).
    Banner(String),
    /// A short caution in a box, less loud than a banner (the run's one busy warning).
    Notice(String),
    /// A heading of level 1..=3.
    Heading(u8, String),
    Para(String),
    List(Vec<String>),
    /// A table: header and rows of inline text.
    Table {
        header: Vec<String>,
        /// Rows (each as long as the header).
        rows: Vec<Vec<String>>,
    },
    /// A figure: `<id>.png` (and `.svg`, `.csv` beside it), with a caption.
    Figure {
        id: String,
        /// Alternative text / title.
        alt: String,
        caption: String,
        /// Whether a CSV file of the figure's data exists.
        csv: bool,
    },
}

impl Block {
    /// A table under these column headers.
    pub fn table(header: &[&str], rows: Vec<Vec<String>>) -> Block {
        let header = header.iter().map(|h| h.to_string()).collect();
        Block::Table { header, rows }
    }
}

/// Renders the blocks as Markdown (figures refer to the PNG files beside report.md).
pub fn to_markdown(blocks: &[Block]) -> String {
    let mut out = String::new();
    for b in blocks {
        let _ = match b {
            Block::Banner(text) => writeln!(out, "> ⚠ **{}**\n", text.replace('\n', " ")),
            Block::Notice(text) => writeln!(out, "> ⚠ {}\n", text.replace('\n', " ")),
            Block::Heading(level, text) => {
                let hashes = "#".repeat((*level).clamp(1, 6) as usize);
                writeln!(out, "{hashes} {text}\n")
            }
            Block::Para(text) => writeln!(out, "{text}\n"),
            Block::List(items) => {
                for item in items {
                    let _ = writeln!(out, "- {item}");
                }
                writeln!(out)
            }
            Block::Table { header, rows } => {
                let line = |cells: &[String]| {
                    let cells: Vec<String> = cells
                        .iter()
                        .map(|s| s.replace('|', "\\|").replace('\n', " "))
                        .collect();
                    format!("| {} |\n", cells.join(" | "))
                };
                out.push_str(&line(header));
                let rule: Vec<&str> = (0..header.len())
                    .map(|i| if i == 0 { "---" } else { "--:" })
                    .collect();
                let _ = writeln!(out, "|{}|", rule.join("|"));
                for r in rows {
                    out.push_str(&line(r));
                }
                writeln!(out)
            }
            Block::Figure {
                id,
                alt,
                caption,
                csv,
            } => {
                let _ = writeln!(out, "![{alt}]({id}.png)\n");
                let data = csv.then(|| format!(", data: [{id}.csv]({id}.csv)"));
                let data = data.unwrap_or_default();
                writeln!(out, "*{caption}* (vector: [{id}.svg]({id}.svg){data})\n")
            }
        };
    }
    out
}

/// Renders the blocks as one self-contained HTML page: every figure is embedded as a
/// `data:image/png;base64,` URI taken from `pngs` (figure id → PNG bytes); no network
/// reference of any kind.
pub fn to_html(title: &str, blocks: &[Block], pngs: &HashMap<String, Vec<u8>>) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>\n{CSS}</style>\n</head>\n<body>\n",
        escape(title)
    );
    for b in blocks {
        let _ = match b {
            Block::Banner(text) => writeln!(out, "<div class=\"banner\">⚠ {}</div>", inline(text)),
            Block::Notice(text) => writeln!(out, "<div class=\"notice\">⚠ {}</div>", inline(text)),
            Block::Heading(level, text) => {
                let l = (*level).clamp(1, 6);
                writeln!(out, "<h{l} id=\"{}\">{}</h{l}>", anchor(text), inline(text))
            }
            Block::Para(text) => writeln!(out, "<p>{}</p>", inline(text)),
            Block::List(items) => {
                out.push_str("<ul>\n");
                for item in items {
                    let _ = writeln!(out, "<li>{}</li>", inline(item));
                }
                writeln!(out, "</ul>")
            }
            Block::Table { header, rows } => {
                // A column of sentences (claims) wraps its cells; the others keep one line
                // and the table scrolls.
                let wrap: Vec<bool> = (0..header.len())
                    .map(|i| {
                        rows.iter()
                            .any(|r| r.get(i).is_some_and(|c| c.chars().count() > WRAP_ABOVE))
                    })
                    .collect();
                let class = |i: usize| {
                    if wrap.get(i).copied().unwrap_or(false) {
                        " class=\"wrap\""
                    } else {
                        ""
                    }
                };
                out.push_str("<div class=\"scroll\"><table>\n<thead><tr>");
                for (i, h) in header.iter().enumerate() {
                    let _ = write!(out, "<th{}>{}</th>", class(i), inline(h));
                }
                out.push_str("</tr></thead>\n<tbody>\n");
                for r in rows {
                    out.push_str("<tr>");
                    for (i, c) in r.iter().enumerate() {
                        let tag = if i == 0 { "th" } else { "td" };
                        let _ = write!(out, "<{tag}{}>{}</{tag}>", class(i), inline(c));
                    }
                    out.push_str("</tr>\n");
                }
                writeln!(out, "</tbody></table></div>")
            }
            Block::Figure {
                id,
                alt,
                caption,
                csv,
            } => {
                out.push_str("<figure>\n");
                if let Some(png) = pngs.get(id) {
                    let b64 = base64::engine::general_purpose::STANDARD.encode(png);
                    let _ = writeln!(
                        out,
                        "<img src=\"data:image/png;base64,{b64}\" alt=\"{}\">",
                        escape(alt)
                    );
                }
                let data =
                    csv.then(|| format!(", data: <a href=\"{0}.csv\">{0}.csv</a>", escape(id)));
                let data = data.unwrap_or_default();
                writeln!(
                    out,
                    "<figcaption>{} (vector: <a href=\"{1}.svg\">{1}.svg</a>{data})</figcaption>\n</figure>",
                    inline(caption),
                    escape(id)
                )
            }
        };
    }
    out.push_str("</body>\n</html>\n");
    out
}

/// A table column with a cell longer than this (characters) wraps its cells in HTML.
const WRAP_ABOVE: usize = 60;

const CSS: &str = "\
body { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif;
  max-width: 1180px; margin: 2em auto; padding: 0 1em; color: #222; line-height: 1.45; }
h1 { border-bottom: 2px solid #ddd; padding-bottom: .3em; }
h2 { margin-top: 2em; border-bottom: 1px solid #eee; padding-bottom: .2em; }
.banner { background: #fdecea; border: 2px solid #d62728; color: #8a1c1c; padding: .8em 1em;
  font-weight: bold; border-radius: 4px; margin: 1em 0; }
.notice { background: #fff8e1; border-left: 4px solid #e0a000; padding: .4em .8em;
  margin: .8em 0; font-size: .95em; }
table { border-collapse: collapse; margin: .6em 0 1.4em; font-size: .92em; }
th, td { border: 1px solid #ddd; padding: .3em .6em; text-align: right; white-space: nowrap; }
thead th { background: #f4f4f4; }
tbody th { text-align: left; font-weight: normal; background: #fafafa; }
th.wrap, td.wrap { white-space: normal; text-align: left; min-width: 16em; }
.scroll { overflow-x: auto; }
figure { margin: 1.2em 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { color: #555; font-size: .92em; }
code { background: #f4f4f4; padding: 0 .25em; border-radius: 3px; }
";

/// HTML-escapes text.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Escapes text and turns `**bold**` and `` `code` `` into HTML.
fn inline(s: &str) -> String {
    let escaped = escape(s);
    let mut out = String::with_capacity(escaped.len());
    let mut bold = false;
    let mut code = false;
    let mut rest = escaped.as_str();
    while let Some(c) = rest.chars().next() {
        if !code && rest.starts_with("**") {
            out.push_str(if bold { "</strong>" } else { "<strong>" });
            bold = !bold;
            rest = &rest[2..];
        } else if c == '`' {
            out.push_str(if code { "</code>" } else { "<code>" });
            code = !code;
            rest = &rest[1..];
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    if code {
        out.push_str("</code>");
    }
    if bold {
        out.push_str("</strong>");
    }
    out
}

fn anchor(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_markup() {
        assert_eq!(
            inline("use **a<b** and `x*y`"),
            "use <strong>a&lt;b</strong> and <code>x*y</code>"
        );
    }
}
