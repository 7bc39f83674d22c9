// The C++ compiler's version, for the machine description in RESULTS.md.
#include "bench.h"
extern "C" const char *bench_cxx_version(void) {
#if defined(__clang__)
    return "clang++ " __clang_version__;
#elif defined(__GNUC__)
    return "g++ " __VERSION__;
#else
    return "unknown C++ compiler";
#endif
}
