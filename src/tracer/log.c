#include "tracer/log.h"
int log_verbose;
