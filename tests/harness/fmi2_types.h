/*
 * The FMI 2.0 types and the export macro shared by the two C FMUs of the
 * call-cost bench (c_fmu.c, c_fmu_reference_kind.c), declared here rather
 * than taken from the standard's headers so that the bench needs nothing
 * but a C compiler.
 */
#ifndef CALL_COST_FMI2_H
#define CALL_COST_FMI2_H
#include <stddef.h>

#if defined(_WIN32)
#define EXPORT __declspec(dllexport)
#else
#define EXPORT __attribute__((visibility("default")))
#endif

typedef void *fmi2Component;
typedef unsigned int fmi2ValueReference;
typedef double fmi2Real;
typedef int fmi2Boolean;
typedef const char *fmi2String;
typedef enum { fmi2OK, fmi2Warning, fmi2Discard, fmi2Error, fmi2Fatal, fmi2Pending } fmi2Status;
typedef struct {
    void (*logger)(void *, fmi2String, fmi2Status, fmi2String, fmi2String, ...);
    void *(*allocateMemory)(size_t, size_t);
    void (*freeMemory)(void *);
    void (*stepFinished)(void *, fmi2Status);
    void *componentEnvironment;
} fmi2CallbackFunctions;

#endif
