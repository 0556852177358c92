//! Pictures to save: a position (the analysis board's, say) as SVG or PNG, a game's position
//! as PNG, and a whole game as an animated GIF. The drawing is `bashni_diagram`'s, the same
//! board the page shows; rasterising runs on a blocking thread, a few pictures at a time.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, OnceLock};

use axum::extract::rejection::QueryRejection;
use axum::extract::{Extension, Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use bashni_diagram::{DiagramError, Fonts, Frame, Options, fontdb};
use bashni_rules::{Game, Position, Square};
use serde::Deserialize;

use crate::app::App;
use crate::http::diagram::{COORDINATES_FROM, MAX_SIZE, MIN_SIZE};
use crate::http::error::ApiError;
use crate::http::games::{Client, read_position};

/// The width of a position's picture when the request names none, in pixels.
pub const DEFAULT_PICTURE_SIZE: u32 = 400;
/// The width of an animation when the request names none.
pub const DEFAULT_GIF_SIZE: u32 = 320;
/// The widest animation.
pub const MAX_GIF_SIZE: u32 = 480;
/// The most frames of an animation: the start and one per ply.
pub const MAX_GIF_FRAMES: usize = 400;
/// How long each position of an animation is shown when the request says nothing, in ms.
pub const DEFAULT_DELAY_MS: u32 = 800;
/// The shortest and the longest time a position may be shown, in ms.
pub const DELAY_RANGE_MS: (u32, u32) = (50, 10_000);
/// The most pixels of all the frames of an animation together, counted as width × width:
/// 400 frames of 320 pixels. A longer game gets a narrower animation.
pub const MAX_GIF_PIXELS: u64 = 400 * 320 * 320;
/// Pictures rasterised at once, server-wide.
pub const RASTER_AT_ONCE: usize = 2;
/// Pictures waiting or being rasterised, server-wide; more are refused (`503`).
pub const RASTER_QUEUE: usize = 8;
/// Pictures one address may have waiting or being rasterised; more are refused (`429`).
pub const RASTER_PER_CLIENT: usize = 2;

/// The fonts of the machine, read once, on first use (on a blocking thread).
fn fonts() -> &'static Fonts {
    static FONTS: OnceLock<Fonts> = OnceLock::new();
    FONTS.get_or_init(|| {
        let mut db = fontdb::Database::new();
        db.load_system_fonts();
        if db.is_empty() {
            tracing::warn!("no system fonts: pictures are drawn without text");
        }
        Fonts::new(db)
    })
}

static RASTER: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(RASTER_AT_ONCE);

/// Pictures waiting or being rasterised: in all, and for each address.
#[derive(Default)]
struct Wanted {
    all: usize,
    of: HashMap<IpAddr, usize>,
}

fn wanted() -> std::sync::MutexGuard<'static, Wanted> {
    static WANTED: OnceLock<Mutex<Wanted>> = OnceLock::new();
    WANTED
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Counts one picture of `client` waiting or being rasterised until dropped.
struct Ticket(IpAddr);

impl Ticket {
    fn take(client: IpAddr) -> Result<Ticket, ApiError> {
        let mut wanted = wanted();
        let mine = wanted.of.get(&client).copied().unwrap_or(0);
        if mine >= RASTER_PER_CLIENT {
            return Err(ApiError::texted(
                axum::http::StatusCode::TOO_MANY_REQUESTS,
                "too_many",
                crate::texts::text!("error-pictures-too-many", most = RASTER_PER_CLIENT as i64),
            ));
        }
        if wanted.all >= RASTER_QUEUE {
            tracing::warn!("limit: too many pictures asked for at once");
            return Err(ApiError::texted(
                axum::http::StatusCode::SERVICE_UNAVAILABLE,
                "unavailable",
                crate::texts::text!("error-pictures-busy"),
            ));
        }
        wanted.all += 1;
        *wanted.of.entry(client).or_insert(0) += 1;
        Ok(Ticket(client))
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut wanted = wanted();
        wanted.all = wanted.all.saturating_sub(1);
        if let Some(count) = wanted.of.get_mut(&self.0) {
            *count -= 1;
            if *count == 0 {
                wanted.of.remove(&self.0);
            }
        }
    }
}

/// Rasterises with `draw` for `client` on a blocking thread once a place is free; refused
/// when that client or everyone together has too many pictures waiting already.
async fn raster(
    client: IpAddr,
    draw: impl FnOnce(&Fonts) -> Result<Vec<u8>, DiagramError> + Send + 'static,
) -> Result<Vec<u8>, ApiError> {
    let _ticket = Ticket::take(client)?;
    let _permit = RASTER
        .acquire()
        .await
        .map_err(|_| ApiError::internal("the picture could not be drawn"))?;
    tokio::task::spawn_blocking(move || draw(fonts()))
        .await
        .map_err(|_| ApiError::internal("the picture could not be drawn"))?
        .map_err(|error| match error {
            DiagramError::TooLarge { .. } | DiagramError::NoFrames => {
                ApiError::bad_request(error.to_string())
            }
            _ => ApiError::internal(error.to_string()),
        })
}

/// Reads a yes-or-no parameter: `1`, `true`, `yes` or `0`, `false`, `no`.
fn flag(name: &str, value: Option<&str>) -> Result<bool, ApiError> {
    match value.map(str::trim) {
        None | Some("0" | "false" | "no" | "") => Ok(false),
        Some("1" | "true" | "yes") => Ok(true),
        Some(other) => Err(ApiError::bad_request(format!(
            "{name}: expected 1 or 0, not {:?}",
            other.chars().take(20).collect::<String>()
        ))),
    }
}

/// Checks a picture's width.
fn width(size: Option<u32>, default: u32, most: u32) -> Result<u32, ApiError> {
    let size = size.unwrap_or(default);
    if (MIN_SIZE..=most).contains(&size) {
        Ok(size)
    } else {
        Err(ApiError::bad_request(format!(
            "size: from {MIN_SIZE} to {most} pixels, not {size}"
        )))
    }
}

/// Reads the path of the move that led to `position`, squares (names or numbers) joined by
/// `-`, `:` or `x` (`c3-e5-g3`, `22x15`); its last square must hold the tower that moved.
fn last_path(position: &Position, text: &str) -> Result<Vec<Square>, ApiError> {
    let text = text.trim();
    if text.len() > 100 {
        return Err(ApiError::bad_request("last: longer than 100 bytes"));
    }
    let squares = text
        .split(['-', ':', 'x'])
        .map(|name| {
            Square::read(name.trim())
                .map_err(|error| ApiError::bad_request(format!("last: {error}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if squares.len() < 2 {
        return Err(ApiError::bad_request(
            "last: give the move's start and landing squares, like c3-d4",
        ));
    }
    if let Some(end) = squares.last()
        && position.tower(*end).is_empty()
    {
        return Err(ApiError::bad_request(format!(
            "last: the move ends on {end}, but no tower stands there"
        )));
    }
    Ok(squares)
}

/// The answer: the picture's bytes with its type, offered as a file named `name` when
/// `download` is set.
fn picture(
    bytes: Vec<u8>,
    kind: &'static str,
    name: &str,
    download: bool,
    cache: &'static str,
) -> Response {
    let mut response = (
        [(header::CONTENT_TYPE, kind), (header::CACHE_CONTROL, cache)],
        bytes,
    )
        .into_response();
    if download && let Ok(value) = format!("attachment; filename=\"{name}\"").parse() {
        response
            .headers_mut()
            .insert(header::CONTENT_DISPOSITION, value);
    }
    response
}

/// `?variant=bashni&position=...&size=N&last=c3-e5&flip=1&download=1`.
#[derive(Deserialize)]
pub struct PositionQuery {
    variant: Option<String>,
    position: Option<String>,
    size: Option<u32>,
    last: Option<String>,
    flip: Option<String>,
    download: Option<String>,
}

/// A position's drawing, read from the query: the position, its arrow, the options.
struct Drawing {
    position: Position,
    arrow: Vec<Square>,
    options: Options,
    download: bool,
}

fn drawing(query: Result<Query<PositionQuery>, QueryRejection>) -> Result<Drawing, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let variant = query
        .variant
        .as_deref()
        .ok_or_else(|| ApiError::bad_request("variant: missing (bashni or russian)"))?;
    let variant = crate::app::actions::variant_named(variant)?;
    let position = read_position(variant, query.position.as_deref().unwrap_or(""))?;
    let size = width(query.size, DEFAULT_PICTURE_SIZE, MAX_SIZE)?;
    let arrow = match &query.last {
        Some(text) if !text.trim().is_empty() => last_path(&position, text)?,
        _ => Vec::new(),
    };
    Ok(Drawing {
        position,
        arrow,
        options: Options {
            size_px: size,
            flipped: flag("flip", query.flip.as_deref())?,
            coordinates: size >= COORDINATES_FROM,
            last_move: None,
            title: None,
        },
        download: flag("download", query.download.as_deref())?,
    })
}

/// `GET /api/diagram.svg`: a position as SVG.
pub async fn position_svg(
    query: Result<Query<PositionQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let d = drawing(query)?;
    let text = bashni_diagram::svg_with_arrow(&d.position, &d.arrow, &d.options);
    Ok(picture(
        text.into_bytes(),
        "image/svg+xml",
        "bashni-position.svg",
        d.download,
        "public, max-age=86400",
    ))
}

/// `GET /api/diagram.png`: a position as PNG.
pub async fn position_png(
    Extension(Client(client)): Extension<Client>,
    query: Result<Query<PositionQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let d = drawing(query)?;
    let download = d.download;
    let bytes = raster(client, move |fonts| {
        bashni_diagram::png_with_arrow(&d.position, &d.arrow, &d.options, fonts)
    })
    .await?;
    Ok(picture(
        bytes,
        "image/png",
        "bashni-position.png",
        download,
        "public, max-age=86400",
    ))
}

/// `?ply=N&size=N&download=1`.
#[derive(Deserialize)]
pub struct GamePictureQuery {
    ply: Option<usize>,
    size: Option<u32>,
    download: Option<String>,
}

/// The game's moves so far.
async fn game_of(app: &Arc<App>, id: &str) -> Result<Game, ApiError> {
    let slot = app.slot(id).await?;
    let game = slot.live.lock().await.round.game.clone();
    Ok(game)
}

/// `GET /api/games/{id}/diagram.png`: the position after `ply` plies (the current one if
/// absent or past the end) as PNG, the move that led to it as an arrow.
pub async fn game_png(
    State(app): State<Arc<App>>,
    Extension(Client(client)): Extension<Client>,
    Path(id): Path<String>,
    query: Result<Query<GamePictureQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let size = width(query.size, DEFAULT_PICTURE_SIZE, MAX_SIZE)?;
    let download = flag("download", query.download.as_deref())?;
    let game = game_of(&app, &id).await?;
    let frame = Frame::of_game(&game, query.ply.unwrap_or(game.ply()));
    let ply = query.ply.unwrap_or(game.ply()).min(game.ply());
    let options = Options {
        size_px: size,
        flipped: false,
        coordinates: size >= COORDINATES_FROM,
        last_move: frame.last_move,
        title: None,
    };
    let bytes = raster(client, move |fonts| {
        bashni_diagram::png(&frame.position, &options, fonts)
    })
    .await?;
    Ok(picture(
        bytes,
        "image/png",
        &format!("bashni-{}-ply{ply}.png", file_part(&id)),
        download,
        "no-cache",
    ))
}

/// `?size=N&delay_ms=N&download=1`.
#[derive(Deserialize)]
pub struct GifQuery {
    size: Option<u32>,
    delay_ms: Option<u32>,
    download: Option<String>,
}

/// `GET /api/games/{id}/game.gif`: the whole game as an animated GIF, one frame per
/// position from the start, each captioned with the move that led to it.
pub async fn game_gif(
    State(app): State<Arc<App>>,
    Extension(Client(client)): Extension<Client>,
    Path(id): Path<String>,
    query: Result<Query<GifQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let size = width(query.size, DEFAULT_GIF_SIZE, MAX_GIF_SIZE)?;
    let delay = query.delay_ms.unwrap_or(DEFAULT_DELAY_MS);
    let (shortest, longest) = DELAY_RANGE_MS;
    if !(shortest..=longest).contains(&delay) {
        return Err(ApiError::bad_request(format!(
            "delay_ms: from {shortest} to {longest}, not {delay}"
        )));
    }
    let download = flag("download", query.download.as_deref())?;
    let game = game_of(&app, &id).await?;
    check_frames(game.ply(), size)?;
    let options = Options {
        size_px: size,
        flipped: false,
        // Each frame says its move; coordinates would double the time to draw it.
        coordinates: false,
        last_move: None,
        title: None,
    };
    let bytes = raster(client, move |fonts| {
        let frames: Vec<Frame> = (0..=game.ply())
            .map(|ply| Frame::of_game(&game, ply))
            .collect();
        bashni_diagram::gif(&frames, true, &options, fonts, delay)
    })
    .await?;
    Ok(picture(
        bytes,
        "image/gif",
        &format!("bashni-{}.gif", file_part(&id)),
        download,
        "no-cache",
    ))
}

/// Refuses an animation of a game of `plies` plies `size` pixels wide with more than
/// [`MAX_GIF_FRAMES`] frames, or more than [`MAX_GIF_PIXELS`] in all.
fn check_frames(plies: usize, size: u32) -> Result<(), ApiError> {
    let frames = plies + 1;
    if frames > MAX_GIF_FRAMES {
        return Err(ApiError::too_large(format!(
            "the game has {plies} plies; an animation shows at most {} (a frame for the start \
             and one for each ply)",
            MAX_GIF_FRAMES - 1
        )));
    }
    let widest = (MAX_GIF_PIXELS as f64 / frames as f64).sqrt().floor() as u32;
    if size > widest {
        return Err(ApiError::bad_request(format!(
            "size: an animation of {frames} frames may be at most {widest} pixels wide, not \
             {size}"
        )));
    }
    Ok(())
}

/// A game id as part of a file name: letters and digits only.
fn file_part(id: &str) -> String {
    id.chars()
        .filter(char::is_ascii_alphanumeric)
        .take(64)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_animation_has_at_most_its_frames() {
        assert!(check_frames(0, MAX_GIF_SIZE).is_ok());
        assert!(check_frames(MAX_GIF_FRAMES - 1, 320).is_ok());
        // 400 frames of 320 pixels, or 177 of 480.
        assert!(check_frames(176, 480).is_ok());
        let error = check_frames(177, 480).expect_err("too many pixels");
        assert_eq!(
            error.error,
            "size: an animation of 178 frames may be at most 479 pixels wide, not 480"
        );
        let error = check_frames(MAX_GIF_FRAMES, 32).expect_err("one frame too many");
        assert_eq!(error.status, axum::http::StatusCode::PAYLOAD_TOO_LARGE);
        assert!(
            error
                .error
                .starts_with("the game has 400 plies; an animation shows at most 399"),
            "{}",
            error.error
        );
    }

    #[test]
    fn an_address_has_a_bounded_number_of_pictures_being_drawn() {
        let one: IpAddr = [10, 0, 0, 1].into();
        let other: IpAddr = [10, 0, 0, 2].into();
        let held: Vec<Ticket> = (0..RASTER_PER_CLIENT)
            .map(|_| Ticket::take(one).expect("a place"))
            .collect();
        let refused = Ticket::take(one).err().map(|e| e.code);
        assert_eq!(refused, Some("too_many"));
        let theirs = Ticket::take(other).expect("another address has its own places");
        drop(held);
        assert!(Ticket::take(one).is_ok());
        drop(theirs);
        assert_eq!(wanted().all, 0);
        assert!(wanted().of.is_empty());
    }

    #[test]
    fn the_last_move_is_read_as_a_path_that_ends_on_a_tower() {
        let start = Position::start(bashni_rules::Variant::Russian);
        let path = last_path(&start, "b2:c3x d4-c3")
            .map(|squares| squares.iter().map(Square::to_string).collect::<Vec<_>>());
        assert_eq!(
            path,
            Ok(vec!["b2".into(), "c3".into(), "d4".into(), "c3".into()])
        );
        assert!(last_path(&start, "c3-d4").is_err());
        assert!(last_path(&start, &"c3-".repeat(40)).is_err());
    }
}
