//! Streams (queues of device work) and timing events.
//!
//! `Device::new_stream` makes *blocking* streams (`CU_STREAM_DEFAULT`), unlike cudarc's, so the
//! legacy default stream, which the synchronous array copies use, is ordered with them: a copy
//! after a launch on any stream sees the launch's writes. `Device::new_non_blocking_stream`
//! makes streams that run concurrently with the default stream (`CU_STREAM_NON_BLOCKING`, what
//! `cuda.stream()` gives in numba-cuda): order work on them with the asynchronous copies of
//! `PinnedBuffer`, events and `synchronize`. Events are created with timing enabled.

use std::fmt;
use std::sync::{Arc, OnceLock};

use cudarc::driver::{result, result::DriverError, sys};

use crate::device::Device;
use crate::driver::optional_symbol;
use crate::error::{driver_error, CudaError, Result};

/// A queue of device work. Cloning shares the stream.
#[derive(Clone)]
pub struct Stream {
    inner: Arc<StreamInner>,
}

struct StreamInner {
    device: Device,
    raw: sys::CUstream,
    /// False for the default (null) stream, which is never destroyed.
    owned: bool,
}

// SAFETY: a CUstream is a driver handle usable from any thread once its context is current,
// and every use here binds the context first; the handle is never mutated after creation.
unsafe impl Send for StreamInner {}
// SAFETY: as above; shared references only pass the handle to thread-safe driver calls.
unsafe impl Sync for StreamInner {}

impl Drop for StreamInner {
    fn drop(&mut self) {
        if self.owned && !self.device.is_simulated() && self.device.bind().is_ok() {
            // SAFETY: the stream was created by cuStreamCreate in this context and is destroyed
            // only here, once; pending work still completes (the driver defers the release).
            let _ = unsafe { result::stream::destroy(self.raw) };
        }
    }
}

impl fmt::Debug for Stream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Stream")
            .field("device", &self.inner.device.ordinal())
            .field("default", &!self.inner.owned)
            .finish_non_exhaustive()
    }
}

impl Stream {
    pub(crate) fn default_of(device: Device) -> Stream {
        Stream { inner: Arc::new(StreamInner { device, raw: result::stream::null(), owned: false }) }
    }

    pub(crate) fn create(device: Device, non_blocking: bool) -> Result<Stream> {
        if device.is_simulated() {
            // cuda-sim: work runs to completion when queued; a stream orders nothing more.
            return Ok(Stream { inner: Arc::new(StreamInner { device, raw: result::stream::null(), owned: true }) });
        }
        device.bind().map_err(|e| driver_error("cuCtxSetCurrent", e))?;
        let kind =
            if non_blocking { result::stream::StreamKind::NonBlocking } else { result::stream::StreamKind::Default };
        let raw = result::stream::create(kind).map_err(|e| driver_error("cuStreamCreate", e))?;
        Ok(Stream { inner: Arc::new(StreamInner { device, raw, owned: true }) })
    }

    /// The device this stream belongs to.
    pub fn device(&self) -> &Device {
        &self.inner.device
    }

    /// Whether this is the device's default (null) stream.
    pub fn is_default(&self) -> bool {
        !self.inner.owned
    }

    pub(crate) fn raw(&self) -> sys::CUstream {
        self.inner.raw
    }

    /// Waits for all work queued on this stream. A kernel that failed while running gives
    /// [`CudaError::Fault`].
    pub fn synchronize(&self) -> Result<()> {
        let device = &self.inner.device;
        if device.is_simulated() {
            return Ok(());
        }
        device.bind().map_err(|e| device.wait_error("cuCtxSetCurrent", e))?;
        // SAFETY: the stream handle is live (owned by `self`, or the null stream).
        unsafe { result::stream::synchronize(self.inner.raw) }.map_err(|e| device.wait_error("cuStreamSynchronize", e))
    }

    /// Records an event (timing enabled) after the work queued so far.
    pub fn record_event(&self) -> Result<Event> {
        let device = &self.inner.device;
        if device.is_simulated() {
            // cuda-sim: the work queued so far is done; the event is this moment.
            let at = Some(std::time::Instant::now());
            return Ok(Event { device: device.clone(), raw: std::ptr::null_mut(), at });
        }
        device.bind().map_err(|e| driver_error("cuCtxSetCurrent", e))?;
        let raw = result::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT)
            .map_err(|e| driver_error("cuEventCreate", e))?;
        let event = Event { device: device.clone(), raw, at: None };
        // SAFETY: both handles are live and belong to the current context.
        unsafe { result::event::record(event.raw, self.inner.raw) }.map_err(|e| driver_error("cuEventRecord", e))?;
        Ok(event)
    }
}

/// A point in a stream's work, with a timestamp once the device reaches it.
pub struct Event {
    device: Device,
    raw: sys::CUevent,
    /// cuda-sim's events: when it was recorded (the host's clock).
    at: Option<std::time::Instant>,
}

// SAFETY: a CUevent is a driver handle usable from any thread once its context is current,
// and every use here binds the context first; the handle is never mutated after creation.
unsafe impl Send for Event {}
// SAFETY: as above; shared references only pass the handle to thread-safe driver calls.
unsafe impl Sync for Event {}

impl Drop for Event {
    fn drop(&mut self) {
        if self.at.is_none() && self.device.bind().is_ok() {
            // SAFETY: the event was created by cuEventCreate and is destroyed only here, once.
            let _ = unsafe { result::event::destroy(self.raw) };
        }
    }
}

impl fmt::Debug for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Event").field("device", &self.device.ordinal()).finish_non_exhaustive()
    }
}

impl Event {
    /// Waits until the device has reached this event.
    pub fn synchronize(&self) -> Result<()> {
        if self.at.is_some() {
            return Ok(());
        }
        self.device.bind().map_err(|e| self.device.wait_error("cuCtxSetCurrent", e))?;
        // SAFETY: the event handle is live (owned by `self`).
        unsafe { result::event::synchronize(self.raw) }.map_err(|e| self.device.wait_error("cuEventSynchronize", e))
    }

    /// Milliseconds of device time from this event to `later`; waits for both.
    pub fn elapsed_ms(&self, later: &Event) -> Result<f32> {
        if !self.device.same_context(&later.device) {
            return Err(CudaError::Driver {
                call: "cuEventElapsedTime".to_string(),
                code: "CUDA_ERROR_INVALID_CONTEXT".to_string(),
                message: "the two events belong to different devices".to_string(),
            });
        }
        if let (Some(a), Some(b)) = (self.at, later.at) {
            let ms = b.saturating_duration_since(a).as_secs_f64() * 1e3;
            return Ok(if b >= a { ms as f32 } else { -(a.duration_since(b).as_secs_f64() * 1e3) as f32 });
        }
        self.synchronize()?;
        later.synchronize()?;
        let elapsed = elapsed_time_fn().ok_or_else(|| CudaError::Driver {
            call: "cuEventElapsedTime".to_string(),
            code: "CUDA_ERROR_NOT_FOUND".to_string(),
            message: "the driver exports neither cuEventElapsedTime_v2 nor cuEventElapsedTime".to_string(),
        })?;
        let mut ms = 0.0f32;
        // SAFETY: both events are live, recorded in the current context, and complete; the
        // function writes one f32 through the valid pointer.
        let code = unsafe { elapsed(&mut ms, self.raw, later.raw) };
        code.result().map_err(|e: DriverError| driver_error("cuEventElapsedTime", e))?;
        Ok(ms)
    }
}

type ElapsedTimeFn = unsafe extern "C" fn(*mut f32, sys::CUevent, sys::CUevent) -> sys::CUresult;

/// cudarc's binding for CUDA 13 calls `cuEventElapsedTime_v2`, which drivers before 12.8 lack
/// (cudarc would panic); the original entry point has the same signature.
fn elapsed_time_fn() -> Option<ElapsedTimeFn> {
    static FUNCTION: OnceLock<Option<ElapsedTimeFn>> = OnceLock::new();
    *FUNCTION.get_or_init(|| {
        // SAFETY: only reached through an Event, which exists only after the driver loaded;
        // both symbols have the C signature `CUresult (float*, CUevent, CUevent)`.
        unsafe { optional_symbol::<ElapsedTimeFn>(&["cuEventElapsedTime_v2", "cuEventElapsedTime"]) }
    })
}
