/* maps.h — the target's memory map, from /proc/PID/maps, re-read only when
 * the target may have changed it (after mmap-family syscalls) or when an
 * address is not found. */
#ifndef X86SMC_MAPS_H
#define X86SMC_MAPS_H
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

enum { MAP_R = 1, MAP_W = 2, MAP_X = 4 };

struct map_region {
	uint64_t lo, hi;
	uint8_t perms;
	bool stack; /* [stack] */
};

struct maps {
	struct map_region *r;
	int n, cap;
	bool stale;
};

int maps_read(struct maps *m, pid_t pid);
/* The region holding addr, re-reading once if stale or not found. */
const struct map_region *maps_find(struct maps *m, pid_t pid, uint64_t addr);
void maps_free(struct maps *m);
#endif
