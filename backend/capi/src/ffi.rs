//! Boundary helpers shared by the native and compatibility APIs: the per-thread last-error
//! message, the panic guard, and checked conversions of C arguments.

use std::cell::RefCell;
use std::ffi::{c_char, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// Records `msg` as this thread's last error (interior NULs are replaced).
pub(crate) fn set_last_error(msg: &str) {
    let c = CString::new(msg.replace('\0', "\\0")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = c);
}

/// This thread's last error message; valid until the thread's next failing call.
pub(crate) fn last_error_ptr() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

/// The text of a caught panic payload.
pub(crate) fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic payload".into()
    }
}

/// Runs `f`, catching a panic: `Err(message)` for a panic.
pub(crate) fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|p| format!("internal error: panic: {}", panic_text(&*p)))
}

/// Reads a NUL-terminated UTF-8 string; `Ok(None)` for NULL.
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string.
pub(crate) unsafe fn opt_str<'a>(p: *const c_char, what: &str) -> Result<Option<&'a str>, String> {
    if p.is_null() {
        return Ok(None);
    }
    // SAFETY: the caller guarantees a NUL-terminated string.
    let s = unsafe { CStr::from_ptr(p) };
    s.to_str().map(Some).map_err(|_| format!("{what} is not UTF-8"))
}

/// A byte slice from a pointer and length: NULL or zero length is an error naming `what`.
///
/// # Safety
/// `p` points to `len` readable bytes when non-NULL.
pub(crate) unsafe fn bytes<'a>(p: *const u8, len: usize, what: &str) -> Result<&'a [u8], String> {
    if p.is_null() {
        return Err(format!("{what} is NULL"));
    }
    if len == 0 {
        return Err(format!("{what} has size 0"));
    }
    // SAFETY: the caller guarantees `len` readable bytes.
    Ok(unsafe { std::slice::from_raw_parts(p, len) })
}

/// A slice of `n` elements; NULL is allowed only for `n == 0`.
///
/// # Safety
/// `p` points to `n` readable elements when `n > 0`.
pub(crate) unsafe fn slice<'a, T>(p: *const T, n: usize, what: &str) -> Result<&'a [T], String> {
    if n == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(format!("{what} is NULL but its count is {n}"));
    }
    // SAFETY: the caller guarantees `n` readable elements.
    Ok(unsafe { std::slice::from_raw_parts(p, n) })
}

/// A string with interior NULs escaped, as a C string.
pub(crate) fn cstring(s: &str) -> CString {
    CString::new(s.replace('\0', "\\0")).unwrap_or_default()
}
