//! The file this shared library was loaded from, on each platform: an FMU's
//! binary is named after its model, and that name selects the model.

use std::path::PathBuf;

/// Path of the loaded library that contains this function.
#[cfg(unix)]
pub fn this_library() -> Option<PathBuf> {
    use std::ffi::{c_void, CStr};
    use std::os::unix::ffi::OsStrExt;
    // SAFETY: Dl_info is plain pointers and integers, for which all zero
    // bytes are a valid value (NULL pointers).
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    let address = this_library as *const c_void;
    // SAFETY: dladdr only reads the address and fills `info`.
    if unsafe { libc::dladdr(address, &mut info) } == 0 || info.dli_fname.is_null() {
        return None;
    }
    // SAFETY: dli_fname is a NUL-terminated path owned by the loader.
    let path = unsafe { CStr::from_ptr(info.dli_fname) };
    Some(std::ffi::OsStr::from_bytes(path.to_bytes()).into())
}

/// Path of the loaded DLL that contains this function (Windows has no
/// `dladdr`: the module is found from an address inside it).
#[cfg(windows)]
pub fn this_library() -> Option<PathBuf> {
    use std::ffi::c_void;
    use std::os::windows::ffi::OsStringExt;
    const GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS: u32 = 0x4;
    const GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT: u32 = 0x2;
    #[link(name = "kernel32")]
    extern "system" {
        fn GetModuleHandleExW(flags: u32, module_name: *const u16, module: *mut *mut c_void) -> i32;
        fn GetModuleFileNameW(module: *mut c_void, filename: *mut u16, size: u32) -> u32;
    }
    let mut module = std::ptr::null_mut();
    let address = this_library as *const u16;
    // SAFETY: with FROM_ADDRESS the "name" is an address inside the module;
    // UNCHANGED_REFCOUNT takes no reference that would need releasing.
    let found = unsafe {
        GetModuleHandleExW(
            GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
            address,
            &mut module,
        )
    };
    if found == 0 {
        return None;
    }
    // The longest extended-length path.
    let mut buffer = vec![0u16; 32 * 1024];
    // SAFETY: the buffer holds `buffer.len()` u16s; the call writes at most that many.
    let len = unsafe { GetModuleFileNameW(module, buffer.as_mut_ptr(), buffer.len() as u32) } as usize;
    if len == 0 || len >= buffer.len() {
        return None;
    }
    Some(std::ffi::OsString::from_wide(&buffer[..len]).into())
}
