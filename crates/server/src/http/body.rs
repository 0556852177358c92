//! Request bodies held to a pace: a client that begins a body and then goes silent, or sends
//! it a few bytes at a time, would hold its connection (and a file descriptor) for as long as
//! it likes. A [`PacedBody`] fails once the body falls behind its [`BodyPace`], and the
//! request is then answered `408 Request Timeout` and its connection closed.

use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::Bytes;
use http_body::{Body, Frame, SizeHint};
use tokio::time::{Instant, Sleep};

use crate::limits::BodyPace;

/// Why a body was not read: it came too slowly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyTooSlow {
    /// The bytes that had come by then.
    pub received: u64,
}

impl fmt::Display for BodyTooSlow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the request's body came too slowly ({} bytes arrived)",
            self.received
        )
    }
}

impl std::error::Error for BodyTooSlow {}

impl BodyTooSlow {
    /// Whether `error`, or an error it was caused by, is a [`BodyTooSlow`].
    pub fn caused(error: &(dyn std::error::Error + 'static)) -> bool {
        let mut cause = Some(error);
        while let Some(error) = cause {
            if error.is::<BodyTooSlow>() {
                return true;
            }
            cause = error.source();
        }
        false
    }
}

/// A request body held to a [`BodyPace`].
pub struct PacedBody<B> {
    inner: B,
    pace: BodyPace,
    start: Instant,
    received: u64,
    timer: Pin<Box<Sleep>>,
    failed: bool,
}

impl<B> PacedBody<B> {
    /// `inner`, which must come at `pace` from now on.
    pub fn new(inner: B, pace: BodyPace) -> PacedBody<B> {
        let start = Instant::now();
        PacedBody {
            inner,
            pace,
            start,
            received: 0,
            timer: Box::pin(tokio::time::sleep_until(
                pace.deadline(start.into_std(), start.into_std(), 0).into(),
            )),
            failed: false,
        }
    }
}

impl<B> Body for PacedBody<B>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: Into<axum::BoxError>,
{
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::BoxError>>> {
        let this = self.get_mut();
        if this.failed {
            return Poll::Ready(None);
        }
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    this.received = this.received.saturating_add(data.len() as u64);
                }
                let now = Instant::now();
                let next = this
                    .pace
                    .deadline(this.start.into_std(), now.into_std(), this.received)
                    .into();
                this.timer.as_mut().reset(next);
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(Some(Err(error))) => Poll::Ready(Some(Err(error.into()))),
            Poll::Ready(None) => Poll::Ready(None),
            Poll::Pending => match this.timer.as_mut().poll(cx) {
                Poll::Ready(()) => {
                    this.failed = true;
                    Poll::Ready(Some(Err(Box::new(BodyTooSlow {
                        received: this.received,
                    }))))
                }
                Poll::Pending => Poll::Pending,
            },
        }
    }

    fn is_end_stream(&self) -> bool {
        self.failed || self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;
    use http_body_util::channel::Channel;
    use std::time::Duration;

    const PACE: BodyPace = BodyPace {
        patience: Duration::from_secs(10),
        min_rate: 100,
    };

    #[tokio::test(start_paused = true)]
    async fn a_silent_body_fails_after_the_patience() {
        let (mut sender, body) = Channel::<Bytes, axum::BoxError>::new(4);
        sender.send_data(Bytes::from_static(b"{\"a\"")).await.ok();
        let begun = Instant::now();
        let read = PacedBody::new(body, PACE).collect().await;
        let Err(error) = read else {
            panic!("a silent body must fail");
        };
        assert!(BodyTooSlow::caused(error.as_ref()), "{error}");
        assert_eq!(Instant::now() - begun, PACE.patience);
        drop(sender);
    }

    #[tokio::test(start_paused = true)]
    async fn a_trickle_fails_once_behind_the_rate_and_a_steady_body_passes() {
        // One byte every 5 s: never silent for the patience, but far below 100 bytes/s.
        let (mut sender, body) = Channel::<Bytes, axum::BoxError>::new(4);
        let trickle = tokio::spawn(async move {
            loop {
                if sender.send_data(Bytes::from_static(b"x")).await.is_err() {
                    break;
                }
                tokio::time::sleep(Duration::from_secs(5)).await;
            }
        });
        let begun = Instant::now();
        let error = PacedBody::new(body, PACE).collect().await.err();
        assert!(error.is_some_and(|e| BodyTooSlow::caused(e.as_ref())));
        let took = Instant::now() - begun;
        assert!(took > PACE.patience && took <= PACE.patience + Duration::from_secs(5));
        trickle.abort();

        // 200 bytes a second for 30 s: read whole.
        let (mut sender, body) = Channel::<Bytes, axum::BoxError>::new(4);
        tokio::spawn(async move {
            for _ in 0..30 {
                sender.send_data(Bytes::from(vec![b'y'; 200])).await.ok();
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        });
        let whole = PacedBody::new(body, PACE).collect().await;
        assert_eq!(whole.map(|b| b.to_bytes().len()).ok(), Some(6000));
    }
}
