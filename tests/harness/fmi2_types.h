/*
 * The FMI 2.0 types (fmi2TypesPlatform.h, "default" platform, and the
 * callback struct of fmi2FunctionTypes.h) and an export macro, shared by the
 * C files of tests/harness: the platform harness (fmu_harness.c), the
 * call-cost harness (call_cost.c) and its two C FMUs (c_fmu.c,
 * c_fmu_reference_kind.c). Declared here rather than taken from the
 * standard's headers so that these build with nothing but a C compiler, for
 * every platform the FMUs ship.
 */
#ifndef FMI2_TYPES_H
#define FMI2_TYPES_H
#include <stddef.h>

#if defined(_WIN32)
#define EXPORT __declspec(dllexport)
#else
#define EXPORT __attribute__((visibility("default")))
#endif

typedef void *fmi2Component;
typedef void *fmi2FMUstate;
typedef unsigned int fmi2ValueReference;
typedef double fmi2Real;
typedef int fmi2Integer;
typedef int fmi2Boolean;
typedef char fmi2Char;
typedef const fmi2Char *fmi2String;
typedef char fmi2Byte;
typedef enum { fmi2OK, fmi2Warning, fmi2Discard, fmi2Error, fmi2Fatal, fmi2Pending } fmi2Status;
typedef struct {
    void (*logger)(void *, fmi2String, fmi2Status, fmi2String, fmi2String, ...);
    void *(*allocateMemory)(size_t, size_t);
    void (*freeMemory)(void *);
    void (*stepFinished)(void *, fmi2Status);
    void *componentEnvironment;
} fmi2CallbackFunctions;
typedef struct {
    fmi2Boolean newDiscreteStatesNeeded;
    fmi2Boolean terminateSimulation;
    fmi2Boolean nominalsOfContinuousStatesChanged;
    fmi2Boolean valuesOfContinuousStatesChanged;
    fmi2Boolean nextEventTimeDefined;
    fmi2Real nextEventTime;
} fmi2EventInfo;

#endif
