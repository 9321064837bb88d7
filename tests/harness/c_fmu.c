/*
 * A minimal FMI 2.0 Co-Simulation FMU in C, the yardstick of the call-cost
 * bench (`cargo xtask bench`, docs/performance.md): what an FMU of the
 * Modelica Reference-FMUs kind costs per fmi2DoStep + fmi2GetReal, on the
 * same harness as ours. Written for this project.
 *
 * Model: one first-order state x' = (u - x) / T, explicit Euler at a fixed
 * internal step. Bookkeeping as such FMUs do it: an instance struct behind
 * fmi2Component, the call-sequence state as a bit tested against a mask of
 * allowed states per function, NULL checks on every pointer argument, the
 * communication point checked against the FMU's own time, the step split
 * into internal steps, and log messages gated by their category.
 *
 * Value references: 0 time, 1 x (output), 2 u (input), 3 T, 4 internal_step.
 * The GUID is not checked (the bench passes any string).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmi2_types.h"

enum {
    INSTANTIATED = 1 << 0,
    INITIALIZATION_MODE = 1 << 1,
    STEP_COMPLETE = 1 << 2,
    STEP_FAILED = 1 << 3,
    TERMINATED = 1 << 4,
    ERROR_STATE = 1 << 5,
    FATAL_STATE = 1 << 6
};
#define CAN_GET (INITIALIZATION_MODE | STEP_COMPLETE | STEP_FAILED | TERMINATED | ERROR_STATE)
#define CAN_SET (INSTANTIATED | INITIALIZATION_MODE | STEP_COMPLETE)

enum { LOG_EVENTS, LOG_ERROR, N_CATEGORIES };
static const char *CATEGORY[N_CATEGORIES] = {"logEvents", "logStatusError"};

enum { VR_TIME, VR_X, VR_U, VR_T, VR_STEP, N_VR };

typedef struct {
    char *name;
    fmi2CallbackFunctions functions;
    int state;
    int log_on[N_CATEGORIES];
    double time, stop_time;
    int stop_time_defined;
    double x, u, time_constant, internal_step;
    double x_start;
} Instance;

static void log_message(Instance *s, fmi2Status status, int category, const char *format, ...) {
    char text[512];
    va_list args;
    if (!(status == fmi2Error || status == fmi2Fatal || s->log_on[category])) return;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    s->functions.logger(s->functions.componentEnvironment, s->name, status, CATEGORY[category], "%s", text);
}

/* The call-sequence check of every function: the current state must be in `allowed`. */
static int refused(Instance *s, const char *function, int allowed) {
    if (!s) return 1;
    if (s->state & allowed) return 0;
    log_message(s, fmi2Error, LOG_ERROR, "%s: not allowed in state %d", function, s->state);
    return 1;
}

static int null_argument(Instance *s, const char *function, const void *p, const char *what, size_t n) {
    if (n == 0 || p) return 0;
    log_message(s, fmi2Error, LOG_ERROR, "%s: %s is NULL", function, what);
    return 1;
}

EXPORT const char *fmi2GetTypesPlatform(void) { return "default"; }
EXPORT const char *fmi2GetVersion(void) { return "2.0"; }

EXPORT fmi2Component fmi2Instantiate(fmi2String name, int type, fmi2String guid, fmi2String resources,
                                     const fmi2CallbackFunctions *functions, fmi2Boolean visible,
                                     fmi2Boolean logging_on) {
    Instance *s;
    int k;
    (void)resources;
    (void)visible;
    if (!functions || !functions->logger) return NULL;
    if (!name || !*name || type != 1 || !guid) {
        functions->logger(functions->componentEnvironment, name ? name : "?", fmi2Error, "logStatusError",
                          "fmi2Instantiate: bad arguments");
        return NULL;
    }
    s = (Instance *)calloc(1, sizeof *s);
    if (!s) return NULL;
    s->name = (char *)malloc(strlen(name) + 1);
    if (!s->name) {
        free(s);
        return NULL;
    }
    strcpy(s->name, name);
    s->functions = *functions;
    for (k = 0; k < N_CATEGORIES; k++) s->log_on[k] = logging_on;
    s->state = INSTANTIATED;
    s->u = 1.0;
    s->time_constant = 0.5;
    s->internal_step = 1e-3;
    return s;
}

EXPORT void fmi2FreeInstance(fmi2Component c) {
    Instance *s = (Instance *)c;
    if (!s) return;
    free(s->name);
    free(s);
}

EXPORT fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean tolerance_defined, fmi2Real tolerance,
                                      fmi2Real start, fmi2Boolean stop_defined, fmi2Real stop) {
    Instance *s = (Instance *)c;
    (void)tolerance_defined;
    (void)tolerance;
    if (refused(s, "fmi2SetupExperiment", INSTANTIATED)) return fmi2Error;
    s->time = start;
    s->stop_time_defined = stop_defined;
    s->stop_time = stop;
    return fmi2OK;
}

EXPORT fmi2Status fmi2EnterInitializationMode(fmi2Component c) {
    Instance *s = (Instance *)c;
    if (refused(s, "fmi2EnterInitializationMode", INSTANTIATED)) return fmi2Error;
    s->state = INITIALIZATION_MODE;
    return fmi2OK;
}

EXPORT fmi2Status fmi2ExitInitializationMode(fmi2Component c) {
    Instance *s = (Instance *)c;
    if (refused(s, "fmi2ExitInitializationMode", INITIALIZATION_MODE)) return fmi2Error;
    if (!(s->time_constant > 0) || !(s->internal_step > 0)) {
        log_message(s, fmi2Error, LOG_ERROR, "fmi2ExitInitializationMode: T and internal_step must be > 0");
        return fmi2Error;
    }
    s->x = s->x_start;
    s->state = STEP_COMPLETE;
    return fmi2OK;
}

EXPORT fmi2Status fmi2Terminate(fmi2Component c) {
    Instance *s = (Instance *)c;
    if (refused(s, "fmi2Terminate", STEP_COMPLETE | STEP_FAILED)) return fmi2Error;
    s->state = TERMINATED;
    return fmi2OK;
}

EXPORT fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Real value[]) {
    Instance *s = (Instance *)c;
    size_t i;
    if (refused(s, "fmi2SetReal", CAN_SET)) return fmi2Error;
    if (null_argument(s, "fmi2SetReal", vr, "vr", nvr) || null_argument(s, "fmi2SetReal", value, "value", nvr))
        return fmi2Error;
    for (i = 0; i < nvr; i++) {
        switch (vr[i]) {
        case VR_U: s->u = value[i]; break;
        case VR_T:
        case VR_STEP:
            if (s->state != INSTANTIATED && s->state != INITIALIZATION_MODE) {
                log_message(s, fmi2Error, LOG_ERROR, "fmi2SetReal: parameter %u is fixed now", vr[i]);
                return fmi2Error;
            }
            if (vr[i] == VR_T) s->time_constant = value[i];
            else s->internal_step = value[i];
            break;
        default: log_message(s, fmi2Error, LOG_ERROR, "fmi2SetReal: value reference %u cannot be set", vr[i]); return fmi2Error;
        }
    }
    return fmi2OK;
}

EXPORT fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Real value[]) {
    Instance *s = (Instance *)c;
    size_t i;
    if (refused(s, "fmi2GetReal", CAN_GET)) return fmi2Error;
    if (null_argument(s, "fmi2GetReal", vr, "vr", nvr) || null_argument(s, "fmi2GetReal", value, "value", nvr))
        return fmi2Error;
    for (i = 0; i < nvr; i++) {
        switch (vr[i]) {
        case VR_TIME: value[i] = s->time; break;
        case VR_X: value[i] = s->x; break;
        case VR_U: value[i] = s->u; break;
        case VR_T: value[i] = s->time_constant; break;
        case VR_STEP: value[i] = s->internal_step; break;
        default: log_message(s, fmi2Error, LOG_ERROR, "fmi2GetReal: value reference %u does not exist", vr[i]); return fmi2Error;
        }
    }
    return fmi2OK;
}

EXPORT fmi2Status fmi2DoStep(fmi2Component c, fmi2Real t, fmi2Real h, fmi2Boolean no_set_prior) {
    Instance *s = (Instance *)c;
    double end, epsilon;
    (void)no_set_prior;
    if (refused(s, "fmi2DoStep", STEP_COMPLETE)) return fmi2Error;
    if (!(h > 0) || !isfinite(h) || !isfinite(t)) {
        log_message(s, fmi2Error, LOG_ERROR, "fmi2DoStep: communicationStepSize = %g rejected", h);
        return fmi2Error;
    }
    epsilon = 1e-9 * fmax(fabs(s->time), 1.0);
    if (fabs(t - s->time) > epsilon) {
        log_message(s, fmi2Error, LOG_ERROR, "fmi2DoStep: currentCommunicationPoint = %g, expected %g", t, s->time);
        return fmi2Error;
    }
    end = t + h;
    if (s->stop_time_defined && end > s->stop_time + epsilon) {
        log_message(s, fmi2Error, LOG_ERROR, "fmi2DoStep: the step passes stopTime = %g", s->stop_time);
        return fmi2Error;
    }
    /* Fixed internal steps up to the communication point, the last one shortened. */
    while (s->time + epsilon < end) {
        double dt = fmin(s->internal_step, end - s->time);
        double x = s->x + dt * (s->u - s->x) / s->time_constant;
        if ((x > 0) != (s->x > 0)) log_message(s, fmi2OK, LOG_EVENTS, "t = %g s: x changed sign", s->time);
        s->x = x;
        s->time += dt;
    }
    s->time = end;
    if (!isfinite(s->x)) {
        s->state = ERROR_STATE;
        log_message(s, fmi2Error, LOG_ERROR, "fmi2DoStep: x became %g", s->x);
        return fmi2Error;
    }
    return fmi2OK;
}
