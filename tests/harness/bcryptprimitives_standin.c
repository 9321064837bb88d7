/* Test-only stand-in for bcryptprimitives.dll, which Wine 8 lacks: Rust's std
 * (1.78+) gets random bytes from its ProcessPrng (present on Windows 10 and
 * later). Placed beside the harness executable when the FMUs are run under
 * wine; never shipped in an FMU. The bytes come from RtlGenRandom. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk)) return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
