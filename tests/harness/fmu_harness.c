/*
 * A minimal FMI 2.0 importer (Co-Simulation and Model Exchange) in portable C, compiled for each
 * platform the FMUs ship (native linux64, win64 under wine, aarch64 Linux
 * under qemu) by `cargo xtask test`. It loads one FMU binary, runs the full
 * call sequence from a plan file written by the xtask and prints every
 * output at every step as the hex bits of the value, so that the runs on
 * different platforms can be compared bit for bit.
 *
 *   fmu_harness <library> <plan file> [host]
 *
 * host (default "default") makes the harness a hostile host process, set up
 * before the library is loaded: "ftz" (subnormals flushed to zero and
 * treated as zero: FTZ+DAZ on x86_64, FZ on aarch64), "upward", "downward",
 * "toward_zero" (rounding modes), "traps" (invalid, divide by zero and
 * overflow unmasked: any of them raised is SIGFPE), "stack64k" (the whole
 * run on a thread with a 64 KiB stack), "threads" (four threads run the
 * plan at once, each with its own instances, and must agree bit for bit).
 * In every mode each FMI call must leave the caller's floating-point
 * environment (control and status registers) exactly as it was.
 *
 * Plan file (whitespace separated; doubles as 16 hex digits of their bits):
 *   guid <GUID>
 *   step <h> steps <N>
 *   parameters <n> (<vr> <type R|I|E|B> <value>)*   E: an Enumeration
 *   inputs <n> <vr>*          Real inputs
 *   outputs <n> (<vr> <type R|I|B>)*
 *   modelexchange <0|1> <nx> <nz>   offered; continuous states, event indicators
 *   then N rows of n input values
 *
 * Sequence: fmi2GetVersion/TypesPlatform, fmi2Instantiate(GUID), parameters,
 * fmi2SetupExperiment, Enter/ExitInitializationMode, N x (SetReal inputs,
 * DoStep, Get outputs), with the FMU state taken at N/2 (fmi2GetFMUstate,
 * serialized and de-serialized) and the second half replayed from it, then
 * fmi2Reset and a fresh initialization replaying the first steps, then
 * Terminate and FreeInstance. The replays must equal the first run bit for
 * bit on the same platform; the harness checks that itself.
 *
 * Then FMI 3.0 Co-Simulation through the same binary's fmi3 functions
 * (value references one higher, Enumerations as Int64): initialized alike,
 * the same N steps with the FMU state taken at N/2, serialized and replayed;
 * every output must equal FMI 2.0's bit for bit.
 *
 * Then Model Exchange: a second instance (fmi2ModelExchange), initialized
 * alike, event iteration (fmi2NewDiscreteStates until settled),
 * continuous-time mode, and N explicit Euler steps of ME_STEP with the
 * inputs of row k at step k: fmi2GetDerivatives, fmi2SetTime,
 * fmi2SetContinuousStates, fmi2GetEventIndicators,
 * fmi2CompletedIntegratorStep, and event mode with its iteration where an
 * indicator changed sign or the FMU asked; the states and derivatives of
 * each step follow the Co-Simulation outputs on its output row.
 * Exit code 0 on success; any failure prints "FAIL ..." and exits 1.
 */
#define _GNU_SOURCE /* glibc: feenableexcept, pthread attributes */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#include <windows.h>
typedef HMODULE library_t;
static library_t open_library(const char *path) { return LoadLibraryA(path); }
static void *symbol(library_t lib, const char *name) { return (void *)GetProcAddress(lib, name); }
static void close_library(library_t lib) { FreeLibrary(lib); }
#else
#include <dlfcn.h>
typedef void *library_t;
static library_t open_library(const char *path) { return dlopen(path, RTLD_NOW | RTLD_LOCAL); }
static void *symbol(library_t lib, const char *name) { return dlsym(lib, name); }
static void close_library(library_t lib) { dlclose(lib); }
#endif

#include "fmi2_types.h"
#include <fenv.h>
#ifndef _WIN32
#include <pthread.h>
#endif

/* The floating-point environment as the hardware holds it: MXCSR (x86_64),
 * FPCR and FPSR (aarch64). The caller's flags are part of it. */
static unsigned long long float_env(void) {
#if defined(__x86_64__)
    unsigned int csr;
    __asm__ volatile("stmxcsr %0" : "=m"(csr) : : "memory");
    return csr;
#elif defined(__aarch64__)
    unsigned long long fpcr, fpsr;
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr) : : "memory");
    __asm__ volatile("mrs %0, fpsr" : "=r"(fpsr) : : "memory");
    return (fpcr << 32) ^ fpsr;
#else
    return 0;
#endif
}

/* Subnormals flushed (results) and treated as zero (operands). */
static int flush_subnormals(void) {
#if defined(__x86_64__)
    unsigned int csr;
    __asm__ volatile("stmxcsr %0" : "=m"(csr));
    csr |= 0x8040; /* FTZ, DAZ */
    __asm__ volatile("ldmxcsr %0" : : "m"(csr));
    return 1;
#elif defined(__aarch64__)
    unsigned long long fpcr;
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
    fpcr |= 1ull << 24; /* FZ */
    __asm__ volatile("msr fpcr, %0" : : "r"(fpcr));
    return 1;
#else
    return 0;
#endif
}

#define MAX_VARS 256

static void logger(void *env, fmi2String instance, fmi2Status status, fmi2String category, fmi2String message, ...) {
    va_list args;
    (void)env;
    fprintf(stderr, "log %s [%d %s]: ", instance ? instance : "?", (int)status, category ? category : "?");
    va_start(args, message);
    vfprintf(stderr, message, args);
    va_end(args);
    fputc('\n', stderr);
}

static void fail(const char *what) {
    printf("FAIL %s\n", what);
    fflush(stdout);
    exit(1);
}

/* A call must leave the caller's floating-point environment as it was.
 * Nothing of the harness's own arithmetic may run between the two reads:
 * arguments are plain values, times computed into volatile variables
 * before (a compiler may otherwise sink `k * h`, which raises the inexact
 * flag, past the first read), and the reads clobber memory so that stored
 * results are complete. */
#define SAME_ENV(call)                                                                                                 \
    do {                                                                                                               \
        unsigned long long env_before_ = float_env();                                                                  \
        call;                                                                                                          \
        if (float_env() != env_before_) fail("floating-point environment changed by " #call);                        \
    } while (0)

#define CHECK(call)                                                                                                    \
    do {                                                                                                               \
        fmi2Status status_;                                                                                            \
        SAME_ENV(status_ = (call));                                                                                    \
        if (status_ != fmi2OK) fail(#call);                                                                            \
    } while (0)

/* The functions, resolved by name: a missing export is a failure. */
static struct {
    const char *(*GetTypesPlatform)(void);
    const char *(*GetVersion)(void);
    fmi2Component (*Instantiate)(fmi2String, int, fmi2String, fmi2String, const fmi2CallbackFunctions *, fmi2Boolean,
                                 fmi2Boolean);
    void (*FreeInstance)(fmi2Component);
    fmi2Status (*SetupExperiment)(fmi2Component, fmi2Boolean, fmi2Real, fmi2Real, fmi2Boolean, fmi2Real);
    fmi2Status (*EnterInitializationMode)(fmi2Component);
    fmi2Status (*ExitInitializationMode)(fmi2Component);
    fmi2Status (*Terminate)(fmi2Component);
    fmi2Status (*Reset)(fmi2Component);
    fmi2Status (*GetReal)(fmi2Component, const fmi2ValueReference *, size_t, fmi2Real *);
    fmi2Status (*GetInteger)(fmi2Component, const fmi2ValueReference *, size_t, fmi2Integer *);
    fmi2Status (*GetBoolean)(fmi2Component, const fmi2ValueReference *, size_t, fmi2Boolean *);
    fmi2Status (*SetReal)(fmi2Component, const fmi2ValueReference *, size_t, const fmi2Real *);
    fmi2Status (*SetInteger)(fmi2Component, const fmi2ValueReference *, size_t, const fmi2Integer *);
    fmi2Status (*SetBoolean)(fmi2Component, const fmi2ValueReference *, size_t, const fmi2Boolean *);
    fmi2Status (*GetFMUstate)(fmi2Component, fmi2FMUstate *);
    fmi2Status (*SetFMUstate)(fmi2Component, fmi2FMUstate);
    fmi2Status (*FreeFMUstate)(fmi2Component, fmi2FMUstate *);
    fmi2Status (*SerializedFMUstateSize)(fmi2Component, fmi2FMUstate, size_t *);
    fmi2Status (*SerializeFMUstate)(fmi2Component, fmi2FMUstate, fmi2Byte *, size_t);
    fmi2Status (*DeSerializeFMUstate)(fmi2Component, const fmi2Byte *, size_t, fmi2FMUstate *);
    fmi2Status (*DoStep)(fmi2Component, fmi2Real, fmi2Real, fmi2Boolean);
    fmi2Status (*SetTime)(fmi2Component, fmi2Real);
    fmi2Status (*SetContinuousStates)(fmi2Component, const fmi2Real *, size_t);
    fmi2Status (*GetContinuousStates)(fmi2Component, fmi2Real *, size_t);
    fmi2Status (*GetDerivatives)(fmi2Component, fmi2Real *, size_t);
    fmi2Status (*GetEventIndicators)(fmi2Component, fmi2Real *, size_t);
    fmi2Status (*GetNominalsOfContinuousStates)(fmi2Component, fmi2Real *, size_t);
    fmi2Status (*EnterEventMode)(fmi2Component);
    fmi2Status (*NewDiscreteStates)(fmi2Component, fmi2EventInfo *);
    fmi2Status (*EnterContinuousTimeMode)(fmi2Component);
    fmi2Status (*CompletedIntegratorStep)(fmi2Component, fmi2Boolean, fmi2Boolean *, fmi2Boolean *);
} fmi;

/* FMI 3.0's functions for Co-Simulation (fmi3FunctionTypes.h; fmi3Boolean is
 * C's bool, fmi3Status an int as fmi2's; handles as void pointers). */
typedef void (*fmi3LogMessage)(void *, int, const char *, const char *);
static struct {
    const char *(*GetVersion)(void);
    void *(*InstantiateCoSimulation)(const char *, const char *, const char *, _Bool, _Bool, _Bool, _Bool,
                                     const unsigned int *, size_t, void *, fmi3LogMessage, void *);
    void (*FreeInstance)(void *);
    int (*EnterInitializationMode)(void *, _Bool, double, double, _Bool, double);
    int (*ExitInitializationMode)(void *);
    int (*Terminate)(void *);
    int (*GetFloat64)(void *, const unsigned int *, size_t, double *, size_t);
    int (*SetFloat64)(void *, const unsigned int *, size_t, const double *, size_t);
    int (*GetInt32)(void *, const unsigned int *, size_t, int *, size_t);
    int (*SetInt32)(void *, const unsigned int *, size_t, const int *, size_t);
    int (*SetInt64)(void *, const unsigned int *, size_t, const long long *, size_t);
    int (*GetBoolean)(void *, const unsigned int *, size_t, _Bool *, size_t);
    int (*SetBoolean)(void *, const unsigned int *, size_t, const _Bool *, size_t);
    int (*DoStep)(void *, double, double, _Bool, _Bool *, _Bool *, _Bool *, double *);
    int (*GetFMUState)(void *, void **);
    int (*SetFMUState)(void *, void *);
    int (*FreeFMUState)(void *, void **);
    int (*SerializedFMUStateSize)(void *, void *, size_t *);
    int (*SerializeFMUState)(void *, void *, unsigned char *, size_t);
    int (*DeserializeFMUState)(void *, const unsigned char *, size_t, void **);
} fmi3;

/* Model Exchange's Euler step (s): small enough for every model's fastest
 * mode (the flap actuator's 200 Hz first stage: 0.013 rad per step). */
#define ME_STEP 1e-5

static const char *ALL_FUNCTIONS[] = {
    "fmi2GetTypesPlatform", "fmi2GetVersion", "fmi2SetDebugLogging", "fmi2Instantiate", "fmi2FreeInstance",
    "fmi2SetupExperiment", "fmi2EnterInitializationMode", "fmi2ExitInitializationMode", "fmi2Terminate", "fmi2Reset",
    "fmi2GetReal", "fmi2GetInteger", "fmi2GetBoolean", "fmi2GetString", "fmi2SetReal", "fmi2SetInteger",
    "fmi2SetBoolean", "fmi2SetString", "fmi2GetFMUstate", "fmi2SetFMUstate", "fmi2FreeFMUstate",
    "fmi2SerializedFMUstateSize", "fmi2SerializeFMUstate", "fmi2DeSerializeFMUstate", "fmi2GetDirectionalDerivative",
    "fmi2SetRealInputDerivatives", "fmi2GetRealOutputDerivatives", "fmi2DoStep", "fmi2CancelStep", "fmi2GetStatus",
    "fmi2GetRealStatus", "fmi2GetIntegerStatus", "fmi2GetBooleanStatus", "fmi2GetStringStatus", "fmi2SetTime",
    "fmi2SetContinuousStates", "fmi2GetContinuousStates", "fmi2GetDerivatives", "fmi2GetEventIndicators",
    "fmi2GetNominalsOfContinuousStates", "fmi2EnterEventMode", "fmi2NewDiscreteStates", "fmi2EnterContinuousTimeMode",
    "fmi2CompletedIntegratorStep"};

static void *need(library_t lib, const char *name) {
    void *f = symbol(lib, name);
    if (!f) {
        printf("FAIL missing export %s\n", name);
        exit(1);
    }
    return f;
}

static double from_bits(const char *hex) {
    unsigned long long bits = strtoull(hex, NULL, 16);
    double x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

static unsigned long long to_bits(double x) {
    unsigned long long bits;
    memcpy(&bits, &x, sizeof bits);
    return bits;
}

/* The plan. */
static char guid[256];
static double h;
static int steps;
static int n_par, n_in, n_out, has_me, n_x, n_z;
static fmi2ValueReference par_vr[MAX_VARS], in_vr[MAX_VARS], out_vr[MAX_VARS];
static char par_type[MAX_VARS], out_type[MAX_VARS];
static double par_value[MAX_VARS];
static double *inputs; /* steps x n_in */

static void read_word(FILE *f, const char *expected) {
    char word[64];
    if (fscanf(f, "%63s", word) != 1 || strcmp(word, expected) != 0) {
        printf("FAIL plan: expected '%s'\n", expected);
        exit(1);
    }
}

static int read_count(FILE *f) {
    int n;
    if (fscanf(f, "%d", &n) != 1 || n < 0 || n > MAX_VARS) fail("plan: bad count");
    return n;
}

static double read_bits(FILE *f) {
    char hex[32];
    if (fscanf(f, "%31s", hex) != 1) fail("plan: missing value");
    return from_bits(hex);
}

static void read_plan(const char *path) {
    FILE *f = fopen(path, "r");
    char type[8];
    int i, k;
    if (!f) fail("cannot open the plan");
    read_word(f, "guid");
    if (fscanf(f, "%255s", guid) != 1) fail("plan: guid");
    read_word(f, "step");
    h = read_bits(f);
    read_word(f, "steps");
    if (fscanf(f, "%d", &steps) != 1 || steps < 2) fail("plan: steps");
    read_word(f, "parameters");
    n_par = read_count(f);
    for (i = 0; i < n_par; i++) {
        if (fscanf(f, "%u %7s", &par_vr[i], type) != 2) fail("plan: parameter");
        par_type[i] = type[0];
        par_value[i] = read_bits(f);
    }
    read_word(f, "inputs");
    n_in = read_count(f);
    for (i = 0; i < n_in; i++)
        if (fscanf(f, "%u", &in_vr[i]) != 1) fail("plan: input");
    read_word(f, "outputs");
    n_out = read_count(f);
    for (i = 0; i < n_out; i++) {
        if (fscanf(f, "%u %7s", &out_vr[i], type) != 2) fail("plan: output");
        out_type[i] = type[0];
    }
    read_word(f, "modelexchange");
    has_me = read_count(f);
    n_x = read_count(f);
    n_z = read_count(f);
    inputs = calloc((size_t)steps * (size_t)(n_in ? n_in : 1), sizeof(double));
    for (k = 0; k < steps; k++)
        for (i = 0; i < n_in; i++) inputs[k * n_in + i] = read_bits(f);
    fclose(f);
}

static void set_parameters(fmi2Component c) {
    int i;
    for (i = 0; i < n_par; i++) {
        fmi2Integer n = (fmi2Integer)par_value[i];
        fmi2Boolean b = par_value[i] != 0.0;
        if (par_type[i] == 'R') CHECK(fmi.SetReal(c, &par_vr[i], 1, &par_value[i]));
        else if (par_type[i] == 'I' || par_type[i] == 'E') CHECK(fmi.SetInteger(c, &par_vr[i], 1, &n));
        else CHECK(fmi.SetBoolean(c, &par_vr[i], 1, &b));
    }
}

static void fmi3_logger(void *env, int status, const char *category, const char *message) {
    (void)env;
    fprintf(stderr, "log fmi3 [%d %s]: %s\n", status, category ? category : "?", message ? message : "?");
}

#define CHECK3(call)                                                                                                   \
    do {                                                                                                               \
        int status3_;                                                                                                  \
        SAME_ENV(status3_ = (call));                                                                                   \
        if (status3_ != 0) fail(#call);                                                                                \
    } while (0)

/* FMI 3.0's step k: the inputs, the step, the outputs' bits into row[]. */
static void step3(void *c, int k, unsigned long long *row) {
    int i;
    unsigned int vr;
    volatile double t = k * h;
    _Bool needed, terminate, early;
    double last;
    for (i = 0; i < n_in; i++) {
        vr = in_vr[i];
        CHECK3(fmi3.SetFloat64(c, &vr, 1, &inputs[k * n_in + i], 1));
    }
    CHECK3(fmi3.DoStep(c, t, h, 1, &needed, &terminate, &early, &last));
    if (needed || terminate || early) fail("fmi3DoStep: an event, an end or an early return not asked for");
    for (i = 0; i < n_out; i++) {
        vr = out_vr[i];
        if (out_type[i] == 'R') {
            double x;
            CHECK3(fmi3.GetFloat64(c, &vr, 1, &x, 1));
            row[i] = to_bits(x);
        } else if (out_type[i] == 'I') {
            int x;
            CHECK3(fmi3.GetInt32(c, &vr, 1, &x, 1));
            row[i] = to_bits((double)x);
        } else {
            _Bool x;
            CHECK3(fmi3.GetBoolean(c, &vr, 1, &x, 1));
            row[i] = to_bits((double)x);
        }
    }
}

/* FMI 3.0 Co-Simulation of the plan, which must give FMI 2.0's trace. */
static void run_fmi3(const unsigned long long *trace2) {
    void *c, *state = NULL, *restored = NULL;
    unsigned char *bytes;
    size_t size = 0, n = (size_t)steps * (size_t)(n_out ? n_out : 1);
    unsigned long long *trace = calloc(n, sizeof *trace), *replay = calloc(n, sizeof *replay);
    const char *text;
    int i, k, half = steps / 2;
    SAME_ENV(text = fmi3.GetVersion());
    if (strcmp(text, "3.0") != 0) fail("fmi3GetVersion is not 3.0");
    SAME_ENV(c = fmi3.InstantiateCoSimulation("harness3", guid, "", 0, 0, 0, 0, NULL, 0, NULL, fmi3_logger, NULL));
    if (!c) fail("fmi3InstantiateCoSimulation returned NULL");
    for (i = 0; i < n_par; i++) {
        unsigned int vr = par_vr[i];
        int n32 = (int)par_value[i];
        long long n64 = (long long)par_value[i];
        _Bool b = par_value[i] != 0.0;
        if (par_type[i] == 'R') CHECK3(fmi3.SetFloat64(c, &vr, 1, &par_value[i], 1));
        else if (par_type[i] == 'I') CHECK3(fmi3.SetInt32(c, &vr, 1, &n32, 1));
        else if (par_type[i] == 'E') CHECK3(fmi3.SetInt64(c, &vr, 1, &n64, 1));
        else CHECK3(fmi3.SetBoolean(c, &vr, 1, &b, 1));
    }
    CHECK3(fmi3.EnterInitializationMode(c, 0, 0.0, 0.0, 0, 0.0));
    CHECK3(fmi3.ExitInitializationMode(c));
    for (k = 0; k < steps; k++) {
        if (k == half) {
            CHECK3(fmi3.GetFMUState(c, &state));
            CHECK3(fmi3.SerializedFMUStateSize(c, state, &size));
        }
        step3(c, k, &trace[k * n_out]);
    }
    bytes = malloc(size ? size : 1);
    CHECK3(fmi3.SerializeFMUState(c, state, bytes, size));
    CHECK3(fmi3.DeserializeFMUState(c, bytes, size, &restored));
    CHECK3(fmi3.SetFMUState(c, restored));
    for (k = half; k < steps; k++) step3(c, k, &replay[k * n_out]);
    if (memcmp(&trace[half * n_out], &replay[half * n_out], (size_t)(steps - half) * n_out * sizeof *trace) != 0)
        fail("FMI 3.0: the replay from the restored FMU state differs from the first run");
    if (memcmp(trace, trace2, (size_t)steps * n_out * sizeof *trace) != 0)
        fail("FMI 3.0 Co-Simulation differs from FMI 2.0's");
    CHECK3(fmi3.FreeFMUState(c, &restored));
    CHECK3(fmi3.FreeFMUState(c, &state));
    CHECK3(fmi3.Terminate(c));
    SAME_ENV(fmi3.FreeInstance(c));
    free(bytes);
    free(trace);
    free(replay);
}

static void initialize(fmi2Component c) {
    set_parameters(c);
    CHECK(fmi.SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0));
    CHECK(fmi.EnterInitializationMode(c));
    CHECK(fmi.ExitInitializationMode(c));
}

/* Step k (from t = k*h), then the outputs' bits into row[]. */
static void step(fmi2Component c, int k, unsigned long long *row) {
    int i;
    volatile double t = k * h;
    if (n_in) CHECK(fmi.SetReal(c, in_vr, (size_t)n_in, &inputs[k * n_in]));
    CHECK(fmi.DoStep(c, t, h, 1));
    for (i = 0; i < n_out; i++) {
        if (out_type[i] == 'R') {
            fmi2Real x;
            CHECK(fmi.GetReal(c, &out_vr[i], 1, &x));
            row[i] = to_bits(x);
        } else if (out_type[i] == 'I') {
            fmi2Integer x;
            CHECK(fmi.GetInteger(c, &out_vr[i], 1, &x));
            row[i] = to_bits((double)x);
        } else {
            fmi2Boolean x;
            CHECK(fmi.GetBoolean(c, &out_vr[i], 1, &x));
            row[i] = to_bits((double)x);
        }
    }
}

/* Event mode: iterate until the discrete state settles, back to
 * continuous-time mode. */
static void handle_event(fmi2Component c, int enter) {
    fmi2EventInfo info;
    int passes = 0;
    if (enter) CHECK(fmi.EnterEventMode(c));
    do {
        CHECK(fmi.NewDiscreteStates(c, &info));
        if (info.terminateSimulation) fail("the FMU asked to terminate");
        if (++passes > 1000) fail("the event iteration did not settle");
    } while (info.newDiscreteStatesNeeded);
    CHECK(fmi.EnterContinuousTimeMode(c));
}

/* The Model Exchange run: states and derivatives of every step into me[]. */
static void model_exchange(unsigned long long *me, int width) {
    fmi2CallbackFunctions callbacks = {logger, calloc, free, NULL, NULL};
    fmi2Real x[MAX_VARS], dx[MAX_VARS], z[MAX_VARS], z_before[MAX_VARS], nominal[MAX_VARS];
    fmi2Boolean enter, terminate;
    int i, k, crossed;
    volatile double t;
    fmi2Component c;
    SAME_ENV(c = fmi.Instantiate("harness-me", 0 /* fmi2ModelExchange */, guid, "", &callbacks, 0, 0));
    if (!c) fail("fmi2Instantiate(fmi2ModelExchange) returned NULL");
    set_parameters(c);
    CHECK(fmi.SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0));
    CHECK(fmi.EnterInitializationMode(c));
    CHECK(fmi.ExitInitializationMode(c));
    handle_event(c, 0);
    CHECK(fmi.GetNominalsOfContinuousStates(c, nominal, (size_t)n_x));
    for (i = 0; i < n_x; i++)
        if (!(nominal[i] > 0.0)) fail("a nominal is not positive");
    CHECK(fmi.GetContinuousStates(c, x, (size_t)n_x));
    CHECK(fmi.GetEventIndicators(c, z_before, (size_t)n_z));
    for (k = 0; k < steps; k++) {
        if (n_in) CHECK(fmi.SetReal(c, in_vr, (size_t)n_in, &inputs[k * n_in]));
        CHECK(fmi.GetDerivatives(c, dx, (size_t)n_x));
        for (i = 0; i < n_x; i++) x[i] += ME_STEP * dx[i];
        t = (k + 1) * ME_STEP;
        CHECK(fmi.SetTime(c, t));
        CHECK(fmi.SetContinuousStates(c, x, (size_t)n_x));
        CHECK(fmi.GetEventIndicators(c, z, (size_t)n_z));
        CHECK(fmi.CompletedIntegratorStep(c, 1, &enter, &terminate));
        if (terminate) fail("the FMU asked to terminate");
        crossed = 0;
        for (i = 0; i < n_z; i++) crossed |= (z[i] > 0.0) != (z_before[i] > 0.0);
        if (enter || crossed) {
            handle_event(c, 1);
            CHECK(fmi.GetContinuousStates(c, x, (size_t)n_x));
            CHECK(fmi.GetEventIndicators(c, z, (size_t)n_z));
        }
        memcpy(z_before, z, sizeof z);
        CHECK(fmi.GetDerivatives(c, dx, (size_t)n_x));
        for (i = 0; i < n_x; i++) {
            me[k * width + i] = to_bits(x[i]);
            me[k * width + n_x + i] = to_bits(dx[i]);
        }
    }
    CHECK(fmi.Terminate(c));
    SAME_ENV(fmi.FreeInstance(c));
}

/* Bind every function of the library (a missing export is a failure). */
static void bind_functions(library_t lib) {
    int i;
    for (i = 0; i < (int)(sizeof ALL_FUNCTIONS / sizeof ALL_FUNCTIONS[0]); i++) need(lib, ALL_FUNCTIONS[i]);
    *(void **)&fmi.GetTypesPlatform = need(lib, "fmi2GetTypesPlatform");
    *(void **)&fmi.GetVersion = need(lib, "fmi2GetVersion");
    *(void **)&fmi.Instantiate = need(lib, "fmi2Instantiate");
    *(void **)&fmi.FreeInstance = need(lib, "fmi2FreeInstance");
    *(void **)&fmi.SetupExperiment = need(lib, "fmi2SetupExperiment");
    *(void **)&fmi.EnterInitializationMode = need(lib, "fmi2EnterInitializationMode");
    *(void **)&fmi.ExitInitializationMode = need(lib, "fmi2ExitInitializationMode");
    *(void **)&fmi.Terminate = need(lib, "fmi2Terminate");
    *(void **)&fmi.Reset = need(lib, "fmi2Reset");
    *(void **)&fmi.GetReal = need(lib, "fmi2GetReal");
    *(void **)&fmi.GetInteger = need(lib, "fmi2GetInteger");
    *(void **)&fmi.GetBoolean = need(lib, "fmi2GetBoolean");
    *(void **)&fmi.SetReal = need(lib, "fmi2SetReal");
    *(void **)&fmi.SetInteger = need(lib, "fmi2SetInteger");
    *(void **)&fmi.SetBoolean = need(lib, "fmi2SetBoolean");
    *(void **)&fmi.GetFMUstate = need(lib, "fmi2GetFMUstate");
    *(void **)&fmi.SetFMUstate = need(lib, "fmi2SetFMUstate");
    *(void **)&fmi.FreeFMUstate = need(lib, "fmi2FreeFMUstate");
    *(void **)&fmi.SerializedFMUstateSize = need(lib, "fmi2SerializedFMUstateSize");
    *(void **)&fmi.SerializeFMUstate = need(lib, "fmi2SerializeFMUstate");
    *(void **)&fmi.DeSerializeFMUstate = need(lib, "fmi2DeSerializeFMUstate");
    *(void **)&fmi.DoStep = need(lib, "fmi2DoStep");
    *(void **)&fmi.SetTime = need(lib, "fmi2SetTime");
    *(void **)&fmi.SetContinuousStates = need(lib, "fmi2SetContinuousStates");
    *(void **)&fmi.GetContinuousStates = need(lib, "fmi2GetContinuousStates");
    *(void **)&fmi.GetDerivatives = need(lib, "fmi2GetDerivatives");
    *(void **)&fmi.GetEventIndicators = need(lib, "fmi2GetEventIndicators");
    *(void **)&fmi.GetNominalsOfContinuousStates = need(lib, "fmi2GetNominalsOfContinuousStates");
    *(void **)&fmi.EnterEventMode = need(lib, "fmi2EnterEventMode");
    *(void **)&fmi.NewDiscreteStates = need(lib, "fmi2NewDiscreteStates");
    *(void **)&fmi.EnterContinuousTimeMode = need(lib, "fmi2EnterContinuousTimeMode");
    *(void **)&fmi.CompletedIntegratorStep = need(lib, "fmi2CompletedIntegratorStep");
    *(void **)&fmi3.GetVersion = need(lib, "fmi3GetVersion");
    *(void **)&fmi3.InstantiateCoSimulation = need(lib, "fmi3InstantiateCoSimulation");
    *(void **)&fmi3.FreeInstance = need(lib, "fmi3FreeInstance");
    *(void **)&fmi3.EnterInitializationMode = need(lib, "fmi3EnterInitializationMode");
    *(void **)&fmi3.ExitInitializationMode = need(lib, "fmi3ExitInitializationMode");
    *(void **)&fmi3.Terminate = need(lib, "fmi3Terminate");
    *(void **)&fmi3.GetFloat64 = need(lib, "fmi3GetFloat64");
    *(void **)&fmi3.SetFloat64 = need(lib, "fmi3SetFloat64");
    *(void **)&fmi3.GetInt32 = need(lib, "fmi3GetInt32");
    *(void **)&fmi3.SetInt32 = need(lib, "fmi3SetInt32");
    *(void **)&fmi3.SetInt64 = need(lib, "fmi3SetInt64");
    *(void **)&fmi3.GetBoolean = need(lib, "fmi3GetBoolean");
    *(void **)&fmi3.SetBoolean = need(lib, "fmi3SetBoolean");
    *(void **)&fmi3.DoStep = need(lib, "fmi3DoStep");
    *(void **)&fmi3.GetFMUState = need(lib, "fmi3GetFMUState");
    *(void **)&fmi3.SetFMUState = need(lib, "fmi3SetFMUState");
    *(void **)&fmi3.FreeFMUState = need(lib, "fmi3FreeFMUState");
    *(void **)&fmi3.SerializedFMUStateSize = need(lib, "fmi3SerializedFMUStateSize");
    *(void **)&fmi3.SerializeFMUState = need(lib, "fmi3SerializeFMUState");
    *(void **)&fmi3.DeserializeFMUState = need(lib, "fmi3DeserializeFMUState");

}

/* One run of the plan: Co-Simulation outputs into trace (steps x n_out),
 * Model Exchange states and derivatives into me (steps x 2 n_x). Uses only
 * its own instances, so several runs may go at once on threads. */
struct run {
    unsigned long long *trace, *me;
};

static void run_plan(struct run *r) {
    fmi2CallbackFunctions callbacks = {logger, calloc, free, NULL, NULL};
    fmi2Component c;
    fmi2FMUstate state = NULL, restored = NULL;
    size_t size = 0;
    fmi2Byte *bytes = NULL;
    unsigned long long *trace, *replay;
    const char *text;
    int k, half;

    SAME_ENV(text = fmi.GetVersion());
    if (strcmp(text, "2.0") != 0) fail("fmi2GetVersion is not 2.0");
    SAME_ENV(text = fmi.GetTypesPlatform());
    if (strcmp(text, "default") != 0) fail("fmi2GetTypesPlatform is not default");
    SAME_ENV(c = fmi.Instantiate("harness", 1 /* fmi2CoSimulation */, guid, "", &callbacks, 0, 0));
    if (!c) fail("fmi2Instantiate returned NULL");
    initialize(c);

    trace = r->trace = calloc((size_t)steps * (size_t)(n_out ? n_out : 1), sizeof *trace);
    replay = calloc((size_t)steps * (size_t)(n_out ? n_out : 1), sizeof *replay);
    half = steps / 2;
    for (k = 0; k < steps; k++) {
        if (k == half) {
            CHECK(fmi.GetFMUstate(c, &state));
            CHECK(fmi.SerializedFMUstateSize(c, state, &size));
            bytes = malloc(size);
            CHECK(fmi.SerializeFMUstate(c, state, bytes, size));
        }
        step(c, k, &trace[k * n_out]);
    }
    /* Back to the middle through the serialized copy, and replay. */
    CHECK(fmi.DeSerializeFMUstate(c, bytes, size, &restored));
    CHECK(fmi.SetFMUstate(c, restored));
    for (k = half; k < steps; k++) step(c, k, &replay[k * n_out]);
    if (memcmp(&trace[half * n_out], &replay[half * n_out], (size_t)(steps - half) * n_out * sizeof *trace) != 0)
        fail("the replay from the restored FMU state differs from the first run");
    CHECK(fmi.FreeFMUstate(c, &restored));
    CHECK(fmi.FreeFMUstate(c, &state));
    free(bytes);
    /* Reset, initialize again, replay the first steps. */
    CHECK(fmi.Reset(c));
    initialize(c);
    for (k = 0; k < 10 && k < steps; k++) step(c, k, &replay[k * n_out]);
    if (memcmp(trace, replay, (size_t)(k * n_out) * sizeof *trace) != 0)
        fail("the run after fmi2Reset differs from the first run");
    CHECK(fmi.Terminate(c));
    SAME_ENV(fmi.FreeInstance(c));
    free(replay);
    run_fmi3(trace);
    r->me = calloc((size_t)steps * (size_t)(2 * n_x + 1), sizeof *r->me);
    if (has_me) model_exchange(r->me, 2 * n_x);
}

#ifndef _WIN32
static void *run_on_thread(void *r) {
    run_plan((struct run *)r);
    return NULL;
}

/* run_plan on a new thread with `stack` bytes of stack (0: the default). */
static pthread_t start_thread(struct run *r, size_t stack) {
    pthread_attr_t attr;
    pthread_t thread;
    pthread_attr_init(&attr);
    if (stack && pthread_attr_setstacksize(&attr, stack) != 0) fail("pthread_attr_setstacksize");
    if (pthread_create(&thread, &attr, run_on_thread, r) != 0) fail("pthread_create");
    pthread_attr_destroy(&attr);
    return thread;
}
#endif

#define THREADS 4

int main(int argc, char **argv) {
    library_t lib;
    struct run r = {NULL, NULL};
    const char *host = argc > 3 ? argv[3] : "default";
    int i, k;

    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: %s <library> <plan> [default|ftz|upward|downward|toward_zero|traps|stack64k|threads]\n",
                argv[0]);
        return 2;
    }
    read_plan(argv[2]);
    /* The host's floating-point environment, from before the library is
     * loaded (as a process built with -ffast-math has it from its start). */
    if (strcmp(host, "ftz") == 0) {
        if (!flush_subnormals()) fail("unsupported: ftz on this processor");
    } else if (strcmp(host, "upward") == 0) {
        if (fesetround(FE_UPWARD) != 0) fail("fesetround(FE_UPWARD)");
    } else if (strcmp(host, "downward") == 0) {
        if (fesetround(FE_DOWNWARD) != 0) fail("fesetround(FE_DOWNWARD)");
    } else if (strcmp(host, "toward_zero") == 0) {
        if (fesetround(FE_TOWARDZERO) != 0) fail("fesetround(FE_TOWARDZERO)");
    } else if (strcmp(host, "traps") == 0) {
#if defined(__GLIBC__)
        if (feenableexcept(FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW) == -1) fail("feenableexcept");
#else
        fail("unsupported: traps need glibc's feenableexcept");
#endif
    } else if (strcmp(host, "default") != 0 && strcmp(host, "stack64k") != 0 && strcmp(host, "threads") != 0) {
        fail("unknown host mode");
    }
    lib = open_library(argv[1]);
    if (!lib) fail("cannot load the library");
    bind_functions(lib);

    if (strcmp(host, "stack64k") == 0 || strcmp(host, "threads") == 0) {
#ifdef _WIN32
        fail("unsupported: thread modes on Windows");
#else
        if (strcmp(host, "stack64k") == 0) {
            pthread_join(start_thread(&r, 64 * 1024), NULL);
        } else {
            struct run others[THREADS - 1];
            pthread_t threads[THREADS - 1];
            size_t trace_bytes = (size_t)steps * (size_t)(n_out ? n_out : 1) * sizeof *r.trace;
            size_t me_bytes = (size_t)steps * (size_t)(2 * n_x + 1) * sizeof *r.me;
            for (i = 0; i < THREADS - 1; i++) threads[i] = start_thread(&others[i], 0);
            run_plan(&r);
            for (i = 0; i < THREADS - 1; i++) {
                pthread_join(threads[i], NULL);
                if (memcmp(r.trace, others[i].trace, trace_bytes) != 0 || memcmp(r.me, others[i].me, me_bytes) != 0)
                    fail("runs on concurrent threads differ");
                free(others[i].trace);
                free(others[i].me);
            }
        }
#endif
    } else {
        run_plan(&r);
    }
    close_library(lib);

    for (k = 0; k < steps; k++) {
        for (i = 0; i < n_out; i++) printf(i ? " %016llx" : "%016llx", r.trace[k * n_out + i]);
        for (i = 0; i < 2 * n_x; i++) printf(" %016llx", r.me[k * 2 * n_x + i]);
        printf("\n");
    }
    printf("OK %u steps, state replay and reset equal, FMI 3.0 equal; %u Model Exchange steps; host %s\n", (unsigned)steps,
           has_me ? (unsigned)steps : 0u, host);
    free(r.trace);
    free(r.me);
    free(inputs);
    return 0;
}
