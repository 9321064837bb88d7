/*
 * The second yardstick of the call-cost bench (`cargo xtask bench`,
 * docs/performance.md): a one-state FMU whose bookkeeping follows the way the
 * Modelica Reference-FMUs framework (src/fmi2Functions.c, src/cosimulation.c
 * and a model unit such as Dahlquist/model.c) does it per call. Written for
 * this project; the structure is what we learned from reading that
 * framework, the code is our own.
 *
 * What it does per fmi2DoStep, as that framework does:
 *   - the call-sequence check (state bit against the function's mask),
 *   - currentCommunicationPoint compared with the FMU's time by a relative
 *     and absolute closeness test, communicationStepSize > 0, the end of the
 *     step against stopTime (with the same closeness test),
 *   - a loop of fixed internal steps (its end test, see fmi2DoStep); each step reads the continuous states
 *     into an array, evaluates the derivatives (through calculateValues),
 *     takes the explicit Euler step over the array, writes the states back
 *     (marking the values dirty), advances time as startTime + nSteps * step,
 *     evaluates the event indicators and compares them with the previous
 *     ones for a zero crossing, tests for a time event, and would call the
 *     intermediate-update callback if there were one (never in FMI 2);
 *     an event runs the model's event update.
 * Per fmi2GetReal: the state check, NULL checks on vr and value, the values
 * recomputed by calculateValues when they are dirty, then per value reference
 * a call of the model's getFloat64 (a switch) that checks the room left in the
 * output array.
 *
 * The model unit's functions (marked MODEL_UNIT) are separate translation
 * units in that framework, built without link-time optimization, so each is
 * a real call: noinline says the same here.
 *
 * Model (same as c_fmu.c): x' = (u - x) / T, explicit Euler at a fixed
 * internal step; event indicator x (a sign change is logged as an event).
 *
 * Model Exchange (the yardstick of the Model Exchange evaluation-cost bench,
 * tests/benches/model_exchange_cost.rs), as that framework's
 * fmi2Functions.c does per call: fmi2SetTime (state mask, store),
 * fmi2SetContinuousStates, fmi2GetDerivatives, fmi2GetEventIndicators (state
 * mask, the array length against the model's count, NULL check, then the
 * model unit's function; values marked dirty after new states), and the mode
 * changes of the Model Exchange call sequence.
 * Value references: 0 time, 1 x (output), 2 u (input), 3 T, 4 internal_step,
 * 5 der(x). The GUID is not checked (the bench passes any string).
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmi2_types.h"

#define MODEL_UNIT __attribute__((noinline))

typedef enum { OK, Warning, Discard, Error, Fatal } Status;

enum {
    Instantiated = 1 << 0,
    InitializationMode = 1 << 1,
    StepComplete = 1 << 2,
    StepFailed = 1 << 3,
    Terminated = 1 << 4,
    ModelError = 1 << 5,
    EventMode = 1 << 6,
    ContinuousTimeMode = 1 << 7
};
#define MASK_DoStep StepComplete
#define MASK_GetReal (InitializationMode | StepComplete | StepFailed | Terminated | ModelError)
#define MASK_SetReal (Instantiated | InitializationMode | StepComplete | EventMode | ContinuousTimeMode)
/* Model Exchange, as that framework masks them. */
#define MASK_SetTime (EventMode | ContinuousTimeMode)
#define MASK_SetContinuousStates ContinuousTimeMode
#define MASK_GetModelExchange (InitializationMode | EventMode | ContinuousTimeMode | Terminated | ModelError)

enum { vr_time, vr_x, vr_u, vr_T, vr_step, vr_der_x };

typedef struct {
    double x, der_x, u, T, internal_step;
} ModelData;

typedef struct {
    const char *instanceName;
    fmi2CallbackFunctions functions;
    void (*intermediateUpdate)(void *, double);
    int state;
    bool logEvents, logErrors;
    double startTime, stopTime, time;
    bool stopTimeDefined;
    unsigned long long nSteps;
    bool isDirtyValues;
    bool nextEventTimeDefined, terminateSimulation;
    double nextEventTime;
    size_t nx, nz;
    double *x, *dx, *z, *prez;
    int type; /* 0 Model Exchange, 1 Co-Simulation */
    ModelData modelData;
} ModelInstance;

#define M(v) (comp->modelData.v)

static void logMessage(ModelInstance *comp, fmi2Status status, const char *category, const char *format, va_list args) {
    char text[512];
    vsnprintf(text, sizeof text, format, args);
    comp->functions.logger(comp->functions.componentEnvironment, comp->instanceName, status, category, "%s", text);
}

static void logEvent(ModelInstance *comp, const char *format, ...) {
    va_list args;
    if (!comp || !comp->logEvents) return;
    va_start(args, format);
    logMessage(comp, fmi2OK, "logEvents", format, args);
    va_end(args);
}

static void logError(ModelInstance *comp, const char *format, ...) {
    va_list args;
    if (!comp || !comp->logErrors) return;
    va_start(args, format);
    logMessage(comp, fmi2Error, "logStatusError", format, args);
    va_end(args);
}

static bool invalidState(ModelInstance *comp, const char *f, int expected) {
    if (!comp) return true;
    if (comp->state & expected) return false;
    logError(comp, "%s: Illegal call sequence.", f);
    return true;
}

static bool nullPointer(ModelInstance *comp, const char *f, const char *arg, const void *p) {
    if (p) return false;
    logError(comp, "%s: Invalid argument %s = NULL.", f, arg);
    return true;
}

/* Closeness as that framework tests it: absolute, then relative. */
#define CLOSE 1.0e-5
static bool isClose(double a, double b) {
    if (!isfinite(a) || !isfinite(b)) return false;
    if (fabs(a - b) <= CLOSE) return true;
    return fabs(a - b) <= CLOSE * fmax(fabs(a), fabs(b));
}

/* ---- the model unit ---- */

MODEL_UNIT static void setStartValues(ModelInstance *comp) {
    M(x) = 0;
    M(u) = 1;
    M(T) = 0.5;
    M(internal_step) = 1e-3;
}

MODEL_UNIT static void calculateValues(ModelInstance *comp) { M(der_x) = (M(u) - M(x)) / M(T); }

MODEL_UNIT static Status getFloat64(ModelInstance *comp, fmi2ValueReference vr, double values[], size_t nValues,
                                    size_t *index) {
    if (*index + 1 > nValues) {
        logError(comp, "Expected nValues > %zu but was %zu.", *index, nValues);
        return Error;
    }
    switch (vr) {
    case vr_time: values[(*index)++] = comp->time; return OK;
    case vr_x: values[(*index)++] = M(x); return OK;
    case vr_u: values[(*index)++] = M(u); return OK;
    case vr_T: values[(*index)++] = M(T); return OK;
    case vr_step: values[(*index)++] = M(internal_step); return OK;
    case vr_der_x: values[(*index)++] = M(der_x); return OK;
    default: logError(comp, "Get Float64 is not allowed for value reference %u.", vr); return Error;
    }
}

MODEL_UNIT static Status setFloat64(ModelInstance *comp, fmi2ValueReference vr, const double values[], size_t nValues,
                                    size_t *index) {
    if (*index + 1 > nValues) {
        logError(comp, "Expected nValues > %zu but was %zu.", *index, nValues);
        return Error;
    }
    switch (vr) {
    case vr_u: M(u) = values[(*index)++]; return OK;
    case vr_T:
    case vr_step:
        if (comp->state != Instantiated && comp->state != InitializationMode) {
            logError(comp, "Variable %u can only be set after instantiation or in initialization mode.", vr);
            return Error;
        }
        if (vr == vr_T) M(T) = values[(*index)++];
        else M(internal_step) = values[(*index)++];
        return OK;
    default: logError(comp, "Set Float64 is not allowed for value reference %u.", vr); return Error;
    }
}

MODEL_UNIT static void getContinuousStates(ModelInstance *comp, double x[], size_t nx) {
    (void)nx;
    x[0] = M(x);
}

MODEL_UNIT static void setContinuousStates(ModelInstance *comp, const double x[], size_t nx) {
    (void)nx;
    M(x) = x[0];
}

MODEL_UNIT static void getDerivatives(ModelInstance *comp, double dx[], size_t nx) {
    (void)nx;
    calculateValues(comp);
    dx[0] = M(der_x);
}

MODEL_UNIT static void getEventIndicators(ModelInstance *comp, double z[], size_t nz) {
    (void)nz;
    z[0] = M(x);
}

MODEL_UNIT static void eventUpdate(ModelInstance *comp) {
    logEvent(comp, "t = %g s: x changed sign", comp->time);
    comp->nextEventTimeDefined = false;
    comp->terminateSimulation = false;
}

/* ---- the framework ---- */

static void doFixedStep(ModelInstance *comp, bool *stateEvent, bool *timeEvent) {
    size_t i;
    double h = M(internal_step);
    if (comp->nx > 0) {
        getContinuousStates(comp, comp->x, comp->nx);
        getDerivatives(comp, comp->dx, comp->nx);
        for (i = 0; i < comp->nx; i++) comp->x[i] += h * comp->dx[i];
        setContinuousStates(comp, comp->x, comp->nx);
        comp->isDirtyValues = true;
    }
    comp->nSteps++;
    comp->time = comp->startTime + comp->nSteps * h;
    *stateEvent = false;
    if (comp->nz > 0) {
        double *swap;
        getEventIndicators(comp, comp->z, comp->nz);
        for (i = 0; i < comp->nz; i++)
            *stateEvent |= (comp->prez[i] <= 0 && comp->z[i] > 0) || (comp->prez[i] > 0 && comp->z[i] <= 0);
        swap = comp->prez;
        comp->prez = comp->z;
        comp->z = swap;
    }
    *timeEvent = comp->nextEventTimeDefined && comp->time >= comp->nextEventTime;
    if (comp->intermediateUpdate) comp->intermediateUpdate(comp->functions.componentEnvironment, comp->time);
}

EXPORT const char *fmi2GetTypesPlatform(void) { return "default"; }
EXPORT const char *fmi2GetVersion(void) { return "2.0"; }

EXPORT fmi2Component fmi2Instantiate(fmi2String name, int type, fmi2String guid, fmi2String resources,
                                     const fmi2CallbackFunctions *functions, fmi2Boolean visible,
                                     fmi2Boolean logging_on) {
    ModelInstance *comp;
    (void)resources;
    (void)visible;
    if (!functions || !functions->logger) return NULL;
    if (!name || !*name || (type != 0 && type != 1) || !guid || !*guid) {
        functions->logger(functions->componentEnvironment, name ? name : "?", fmi2Error, "logStatusError",
                          "fmi2Instantiate: bad arguments");
        return NULL;
    }
    comp = (ModelInstance *)calloc(1, sizeof *comp);
    if (!comp) return NULL;
    comp->instanceName = strdup(name);
    comp->nx = 1;
    comp->nz = 1;
    comp->x = (double *)calloc(comp->nx, sizeof(double));
    comp->dx = (double *)calloc(comp->nx, sizeof(double));
    comp->z = (double *)calloc(comp->nz, sizeof(double));
    comp->prez = (double *)calloc(comp->nz, sizeof(double));
    if (!comp->instanceName || !comp->x || !comp->dx || !comp->z || !comp->prez) return NULL;
    comp->functions = *functions;
    comp->logEvents = logging_on;
    comp->logErrors = true;
    comp->state = Instantiated;
    comp->type = type;
    setStartValues(comp);
    comp->isDirtyValues = true;
    return comp;
}

EXPORT void fmi2FreeInstance(fmi2Component c) {
    ModelInstance *comp = (ModelInstance *)c;
    if (!comp) return;
    free((void *)comp->instanceName);
    free(comp->x);
    free(comp->dx);
    free(comp->z);
    free(comp->prez);
    free(comp);
}

EXPORT fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean tolerance_defined, fmi2Real tolerance,
                                      fmi2Real start, fmi2Boolean stop_defined, fmi2Real stop) {
    ModelInstance *comp = (ModelInstance *)c;
    (void)tolerance_defined;
    (void)tolerance;
    if (invalidState(comp, "fmi2SetupExperiment", Instantiated)) return fmi2Error;
    comp->startTime = start;
    comp->time = start;
    comp->stopTimeDefined = stop_defined;
    comp->stopTime = stop_defined ? stop : INFINITY;
    return fmi2OK;
}

EXPORT fmi2Status fmi2EnterInitializationMode(fmi2Component c) {
    ModelInstance *comp = (ModelInstance *)c;
    if (invalidState(comp, "fmi2EnterInitializationMode", Instantiated)) return fmi2Error;
    comp->state = InitializationMode;
    return fmi2OK;
}

EXPORT fmi2Status fmi2ExitInitializationMode(fmi2Component c) {
    ModelInstance *comp = (ModelInstance *)c;
    if (invalidState(comp, "fmi2ExitInitializationMode", InitializationMode)) return fmi2Error;
    if (!(M(T) > 0) || !(M(internal_step) > 0)) {
        logError(comp, "fmi2ExitInitializationMode: T and internal_step must be > 0");
        return fmi2Error;
    }
    getEventIndicators(comp, comp->prez, comp->nz);
    comp->state = comp->type == 0 ? EventMode : StepComplete;
    return fmi2OK;
}

EXPORT fmi2Status fmi2Terminate(fmi2Component c) {
    ModelInstance *comp = (ModelInstance *)c;
    if (invalidState(comp, "fmi2Terminate", StepComplete | StepFailed)) return fmi2Error;
    comp->state = Terminated;
    return fmi2OK;
}

EXPORT fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Real value[]) {
    ModelInstance *comp = (ModelInstance *)c;
    size_t i, index = 0;
    if (invalidState(comp, "fmi2SetReal", MASK_SetReal)) return fmi2Error;
    if (nvr > 0 && nullPointer(comp, "fmi2SetReal", "vr[]", vr)) return fmi2Error;
    if (nvr > 0 && nullPointer(comp, "fmi2SetReal", "value[]", value)) return fmi2Error;
    for (i = 0; i < nvr; i++)
        if (setFloat64(comp, vr[i], value, nvr, &index) > Warning) return fmi2Error;
    if (nvr > 0) comp->isDirtyValues = true;
    return fmi2OK;
}

EXPORT fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Real value[]) {
    ModelInstance *comp = (ModelInstance *)c;
    size_t i, index = 0;
    Status status = OK;
    if (invalidState(comp, "fmi2GetReal", MASK_GetReal)) return fmi2Error;
    if (nvr > 0 && nullPointer(comp, "fmi2GetReal", "vr[]", vr)) return fmi2Error;
    if (nvr > 0 && nullPointer(comp, "fmi2GetReal", "value[]", value)) return fmi2Error;
    if (nvr > 0 && comp->isDirtyValues) {
        calculateValues(comp);
        comp->isDirtyValues = false;
    }
    for (i = 0; i < nvr; i++) {
        Status s = getFloat64(comp, vr[i], value, nvr, &index);
        if (s > status) status = s;
        if (status > Warning) break;
    }
    return (fmi2Status)status;
}

EXPORT fmi2Status fmi2DoStep(fmi2Component c, fmi2Real t, fmi2Real h, fmi2Boolean no_set_prior) {
    ModelInstance *comp = (ModelInstance *)c;
    double next;
    (void)no_set_prior;
    if (invalidState(comp, "fmi2DoStep", MASK_DoStep)) return fmi2Error;
    if (!isClose(t, comp->time)) {
        logError(comp, "Expected currentCommunicationPoint = %.16g but was %.16g.", comp->time, t);
        comp->state = ModelError;
        return fmi2Error;
    }
    if (!(h > 0)) {
        logError(comp, "Communication step size must be > 0 but was %g.", h);
        comp->state = ModelError;
        return fmi2Error;
    }
    next = t + h;
    if (next > comp->stopTime && !isClose(next, comp->stopTime)) {
        logError(comp, "At communication point %.16g a step size of %.16g was requested but stop time is %.16g.", t, h,
                 comp->stopTime);
        return fmi2Error;
    }
    for (;;) {
        bool stateEvent, timeEvent;
        /* The framework ends the loop when the next internal step would
         * pass the end and is not isClose to it; isClose's relative 1e-5
         * would, past t = 100 s with a 1 ms step, let one extra step through
         * per call (the bench runs thousands of seconds), so the end is
         * tested against half an internal step: one step per call, as for
         * every FMU of the bench, and the same compare-and-branch. */
        double after = comp->time + M(internal_step);
        if (after > next + 0.5 * M(internal_step)) break;
        doFixedStep(comp, &stateEvent, &timeEvent);
        if (stateEvent || timeEvent) eventUpdate(comp);
        if (comp->terminateSimulation) {
            comp->state = Terminated;
            return fmi2Discard;
        }
    }
    return fmi2OK;
}

/* ---- Model Exchange ---- */

static bool invalidNumber(ModelInstance *comp, const char *f, const char *arg, size_t actual, size_t expected) {
    if (actual == expected) return false;
    logError(comp, "%s: Invalid argument %s = %zu. Expected %zu.", f, arg, actual, expected);
    return true;
}

EXPORT fmi2Status fmi2EnterEventMode(fmi2Component c) {
    ModelInstance *comp = (ModelInstance *)c;
    if (invalidState(comp, "fmi2EnterEventMode", ContinuousTimeMode)) return fmi2Error;
    comp->state = EventMode;
    return fmi2OK;
}

EXPORT fmi2Status fmi2NewDiscreteStates(fmi2Component c, fmi2EventInfo *info) {
    ModelInstance *comp = (ModelInstance *)c;
    if (invalidState(comp, "fmi2NewDiscreteStates", EventMode)) return fmi2Error;
    if (nullPointer(comp, "fmi2NewDiscreteStates", "eventInfo", info)) return fmi2Error;
    eventUpdate(comp);
    info->newDiscreteStatesNeeded = 0;
    info->terminateSimulation = comp->terminateSimulation;
    info->nominalsOfContinuousStatesChanged = 0;
    info->valuesOfContinuousStatesChanged = 0;
    info->nextEventTimeDefined = comp->nextEventTimeDefined;
    info->nextEventTime = comp->nextEventTime;
    return fmi2OK;
}

EXPORT fmi2Status fmi2EnterContinuousTimeMode(fmi2Component c) {
    ModelInstance *comp = (ModelInstance *)c;
    if (invalidState(comp, "fmi2EnterContinuousTimeMode", EventMode)) return fmi2Error;
    comp->state = ContinuousTimeMode;
    return fmi2OK;
}

EXPORT fmi2Status fmi2CompletedIntegratorStep(fmi2Component c, fmi2Boolean no_set_prior, fmi2Boolean *enter_event_mode,
                                              fmi2Boolean *terminate) {
    ModelInstance *comp = (ModelInstance *)c;
    (void)no_set_prior;
    if (invalidState(comp, "fmi2CompletedIntegratorStep", ContinuousTimeMode)) return fmi2Error;
    if (nullPointer(comp, "fmi2CompletedIntegratorStep", "enterEventMode", enter_event_mode)) return fmi2Error;
    if (nullPointer(comp, "fmi2CompletedIntegratorStep", "terminateSimulation", terminate)) return fmi2Error;
    *enter_event_mode = 0;
    *terminate = 0;
    return fmi2OK;
}

EXPORT fmi2Status fmi2SetTime(fmi2Component c, fmi2Real time) {
    ModelInstance *comp = (ModelInstance *)c;
    if (invalidState(comp, "fmi2SetTime", MASK_SetTime)) return fmi2Error;
    comp->time = time;
    return fmi2OK;
}

EXPORT fmi2Status fmi2SetContinuousStates(fmi2Component c, const fmi2Real x[], size_t nx) {
    ModelInstance *comp = (ModelInstance *)c;
    if (invalidState(comp, "fmi2SetContinuousStates", MASK_SetContinuousStates)) return fmi2Error;
    if (invalidNumber(comp, "fmi2SetContinuousStates", "nx", nx, comp->nx)) return fmi2Error;
    if (nullPointer(comp, "fmi2SetContinuousStates", "x[]", x)) return fmi2Error;
    setContinuousStates(comp, x, nx);
    comp->isDirtyValues = true;
    return fmi2OK;
}

EXPORT fmi2Status fmi2GetContinuousStates(fmi2Component c, fmi2Real x[], size_t nx) {
    ModelInstance *comp = (ModelInstance *)c;
    if (invalidState(comp, "fmi2GetContinuousStates", MASK_GetModelExchange)) return fmi2Error;
    if (invalidNumber(comp, "fmi2GetContinuousStates", "nx", nx, comp->nx)) return fmi2Error;
    if (nullPointer(comp, "fmi2GetContinuousStates", "x[]", x)) return fmi2Error;
    getContinuousStates(comp, x, nx);
    return fmi2OK;
}

EXPORT fmi2Status fmi2GetDerivatives(fmi2Component c, fmi2Real dx[], size_t nx) {
    ModelInstance *comp = (ModelInstance *)c;
    if (invalidState(comp, "fmi2GetDerivatives", MASK_GetModelExchange)) return fmi2Error;
    if (invalidNumber(comp, "fmi2GetDerivatives", "nx", nx, comp->nx)) return fmi2Error;
    if (nullPointer(comp, "fmi2GetDerivatives", "derivatives[]", dx)) return fmi2Error;
    getDerivatives(comp, dx, nx);
    return fmi2OK;
}

EXPORT fmi2Status fmi2GetEventIndicators(fmi2Component c, fmi2Real z[], size_t nz) {
    ModelInstance *comp = (ModelInstance *)c;
    if (invalidState(comp, "fmi2GetEventIndicators", MASK_GetModelExchange)) return fmi2Error;
    if (invalidNumber(comp, "fmi2GetEventIndicators", "ni", nz, comp->nz)) return fmi2Error;
    if (nullPointer(comp, "fmi2GetEventIndicators", "eventIndicators[]", z)) return fmi2Error;
    getEventIndicators(comp, z, nz);
    return fmi2OK;
}
