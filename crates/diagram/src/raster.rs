//! Pictures made of pixels: the SVG drawing rasterised with `resvg`, encoded as PNG by
//! tiny-skia or as an animated GIF by the `gif` crate.

use std::sync::Arc;

use bashni_rules::{Position, Square};
use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;

use crate::{DiagramError, Frame, MAX_PIXELS, Options, draw};

/// The font database of `usvg`, to fill for [`Fonts::new`].
pub use resvg::usvg::fontdb;

/// The fonts that draw the text of a picture: coordinates, tower heights, titles and
/// captions. The crate reads no files: the caller loads fonts (for example with
/// `fontdb::Database::load_system_fonts`) or passes their bytes. Without fonts the
/// pictures are drawn without their text.
#[derive(Clone, Debug, Default)]
pub struct Fonts {
    db: Arc<fontdb::Database>,
}

impl Fonts {
    /// Fonts from a database the caller filled.
    pub fn new(db: fontdb::Database) -> Fonts {
        Fonts { db: Arc::new(db) }
    }

    /// Fonts from the bytes of font files (TrueType, OpenType or collections).
    pub fn from_data(files: impl IntoIterator<Item = Vec<u8>>) -> Fonts {
        let mut db = fontdb::Database::new();
        for data in files {
            db.load_font_data(data);
        }
        Fonts::new(db)
    }

    /// How many font faces there are.
    pub fn len(&self) -> usize {
        self.db.len()
    }

    /// Whether there is no font, so that pictures have no text.
    pub fn is_empty(&self) -> bool {
        self.db.is_empty()
    }
}

/// Rasterises an SVG document of this crate at the size it names.
fn rasterise(svg: &str, fonts: &Fonts) -> Result<Pixmap, DiagramError> {
    let options = usvg::Options {
        fontdb: Arc::clone(&fonts.db),
        ..usvg::Options::default()
    };
    let tree =
        usvg::Tree::from_str(svg, &options).map_err(|e| DiagramError::Render(e.to_string()))?;
    let size = tree.size().to_int_size();
    let (width, height) = (u64::from(size.width()), u64::from(size.height()));
    if width * height > MAX_PIXELS {
        return Err(DiagramError::TooLarge { width, height });
    }
    let mut pixmap =
        Pixmap::new(size.width(), size.height()).ok_or(DiagramError::TooLarge { width, height })?;
    resvg::render(&tree, Transform::default(), &mut pixmap.as_mut());
    Ok(pixmap)
}

fn encode_png(pixmap: &Pixmap) -> Result<Vec<u8>, DiagramError> {
    pixmap
        .encode_png()
        .map_err(|e| DiagramError::Encode(e.to_string()))
}

/// The diagram of a position as a PNG file's bytes: the drawing of [`crate::svg`] in pixels.
pub fn png(position: &Position, options: &Options, fonts: &Fonts) -> Result<Vec<u8>, DiagramError> {
    encode_png(&rasterise(&crate::svg(position, options), fonts)?)
}

/// The diagram of [`crate::svg_with_arrow`] as a PNG file's bytes.
pub fn png_with_arrow(
    position: &Position,
    path: &[Square],
    options: &Options,
    fonts: &Fonts,
) -> Result<Vec<u8>, DiagramError> {
    encode_png(&rasterise(
        &crate::svg_with_arrow(position, path, options),
        fonts,
    )?)
}

/// A sheet of diagrams (see [`crate::sheet_svg`]) as a PNG file's bytes.
pub fn sheet_png(
    frames: &[Frame],
    columns: usize,
    arrows: bool,
    options: &Options,
    fonts: &Fonts,
) -> Result<Vec<u8>, DiagramError> {
    if frames.is_empty() {
        return Err(DiagramError::NoFrames);
    }
    encode_png(&rasterise(
        &crate::sheet_svg(frames, columns, arrows, options),
        fonts,
    )?)
}

/// An animated GIF, one frame per position, each shown `delay_ms` (the last one three times
/// as long), looping for ever. A frame's caption is written above its board, or the options'
/// title where the caption is empty; the move that led to it is drawn as an arrow when
/// `arrows` is set.
pub fn gif(
    frames: &[Frame],
    arrows: bool,
    options: &Options,
    fonts: &Fonts,
    delay_ms: u32,
) -> Result<Vec<u8>, DiagramError> {
    if frames.is_empty() {
        return Err(DiagramError::NoFrames);
    }
    // Every frame must have the same size: all have a title band or none.
    let any_title = options.title.is_some() || frames.iter().any(|f| !f.caption.is_empty());
    let delay = (delay_ms / 10).clamp(1, u32::from(u16::MAX) / 3) as u16;
    let encode = |e: gif::EncodingError| DiagramError::Encode(e.to_string());
    let mut encoder: Option<gif::Encoder<Vec<u8>>> = None;
    {
        for (i, frame) in frames.iter().enumerate() {
            let title = if !frame.caption.is_empty() {
                Some(frame.caption.as_str())
            } else if let Some(title) = &options.title {
                Some(title.as_str())
            } else if any_title {
                Some("")
            } else {
                None
            };
            let last = if arrows {
                frame.last_move.as_ref().map(draw::Marked::of)
            } else {
                None
            };
            let svg = draw::diagram(&frame.position, last.as_ref(), title, options);
            let pixmap = rasterise(&svg, fonts)?;
            let (width, height) = (pixmap.width(), pixmap.height());
            let too_large = DiagramError::TooLarge {
                width: u64::from(width),
                height: u64::from(height),
            };
            let w = u16::try_from(width).map_err(|_| too_large.clone())?;
            let h = u16::try_from(height).map_err(|_| too_large)?;
            if encoder.is_none() {
                let mut new = gif::Encoder::new(Vec::new(), w, h, &[]).map_err(encode)?;
                new.set_repeat(gif::Repeat::Infinite).map_err(encode)?;
                encoder = Some(new);
            }
            // The drawing is opaque, so premultiplied and plain RGBA are the same.
            let mut rgba = pixmap.take();
            let mut picture = gif::Frame::from_rgba_speed(w, h, &mut rgba, 10);
            picture.delay = if i + 1 == frames.len() {
                delay.saturating_mul(3)
            } else {
                delay
            };
            if let Some(encoder) = encoder.as_mut() {
                encoder.write_frame(&picture).map_err(encode)?;
            }
        }
    }
    encoder
        .ok_or(DiagramError::NoFrames)?
        .into_inner()
        .map_err(encode)
}
