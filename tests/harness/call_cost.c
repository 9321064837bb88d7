/*
 * Call-cost bench of `cargo xtask bench`: times fmi2DoStep + fmi2GetReal (one
 * value) through function pointers from dlsym, for several FMU binaries in
 * the same process, interleaved round by round so that they share the
 * machine's state. Subnormals are flushed (FTZ/DAZ) before anything runs,
 * for every library alike, unless CALL_COST_HOST=default (IEEE 754's
 * default environment, as most hosts run).
 *
 *   call_cost time <calls> <rounds> <h> <fmu>...
 *   call_cost count <calls> <h> <fmu>     (one pass, for callgrind:
 *        valgrind --tool=callgrind --toggle-collect=run_calls)
 *
 *   <fmu> = <name> <library> <guid> <output vr> <n> (<vr> <value>)*
 *   (the n Real values are set before initialization: parameters, inputs)
 *
 * `time` prints one line per FMU: "result <name> <median ns> <min ns>" (per
 * doStep + getReal pair, median and minimum over the rounds).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__) || defined(_M_X64)
#include <xmmintrin.h>
#endif

#include "fmi2_types.h"
typedef fmi2Status (*DoStep)(fmi2Component, double, double, int);
typedef fmi2Status (*GetReal)(fmi2Component, const fmi2ValueReference *, size_t, double *);

#define MAX_FMUS 8
#define MAX_ROUNDS 1000

typedef struct {
    const char *name;
    fmi2Component c;
    DoStep do_step;
    GetReal get_real;
    fmi2ValueReference out;
    double t, sink;
    double ns[MAX_ROUNDS];
} Fmu;

static void logger(void *env, const char *instance, fmi2Status status, const char *category, const char *message, ...) {
    (void)env;
    fprintf(stderr, "log %s [%d %s]: %s\n", instance, (int)status, category, message);
}

static const fmi2CallbackFunctions callbacks = {logger, calloc, free, NULL, NULL};

static void fail(const char *what, const char *name) {
    printf("FAIL %s: %s\n", name, what);
    exit(1);
}

static void *need(void *lib, const char *symbol, const char *name) {
    void *f = dlsym(lib, symbol);
    if (!f) fail(symbol, name);
    return f;
}

/* Parse one <fmu> at argv[*at], instantiate and initialize it. */
static void open_fmu(Fmu *f, char **argv, int argc, int *at) {
    typedef fmi2Component (*Instantiate)(const char *, int, const char *, const char *, const fmi2CallbackFunctions *,
                                         int, int);
    typedef fmi2Status (*SetReal)(fmi2Component, const fmi2ValueReference *, size_t, const double *);
    typedef fmi2Status (*Setup)(fmi2Component, int, double, double, int, double);
    typedef fmi2Status (*Mode)(fmi2Component);
    void *lib;
    int n, k;
    if (*at + 5 > argc) fail("usage: <name> <library> <guid> <output vr> <n> (<vr> <value>)*", "arguments");
    f->name = argv[*at];
    lib = dlopen(argv[*at + 1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) fail(dlerror(), f->name);
    f->do_step = (DoStep)need(lib, "fmi2DoStep", f->name);
    f->get_real = (GetReal)need(lib, "fmi2GetReal", f->name);
    f->c = ((Instantiate)need(lib, "fmi2Instantiate", f->name))(f->name, 1, argv[*at + 2], "", &callbacks, 0, 0);
    if (!f->c) fail("fmi2Instantiate", f->name);
    f->out = (fmi2ValueReference)strtoul(argv[*at + 3], NULL, 10);
    n = atoi(argv[*at + 4]);
    *at += 5;
    if (*at + 2 * n > argc) fail("missing values", f->name);
    for (k = 0; k < n; k++, *at += 2) {
        fmi2ValueReference vr = (fmi2ValueReference)strtoul(argv[*at], NULL, 10);
        double value = strtod(argv[*at + 1], NULL);
        if (((SetReal)need(lib, "fmi2SetReal", f->name))(f->c, &vr, 1, &value) != fmi2OK) fail("fmi2SetReal", f->name);
    }
    if (((Setup)need(lib, "fmi2SetupExperiment", f->name))(f->c, 0, 0.0, 0.0, 0, 0.0) != fmi2OK ||
        ((Mode)need(lib, "fmi2EnterInitializationMode", f->name))(f->c) != fmi2OK ||
        ((Mode)need(lib, "fmi2ExitInitializationMode", f->name))(f->c) != fmi2OK)
        fail("initialization", f->name);
    f->t = 0.0;
}

/* The timed loop: what an importer does at each communication point. */
__attribute__((noinline)) int run_calls(Fmu *f, long calls, double h) {
    int status = 0;
    long i;
    for (i = 0; i < calls; i++) {
        double y;
        status |= f->do_step(f->c, f->t, h, 1);
        f->t += h;
        status |= f->get_real(f->c, &f->out, 1, &y);
        f->sink += y;
    }
    return status;
}

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    static Fmu fmus[MAX_FMUS];
    int n = 0, at, timing, rounds = 1, r, k;
    long calls;
    double h;
#if defined(__x86_64__) || defined(_M_X64)
    if (!getenv("CALL_COST_HOST") || strcmp(getenv("CALL_COST_HOST"), "default") != 0)
        _mm_setcsr(_mm_getcsr() | 0x8040); /* FTZ | DAZ */
#endif
    if (argc < 4) fail("usage: call_cost time <calls> <rounds> <h> <fmu>... | count <calls> <h> <fmu>", "arguments");
    timing = strcmp(argv[1], "time") == 0;
    calls = atol(argv[2]);
    at = 3;
    if (timing) rounds = atoi(argv[at++]);
    if (rounds < 1 || rounds > MAX_ROUNDS || calls < 1) fail("calls and rounds must be >= 1", "arguments");
    h = strtod(argv[at++], NULL);
    while (at < argc && n < MAX_FMUS) open_fmu(&fmus[n++], argv, argc, &at);
    if (n == 0) fail("no FMU given", "arguments");
    if (!timing) {
        if (run_calls(&fmus[0], calls, h) != fmi2OK) fail("a call did not return fmi2OK", fmus[0].name);
        printf("counted %s %ld\n", fmus[0].name, calls);
        return 0;
    }
    for (k = 0; k < n; k++) /* warm up */
        if (run_calls(&fmus[k], calls, h) != fmi2OK) fail("a call did not return fmi2OK", fmus[k].name);
    for (r = 0; r < rounds; r++) {
        for (k = 0; k < n; k++) {
            double start = now_ns();
            if (run_calls(&fmus[k], calls, h) != fmi2OK) fail("a call did not return fmi2OK", fmus[k].name);
            fmus[k].ns[r] = (now_ns() - start) / calls;
        }
    }
    for (k = 0; k < n; k++) {
        qsort(fmus[k].ns, rounds, sizeof(double), by_value);
        printf("result %s %.3f %.3f (sink %g)\n", fmus[k].name, fmus[k].ns[rounds / 2], fmus[k].ns[0], fmus[k].sink);
    }
    return 0;
}
