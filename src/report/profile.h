/* profile.h — --profile's table and JSON object (tracer/prof.h). */
#ifndef X86SMC_REPORT_PROFILE_H
#define X86SMC_REPORT_PROFILE_H
#include <stdio.h>

#include "report/results.h"

/* The table, after the report: the parts, per execution, and the floor
 * (stops x the measured cost of one stop + one fork per execution). */
void profile_print(FILE *f, const struct results *r);
/* "profile": {...}, for the JSON summary (a line ending in ",\n"). */
void profile_json(FILE *f);
#endif
