//! The engine's positioned characters: `pdf-extract` walks each page's content stream
//! and hands every glyph to an [`OutputDev`]; this one keeps where the glyph stands
//! (page, box, size) and what it says, and nothing else.

use pdf_extract::{MediaBox, OutputDev, OutputError, Transform};

/// One glyph as placed on its page, in points with the origin at the page's top left.
#[derive(Debug, Clone, PartialEq)]
pub struct Glyph {
    pub x0: f64,
    pub x1: f64,
    /// The baseline, measured down from the top of the page.
    pub y: f64,
    /// The rendered font size (the text size times the text matrix's vertical scale).
    pub size: f64,
    pub text: String,
}

impl Glyph {
    pub fn is_space(&self) -> bool {
        self.text.chars().all(char::is_whitespace)
    }
}

/// The glyphs of one page, in content-stream order.
#[derive(Debug, Default)]
pub struct Page {
    pub number: u32,
    pub glyphs: Vec<Glyph>,
    /// Glyphs drawn at an angle (margin stamps, rotated tables): counted, not read.
    pub rotated: usize,
}

/// Collects the glyphs of every page, up to a budget; past it the walk stops with an
/// error and [`Collector::over_budget`] says why.
pub struct Collector {
    pub pages: Vec<Page>,
    budget: usize,
    seen: usize,
    pub over_budget: bool,
    top: f64,
}

impl Collector {
    pub fn new(glyph_budget: usize) -> Collector {
        Collector {
            pages: Vec::new(),
            budget: glyph_budget,
            seen: 0,
            over_budget: false,
            top: 0.0,
        }
    }
}

fn budget_error() -> OutputError {
    OutputError::FormatError(std::fmt::Error)
}

impl OutputDev for Collector {
    fn begin_page(
        &mut self,
        page_num: u32,
        media_box: &MediaBox,
        _art_box: Option<(f64, f64, f64, f64)>,
    ) -> Result<(), OutputError> {
        self.top = media_box.ury.max(media_box.lly);
        self.pages.push(Page {
            number: page_num,
            ..Page::default()
        });
        Ok(())
    }

    fn end_page(&mut self) -> Result<(), OutputError> {
        Ok(())
    }

    fn output_character(
        &mut self,
        trm: &Transform,
        width: f64,
        _spacing: f64,
        font_size: f64,
        text: &str,
    ) -> Result<(), OutputError> {
        self.seen += 1;
        if self.seen > self.budget {
            self.over_budget = true;
            return Err(budget_error());
        }
        let Some(page) = self.pages.last_mut() else {
            return Ok(());
        };
        let scale_x = trm.m11.hypot(trm.m12);
        let scale_y = trm.m21.hypot(trm.m22);
        // Upright text only: a glyph whose baseline is turned (the arXiv margin stamp,
        // a rotated table) would scramble the lines it crosses.
        if trm.m12.abs() > 0.01 * scale_x || trm.m21.abs() > 0.01 * scale_y || trm.m11 <= 0.0 {
            page.rotated += 1;
            return Ok(());
        }
        let size = (font_size * scale_y).abs();
        if !size.is_finite() || size <= 0.0 || !trm.m31.is_finite() || !trm.m32.is_finite() {
            return Ok(());
        }
        // A font without widths would make every glyph a word: assume half an em.
        let advance = if width > 0.0 && width.is_finite() {
            width * font_size * scale_x
        } else {
            0.5 * size
        };
        let text = text.replace('\0', "");
        if text.is_empty() {
            return Ok(());
        }
        page.glyphs.push(Glyph {
            x0: trm.m31,
            x1: trm.m31 + advance.abs(),
            y: self.top - trm.m32,
            size,
            text,
        });
        Ok(())
    }

    fn begin_word(&mut self) -> Result<(), OutputError> {
        Ok(())
    }

    fn end_word(&mut self) -> Result<(), OutputError> {
        Ok(())
    }

    fn end_line(&mut self) -> Result<(), OutputError> {
        Ok(())
    }
}
