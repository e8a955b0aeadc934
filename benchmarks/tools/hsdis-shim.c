/*
 * hsdis-shim.c: lets JDK 25 disassemble with Debian's libhsdis0-fcml (fcml 1.2.2).
 *
 * HotSpot looks for hsdis-amd64.so and calls decode_instructions_virtual(); the Debian library only
 * has the older decode_instructions(start, end, ...), which takes the code's address range in this
 * process. This file is that adapter: it loads the Debian library and forwards the buffer it is given.
 * perfasm.sh builds it; nothing in the build or the tests uses it.
 */
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

typedef void *(*event_cb)(void *, const char *, void *);
typedef int (*printf_cb)(void *, const char *, ...);
typedef void *(*decode_fn)(void *, void *, event_cb, void *, printf_cb, void *, const char *);

#ifndef FCML_HSDIS
#define FCML_HSDIS "/usr/lib/x86_64-linux-gnu/libhsdis.so.0.0.0"
#endif

void *decode_instructions_virtual(uintptr_t start_va, uintptr_t end_va, unsigned char *buffer, uintptr_t length,
                                  event_cb ev, void *evs, printf_cb pf, void *pfs, const char *options, int newline) {
    static decode_fn decode;
    (void) start_va;
    (void) end_va;
    (void) newline;
    if (!decode) {
        void *lib = dlopen(FCML_HSDIS, RTLD_NOW);
        if (!lib) return NULL;
        decode = (decode_fn) dlsym(lib, "decode_instructions");
        if (!decode) return NULL;
    }
    return decode(buffer, buffer + length, ev, evs, pf, pfs, options);
}
